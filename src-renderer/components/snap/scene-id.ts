/**
 * The catalog id of the stage scene a Snap stage view shows for an asset, without a catalog call:
 * a stage, room or track builds its stage's scene from its own locator (`locator.stage`); a room
 * group and the skybox are listed directly under their stage (detector.ts gives them the stage's
 * key as parent), so their parent id is the stage's id.
 */
import type { AssetRow } from '@shared/api'

export function stageSceneId(a: AssetRow): number {
  return (a.kind === 'snap-room-group' || a.kind === 'snap-skybox') && a.parent !== null ? a.parent : a.id
}
