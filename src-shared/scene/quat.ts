/**
 * Quaternions and Euler angles of the maths kit (math.ts re-exports all of it; import from there).
 * Conventions as math.ts states them: [x, y, z, w], Hamilton product, angles in radians; the
 * Euler orders are explained at the top of math.ts.
 */
import type { Quat, Vec3 } from './types'

/** The three letters of an Euler order (see the top of math.ts). */
export type EulerOrder = 'XYZ' | 'XZY' | 'YXZ' | 'YZX' | 'ZXY' | 'ZYX'

export function quatNormalize<T extends number[] = Quat>(q: ArrayLike<number>, out: T = [0, 0, 0, 1] as T): T {
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
export function quatMultiply<T extends number[] = Quat>(a: ArrayLike<number>, b: ArrayLike<number>, out: T = [0, 0, 0, 1] as T): T {
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

/** Rotation of `angle` radians about the coordinate axis 0 (X), 1 (Y) or 2 (Z). */
export function quatAboutAxis(axis: number, angle: number): Quat {
  const q: Quat = [0, 0, 0, Math.cos(angle / 2)]
  q[axis] = Math.sin(angle / 2)
  return q
}

const AXIS: Record<string, number> = { X: 0, Y: 1, Z: 2 }

/** q = qa ⊗ qb ⊗ qc for order "abc" (intrinsic, see the top); not renormalised. */
export function quatFromEulerIntrinsic(e: ArrayLike<number>, order: EulerOrder): Quat {
  let q: Quat = [0, 0, 0, 1]
  for (const c of order) {
    const a = AXIS[c]!
    q = quatMultiply(q, quatAboutAxis(a, e[a]!))
  }
  return q
}

/** R = Rz·Ry·Rx (extrinsic XYZ) in closed form: the same rotation as `quatFromEulerIntrinsic(e, 'ZYX')`. */
export function quatFromEulerExtrinsicXYZ(e: ArrayLike<number>): Quat {
  const q: Quat = [0, 0, 0, 1]
  quatFromEulerXYZInto(e[0]!, e[1]!, e[2]!, q)
  return q
}

/** `quatFromEulerExtrinsicXYZ` written into `out` (no allocation: per-frame sampling). */
export function quatFromEulerXYZInto(x: number, y: number, z: number, out: { [i: number]: number }): void {
  const cx = Math.cos(x / 2), sx = Math.sin(x / 2), cy = Math.cos(y / 2), sy = Math.sin(y / 2), cz = Math.cos(z / 2), sz = Math.sin(z / 2)
  out[0] = sx * cy * cz - cx * sy * sz
  out[1] = cx * sy * cz + sx * cy * sz
  out[2] = cx * cy * sz - sx * sy * cz
  out[3] = cx * cy * cz + sx * sy * sz
}

/** Normalised, and negated when w < 0 (one representative of q and −q). */
export function quatCanonical(q: ArrayLike<number>): Quat {
  const n = quatNormalize(q)
  return n[3] < 0 ? [-n[0], -n[1], -n[2], -n[3]] : n
}

/** The inverse of a unit quaternion. */
export function quatConjugate(q: ArrayLike<number>): Quat {
  return [-q[0]!, -q[1]!, -q[2]!, q[3]!]
}

/** w of a unit quaternion with w ≥ 0 from x, y, z. */
export function quatW(x: number, y: number, z: number): number {
  return Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z))
}

/** v rotated by the unit quaternion q (q v q*). */
export function quatRotateVec3(q: ArrayLike<number>, v: ArrayLike<number>): Vec3 {
  const x = q[0]!, y = q[1]!, z = q[2]!, w = q[3]!
  const ix = w * v[0]! + y * v[2]! - z * v[1]!
  const iy = w * v[1]! + z * v[0]! - x * v[2]!
  const iz = w * v[2]! + x * v[1]! - y * v[0]!
  const iw = -x * v[0]! - y * v[1]! - z * v[2]!
  return [ix * w + iw * -x + iy * -z - iz * -y, iy * w + iw * -y + iz * -x - ix * -z, iz * w + iw * -z + ix * -y - iy * -x]
}

/** Rotation matrix m[row][col] (column-vector convention) of a quaternion (normalised first). */
export function quatToMatrix3(q: ArrayLike<number>): number[][] {
  const [x, y, z, w] = quatNormalize(q)
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ]
}

/**
 * Inverse of `quatFromEulerIntrinsic`: [x, y, z] with R = Ra(α)·Rb(β)·Rc(γ) for order "abc"; the
 * middle angle within ±π/2. At gimbal lock (|cos β| ≈ 0) the last angle is 0.
 */
export function quatToEulerIntrinsic(q: ArrayLike<number>, order: EulerOrder): Vec3 {
  const m = quatToMatrix3(q)
  const a = AXIS[order[0]!]!, b = AXIS[order[1]!]!, c = AXIS[order[2]!]!
  // +1 for the cyclic orders XYZ, YZX, ZXY; −1 for the others.
  const s = (b - a + 3) % 3 === 1 ? 1 : -1
  const sinB = Math.max(-1, Math.min(1, s * m[a]![c]!))
  const beta = Math.asin(sinB)
  let alpha: number
  let gamma: number
  if (Math.abs(sinB) < 1 - 1e-9) {
    alpha = Math.atan2(-s * m[b]![c]!, m[c]![c]!)
    gamma = Math.atan2(-s * m[a]![b]!, m[a]![a]!)
  } else {
    gamma = 0
    alpha = Math.atan2(s * m[c]![b]!, m[b]![b]!)
  }
  const out: Vec3 = [0, 0, 0]
  out[a] = alpha
  out[b] = beta
  out[c] = gamma
  return out
}

/** Angle between two rotations (radians), sign-insensitive (q and −q are the same rotation). */
export function quatAngle(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const na = quatNormalize(a)
  let nb = quatNormalize(b)
  if (na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2] + na[3] * nb[3] < 0) nb = [-nb[0], -nb[1], -nb[2], -nb[3]]
  // Stable near 0 (acos is not): the 4D angle φ = 2·atan2(|a−b|, |a+b|); the rotation angle is 2φ.
  const diff = Math.hypot(na[0] - nb[0], na[1] - nb[1], na[2] - nb[2], na[3] - nb[3])
  const sum = Math.hypot(na[0] + nb[0], na[1] + nb[1], na[2] + nb[2], na[3] + nb[3])
  return 4 * Math.atan2(diff, sum)
}

/** Normalised linear interpolation along the shorter arc. */
export function quatNlerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): Quat {
  const dot = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!
  const sb = dot < 0 ? -1 : 1
  return quatNormalize([a[0]! + (sb * b[0]! - a[0]!) * t, a[1]! + (sb * b[1]! - a[1]!) * t, a[2]! + (sb * b[2]! - a[2]!) * t, a[3]! + (sb * b[3]! - a[3]!) * t])
}

/**
 * Spherical linear interpolation along the shorter arc (as glTF's reference implementation:
 * when the dot product is negative one end is negated). Falls back to a normalised lerp when the
 * quaternions are nearly equal.
 */
export function quatSlerp<T extends number[] = Quat>(a: ArrayLike<number>, b: ArrayLike<number>, t: number, out: T = [0, 0, 0, 1] as T): T {
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
