/** Scene builder for Snap catalog assets (`snap-stage`, `snap-room`, `snap-track`): the whole stage with its actors. */
import type { Scene } from '../../../src-shared/scene/types'
import type { AssetRow, SourceRow } from '../../../src-shared/api/catalog'
import type { SceneBuildContext } from '../../plugin/scene-builder'
import { unpackN64Bytes } from '../n64/rom-file'
import { openSnapRom } from './rom-file'
import { requireStage, stageScene } from './stages'
import { addStageActors } from './actor-service'

export async function buildSnapAssetScene(asset: AssetRow, source: SourceRow, ctx: SceneBuildContext): Promise<Scene> {
  const rom = openSnapRom(unpackN64Bytes(await ctx.readSource(source), source.path), source.path)
  const stage = requireStage(String(asset.locator.stage ?? ''))
  const { scene } = stageScene(rom, stage)
  // the actors at their spawns and the Zero-One on the rail; one `stage animation` clip first
  // (material animation + every actor's first animation), which the stage view plays
  addStageActors(scene, rom, stage, { stageClip: true })
  return scene
}
