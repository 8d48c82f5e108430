/**
 * Scene builder for the catalog's `gf-model` and `gf-motion` assets (SceneBuilder shape of
 * services/scene-builders.ts): the whole set as one skinned scene (buildGfScene), in the asset's
 * LOD; a motion asset opens the high-poly model with that motion's clip selected. Motions that
 * cannot be read are listed broken in `scene.extras.gf.motions` while the model still opens.
 */
import * as path from 'node:path'
import type { AssetRow, SourceRow } from '../../../src-shared/api/catalog'
import type { Scene } from '../../../src-shared/scene/types'
import { buildGfScene, type GfSceneOptions } from '../../../src-shared/formats/gf/scene'
import { loadSet } from './set-folder'
import type { SceneBuildContext } from '../../plugin/scene-builder'

export async function buildGfAssetScene(asset: AssetRow, source: SourceRow, ctx: SceneBuildContext, opts: Pick<GfSceneOptions, 'textureOverride'> = {}): Promise<Scene> {
  const set = await loadSet(source.path, { lenient: true })
  ctx.signal?.throwIfAborted()
  const entry = Number(asset.locator.entry)
  const lod = asset.kind === 'gf-model' && entry !== 0 ? 'low' : 'high'
  const r = buildGfScene(set, { lod, name: path.basename(source.path), ...opts })
  if (asset.kind === 'gf-motion') {
    const m = r.motions.find((x) => x.file === asset.locator.file && x.entry === entry)
    if (m?.animation !== undefined) r.scene.extras = { ...r.scene.extras, selectedAnimation: m.animation }
  }
  r.scene.extras = { ...r.scene.extras, warnings: r.warnings.slice(0, 50) }
  return r.scene
}
