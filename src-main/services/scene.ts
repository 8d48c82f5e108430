import type { Handlers } from './context'

/** Handlers of the `scene:*` channels of src-shared/api/scene.ts. */
export const sceneHandlers: Handlers = {}
