/** Scene builder for Stadium catalog assets (`stadium-model` / `stadium-animation`). */
import type { AssetRow, SourceRow } from '../../../src-shared/api/catalog'
import type { Scene } from '../../../src-shared/scene/types'
import { loadModel } from '../../../src-shared/formats/stadium/model'
import { buildStadiumScene } from '../../../src-shared/formats/stadium/scene'
import type { SceneBuildContext } from '../../plugin/scene-builder'
import { fileOf, romOf } from './rom-cache'
import { openStadiumBytes } from './rom-file'

/** Scene builder for catalog assets of kind stadium-model / stadium-animation. */
export async function buildStadiumAssetScene(asset: AssetRow, source: SourceRow, ctx: SceneBuildContext): Promise<Scene> {
  const sr = await romOf(source, async () => openStadiumBytes(await ctx.readSource(source), source.path))
  const scene = buildStadiumScene(loadModel(sr, fileOf(asset)))
  if (typeof asset.locator.animation === 'number') scene.extras = { ...scene.extras, selectedAnimation: asset.locator.animation }
  return scene
}

