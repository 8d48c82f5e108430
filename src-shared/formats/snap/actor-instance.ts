/**
 * Actors placed in a stage scene (CLI.md `snap export`, pokemon-snap.md §3.5, §4.3, §14.6
 * "Spawns in an export"): one node `spawn <i> <actor name>` per object spawn whose actor
 * resolves, at T(spawn position) · R_rpy(euler) · S(0.1 × PokemonInitData.scale), holding a copy
 * of the actor's joints; ground spawns take Y from the height map. Each actor's meshes, materials
 * and textures are added once; each instance gets its own skin; each actor animation becomes one
 * stage animation driving every instance of that actor.
 */
import { hex } from '../../binary'
import type { Animation, Scene, SceneNode } from '../../scene/types'
import { buildActorScene } from './actor-scene'
import { findStageActors, loadActor, type StageActor } from './actors'
import type { Stage } from './stage'
import { eulerToQuat } from './stage-scene'

interface SpawnInfo { id: number; euler: [number, number, number]; world: [number, number, number]; groundY: number | null }

export interface ActorInstancesResult {
  instances: number
  actors: number
  warnings: string[]
}

/** Appends `from`'s meshes, materials and textures to `into`; returns the index offsets. */
function addResources(into: Scene, from: Scene): { mesh: number; material: number; texture: number } {
  const off = { mesh: into.meshes.length, material: into.materials.length, texture: into.textures.length }
  into.textures.push(...from.textures)
  for (const m of from.materials) into.materials.push({ ...m, ...(m.texture !== undefined ? { texture: m.texture + off.texture } : {}) })
  for (const m of from.meshes) into.meshes.push({ ...m, primitives: m.primitives.map((p) => ({ ...p, material: p.material + off.material })) })
  return off
}

/** Adds the actor instances to a built stage scene (whose extras list the spawns in export order). */
export function addActorInstances(scene: Scene, stage: Stage, image: Uint8Array): ActorInstancesResult {
  const res: ActorInstancesResult = { instances: 0, actors: 0, warnings: [] }
  const spawns = ((scene.extras?.snap as { spawns?: SpawnInfo[] } | undefined)?.spawns ?? [])
  if (!spawns.length) return res
  const sa = findStageActors(stage, image)
  res.warnings.push(...sa.warnings)
  const group = scene.nodes.length
  scene.nodes.push({ name: 'actors', parent: scene.nodes.findIndex((n) => n.parent === -1), translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], extras: { snap: { kind: 'actorGroup' } } })
  const built = new Map<number, { actor: StageActor; scene: Scene; off: ReturnType<typeof addResources>; anims: Animation[] } | null>()
  const prepare = (id: number) => {
    if (built.has(id)) return built.get(id)!
    const actor = sa.actors.find((a) => a.id === id && !a.common)
    let entry = null
    if (actor && !actor.error) {
      try {
        const s = buildActorScene(loadActor(sa, actor)).scene
        const off = addResources(scene, s)
        const anims = s.animations.map((a) => ({ ...a, name: `${actor.name} ${a.name}`, channels: [], visibility: [],
          uvTracks: a.uvTracks?.map((t) => ({ ...t, material: t.material + off.material })),
          textureSwaps: a.textureSwaps?.map((t) => ({ ...t, material: t.material + off.material, textures: t.textures.map((x) => x + off.texture) })),
          colorTracks: a.colorTracks?.map((t) => ({ ...t, material: t.material + off.material })) }))
        entry = { actor, scene: s, off, anims }
        res.actors++
      } catch (e) {
        res.warnings.push(`actor ${actor.name} (id ${id}): ${(e as Error).message}`)
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
      name: `spawn ${i} ${b.actor.name}`, parent: group, translation: [sp.world[0], y, sp.world[2]], rotation: eulerToQuat(sp.euler), scale: [sc[0] * s0, sc[1] * s0, sc[2] * s0],
      extras: { snap: { kind: 'actorInstance', spawn: i, id: sp.id, name: b.actor.name, spawnType: b.actor.spawnType, archive: b.actor.archive } },
    })
    // joints: the actor scene's nodes without a mesh, re-parented under the spawn node
    const map = new Map<number, number>()
    b.scene.nodes.forEach((n, k) => {
      if (n.mesh !== undefined) return
      map.set(k, scene.nodes.length)
      const copy: SceneNode = { ...n, parent: n.parent >= 0 ? map.get(n.parent)! : spawnNode }
      scene.nodes.push(copy)
    })
    b.scene.skins.forEach((sk) => {
      scene.skins.push({ ...sk, name: `spawn ${i} ${sk.name}`, joints: sk.joints.map((j) => map.get(j)!), skeleton: sk.skeleton !== undefined ? map.get(sk.skeleton) : undefined })
      const meshNode = b.scene.nodes.find((n) => n.skin !== undefined && n.mesh !== undefined)
      if (meshNode) scene.nodes.push({ name: `spawn ${i} ${b.actor.name} mesh`, parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: meshNode.mesh! + b.off.mesh, skin: scene.skins.length - 1 })
    })
    b.scene.animations.forEach((a, k) => {
      const target = b.anims[k]!
      for (const c of a.channels) target.channels.push({ ...c, node: map.get(c.node)! })
      for (const v of a.visibility ?? []) target.visibility!.push({ ...v, node: map.get(v.node)! })
    })
    res.instances++
  })
  for (const b of built.values()) {
    if (!b) continue
    for (const a of b.anims) {
      if (!a.visibility?.length) delete a.visibility
      scene.animations.push({ ...a, extras: { snap: { kind: 'actorAnimation', actor: b.actor.id, header: (a.extras?.snap as { header?: string } | undefined)?.header ?? hex(0) } } })
    }
  }
  return res
}
