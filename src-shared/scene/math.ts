/**
 * THE maths kit of the project (matrices, quaternions, Euler conventions); format code calls
 * these instead of keeping its own copies. Conventions as in glTF: matrices are 16 numbers in
 * column-major order (translation in elements 12..14), quaternions are [x, y, z, w] with the
 * Hamilton product, points are column vectors (M·p), and a node's local matrix is T·R·S.
 * (A row-vector, row-major matrix of the N64 games, p' = p·M, is the same 16 numbers.)
 *
 * Euler conventions are named for what they are:
 * - `…Intrinsic(e, order)`: `order` names the matrix product left to right, R = Ra·Rb·Rc, i.e.
 *   rotations about the moving axes a, then b, then c (= about the fixed axes c, then b, then a);
 *   as a quaternion q = qa ⊗ qb ⊗ qc. RE's EMV angles use 'YXZ' (re/euler.ts).
 * - `…ExtrinsicXYZ`: about the fixed X, then Y, then Z: R = Rz·Ry·Rx (= intrinsic 'ZYX'); the
 *   N64 "roll-pitch-yaw" of Snap (pokemon-snap.md §4.3) and Stadium's joint basis (§11.3).
 * - `…ExtrinsicZXY`: about the fixed Z, then X, then Y: R = Ry·Rx·Rz (= intrinsic 'YXZ');
 *   Stadium's 0x1B/0x20 transform basis (pokemon-stadium.md §11.5).
 * Angles are radians; e is [x, y, z] whatever the order.
 *
 * Arithmetic is done in float64 (`Float64Array`) so that chains of many bones keep their
 * precision; callers may copy into Float32Array when they hand matrices to a GPU.
 */
import type { Quat, SceneNode, Vec3 } from './types'
import { quatNormalize } from './quat'

export type { Quat, Vec3 }
export * from './quat'

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

/** M·S for S = diag(s): scales the first three columns (the game's row scale of a row-vector MtxF). */
export function mat4ScaleColumns(m: ArrayLike<number>, s: ArrayLike<number>, out: M4 = new Float64Array(16)): M4 {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) out[i * 4 + j] = m[i * 4 + j]! * s[i]!
  for (let j = 12; j < 16; j++) out[j] = m[j]!
  return out
}

/** T·R with R = Rz·Ry·Rx (extrinsic XYZ, see the top), t default 0. */
export function mat4FromEulerExtrinsicXYZ(e: ArrayLike<number>, t: ArrayLike<number> = [0, 0, 0]): M4 {
  const sx = Math.sin(e[0]!), cx = Math.cos(e[0]!), sy = Math.sin(e[1]!), cy = Math.cos(e[1]!), sz = Math.sin(e[2]!), cz = Math.cos(e[2]!)
  return Float64Array.of(
    cy * cz, cy * sz, -sy, 0,
    sx * sy * cz - cx * sz, sx * sy * sz + cx * cz, sx * cy, 0,
    cx * sy * cz + sx * sz, cx * sy * sz - sx * cz, cx * cy, 0,
    t[0]!, t[1]!, t[2]!, 1,
  )
}

/** T·R with R = Ry·Rx·Rz (extrinsic ZXY, see the top), t default 0. */
export function mat4FromEulerExtrinsicZXY(e: ArrayLike<number>, t: ArrayLike<number> = [0, 0, 0]): M4 {
  const sx = Math.sin(e[0]!), cx = Math.cos(e[0]!), sy = Math.sin(e[1]!), cy = Math.cos(e[1]!), sz = Math.sin(e[2]!), cz = Math.cos(e[2]!)
  return Float64Array.of(
    cy * cz + sx * sy * sz, cx * sz, -sy * cz + sx * cy * sz, 0,
    -cy * sz + sx * sy * cz, cx * cz, sy * sz + sx * cy * cz, 0,
    cx * sy, -sx, cx * cy, 0,
    t[0]!, t[1]!, t[2]!, 1,
  )
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

/**
 * A matrix as T·R·S (the inverse of `mat4FromTRS` for matrices without shear): translation from
 * elements 12..14, scale = the column lengths (x negated when the determinant is negative),
 * rotation from the normalised columns (Shepperd's method: the largest of w², x², y², z² first).
 */
export function mat4ToTRS(m: ArrayLike<number>): TRS {
  let sx = Math.hypot(m[0], m[1], m[2])
  const sy = Math.hypot(m[4], m[5], m[6])
  const sz = Math.hypot(m[8], m[9], m[10])
  const det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5])
  if (det < 0) sx = -sx
  const [a, b, c] = [sx || 1, sy || 1, sz || 1]
  const r00 = m[0] / a, r10 = m[1] / a, r20 = m[2] / a
  const r01 = m[4] / b, r11 = m[5] / b, r21 = m[6] / b
  const r02 = m[8] / c, r12 = m[9] / c, r22 = m[10] / c
  const tr = r00 + r11 + r22
  let q: Quat
  if (tr > 0) {
    const s = 2 * Math.sqrt(1 + tr)
    q = [(r21 - r12) / s, (r02 - r20) / s, (r10 - r01) / s, s / 4]
  } else if (r00 > r11 && r00 > r22) {
    const s = 2 * Math.sqrt(1 + r00 - r11 - r22)
    q = [s / 4, (r01 + r10) / s, (r02 + r20) / s, (r21 - r12) / s]
  } else if (r11 > r22) {
    const s = 2 * Math.sqrt(1 + r11 - r00 - r22)
    q = [(r01 + r10) / s, s / 4, (r12 + r21) / s, (r02 - r20) / s]
  } else {
    const s = 2 * Math.sqrt(1 + r22 - r00 - r11)
    q = [(r02 + r20) / s, (r12 + r21) / s, s / 4, (r10 - r01) / s]
  }
  return { translation: [m[12], m[13], m[14]], rotation: quatNormalize(q), scale: [sx, sy, sz] }
}

/** Whether every value is a finite number (a loop: `typedArray.every(Number.isFinite)` boxes each value). */
export function allFinite(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false
  return true
}
