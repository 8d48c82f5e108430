/** Scene builder for Snap catalog assets (`snap-stage`, `snap-room`, `snap-track`): the whole stage. */
import type { Scene } from '../../../src-shared/scene/types'
import type { AssetRow, SourceRow } from '../../../src-shared/api/catalog'
import type { SceneBuildContext } from '../../services/scene-builders'
import { unpackN64Bytes } from '../n64/rom-file'
import { openSnapRom } from './rom-file'
import { requireStage, stageScene } from './stages'

export async function buildSnapAssetScene(asset: AssetRow, source: SourceRow, ctx: SceneBuildContext): Promise<Scene> {
  const rom = openSnapRom(unpackN64Bytes(await ctx.readSource(source), source.path), source.path)
  return stageScene(rom, requireStage(String(asset.locator.stage ?? ''))).scene
}
