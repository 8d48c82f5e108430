/**
 * A whole stage: address map, header chain, rooms, skybox, spawns, object paths and main track
 * (pokemon-snap.md §2–§3, §8, §9). Geometry is decoded separately (room-model.ts), so listing
 * stages stays cheap.
 */
import { FormatError, hex } from '../../binary'
import { buildStageMap, type AddressMap } from './address-map'
import { readInterpData, type InterpData } from './interp-data'
import { readTrackBlock, type TrackBlock } from './main-track'
import { STAGES, stageByName, type StageInfo } from './stages'
import {
  readSkyBox, readStaticDrawTable, readWorldBlockDescriptor, readWorldBlockGFX, readWorldBlockSetup, readWorldSetup,
  type ObjectSpawn, type SkyBox, type StaticDrawEntry, type WorldBlockDescriptor, type WorldBlockGFX, type WorldBlockSetup, type WorldSetup,
} from './world'

export type RoomGroup = 'path' | 'nonPath'

export interface Room {
  group: RoomGroup
  /** Index within its group's list. */
  index: number
  desc: WorldBlockDescriptor
  gfx: WorldBlockGFX | null
}

export interface SpawnPath {
  room: Room
  spawn: number
  path: InterpData
}

export interface Stage {
  info: StageInfo
  map: AddressMap
  setup: WorldSetup
  blocks: WorldBlockSetup
  pathRooms: Room[]
  nonPathRooms: Room[]
  skybox: SkyBox | null
  /** Static draw table (drawn static objects are placed from `WorldBlockDescriptor.drawnStatics`). */
  statics: StaticDrawEntry[]
  /** Main-track blocks (path rooms with a working road), in path-room order. */
  track: TrackBlock[]
  /** Object paths (ObjectSpawn.path), each read once per spawn. */
  paths: SpawnPath[]
  warnings: string[]
}

function readRooms(map: AddressMap, ptrs: number[], group: RoomGroup): Room[] {
  const label = group === 'path' ? 'pathRooms' : 'nonPathRooms'
  return ptrs.map((p, index) => {
    const desc = readWorldBlockDescriptor(map, p, `${label}[${index}]`)
    const gfx = desc.gfx ? readWorldBlockGFX(map, desc.gfx, `${label}[${index}].gfx`) : null
    return { group, index, desc, gfx }
  })
}

export interface ParseStageOptions {
  /** Skip the main track and object paths (listing only). */
  light?: boolean
}

/** Parses one stage of a normalised Snap ROM image. */
export function parseStage(image: Uint8Array, stage: StageInfo | string, file = 'ROM', opts: ParseStageOptions = {}): Stage {
  const info = typeof stage === 'string' ? stageByName(stage) : stage
  if (!info) throw new FormatError(`unknown stage ${JSON.stringify(stage)}; one of ${STAGES.map((s) => s.name).join(', ')}`, { file })
  const warnings: string[] = []
  const map = buildStageMap(image, info, file, warnings)
  const setup = readWorldSetup(map, info.header)
  const blocks = readWorldBlockSetup(map, setup.blocksSetup)
  const pathRooms = readRooms(map, blocks.pathRooms, 'path')
  const nonPathRooms = readRooms(map, blocks.nonPathRooms, 'nonPath')
  const skybox = blocks.skybox ? readSkyBox(map, blocks.skybox) : null
  let statics: StaticDrawEntry[] = []
  try {
    statics = readStaticDrawTable(map, setup.staticDrawTable)
  } catch (e) {
    if (opts.light) statics = []
    else throw e
  }
  const track: TrackBlock[] = []
  const paths: SpawnPath[] = []
  if (!opts.light) {
    for (const room of pathRooms) {
      if (!room.gfx) continue
      const b = readTrackBlock(map, room.index, room.desc, room.gfx, (m) => warnings.push(m))
      if (b) track.push(b)
    }
    for (const room of [...pathRooms, ...nonPathRooms]) {
      room.desc.spawns.forEach((s, i) => {
        if (!s.path) return
        const label = `${room.group === 'path' ? 'pathRooms' : 'nonPathRooms'}[${room.index}].spawns[${i}].path`
        paths.push({ room, spawn: i, path: readInterpData(map, s.path, label) })
      })
    }
  }
  return { info, map, setup, blocks, pathRooms, nonPathRooms, skybox, statics, track, paths, warnings }
}

/** World placement of a spawn with the noclip rule (block + translation) × 100 (§3.5; ground Y is not resolved here). */
export function spawnWorldPosition(room: Room, s: ObjectSpawn): [number, number, number] {
  const w = room.desc.worldPos
  return [(w[0] + s.translation[0]) * 100, (w[1] + s.translation[1]) * 100, (w[2] + s.translation[2]) * 100]
}

/**
 * `objects` of `snap stages`: ObjectSpawn records over path and non-path rooms. Choice: Rainbow
 * Cloud's objects spawned from code (which noclip injects, §3.5) are not records and not counted.
 */
export function stageObjectCount(stage: Pick<Stage, 'pathRooms' | 'nonPathRooms'>): number {
  let n = 0
  for (const r of [...stage.pathRooms, ...stage.nonPathRooms]) n += r.desc.spawns.length
  return n
}

export { hex }

/**
 * The one name of a room, used by the catalog tree, the stage view's room list, the 3D scene's
 * node and so the Inspector and picking: "Path room 3" / "Non-path room 0".
 */
export function roomLabel(r: Pick<Room, 'group' | 'index'>): string {
  return `${r.group === 'path' ? 'Path room' : 'Non-path room'} ${r.index}`
}
