import type { Handlers } from './context'

/** Handlers of the `re:*` channels of src-shared/api/re.ts. */
export const reHandlers: Handlers = {}
