/**
 * World-space bounds of a neutral scene in a pose (default: rest), skinning included (glTF rule:
 * a skinned vertex = Σ weight · jointWorld · inverseBind · v; the mesh node's transform is ignored).
 */
import type { Scene } from './types'
import { mat4Multiply, transformPoint, worldMatrices, type TRS } from './math'

export interface Bounds {
  min: [number, number, number]
  max: [number, number, number]
}

export function boundsCenter(b: Bounds): [number, number, number] {
  return [(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2]
}

export function boundsRadius(b: Bounds): number {
  return Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) / 2
}

/** Bounds of all mesh vertices and curve points, or null when the scene has none. */
export function sceneBounds(scene: Scene, pose?: readonly TRS[], opts: { curves?: boolean } = {}): Bounds | null {
  const world = worldMatrices(scene.nodes, pose)
  const min: [number, number, number] = [Infinity, Infinity, Infinity]
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity]
  const add = (p: number[]) => {
    for (let k = 0; k < 3; k++) {
      if (p[k] < min[k]) min[k] = p[k]
      if (p[k] > max[k]) max[k] = p[k]
    }
  }
  const skinMats = scene.skins.map((s) => s.joints.map((j, k) => mat4Multiply(world.subarray(j * 16, j * 16 + 16), s.inverseBindMatrices.subarray(k * 16, k * 16 + 16))))
  const p = [0, 0, 0]
  const q = [0, 0, 0]
  const blended = new Float64Array(16)
  scene.nodes.forEach((n, ni) => {
    if (n.mesh === undefined) return
    const mesh = scene.meshes[n.mesh]
    const nodeWorld = world.subarray(ni * 16, ni * 16 + 16)
    const mats = n.skin !== undefined ? skinMats[n.skin] : null
    for (const pr of mesh.primitives) {
      const pos = pr.positions
      for (let v = 0; v * 3 + 2 < pos.length; v++) {
        p[0] = pos[v * 3]
        p[1] = pos[v * 3 + 1]
        p[2] = pos[v * 3 + 2]
        if (mats && pr.joints && pr.weights) {
          blended.fill(0)
          for (let c = 0; c < (pr.joints1 && pr.weights1 ? 8 : 4); c++) {
            const w = c < 4 ? pr.weights[v * 4 + c] : pr.weights1![v * 4 + c - 4]
            if (!(w > 0)) continue
            const m = mats[c < 4 ? pr.joints[v * 4 + c] : pr.joints1![v * 4 + c - 4]]
            if (!m) continue
            for (let e = 0; e < 16; e++) blended[e] += w * m[e]
          }
          add(transformPoint(blended, p, q))
        } else add(transformPoint(nodeWorld, p, q))
      }
    }
  })
  if (opts.curves !== false) {
    for (const c of scene.curves) {
      const m = c.node !== undefined && c.node >= 0 ? world.subarray(c.node * 16, c.node * 16 + 16) : null
      for (let i = 0; i + 2 < c.points.length; i += 3) {
        p[0] = c.points[i]
        p[1] = c.points[i + 1]
        p[2] = c.points[i + 2]
        add(m ? transformPoint(m, p, q) : p)
      }
    }
  }
  return min[0] <= max[0] ? { min, max } : null
}

/**
 * Bounds of the nodes' world positions (rest or `pose`): what frames a scene without geometry,
 * such as a bare skeleton. Null for a scene without nodes.
 */
export function nodeBounds(scene: Scene, pose?: readonly TRS[]): Bounds | null {
  if (!scene.nodes.length) return null
  const world = worldMatrices(scene.nodes, pose)
  const min: [number, number, number] = [Infinity, Infinity, Infinity]
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < scene.nodes.length; i++) {
    for (let k = 0; k < 3; k++) {
      const v = world[i * 16 + 12 + k]
      if (v < min[k]) min[k] = v
      if (v > max[k]) max[k] = v
    }
  }
  return { min, max }
}
