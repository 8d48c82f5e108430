import type { AssetDraft } from '../../plugin/detector'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'
import { Reader, hex } from '../../../src-shared/binary'
import { stageEntriesEmpty } from '../../../src-shared/formats/snap/overlay'
import { STAGES } from '../../../src-shared/formats/snap/stages'
import { spawnName } from '../../../src-shared/formats/snap/species'
import { parseStage, roomLabel, spawnWorldPosition, stageObjectCount, type Room } from '../../../src-shared/formats/snap/stage'
import { enumerateStageActors } from './actor-index'

/**
 * Cheap enumeration of a Snap ROM for the catalog (called by the N64 detector once `openRom`
 * says `game === 'snap'`): game → stages → path rooms / non-path rooms / skybox / track / spawns.
 * Only the header chain and lists are parsed (no display lists), so indexing stays fast. A stage
 * that fails to parse is listed with its error instead of failing the whole ROM.
 */
export function enumerateSnapRom(rom: N64Rom): AssetDraft[] {
  const out: AssetDraft[] = []
  const verified = rom.verified
  out.push({
    key: 'game', kind: 'snap-game', name: `Pokémon Snap${verified ? '' : ' (unverified)'}`,
    locator: {}, metadata: { title: rom.header.name, code: rom.header.code, md5: rom.md5, verified },
    tags: ['snap', 'pokemon snap', 'n64', verified ? 'verified' : 'unverified'],
  })
  // a stage whose Data and Code overlay entries are all zero is not in this (partial) image: left
  // out, as `snap stages` does, unless no stage is there at all (then each shows its error)
  const reader = new Reader(rom.image, { endian: 'big', file: rom.file, structure: 'ROM' })
  const absent = new Set(STAGES.filter((s) => stageEntriesEmpty(reader, s.overlayIndex)).map((s) => s.name))
  for (const info of STAGES) {
    if (absent.has(info.name) && absent.size < STAGES.length) continue
    const key = `stage:${info.name}`
    let st: ReturnType<typeof parseStage>
    try {
      st = parseStage(rom.image, info, rom.file)
    } catch (e) {
      out.push({ key, parentKey: 'game', kind: 'snap-stage', name: info.title, locator: { stage: info.name, overlayIndex: info.overlayIndex }, metadata: { error: (e as Error).message, verified }, tags: ['snap', 'stage', info.name, 'error'] })
      continue
    }
    out.push({
      key, parentKey: 'game', kind: 'snap-stage', name: info.title,
      locator: { stage: info.name, overlayIndex: info.overlayIndex },
      metadata: {
        sceneId: info.overlayIndex, overlayIndex: hex(info.overlayIndex), gameSceneId: info.gameSceneId, verified,
        pathRooms: st.pathRooms.length, nonPathRooms: st.nonPathRooms.length, hasSkybox: st.skybox !== null, objects: stageObjectCount(st),
        trackBlocks: st.track.length, objectPaths: st.paths.length, header: hex(info.header), warnings: st.warnings.slice(0, 10),
      },
      tags: ['snap', 'stage', info.name, info.title.toLowerCase()],
    })
    const room = (r: Room, parentKey: string) => {
      const d = r.desc
      out.push({
        key: `${key}:${r.group}:${r.index}`, parentKey, kind: 'snap-room',
        name: roomLabel(r),
        locator: { stage: info.name, group: r.group, index: r.index, descriptor: d.addr },
        metadata: {
          worldPos: d.worldPos, yaw: d.yaw, reversed: d.reversed, descriptor: hex(d.addr), gfx: r.gfx ? hex(r.gfx.addr) : null,
          renderFunc: r.gfx ? hex(r.gfx.renderFunc) : null, materials: r.gfx?.textures.length ?? 0, spawns: d.spawns.length,
          drawnStatics: d.drawnStatics.length, collisionStatics: d.collisionStatics.length, numControlLines: r.gfx?.numControlLines ?? 0,
        },
        tags: ['snap', 'room', info.name],
      })
    }
    out.push({ key: `${key}:path`, parentKey: key, kind: 'snap-room-group', name: `Path rooms (${st.pathRooms.length})`, locator: { stage: info.name, group: 'path' }, metadata: { count: st.pathRooms.length } })
    for (const r of st.pathRooms) room(r, `${key}:path`)
    out.push({ key: `${key}:nonPath`, parentKey: key, kind: 'snap-room-group', name: `Non-path rooms (${st.nonPathRooms.length})`, locator: { stage: info.name, group: 'nonPath' }, metadata: { count: st.nonPathRooms.length } })
    for (const r of st.nonPathRooms) room(r, `${key}:nonPath`)
    if (st.skybox) {
      out.push({ key: `${key}:skybox`, parentKey: key, kind: 'snap-skybox', name: 'Skybox', locator: { stage: info.name, addr: st.skybox.addr }, metadata: { addr: hex(st.skybox.addr), renderFunc: hex(st.skybox.renderFunc), materials: st.skybox.textures.length }, tags: ['snap', 'skybox', info.name] })
    }
    out.push({
      key: `${key}:track`, parentKey: key, kind: 'snap-track', name: `Main track (${st.track.length} blocks)`,
      locator: { stage: info.name },
      metadata: { blocks: st.track.map((b) => ({ room: b.room, position: b.position, yaw: b.yaw, reversed: b.reversed, duration: b.duration, controlPoints: b.controlPoints.length })) },
      tags: ['snap', 'track', 'rail', info.name],
    })
    out.push(...enumerateStageActors(rom, st, key))
    const spawnsKey = `${key}:spawns`
    const total = stageObjectCount(st)
    out.push({ key: spawnsKey, parentKey: key, kind: 'snap-spawns', name: `Spawns (${total})`, locator: { stage: info.name }, metadata: { count: total } })
    for (const r of [...st.pathRooms, ...st.nonPathRooms]) {
      r.desc.spawns.forEach((s, i) => {
        out.push({
          key: `${spawnsKey}:${r.group}:${r.index}:${i}`, parentKey: spawnsKey, kind: 'snap-spawn',
          name: `${spawnName(s.id)} (${s.id}) in ${roomLabel(r)}`,
          locator: { stage: info.name, group: r.group, room: r.index, spawn: i },
          metadata: { id: s.id, behavior: s.behavior, translation: s.translation, euler: s.euler, world: spawnWorldPosition(r, s), path: s.path ? hex(s.path) : null },
          tags: ['snap', 'spawn', info.name, String(s.id), spawnName(s.id)],
        })
      })
    }
  }
  return out
}
