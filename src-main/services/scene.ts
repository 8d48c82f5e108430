import type { Handlers } from '../plugin/context'
import { buildAssetScene } from './scene-builders'
import { exportSceneGlb } from './scene-export'

/** Handlers of the `scene:*` channels of src-shared/api/scene.ts. */
export const sceneHandlers: Handlers = {
  'scene:open': async (req, ctx) => {
    const id = req.id === 'demo' ? 'demo' : Number(req.id)
    return (await buildAssetScene(ctx.catalog, id)).scene
  },
  'scene:export': async (req, ctx) => {
    const id = req.id === 'demo' ? 'demo' : Number(req.id)
    if (typeof req.out !== 'string' || !req.out) throw new Error('scene:export needs `out`, the .glb file to write')
    const out = ctx.allowPath(req.out, 'write', { overwrite: req.overwrite === true })
    const jobId = req.jobId ?? ''
    const summary = await exportSceneGlb(ctx.catalog, id, out, {
      overwrite: req.overwrite === true,
      protect: [ctx.catalog.path],
      onProgress: (stage, fraction) => ctx.emit('scene:progress', { jobId, stage, fraction }),
    })
    // The user chose this file: later reads of it (open, reveal) are allowed.
    ctx.grantPath(summary.out)
    return summary
  },
}
