/**
 * Debug overlays of the viewport: grid, bounds box, curves, skeleton. Lines only, drawn in
 * rendering group 1 (over the model) except the grid.
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js'
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder.js'
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { Color4 } from '@babylonjs/core/Maths/math.color.js'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js'
import type { Bounds } from '@shared/scene/bounds'
import type { BuiltScene } from './build'

/** A step of 1, 2 or 5 × 10ⁿ near `x`. */
export function niceStep(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1
  const p = Math.pow(10, Math.floor(Math.log10(x)))
  const m = x / p
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p
}

/** A grid on the XZ plane (y = 0) around `center`, with the X axis red and Z axis blue. */
export function makeGrid(bscene: BScene, radius: number): LinesMesh {
  const step = niceStep(radius / 5)
  const n = 10
  const ext = step * n
  const lines: Vector3[][] = []
  const colors: Color4[][] = []
  const grey = new Color4(0.45, 0.47, 0.5, 1)
  const faint = new Color4(0.3, 0.31, 0.34, 1)
  for (let i = -n; i <= n; i++) {
    const c = i === 0 ? null : i % 5 === 0 ? grey : faint
    lines.push([new Vector3(-ext, 0, i * step), new Vector3(ext, 0, i * step)])
    colors.push(c ? [c, c] : [new Color4(0.85, 0.25, 0.25, 1), new Color4(0.85, 0.25, 0.25, 1)])
    lines.push([new Vector3(i * step, 0, -ext), new Vector3(i * step, 0, ext)])
    colors.push(c ? [c, c] : [new Color4(0.25, 0.4, 0.9, 1), new Color4(0.25, 0.4, 0.9, 1)])
  }
  const m = CreateLineSystem('viewport/grid', { lines, colors }, bscene)
  m.isPickable = false
  m.metadata = { step }
  return m
}

export function makeBoundsBox(bscene: BScene, b: Bounds): LinesMesh {
  const [x0, y0, z0] = b.min
  const [x1, y1, z1] = b.max
  const c = [
    new Vector3(x0, y0, z0), new Vector3(x1, y0, z0), new Vector3(x1, y1, z0), new Vector3(x0, y1, z0),
    new Vector3(x0, y0, z1), new Vector3(x1, y0, z1), new Vector3(x1, y1, z1), new Vector3(x0, y1, z1),
  ]
  const e = [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4], [0, 4], [1, 5], [2, 6], [3, 7]]
  const m = CreateLineSystem('viewport/bounds', { lines: e.map(([a, b2]) => [c[a], c[b2]]) }, bscene)
  m.color.set(1, 0.6, 0.1)
  m.renderingGroupId = 1
  m.isPickable = false
  return m
}

/** One line mesh per neutral curve, under its node (or the scene root for world space). */
export function makeCurves(bscene: BScene, built: BuiltScene): LinesMesh[] {
  return built.neutral.curves.map((c, i) => {
    const pts: Vector3[] = []
    for (let k = 0; k + 2 < c.points.length; k += 3) pts.push(new Vector3(c.points[k], c.points[k + 1], c.points[k + 2]))
    if (c.closed && pts.length > 2) pts.push(pts[0].clone())
    const m = CreateLineSystem(`viewport/curve/${c.name || i}`, { lines: [pts] }, bscene)
    const col = c.color ?? [0.2, 0.9, 0.9]
    m.color.set(col[0], col[1], col[2])
    m.parent = c.node !== undefined && c.node >= 0 ? built.nodes[c.node] : built.root
    m.renderingGroupId = 1
    m.isPickable = false
    return m
  })
}

/**
 * Bones as lines from each joint to its nearest joint ancestor, and a small cross at every joint.
 * Joints are the skins' joints, or every node when the scene has no skin (rigid-part models).
 */
export class SkeletonOverlay {
  readonly mesh: LinesMesh | null
  private joints: number[]
  private segments: [number, number][]
  private positions: Float32Array
  private size: number

  constructor(bscene: BScene, private built: BuiltScene, radius: number) {
    const s = built.neutral
    const jointSet = new Set<number>(s.skins.length ? s.skins.flatMap((k) => k.joints) : s.nodes.map((_, i) => i))
    this.joints = [...jointSet].sort((a, b) => a - b)
    this.segments = []
    for (const j of this.joints) {
      let p = s.nodes[j].parent
      for (let guard = 0; p >= 0 && !jointSet.has(p) && guard < s.nodes.length; guard++) p = s.nodes[p].parent
      if (p >= 0) this.segments.push([p, j])
    }
    this.size = radius * 0.02
    const count = this.segments.length + this.joints.length * 3
    this.positions = new Float32Array(count * 6)
    if (!count) {
      this.mesh = null
      return
    }
    const lines: Vector3[][] = []
    const colors: Color4[][] = []
    const bone = new Color4(1, 0.85, 0.2, 1)
    const joint = new Color4(1, 0.35, 0.6, 1)
    for (let i = 0; i < this.segments.length; i++) {
      lines.push([Vector3.Zero(), Vector3.Zero()])
      colors.push([bone, bone])
    }
    for (let i = 0; i < this.joints.length * 3; i++) {
      lines.push([Vector3.Zero(), Vector3.Zero()])
      colors.push([joint, joint])
    }
    this.mesh = CreateLineSystem('viewport/skeleton', { lines, colors, updatable: true }, bscene)
    this.mesh.renderingGroupId = 1
    this.mesh.isPickable = false
    this.mesh.alwaysSelectAsActiveMesh = true
    this.update()
  }

  /** Re-reads joint world positions (call after the pose changed). */
  update(): void {
    if (!this.mesh) return
    const nodes = this.built.nodes
    for (const j of this.joints) nodes[j].computeWorldMatrix(true)
    const p = this.positions
    let o = 0
    const put = (v: Vector3, dx = 0, dy = 0, dz = 0) => {
      p[o++] = v.x + dx
      p[o++] = v.y + dy
      p[o++] = v.z + dz
    }
    for (const [a, b] of this.segments) {
      put(nodes[a].getAbsolutePosition())
      put(nodes[b].getAbsolutePosition())
    }
    const d = this.size
    for (const j of this.joints) {
      const v = nodes[j].getAbsolutePosition()
      put(v, -d, 0, 0)
      put(v, d, 0, 0)
      put(v, 0, -d, 0)
      put(v, 0, d, 0)
      put(v, 0, 0, -d)
      put(v, 0, 0, d)
    }
    this.mesh.updateVerticesData(VertexBuffer.PositionKind, p, false, false)
    this.mesh.refreshBoundingInfo()
  }

  /** World positions last written (for tests): 6 floats per line. */
  get linePositions(): Float32Array {
    return this.positions
  }

  dispose(): void {
    this.mesh?.dispose()
  }
}
