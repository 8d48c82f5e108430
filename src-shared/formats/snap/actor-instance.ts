/**
 * Actors placed in a stage scene (CLI.md `snap export`, pokemon-snap.md §3.5, §4.3, §14.6
 * "Spawns in an export"): one node `spawn <i> <actor name>` per object spawn whose actor
 * resolves, at T(spawn position) · R_rpy(euler) · S(0.1 × PokemonInitData.scale), holding a copy
 * of the actor's joints; ground spawns take Y from the height map. Each actor's meshes, materials
 * and textures are added once; each instance gets its own skin; each actor animation becomes one
 * stage animation driving every instance of that actor. The Zero-One rides the main track
 * (clip `zero-one ride`).
 */
import { FormatError, hex } from '../../binary'
import type { Animation, Scene, SceneNode } from '../../scene/types'
import { appendModel, rebaseMaterialTracks, type ModelOffsets } from '../../scene/assemble'
import { buildActorScene } from './actor-scene'
import { findStageActors, loadActor, type StageActor } from './actors'
import type { Stage } from './stage'
import { quatFromEulerExtrinsicXYZ } from '../../scene/math'
import { railAt, railFromScene, railYaw } from './rail'
import { addStageClip } from './actor-stage-clip'

interface SpawnInfo { id: number; euler: [number, number, number]; world: [number, number, number]; groundY: number | null }

export interface ActorInstancesResult {
  instances: number
  actors: number
  /** The Zero-One rides the main track. */
  zeroOne: boolean
  warnings: string[]
}

type Built = { actor: StageActor; scene: Scene; off: ModelOffsets; anims: Animation[] }

/** Copies an actor's joints under `parent`, adds its skin and a root mesh node, and retargets its clips. */
function instantiate(scene: Scene, b: Built, parent: number, label: string): number | null {
  let meshAt: number | null = null
  const map = new Map<number, number>()
  b.scene.nodes.forEach((n, k) => {
    if (n.mesh !== undefined) return
    map.set(k, scene.nodes.length)
    const copy: SceneNode = { ...n, parent: n.parent >= 0 ? map.get(n.parent)! : parent }
    scene.nodes.push(copy)
  })
  const meshNode = b.scene.nodes.find((n) => n.skin !== undefined && n.mesh !== undefined)
  b.scene.skins.forEach((sk) => {
    scene.skins.push({ ...sk, name: `${label} skin`, joints: sk.joints.map((j) => map.get(j)!), ...(sk.skeleton !== undefined ? { skeleton: map.get(sk.skeleton)! } : {}) })
    if (meshNode) meshAt = scene.nodes.length
    if (meshNode) scene.nodes.push({ name: `${label} mesh`, parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: meshNode.mesh! + b.off.mesh, skin: scene.skins.length - 1 })
  })
  b.scene.animations.forEach((a, k) => {
    const target = b.anims[k]!
    for (const c of a.channels) target.channels.push({ ...c, node: map.get(c.node)! })
    for (const v of a.visibility ?? []) target.visibility!.push({ ...v, node: map.get(v.node)! })
  })
  // the instance node names its skinned mesh node (a viewer hides both together)
  const x = scene.nodes[parent]!.extras?.snap as Record<string, unknown> | undefined
  if (x) x.meshNode = meshAt
  return meshAt
}

/**
 * The Zero-One riding the main track (§9, §3.9): a `zero-one` node moved by a `zero-one ride`
 * clip — the cart's position and yaw per 10 game frames with the rail timing of rail.ts.
 */
function addZeroOneRide(scene: Scene, b: Built, group: number): boolean {
  const rail = railFromScene(scene)
  if (!rail) return false
  const node = scene.nodes.length
  const p0 = railAt(rail, 0).position
  scene.nodes.push({ name: 'zero-one', parent: group, translation: [...p0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], extras: { snap: { kind: 'zeroOne', note: 'rides the main track (clip "zero-one ride")' } } })
  instantiate(scene, b, node, 'zero-one')
  const times: number[] = [], t: number[] = [], r: number[] = []
  for (let f = 0; ; f = Math.min(rail.total, f + 10)) {
    const yaw = railYaw(rail, f)
    times.push(f / 30)
    t.push(...railAt(rail, f).position)
    r.push(0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2))
    if (f >= rail.total) break
  }
  scene.animations.push({
    name: 'zero-one ride', duration: rail.total / 30, frameRate: 30, loop: false,
    channels: [
      { node, path: 'translation', times: new Float32Array(times), values: new Float32Array(t), interpolation: 'LINEAR' },
      { node, path: 'rotation', times: new Float32Array(times), values: new Float32Array(r), interpolation: 'LINEAR' },
    ],
    extras: { snap: { kind: 'zeroOneRide', frames: rail.total, blocks: rail.blocks } },
  })
  return true
}

/** Adds the actor instances to a built stage scene (whose extras list the spawns in export order). */
export function addActorInstances(scene: Scene, stage: Stage, image: Uint8Array, opts: { stageClip?: boolean } = {}): ActorInstancesResult {
  const res: ActorInstancesResult = { instances: 0, actors: 0, zeroOne: false, warnings: [] }
  const spawns = ((scene.extras?.snap as { spawns?: SpawnInfo[] } | undefined)?.spawns ?? [])
  if (!spawns.length) return res
  const sa = findStageActors(stage, image)
  res.warnings.push(...sa.warnings)
  const group = scene.nodes.length
  scene.nodes.push({ name: 'actors', parent: scene.nodes.findIndex((n) => n.parent === -1), translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], extras: { snap: { kind: 'actorGroup' } } })
  const built = new Map<number, Built | null>()
  const prepare = (id: number, common = false) => {
    if (built.has(id)) return built.get(id)!
    const actor = sa.actors.find((a) => a.id === id && !!a.common === common)
    let entry: Built | null = null
    if (actor && !actor.error) {
      try {
        const s = buildActorScene(loadActor(sa, actor)).scene
        // one model per actor, however many spawns place it (the shared assembler's instancing)
        const off = appendModel(scene, s)
        const anims = s.animations.map((a) => ({ ...a, name: `${actor.name} ${a.name}`, channels: [], visibility: [], ...rebaseMaterialTracks(a, off) }))
        entry = { actor, scene: s, off, anims }
        res.actors++
      } catch (e) {
        if (!(e instanceof FormatError)) throw e
        res.warnings.push(`actor ${actor.name} (id ${id}): ${e.message}`)
      }
    } else if (actor?.error) res.warnings.push(`actor ${actor.name} (id ${id}): ${actor.error}`)
    built.set(id, entry)
    return entry
  }
  spawns.forEach((sp, i) => {
    const b = prepare(sp.id)
    if (!b) return
    const s0 = 0.1
    const sc = b.actor.initData?.scale ?? [1, 1, 1]
    let y = sp.world[1]
    if (b.actor.spawnType === 'ground') {
      if (sp.groundY !== null) y = sp.groundY
      else res.warnings.push(`spawn ${i} ${b.actor.name}: no ground height at (${sp.world[0]}, ${sp.world[2]}); translation.y used`)
    }
    const spawnNode = scene.nodes.length
    scene.nodes.push({
      name: `spawn ${i} ${b.actor.name}`, parent: group, translation: [sp.world[0], y, sp.world[2]], rotation: quatFromEulerExtrinsicXYZ(sp.euler), scale: [sc[0] * s0, sc[1] * s0, sc[2] * s0],
      extras: { snap: { kind: 'actorInstance', spawn: i, id: sp.id, name: b.actor.name, spawnType: b.actor.spawnType, archive: b.actor.archive } },
    })
    instantiate(scene, b, spawnNode, `spawn ${i} ${b.actor.name}`)
    res.instances++
  })
  if (railFromScene(scene)) {
    const zero = prepare(0, true)
    if (zero) res.zeroOne = addZeroOneRide(scene, zero, group)
  }
  const firsts: Animation[] = []
  for (const b of built.values()) {
    if (!b) continue
    b.anims.forEach((a, k) => {
      if (!a.visibility?.length) delete a.visibility
      const clip = { ...a, extras: { snap: { kind: 'actorAnimation', actor: b.actor.id, header: (a.extras?.snap as { header?: string } | undefined)?.header ?? hex(0) } } }
      scene.animations.push(clip)
      if (k === 0 && !b.actor.common) firsts.push(clip)
    })
  }
  if (opts.stageClip) addStageClip(scene, firsts)
  return res
}
