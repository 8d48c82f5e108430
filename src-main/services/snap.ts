import type { Handlers } from './context'

/** Handlers of the `snap:*` channels of src-shared/api/snap.ts. */
export const snapHandlers: Handlers = {}
