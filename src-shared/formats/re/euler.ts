/**
 * Quaternions and the EMV `_LocalEulerAngle` convention (spec §7.3).
 *
 * Quaternions are [x, y, z, w] (memory order of the mot format), Hamilton product. An Euler
 * order names the matrix product left to right: 'YXZ' means R = Ry(y)·Rx(x)·Rz(z), i.e. the
 * rotation about Z is applied first, then X, then Y, all in the parent frame; as a quaternion
 * q = qY ⊗ qX ⊗ qZ. The spec's chosen convention is YXZ (tag [I]: not yet confirmed in game,
 * §11 Q1), which equals DirectXMath XMQuaternionRotationRollPitchYaw and Babylon's
 * Quaternion.RotationYawPitchRoll(y, x, z).
 */

export type Quat = [number, number, number, number]
export type Vec3 = [number, number, number]
export type EulerOrder = 'XYZ' | 'XZY' | 'YXZ' | 'YZX' | 'ZXY' | 'ZYX'

export const EULER_ORDERS: readonly EulerOrder[] = ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX']

/** The order EMV's `_LocalEulerAngle` is assumed to use: R = Ry·Rx·Rz. [I] (spec §7.3, §11 Q1) */
export const DEFAULT_EULER_ORDER: EulerOrder = 'YXZ'

export function isEulerOrder(s: string): s is EulerOrder {
  return (EULER_ORDERS as readonly string[]).includes(s)
}

/** Hamilton product a ⊗ b. */
export function quatMul(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a
  const [bx, by, bz, bw] = b
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ]
}

/** Unit quaternion (identity for a zero-length input). */
export function quatNormalize(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3])
  if (!(n > 0) || !Number.isFinite(n)) return [0, 0, 0, 1]
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n]
}

/** Normalised, and negated when w < 0, as 3-component keys need (spec §5.5). */
export function quatCanonical(q: Quat): Quat {
  const n = quatNormalize(q)
  return n[3] < 0 ? [-n[0], -n[1], -n[2], -n[3]] : n
}

/** Rebuilds w from x, y, z of a unit quaternion with w ≥ 0 (spec §5). */
export function quatW(x: number, y: number, z: number): number {
  return Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z))
}

function axisQuat(axis: number, angle: number): Quat {
  const s = Math.sin(angle / 2)
  const q: Quat = [0, 0, 0, Math.cos(angle / 2)]
  q[axis] = s
  return q
}

const AXIS: Record<string, number> = { X: 0, Y: 1, Z: 2 }

/**
 * THE conversion from EMV `_LocalEulerAngle` (radians, [x, y, z]) to a local rotation
 * quaternion. `order` 'YXZ' (default) gives q = qY(y) ⊗ qX(x) ⊗ qZ(z) (spec §7.3). The result is
 * normalised with w ≥ 0.
 */
export function eulerToQuat(e: Vec3, order: EulerOrder = DEFAULT_EULER_ORDER): Quat {
  let q: Quat = [0, 0, 0, 1]
  for (const c of order) {
    const a = AXIS[c]!
    q = quatMul(q, axisQuat(a, e[a]!))
  }
  return quatCanonical(q)
}

/** Rotation matrix m[row][col] (column-vector convention) of a unit quaternion. */
export function quatToMatrix(q: Quat): number[][] {
  const [x, y, z, w] = quatNormalize(q)
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ]
}

/**
 * Inverse of eulerToQuat: Euler angles [x, y, z] (radians) with R = Ra(α)·Rb(β)·Rc(γ) for
 * order "abc". The middle angle is limited to ±π/2 (for YXZ: x = asin(−m[1][2]),
 * y = atan2(m[0][2], m[2][2]), z = atan2(m[1][0], m[1][1]), spec §7.3). At gimbal lock
 * (|cos β| ≈ 0) the last angle is set to 0.
 */
export function quatToEuler(q: Quat, order: EulerOrder = DEFAULT_EULER_ORDER): Vec3 {
  const m = quatToMatrix(q)
  const a = AXIS[order[0]!]!
  const b = AXIS[order[1]!]!
  const c = AXIS[order[2]!]!
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
export function quatAngle(a: Quat, b: Quat): number {
  const na = quatNormalize(a)
  let nb = quatNormalize(b)
  if (na[0] * nb[0] + na[1] * nb[1] + na[2] * nb[2] + na[3] * nb[3] < 0) nb = [-nb[0], -nb[1], -nb[2], -nb[3]]
  // Stable near 0 (acos is not): the 4D angle φ = 2·atan2(|a−b|, |a+b|); the rotation angle is 2φ.
  const diff = Math.hypot(na[0] - nb[0], na[1] - nb[1], na[2] - nb[2], na[3] - nb[3])
  const sum = Math.hypot(na[0] + nb[0], na[1] + nb[1], na[2] + nb[2], na[3] + nb[3])
  return 4 * Math.atan2(diff, sum)
}

/** Normalised linear interpolation along the shorter arc. */
export function quatNlerp(a: Quat, b: Quat, t: number): Quat {
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
  const sb = dot < 0 ? -1 : 1
  return quatNormalize([
    a[0] + (sb * b[0] - a[0]) * t,
    a[1] + (sb * b[1] - a[1]) * t,
    a[2] + (sb * b[2] - a[2]) * t,
    a[3] + (sb * b[3] - a[3]) * t,
  ])
}
