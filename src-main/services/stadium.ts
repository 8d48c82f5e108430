import type { Handlers } from './context'

/** Handlers of the `stadium:*` channels of src-shared/api/stadium.ts. */
export const stadiumHandlers: Handlers = {}
