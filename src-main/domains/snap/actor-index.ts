/**
 * Catalog entries for a stage's actors (issue 12 item 5): an `Actors (N)` group under the stage
 * and one `snap-actor` per actor, tagged with its species name so `modbench find pikachu` finds
 * it. Cheap: the def table, the init scans and the headers only (no display lists). An actor
 * whose data does not resolve is listed with its error; an actor with an HD photo model gets a
 * second entry for it. The scene builder for `snap-actor` assets is `buildSnapActorAssetScene`.
 */
import { hex } from '../../../src-shared/binary'
import type { AssetRow, SourceRow } from '../../../src-shared/api/catalog'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'
import { findStageActors } from '../../../src-shared/formats/snap/actors'
import type { Stage } from '../../../src-shared/formats/snap/stage'
import type { Scene } from '../../../src-shared/scene/types'
import type { AssetDraft } from '../../plugin/detector'
import type { SceneBuildContext } from '../../plugin/scene-builder'
import { unpackN64Bytes } from '../n64/rom-file'
import { openSnapRom } from './rom-file'
import { requireStage } from './stages'
import { actorScene } from './actor-service'

export function enumerateStageActors(rom: N64Rom, st: Stage, stageKey: string): AssetDraft[] {
  const out: AssetDraft[] = []
  const info = st.info
  let sa: ReturnType<typeof findStageActors>
  try {
    sa = findStageActors(st, rom.image)
  } catch (e) {
    return [{ key: `${stageKey}:actors`, parentKey: stageKey, kind: 'snap-actors', name: 'Actors (error)', locator: { stage: info.name }, metadata: { error: (e as Error).message } }]
  }
  const groupKey = `${stageKey}:actors`
  out.push({ key: groupKey, parentKey: stageKey, kind: 'snap-actors', name: `Actors (${sa.actors.length})`, locator: { stage: info.name }, metadata: { count: sa.actors.length, warnings: sa.warnings.slice(0, 10) } })
  for (const a of sa.actors) {
    out.push({
      key: `${groupKey}:${a.id}`, parentKey: groupKey, kind: 'snap-actor',
      name: a.id > 0 && a.id <= 151 ? `${a.name} (#${a.id})` : a.name,
      locator: { stage: info.name, actor: a.id },
      metadata: {
        id: a.id, archive: a.archive, spawns: a.spawns, spawnType: a.spawnType, hd: a.hd !== undefined,
        initData: a.initData ? hex(a.initData.addr) : null, renderFunc: a.model ? hex(a.model.renderFunc) : null,
        animations: a.animations.map(hex), ...(a.error ? { error: a.error } : {}),
      },
      tags: ['snap', 'actor', info.name, a.name.toLowerCase(), String(a.id), a.archive, ...(a.error ? ['error'] : [])],
    })
    // the HD photo model as a sibling entry (the viewer opens it like the actor; same animations)
    if (a.hd && !a.error) {
      out.push({
        key: `${groupKey}:${a.id}:hd`, parentKey: groupKey, kind: 'snap-actor',
        name: `${a.id > 0 && a.id <= 151 ? `${a.name} (#${a.id})` : a.name} HD photo model`,
        locator: { stage: info.name, actor: a.id, hd: true },
        metadata: { id: a.id, archive: a.archive, hd: true, tree: hex(a.hd.tree), renderFunc: hex(a.hd.renderFunc), animations: a.animations.map(hex) },
        tags: ['snap', 'actor', 'hd', 'photo', info.name, a.name.toLowerCase(), String(a.id)],
      })
    }
  }
  return out
}

/** Scene builder for `snap-actor` catalog assets. */
export async function buildSnapActorAssetScene(asset: AssetRow, source: SourceRow, ctx: SceneBuildContext): Promise<Scene> {
  const rom = openSnapRom(unpackN64Bytes(await ctx.readSource(source), source.path), source.path)
  return actorScene(rom, requireStage(String(asset.locator.stage ?? '')), String(asset.locator.actor ?? ''), { hd: asset.locator.hd === true }).scene
}
