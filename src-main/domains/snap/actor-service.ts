/**
 * Node side of Snap actors (issue 12): the `snap actors` listing, one actor as a scene, and the
 * actor part of a stage export. Bad actor data never stops the rest: an actor that cannot be
 * resolved is listed with its error (pokemon-snap.md §14.6).
 */
import { FormatError, hex } from '../../../src-shared/binary'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'
import { findStageActors, loadActor, type StageActor, type StageActors } from '../../../src-shared/formats/snap/actors'
import { buildActorScene } from '../../../src-shared/formats/snap/actor-scene'
import { addActorInstances, type ActorInstancesResult } from '../../../src-shared/formats/snap/actor-instance'
import { parseStage, type Stage } from '../../../src-shared/formats/snap/stage'
import type { Scene } from '../../../src-shared/scene/types'
import { sceneProblems } from '../../../src-shared/scene/validate'

/** One `snap actors` item (CLI.md keys, plus `archive` and `spawnType`). */
export interface ActorListItem {
  id: number
  name: string
  spawns: number
  nodes: number
  meshes: number
  triangles: number
  animations: { name: string; frames: number; error?: string }[]
  materialTracks: number
  hd: boolean
  archive: string
  spawnType: string
  error?: string
}

function baseItem(a: StageActor): ActorListItem {
  return { id: a.id, name: a.name, spawns: a.spawns, nodes: 0, meshes: 0, triangles: 0, animations: [], materialTracks: 0, hd: a.hd !== undefined, archive: a.archive, spawnType: a.spawnType }
}

/** Lists every actor of a stage; one actor's bad data becomes its `error`. */
export function listStageActors(rom: N64Rom, stageName: string): { items: ActorListItem[]; warnings: string[] } {
  const stage = parseStage(rom.image, stageName, rom.file, { light: true })
  const sa = findStageActors(stage, rom.image)
  const warnings = [...stage.warnings, ...sa.warnings]
  const items = sa.actors.map((a) => {
    const item = baseItem(a)
    if (a.error) return { ...item, error: a.error }
    try {
      const { stats } = buildActorScene(loadActor(sa, a))
      for (const w of stats.warnings.slice(0, 5)) warnings.push(`${a.name}: ${w}`)
      return { ...item, nodes: stats.nodes, meshes: stats.meshes, triangles: stats.triangles, animations: stats.animations, materialTracks: stats.materialTracks }
    } catch (e) {
      if (!(e instanceof FormatError)) throw e
      return { ...item, error: e.message }
    }
  })
  return { items, warnings }
}

/** Finds an actor by id (a number) or by name (`zero-one`, `apple`, a species name). */
export function findActor(sa: StageActors, key: string): StageActor | undefined {
  const n = /^-?\d+$/.test(key) ? Number(key) : NaN
  const k = key.toLowerCase()
  return sa.actors.find((a) => (Number.isFinite(n) ? a.id === n : a.name.toLowerCase() === k))
}

/** One actor as a validated neutral scene. `hd` asks for the HD photo model (an error when there is none). */
export function actorScene(rom: N64Rom, stageName: string, key: string, opts: { hd?: boolean } = {}): { scene: Scene; warnings: string[]; actor: StageActor } {
  const stage = parseStage(rom.image, stageName, rom.file, { light: true })
  const sa = findStageActors(stage, rom.image)
  const a = findActor(sa, key)
  if (!a) throw new FormatError(`no actor ${JSON.stringify(key)} on ${stage.info.name} (actors: ${sa.actors.map((x) => `${x.id} ${x.name}`).join(', ')})`, { file: rom.file, structure: `PokemonDef table ${hex(stage.info.objects)}` })
  if (a.error) throw new FormatError(a.error)
  if (opts.hd && !a.hd) throw new FormatError(`actor ${a.id} ${a.name} has no HD photo model (HD table D_800ADBEC)`, { file: rom.file })
  const { scene, stats } = buildActorScene(loadActor(sa, a, { hd: opts.hd }))
  const problems = sceneProblems(scene, 4)
  if (problems.length) throw new FormatError(`actor data gives an invalid scene: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, { file: rom.file, structure: `actor ${a.id} ${a.name}` })
  const bad = stats.animations.filter((x) => x.error).map((x) => `animation ${x.name}: ${x.error}`)
  return { scene, warnings: [...sa.warnings, ...bad, ...stats.warnings], actor: a }
}

/** The actor part of `snap export` (and of the app's stage scene, with `stageClip`): instances at every spawn whose actor resolves. */
export function addStageActors(scene: Scene, rom: N64Rom, stage: Stage | string, opts: { stageClip?: boolean } = {}): ActorInstancesResult {
  const st = typeof stage === 'string' ? parseStage(rom.image, stage, rom.file) : stage
  const res = addActorInstances(scene, st, rom.image, opts)
  const problems = sceneProblems(scene, 4)
  if (problems.length) throw new FormatError(`actor instances give an invalid scene: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, { file: rom.file, structure: `stage ${st.info.name} actors` })
  return res
}
