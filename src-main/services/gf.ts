import type { Handlers } from './context'

/** Handlers of the `gf:*` channels of src-shared/api/gf.ts. */
export const gfHandlers: Handlers = {}
