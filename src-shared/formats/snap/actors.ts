/**
 * The actors a stage can show (pokemon-snap.md §3.8, §3.9, §14.6 "Which actors"): every
 * `PokemonDef` of the stage (init function scanned for its `PokemonInitData`, resolved in the
 * archive the code belongs to), the Zero-One and the common assets whose addresses are mapped.
 * A def whose data cannot be resolved is an entry with `error`; the rest go on.
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'
import { ActorMaps, commonAssets, type CommonAsset } from './actor-archives'
import { buildActorDraws, type ActorDraws, type ActorModelSource } from './actor-model'
import { discoverAnimations, readActorAnimation, readAnimationTables, type ActorAnimation } from './actor-anim'
import {
  TOLERATED_INIT, readAnimationSetup, readHdTable, readPokemonDefs, readPokemonInitData, readTransitionStates, scanInitFunction,
  type AnimationSetup, type HdModel, type InitScan, type PokemonDef, type PokemonInitData, type SpawnType,
} from './pokemon-def'
import { spawnName } from './species'
import { readNodeList } from './node-list'
import type { Stage } from './stage'
import { decodeDrawTextures, readAnimated, type AnimatedModel } from './stage-models'

export interface StageActor {
  id: number
  name: string
  /** Archive the model is read from (stage name, a shared archive, or `common`). */
  archive: string
  spawns: number
  def?: PokemonDef
  scan?: InitScan
  initData?: PokemonInitData
  setup?: AnimationSetup
  common?: CommonAsset
  spawnType: SpawnType | 'none'
  model?: ActorModelSource
  /** AnimationHeader addresses: the default first, then those found in the state functions. */
  animations: number[]
  hd?: HdModel
  /** Why the actor cannot be shown (names the structure and address). */
  error?: string
  warnings: string[]
}

export interface StageActors {
  actors: StageActor[]
  maps: ActorMaps
  warnings: string[]
}

/** HD models noclip does not substitute (Haunter, §3.8). */
const HD_EXCLUDED = new Set([93, 101])

function spawnCounts(stage: Stage): Map<number, number> {
  const out = new Map<number, number>()
  for (const r of [...stage.pathRooms, ...stage.nonPathRooms]) for (const s of r.desc.spawns) out.set(s.id, (out.get(s.id) ?? 0) + 1)
  return out
}

function errorText(e: unknown): string {
  if (e instanceof FormatError) return e.message
  throw e
}

/**
 * An HD model exists for this stage when its tree reads through the archive's Photo context
 * (§2.4 rule 3) as a node list with as many nodes as the normal model (§3.8: they share the
 * animations). The table is common to all stages; another stage's Photo range at that address
 * holds something else.
 */
function hdTreeMatches(photo: AddressMap, hdTree: number, map: AddressMap, tree: number): boolean {
  if (!photo.find(hdTree, 0x2c)) return false
  try {
    return readNodeList(photo, hdTree, 'HD tree').length === readNodeList(map, tree, 'tree').length
  } catch (e) {
    if (e instanceof FormatError) return false
    throw e
  }
}

function resolveDef(maps: ActorMaps, def: PokemonDef, counts: Map<number, number>, hd: HdModel[]): StageActor | null {
  const label = `PokemonDef[${def.index}] (id ${def.id}) init`
  const a: StageActor = { id: def.id, name: spawnName(def.id), archive: maps.info.name, spawns: counts.get(def.id) ?? 0, def, spawnType: 'none', animations: [], warnings: [] }
  try {
    a.archive = maps.archiveOfCode(def.init)
    const map = maps.forArchive(a.archive)
    try {
      a.scan = scanInitFunction(map, def.init, label)
    } catch (e) {
      if (def.init === TOLERATED_INIT && e instanceof FormatError) return null // noclip tolerates this one (§3.8)
      throw e
    }
    a.spawnType = a.scan.spawnType
    a.initData = readPokemonInitData(map, a.scan.initData, `PokemonInitData ${hex(a.scan.initData)} (id ${def.id})`)
    a.model = { tree: a.initData.tree, textures: a.initData.textures, renderFunc: a.initData.renderFunc }
    if (a.initData.animSetup) {
      a.setup = readAnimationSetup(map, a.initData.animSetup, `PokemonAnimationSetup ${hex(a.initData.animSetup)} (id ${def.id})`)
      if (a.setup.defaultAnimation) a.animations.push(a.setup.defaultAnimation)
      let states: number[] = []
      try {
        states = [a.setup.initialState, ...readTransitionStates(map, a.setup.transitionGraph, `PokemonAnimationSetup ${hex(a.setup.addr)}.transitionGraph`)].filter((x) => x)
      } catch (e) {
        a.warnings.push(`transition graph: ${errorText(e)}`)
      }
      for (const h of discoverAnimations(map, states, `id ${def.id}`, (m) => a.warnings.push(m))) if (!a.animations.includes(h)) a.animations.push(h)
    }
    const h = hd.find((x) => x.id === def.id)
    if (h && !HD_EXCLUDED.has(def.id) && h.tree && hdTreeMatches(maps.forArchive(a.archive, true), h.tree, map, a.initData.tree)) a.hd = h
  } catch (e) {
    a.error = errorText(e)
  }
  return a
}

function resolveCommon(maps: ActorMaps, c: CommonAsset): StageActor | null {
  const map = maps.stage
  if (!map.find(c.graph, 0x2c)) return null // listed only when its addresses are mapped (§14.6)
  const a: StageActor = { id: c.id, name: c.name, archive: map.find(c.graph)!.archive, spawns: 0, common: c, spawnType: 'none', animations: [], warnings: [] }
  a.model = { tree: c.graph, textures: c.materials, renderFunc: c.renderFunc }
  if (c.nodeTracks || c.materialTracks) a.animations.push(c.nodeTracks || c.materialTracks)
  return a
}

/** Finds every actor of a parsed stage. Never throws for one actor's bad data. */
export function findStageActors(stage: Stage, image: Uint8Array): StageActors {
  const maps = new ActorMaps(image, stage.info, stage.map)
  const warnings: string[] = [...maps.warnings]
  const actors: StageActor[] = []
  const counts = spawnCounts(stage)
  const hd = readHdTable(maps.forArchive(stage.info.name, true), (m) => warnings.push(m))
  let defs: PokemonDef[] = []
  try {
    defs = readPokemonDefs(maps.stage, stage.info.objects)
  } catch (e) {
    warnings.push(`PokemonDef table ${hex(stage.info.objects)}: ${errorText(e)}`)
  }
  for (const c of commonAssets(stage.info.name)) {
    const a = resolveCommon(maps, c)
    if (a) actors.push(a)
  }
  for (const d of defs) {
    const a = resolveDef(maps, d, counts, hd)
    if (a) actors.push(a)
    else warnings.push(`PokemonDef[${d.index}] (id ${d.id}): init ${hex(d.init)} spawns no model (tolerated, as noclip)`)
  }
  return { actors, maps, warnings }
}

export interface LoadedAnimation {
  addr: number
  /** glTF animation name: the header address in hex (§ CLI.md). */
  name: string
  anim?: ActorAnimation
  error?: string
  /** The animation's material tracks per node with a table (§7.6), baked with their flipbook pixels. */
  materials?: AnimatedModel[]
}

export interface LoadedActor {
  actor: StageActor
  map: AddressMap
  draws: ActorDraws
  animations: LoadedAnimation[]
  /** Decoded RGBA8 (or the decode error) of every texture the draws and material tracks use, by `textureKey`. */
  textures: Map<string, Uint8Array | Error>
  hd: boolean
}

/** The map an actor's model is read through (Photo first for its HD model, §2.4 rule 3). */
export function actorMap(sa: StageActors, a: StageActor, hd = false): AddressMap {
  if (a.common) return sa.maps.stage
  return sa.maps.forArchive(a.archive, hd)
}

/**
 * The structure step of an actor scene (actor-scene.ts converts it without touching the ROM):
 * runs the display lists, decodes their textures, reads the animations and bakes their material
 * tracks. Throws FormatError when the model itself cannot be built; a bad animation is kept as an
 * entry with `error`.
 */
/** The material-track tables of one animation, per node that has materials (tags `node:m`). */
function materialAnims(map: AddressMap, textures: LoadedActor['textures'], draws: ActorDraws, anim: ActorAnimation, label: string): AnimatedModel[] {
  const out: AnimatedModel[] = []
  anim.materialTables.forEach((table, i) => {
    const materials = draws.nodeMaterials[i]!
    if (table && materials.length) out.push(readAnimated(map, textures, { draws, table, speed: anim.fps / 30, label: `${label} node ${i}`, node: i, materials }))
  })
  return out
}

export function loadActor(sa: StageActors, a: StageActor, opts: { hd?: boolean; maxCommands?: number } = {}): LoadedActor {
  if (a.error) throw new FormatError(a.error)
  if (!a.model) throw new FormatError(`actor ${a.name} has no model`)
  const useHd = opts.hd === true && a.hd !== undefined
  const map = actorMap(sa, a, useHd)
  const src = useHd ? { tree: a.hd!.tree, textures: a.hd!.textures, renderFunc: a.hd!.renderFunc } : a.model
  const draws = buildActorDraws(map, src, `${a.name}${useHd ? ' HD' : ''} model`, { maxCommands: opts.maxCommands })
  const counts = draws.nodeMaterials.map((l) => l.length)
  const animations: LoadedAnimation[] = a.animations.map((addr) => {
    const e: LoadedAnimation = { addr, name: hex(addr) }
    try {
      if (a.common) {
        const c = a.common
        e.anim = readAnimationTables(map, { addr, speed: c.fps / 30, unk04: 0, modelAnims: c.nodeTracks, matAnims: c.materialTracks, ids: 0 }, draws.nodes, counts, `${a.name} animation ${hex(addr)}`, c.fps)
      } else e.anim = readActorAnimation(map, addr, draws.nodes, counts, `${a.name}`)
    } catch (err) {
      e.error = errorText(err)
    }
    return e
  })
  const textures: LoadedActor['textures'] = new Map()
  decodeDrawTextures(map, textures, draws)
  for (const e of animations) if (e.anim) e.materials = materialAnims(map, textures, draws, e.anim, `${a.name} ${e.name}`)
  return { actor: a, map, draws, animations, textures, hd: useHd }
}
