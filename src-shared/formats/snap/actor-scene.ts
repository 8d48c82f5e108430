/**
 * An actor as a neutral scene (pokemon-snap.md §4.3, §6, §7.7; CLI.md `snap actor`): one joint
 * node per model node (`node <i>`, local T · Rz·Ry·Rx · S), one skinned mesh whose vertices are in
 * bind pose with one bone of weight 1 each (the bone whose matrix loaded them, §6), inverse bind
 * matrices from the rest world matrices, and every animation baked per animation frame (30 ×
 * speed fps): node TRS (Euler composed into quaternions), visibility from SET_FLAGS, and material
 * tracks as the scene's UV / texture-swap / colour tracks.
 */
import { hex } from '../../binary'
import { mat4Invert } from '../../scene/math'
import type { Animation, Channel, Quat, Scene, VisibilityTrack } from '../../scene/types'
import { sampleAnimation, type ActorAnimation } from './actor-anim'
import type { LoadedActor } from './actors'
import type { GfxNode } from './node-list'
import { SceneBuilder, bakeStageMaterialAnimation, eulerToQuat, nodeWorlds, type MaterialTrackSource } from './stage-scene'

export interface ActorSceneStats {
  nodes: number
  /** Primitives of the actor's mesh (one per material and layer state). */
  meshes: number
  triangles: number
  animations: { name: string; frames: number; error?: string }[]
  materialTracks: number
  warnings: string[]
}

/** Keeps consecutive quaternions in one hemisphere so linear sampling does not take the long way. */
function continuous(q: Quat, prev: Quat | null): Quat {
  if (prev && q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0) return [-q[0], -q[1], -q[2], -q[3]]
  return q
}

/** Node channels of one animation (joints are scene nodes `jointBase + i`). */
function nodeChannels(anim: ActorAnimation, nodes: GfxNode[], jointBase: number): { channels: Channel[]; visibility: VisibilityTrack[] } {
  const samples = sampleAnimation(anim, nodes)
  const times = new Float32Array(samples.map((_, f) => f / anim.fps))
  const channels: Channel[] = []
  const visibility: VisibilityTrack[] = []
  nodes.forEach((_, i) => {
    if (!anim.nodeTracks[i]) return
    const t: number[] = [], r: number[] = [], s: number[] = []
    let prev: Quat | null = null
    const vis: number[] = [], visT: number[] = []
    samples.forEach((frame, f) => {
      const p = frame[i]!
      t.push(...p.translation)
      prev = continuous(eulerToQuat(p.rotation), prev)
      r.push(...prev)
      // flags bit 1 hides the node and its subtree: a zero scale collapses both (§7.7)
      s.push(...(p.flags & 2 ? [0, 0, 0] : p.scale))
      const visible = p.flags & 3 ? 0 : 1
      if (!vis.length || vis[vis.length - 1] !== visible) { vis.push(visible); visT.push(times[f]!) }
    })
    const node = jointBase + i
    channels.push(
      { node, path: 'translation', times, values: new Float32Array(t), interpolation: 'LINEAR' },
      { node, path: 'rotation', times, values: new Float32Array(r), interpolation: 'LINEAR' },
      { node, path: 'scale', times, values: new Float32Array(s), interpolation: 'LINEAR' },
    )
    if (vis.length > 1) visibility.push({ node, times: new Float32Array(visT), visible: new Uint8Array(vis) })
  })
  return { channels, visibility }
}

/** Builds the neutral scene of a loaded actor. */
export function buildActorScene(l: LoadedActor): { scene: Scene; stats: ActorSceneStats } {
  const a = l.actor
  const b = new SceneBuilder({ map: l.map }, a.name)
  const nodes = l.draws.nodes
  const worlds = nodeWorlds(nodes)
  nodes.forEach((n) => {
    b.node({
      name: `node ${n.index}`, parent: n.parent, translation: [...n.translation], rotation: eulerToQuat(n.rotation), scale: [...n.scale],
      extras: { snap: { kind: 'joint', index: n.index, depth: n.depth, addr: hex(n.addr), ...(n.billboard ? { billboard: n.billboard, note: 'billboard nodes are exported as plain joints (§6 rule 7)' } : {}) } },
    })
  })
  const drawsRef = { nodes, drawCalls: l.draws.drawCalls, materials: l.draws.materials }
  const mesh = b.mesh(`${a.name} mesh`, drawsRef, { skinned: true })
  const ibm = new Float32Array(nodes.length * 16)
  worlds.forEach((w, j) => {
    const inv = mat4Invert(w)
    if (!inv) b.warnings.push(`node ${j}: rest matrix is singular; identity inverse bind matrix used`)
    ibm.set(inv ?? [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], j * 16)
  })
  if (mesh) {
    b.scene.skins.push({ name: `${a.name} skin`, joints: nodes.map((n) => n.index), inverseBindMatrices: ibm, skeleton: 0 })
    b.node({ name: `${a.name} mesh`, parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: mesh.mesh, skin: 0, extras: { snap: { kind: 'actorMesh' } } })
  }
  const stats: ActorSceneStats = { nodes: nodes.length, meshes: mesh ? b.scene.meshes[mesh.mesh]!.primitives.length : 0, triangles: mesh?.triangles ?? 0, animations: [], materialTracks: 0, warnings: b.warnings }
  for (const la of l.animations) {
    if (!la.anim) { stats.animations.push({ name: la.name, frames: 0, error: la.error }); continue }
    const anim = la.anim
    const { channels, visibility } = nodeChannels(anim, nodes, 0)
    const sources: MaterialTrackSource[] = []
    anim.materialTables.forEach((table, i) => {
      if (table && l.draws.nodeMaterials[i]!.length) sources.push({ draws: drawsRef, table, speed: anim.fps / 30, label: `${a.name} ${la.name} node ${i}`, node: i, materials: l.draws.nodeMaterials[i]! })
    })
    const mat = sources.length ? bakeStageMaterialAnimation(b, { map: l.map }, sources) : null
    const clip: Animation = {
      name: la.name, duration: Math.max(anim.frames, 1) / anim.fps, frameRate: anim.fps, channels, loop: anim.loops,
      ...(visibility.length ? { visibility } : {}),
      ...(mat?.uvTracks ? { uvTracks: mat.uvTracks } : {}), ...(mat?.textureSwaps ? { textureSwaps: mat.textureSwaps } : {}), ...(mat?.colorTracks ? { colorTracks: mat.colorTracks } : {}),
      extras: { snap: { kind: 'actorAnimation', header: la.name, speed: anim.header.speed, frames: anim.frames, materialTracks: anim.materialTracks } },
    }
    b.scene.animations.push(clip)
    stats.animations.push({ name: la.name, frames: anim.frames })
    stats.materialTracks += anim.materialTracks
  }
  b.scene.extras = {
    snap: {
      kind: 'actor', id: a.id, name: a.name, archive: a.archive, renderKind: l.draws.kind, spawnType: a.spawnType, hd: l.hd, hasHd: a.hd !== undefined,
      initData: a.initData ? hex(a.initData.addr) : null, scale: a.initData?.scale ?? [1, 1, 1],
      animations: stats.animations, warnings: [...a.warnings, ...l.draws.warnings, ...b.warnings].slice(0, 100),
    },
  }
  stats.warnings = [...a.warnings, ...l.draws.warnings, ...b.warnings]
  return { scene: b.scene, stats }
}
