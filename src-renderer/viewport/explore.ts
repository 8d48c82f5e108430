/**
 * Exploring aids of the viewport, all format-free: scene statistics, the bounds of the pose shown
 * now, marker gizmos for marker/empty nodes, the highlight box of a picked mesh, and a scene's own
 * opening view.
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js'
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js'
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js'
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { Color4 } from '@babylonjs/core/Maths/math.color.js'
import type { Scene } from '@shared/scene/types'
import { nodeBounds, sceneBounds, type Bounds } from '@shared/scene/bounds'
import { worldMatrices } from '@shared/scene/math'
import { clipSampleTime, samplePose } from '@shared/scene/sample'
import type { BuiltScene } from './build'
import type { AnimationPlayer } from './player'
import type { CameraView, SceneStats } from './types'

export type { SceneStats }

/** One mesh as the counter sees it. */
export interface CountedMesh {
  enabled: boolean
  indices: number
  lines: boolean
}

/**
 * Counts what is drawn: triangles = indices / 3 of the enabled triangle meshes, one draw per
 * enabled mesh (lines too), textures = the distinct textures in `bound` (null entries skipped).
 */
export function countStats(meshes: readonly CountedMesh[], bound: readonly (number | null | undefined)[], sceneTextures: number): SceneStats {
  let triangles = 0
  let drawCalls = 0
  for (const m of meshes) {
    if (!m.enabled || m.indices <= 0) continue
    drawCalls++
    if (!m.lines) triangles += Math.floor(m.indices / 3)
  }
  const tex = new Set<number>()
  for (const t of bound) if (typeof t === 'number') tex.add(t)
  return { triangles, drawCalls, textures: tex.size, sceneTextures }
}

/** Stats of a built scene as shown now (visibility tracks and toggles applied). */
export function builtStats(built: BuiltScene, texturesOn: boolean): SceneStats {
  const meshes = built.meshes.map((m) => ({
    enabled: m.isEnabled() && m.isVisible,
    indices: m.getTotalIndices(),
    lines: m.material?.fillMode === 4 /* Material.LineListDrawMode */,
  }))
  const used = new Set<number>()
  for (const m of built.meshes) {
    const info = (m.metadata as { modbench?: { material: number } } | null)?.modbench
    if (info && m.isEnabled()) used.add(info.material)
  }
  const bound = texturesOn ? built.materials.filter((bm) => used.has(bm.index)).map((bm) => bm.texture) : []
  return countStats(meshes, bound, built.neutral.textures.length)
}

/**
 * Bounds of the pose the player shows now (the clip at its current time), not the rest pose: a
 * clip that carries the model away is framed where it is. Falls back to node positions for a
 * scene without geometry.
 */
export function poseBounds(scene: Scene, player: AnimationPlayer | null): Bounds | null {
  const anim = player?.animation ?? null
  const pose = anim ? samplePose(scene, anim, clipSampleTime(anim, player!.time)) : undefined
  return sceneBounds(scene, pose) ?? nodeBounds(scene, pose)
}

/**
 * Marker nodes: flagged `extras.marker` by the scene builder, or empty leaves (no mesh, no
 * children, not a skin joint) — spawn points, attachment points, lights' places.
 */
export function markerNodes(scene: Scene): number[] {
  const hasChild = new Uint8Array(scene.nodes.length)
  for (const n of scene.nodes) if (n.parent >= 0) hasChild[n.parent] = 1
  const joints = new Set(scene.skins.flatMap((s) => s.joints))
  const out: number[] = []
  scene.nodes.forEach((n, i) => {
    if (n.extras?.marker === true || (n.mesh === undefined && !hasChild[i] && !joints.has(i))) out.push(i)
  })
  return out
}

/** A small three-axis gizmo (X red, Y green, Z blue) at each marker node's rest place, one line mesh. */
export function makeMarkers(bscene: BScene, scene: Scene, size: number): LinesMesh | null {
  const nodes = markerNodes(scene)
  if (!nodes.length) return null
  const world = worldMatrices(scene.nodes)
  const lines: Vector3[][] = []
  const colors: Color4[][] = []
  const axis = [new Color4(1, 0.3, 0.3, 1), new Color4(0.3, 1, 0.3, 1), new Color4(0.35, 0.55, 1, 1)]
  for (const i of nodes) {
    const o = i * 16
    const p = new Vector3(world[o + 12], world[o + 13], world[o + 14])
    for (let a = 0; a < 3; a++) {
      const d = new Vector3(a === 0 ? size : 0, a === 1 ? size : 0, a === 2 ? size : 0)
      lines.push([p.subtract(d.scale(a === 1 ? 0 : 1)), p.add(d)])
      colors.push([axis[a], axis[a]])
    }
  }
  const m = CreateLineSystem('viewport/markers', { lines, colors }, bscene)
  m.renderingGroupId = 1
  m.isPickable = false
  m.metadata = { markers: nodes }
  return m
}

/** Whether node `n` is `root` or lies below it. */
function below(scene: Scene, n: number, root: number): boolean {
  for (let k = n, guard = 0; k >= 0 && guard <= scene.nodes.length; k = scene.nodes[k].parent, guard++) if (k === root) return true
  return false
}

/**
 * World bounds of the meshes a pick stands for: the node's meshes (with `subtree`, those of the
 * nodes below it too, as far as they are shown), or the one merged mesh.
 */
export function pickedBounds(built: BuiltScene, node: number, mesh: AbstractMesh | null, subtree = false): Bounds | null {
  const nodeOf = (m: AbstractMesh) => (m.metadata as { modbench?: { node: number } } | null)?.modbench?.node ?? -1
  const meshes = node >= 0
    ? built.meshes.filter((m) => (subtree ? m.isEnabled() && nodeOf(m) >= 0 && below(built.neutral, nodeOf(m), node) : nodeOf(m) === node))
    : mesh ? [mesh] : []
  let b: Bounds | null = null
  for (const m of meshes) {
    m.computeWorldMatrix(true)
    const bb = m.getBoundingInfo().boundingBox
    const lo = bb.minimumWorld, hi = bb.maximumWorld
    b = b
      ? { min: [Math.min(b.min[0], lo.x), Math.min(b.min[1], lo.y), Math.min(b.min[2], lo.z)], max: [Math.max(b.max[0], hi.x), Math.max(b.max[1], hi.y), Math.max(b.max[2], hi.z)] }
      : { min: [lo.x, lo.y, lo.z], max: [hi.x, hi.y, hi.z] }
  }
  return b
}

/** The scene's own opening view (`extras.camera`), when it names one. */
export function openingView(s: Scene): CameraView | null {
  const c = s.extras?.camera as Partial<CameraView> | undefined
  const ok = (v: unknown): v is [number, number, number] => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x))
  return c && ok(c.eye) && ok(c.target) ? { eye: c.eye, target: c.target } : null
}
