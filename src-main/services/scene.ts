import type { Handlers } from './context'
import { buildAssetScene } from './scene-builders'

/** Handlers of the `scene:*` channels of src-shared/api/scene.ts. */
export const sceneHandlers: Handlers = {
  'scene:open': async (req, ctx) => {
    const id = req.id === 'demo' ? 'demo' : Number(req.id)
    return (await buildAssetScene(ctx.catalog, id)).scene
  },
}
