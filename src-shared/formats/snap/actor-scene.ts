/**
 * An actor as a neutral scene (pokemon-snap.md §4.3, §6, §7.7; CLI.md `snap actor`): one joint
 * node per model node (`node <i>`, local T · Rz·Ry·Rx · S), one skinned mesh whose vertices are in
 * bind pose with one bone of weight 1 each (the bone whose matrix loaded them, §6), inverse bind
 * matrices from the rest world matrices, and every animation baked per animation frame (30 ×
 * speed fps): node TRS (Euler composed into quaternions), visibility from SET_FLAGS, and material
 * tracks as the scene's UV / texture-swap / colour tracks. The conversion step only: `loadActor`
 * (actors.ts) read every ROM byte; meshes and material tracks go through the shared assembler
 * (stage-meshes.ts, stage-scene-anim.ts) as the stage's do.
 */
import { hex } from '../../binary'
import { SceneAssembler, identityMatrices } from '../../scene/assemble'
import { mat4Invert, quatFromEulerExtrinsicXYZ } from '../../scene/math'
import type { Animation, Channel, Quat, Scene, VisibilityTrack } from '../../scene/types'
import { sampleAnimation, type ActorAnimation } from './actor-anim'
import type { LoadedActor, LoadedAnimation } from './actors'
import type { GfxNode } from './node-list'
import { StageMeshes, nodeWorlds } from './stage-meshes'
import { stageMaterialAnimation } from './stage-scene-anim'

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
      prev = continuous(quatFromEulerExtrinsicXYZ(p.rotation), prev)
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

/** One joint node per model node (scene nodes 0…n-1, `node <i>`). */
function jointNodes(a: SceneAssembler, nodes: GfxNode[]): void {
  for (const n of nodes) {
    a.node({
      name: `node ${n.index}`, parent: n.parent, translation: [...n.translation], rotation: quatFromEulerExtrinsicXYZ(n.rotation), scale: [...n.scale],
      extras: { snap: { kind: 'joint', index: n.index, depth: n.depth, addr: hex(n.addr), ...(n.billboard ? { billboard: n.billboard, note: 'billboard nodes are exported as plain joints (§6 rule 7)' } : {}) } },
    })
  }
}

/** The skinned mesh, its skin (inverse binds from the rest world matrices) and its root node. */
function skinnedMesh(a: SceneAssembler, meshes: StageMeshes, l: LoadedActor): { mesh: number; triangles: number } | null {
  const name = l.actor.name
  const nodes = l.draws.nodes
  const mesh = meshes.mesh(`${name} mesh`, l.draws, { skinned: true })
  const ibm = new Float32Array(nodes.length * 16)
  const identity = identityMatrices(1)
  nodeWorlds(nodes).forEach((w, j) => {
    const inv = mat4Invert(w)
    if (!inv) a.warn(`node ${j}: rest matrix is singular; identity inverse bind matrix used`)
    ibm.set(inv ?? identity, j * 16)
  })
  if (mesh) {
    a.scene.skins.push({ name: `${name} skin`, joints: nodes.map((n) => n.index), inverseBindMatrices: ibm, skeleton: 0 })
    a.node({ name: `${name} mesh`, parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: mesh.mesh, skin: 0, extras: { snap: { kind: 'actorMesh' } } })
  }
  return mesh
}

/** One actor animation as a clip: node channels, visibility and its material tracks. */
function animationClip(a: SceneAssembler, meshes: StageMeshes, l: LoadedActor, la: LoadedAnimation, anim: ActorAnimation): Animation {
  const { channels, visibility } = nodeChannels(anim, l.draws.nodes, 0)
  const mat = la.materials?.length ? stageMaterialAnimation(a, meshes, { animated: la.materials, textures: l.textures }) : null
  return {
    name: la.name, duration: Math.max(anim.frames, 1) / anim.fps, frameRate: anim.fps, channels, loop: anim.loops,
    ...(visibility.length ? { visibility } : {}),
    ...(mat?.uvTracks ? { uvTracks: mat.uvTracks } : {}), ...(mat?.textureSwaps ? { textureSwaps: mat.textureSwaps } : {}), ...(mat?.colorTracks ? { colorTracks: mat.colorTracks } : {}),
    extras: { snap: { kind: 'actorAnimation', header: la.name, speed: anim.header.speed, frames: anim.frames, materialTracks: anim.materialTracks } },
  }
}

/** Builds the neutral scene of a loaded actor (the conversion step). */
export function buildActorScene(l: LoadedActor): { scene: Scene; stats: ActorSceneStats } {
  const act = l.actor
  // as the stage scene: warn at every use of a texture that does not decode
  const a = new SceneAssembler(act.name, { retryFailedTextures: true })
  const meshes = new StageMeshes(a, l.textures)
  jointNodes(a, l.draws.nodes)
  const mesh = skinnedMesh(a, meshes, l)
  const stats: ActorSceneStats = { nodes: l.draws.nodes.length, meshes: mesh ? a.scene.meshes[mesh.mesh]!.primitives.length : 0, triangles: mesh?.triangles ?? 0, animations: [], materialTracks: 0, warnings: a.warnings }
  for (const la of l.animations) {
    if (!la.anim) { stats.animations.push({ name: la.name, frames: 0, error: la.error }); continue }
    a.scene.animations.push(animationClip(a, meshes, l, la, la.anim))
    stats.animations.push({ name: la.name, frames: la.anim.frames })
    stats.materialTracks += la.anim.materialTracks
  }
  const warnings = [...act.warnings, ...l.draws.warnings, ...a.warnings]
  a.scene.extras = {
    snap: {
      kind: 'actor', id: act.id, name: act.name, archive: act.archive, renderKind: l.draws.kind, spawnType: act.spawnType, hd: l.hd, hasHd: act.hd !== undefined,
      initData: act.initData ? hex(act.initData.addr) : null, scale: act.initData?.scale ?? [1, 1, 1],
      animations: stats.animations, warnings: warnings.slice(0, 100),
    },
  }
  stats.warnings = warnings
  return { scene: a.scene, stats }
}
