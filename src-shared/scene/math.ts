/**
 * Small matrix/quaternion helpers for the neutral scene. Conventions as in glTF: matrices are 16
 * numbers in column-major order (translation in elements 12..14), quaternions are [x, y, z, w],
 * points are column vectors (M·p), and a node's local matrix is T·R·S.
 *
 * Arithmetic is done in float64 (`Float64Array`) so that chains of many bones keep their
 * precision; callers may copy into Float32Array when they hand matrices to a GPU.
 */
import type { Quat, SceneNode, Vec3 } from './types'

export type M4 = Float64Array

export function mat4Identity(out: M4 = new Float64Array(16)): M4 {
  out.fill(0)
  out[0] = out[5] = out[10] = out[15] = 1
  return out
}

/** Local matrix T·R·S of a translation, a (unit) quaternion and a scale. */
export function mat4FromTRS(t: ArrayLike<number>, r: ArrayLike<number>, s: ArrayLike<number>, out: M4 = new Float64Array(16)): M4 {
  const [x, y, z, w] = [r[0], r[1], r[2], r[3]]
  const x2 = x + x, y2 = y + y, z2 = z + z
  const xx = x * x2, xy = x * y2, xz = x * z2
  const yy = y * y2, yz = y * z2, zz = z * z2
  const wx = w * x2, wy = w * y2, wz = w * z2
  const sx = s[0], sy = s[1], sz = s[2]
  out[0] = (1 - (yy + zz)) * sx
  out[1] = (xy + wz) * sx
  out[2] = (xz - wy) * sx
  out[3] = 0
  out[4] = (xy - wz) * sy
  out[5] = (1 - (xx + zz)) * sy
  out[6] = (yz + wx) * sy
  out[7] = 0
  out[8] = (xz + wy) * sz
  out[9] = (yz - wx) * sz
  out[10] = (1 - (xx + yy)) * sz
  out[11] = 0
  out[12] = t[0]
  out[13] = t[1]
  out[14] = t[2]
  out[15] = 1
  return out
}

/** a·b (apply b first, then a). `out` may alias a or b. */
export function mat4Multiply(a: ArrayLike<number>, b: ArrayLike<number>, out: M4 = new Float64Array(16)): M4 {
  const r = new Float64Array(16)
  for (let c = 0; c < 4; c++) {
    for (let row = 0; row < 4; row++) {
      r[c * 4 + row] =
        a[row] * b[c * 4] + a[4 + row] * b[c * 4 + 1] + a[8 + row] * b[c * 4 + 2] + a[12 + row] * b[c * 4 + 3]
    }
  }
  out.set(r)
  return out
}

/** Inverse of a 4×4 matrix, or null when it is singular. */
export function mat4Invert(m: ArrayLike<number>, out: M4 = new Float64Array(16)): M4 | null {
  const a00 = m[0], a01 = m[1], a02 = m[2], a03 = m[3]
  const a10 = m[4], a11 = m[5], a12 = m[6], a13 = m[7]
  const a20 = m[8], a21 = m[9], a22 = m[10], a23 = m[11]
  const a30 = m[12], a31 = m[13], a32 = m[14], a33 = m[15]
  const b00 = a00 * a11 - a01 * a10
  const b01 = a00 * a12 - a02 * a10
  const b02 = a00 * a13 - a03 * a10
  const b03 = a01 * a12 - a02 * a11
  const b04 = a01 * a13 - a03 * a11
  const b05 = a02 * a13 - a03 * a12
  const b06 = a20 * a31 - a21 * a30
  const b07 = a20 * a32 - a22 * a30
  const b08 = a20 * a33 - a23 * a30
  const b09 = a21 * a32 - a22 * a31
  const b10 = a21 * a33 - a23 * a31
  const b11 = a22 * a33 - a23 * a32
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06
  if (!det || !Number.isFinite(det)) return null
  const d = 1 / det
  out[0] = (a11 * b11 - a12 * b10 + a13 * b09) * d
  out[1] = (a02 * b10 - a01 * b11 - a03 * b09) * d
  out[2] = (a31 * b05 - a32 * b04 + a33 * b03) * d
  out[3] = (a22 * b04 - a21 * b05 - a23 * b03) * d
  out[4] = (a12 * b08 - a10 * b11 - a13 * b07) * d
  out[5] = (a00 * b11 - a02 * b08 + a03 * b07) * d
  out[6] = (a32 * b02 - a30 * b05 - a33 * b01) * d
  out[7] = (a20 * b05 - a22 * b02 + a23 * b01) * d
  out[8] = (a10 * b10 - a11 * b08 + a13 * b06) * d
  out[9] = (a01 * b08 - a00 * b10 - a03 * b06) * d
  out[10] = (a30 * b04 - a31 * b02 + a33 * b00) * d
  out[11] = (a21 * b02 - a20 * b04 - a23 * b00) * d
  out[12] = (a11 * b07 - a10 * b09 - a12 * b06) * d
  out[13] = (a00 * b09 - a01 * b07 + a02 * b06) * d
  out[14] = (a31 * b01 - a30 * b03 - a32 * b00) * d
  out[15] = (a20 * b03 - a21 * b01 + a22 * b00) * d
  return out
}

/** M·p for a point (w = 1). */
export function transformPoint(m: ArrayLike<number>, p: ArrayLike<number>, out: number[] = [0, 0, 0]): number[] {
  const x = p[0], y = p[1], z = p[2]
  out[0] = m[0] * x + m[4] * y + m[8] * z + m[12]
  out[1] = m[1] * x + m[5] * y + m[9] * z + m[13]
  out[2] = m[2] * x + m[6] * y + m[10] * z + m[14]
  return out
}

/** M·d for a direction (w = 0). */
export function transformDirection(m: ArrayLike<number>, d: ArrayLike<number>, out: number[] = [0, 0, 0]): number[] {
  const x = d[0], y = d[1], z = d[2]
  out[0] = m[0] * x + m[4] * y + m[8] * z
  out[1] = m[1] * x + m[5] * y + m[9] * z
  out[2] = m[2] * x + m[6] * y + m[10] * z
  return out
}

export function quatNormalize(q: ArrayLike<number>, out: number[] = [0, 0, 0, 1]): number[] {
  const l = Math.hypot(q[0], q[1], q[2], q[3])
  if (!(l > 0) || !Number.isFinite(l)) {
    out[0] = out[1] = out[2] = 0
    out[3] = 1
    return out
  }
  out[0] = q[0] / l
  out[1] = q[1] / l
  out[2] = q[2] / l
  out[3] = q[3] / l
  return out
}

/** Hamilton product a·b (rotate by b, then by a). */
export function quatMultiply(a: ArrayLike<number>, b: ArrayLike<number>, out: number[] = [0, 0, 0, 1]): number[] {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3]
  const bx = b[0], by = b[1], bz = b[2], bw = b[3]
  out[0] = aw * bx + ax * bw + ay * bz - az * by
  out[1] = aw * by - ax * bz + ay * bw + az * bx
  out[2] = aw * bz + ax * by - ay * bx + az * bw
  out[3] = aw * bw - ax * bx - ay * by - az * bz
  return out
}

/** Unit quaternion for a rotation of `angle` radians about the (unit) `axis`. */
export function quatFromAxisAngle(axis: ArrayLike<number>, angle: number): Quat {
  const s = Math.sin(angle / 2)
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)]
}

/**
 * Spherical linear interpolation along the shorter arc (as glTF's reference implementation:
 * when the dot product is negative one end is negated). Falls back to a normalised lerp when the
 * quaternions are nearly equal.
 */
export function quatSlerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number, out: number[] = [0, 0, 0, 1]): number[] {
  let bx = b[0], by = b[1], bz = b[2], bw = b[3]
  let dot = a[0] * bx + a[1] * by + a[2] * bz + a[3] * bw
  if (dot < 0) {
    dot = -dot
    bx = -bx
    by = -by
    bz = -bz
    bw = -bw
  }
  let s0: number, s1: number
  if (dot > 0.9999995) {
    s0 = 1 - t
    s1 = t
  } else {
    const theta = Math.acos(Math.min(1, dot))
    const sin = Math.sin(theta)
    s0 = Math.sin((1 - t) * theta) / sin
    s1 = Math.sin(t * theta) / sin
  }
  out[0] = s0 * a[0] + s1 * bx
  out[1] = s0 * a[1] + s1 * by
  out[2] = s0 * a[2] + s1 * bz
  out[3] = s0 * a[3] + s1 * bw
  return quatNormalize(out, out)
}

/** A node's transform, separate from the node (animation samples produce these). */
export interface TRS {
  translation: Vec3
  rotation: Quat
  scale: Vec3
}

export function restPose(nodes: readonly SceneNode[]): TRS[] {
  return nodes.map((n) => ({ translation: [...n.translation] as Vec3, rotation: [...n.rotation] as Quat, scale: [...n.scale] as Vec3 }))
}

/**
 * World matrices of every node (16 float64 per node, node i at offset 16·i) for a pose (default:
 * the nodes' rest TRS). Relies on parents coming before children, which `validateScene` checks.
 */
export function worldMatrices(nodes: readonly SceneNode[], pose?: readonly TRS[]): Float64Array {
  const out = new Float64Array(nodes.length * 16)
  const local = new Float64Array(16)
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]
    const p = pose ? pose[i] : n
    mat4FromTRS(p.translation, p.rotation, p.scale, local)
    const dst = out.subarray(i * 16, i * 16 + 16)
    if (n.parent >= 0 && n.parent < i) mat4Multiply(out.subarray(n.parent * 16, n.parent * 16 + 16), local, dst)
    else dst.set(local)
  }
  return out
}

/** Axis-aligned bounds of points already in one space: {min, max}, or null for no points. */
export function boundsOfPoints(points: ArrayLike<number>, m?: ArrayLike<number>, acc?: { min: number[]; max: number[] }): { min: number[]; max: number[] } | null {
  const box = acc ?? { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] }
  const p = [0, 0, 0]
  for (let i = 0; i + 2 < points.length; i += 3) {
    p[0] = points[i]
    p[1] = points[i + 1]
    p[2] = points[i + 2]
    if (m) transformPoint(m, p, p)
    for (let k = 0; k < 3; k++) {
      if (p[k] < box.min[k]) box.min[k] = p[k]
      if (p[k] > box.max[k]) box.max[k] = p[k]
    }
  }
  return box.min[0] <= box.max[0] ? box : acc ?? null
}
