/**
 * The EMV `_LocalEulerAngle` convention (spec §7.3); the maths lives in the kit
 * (`scene/math.ts`), which this file re-exports for the RE code.
 *
 * Quaternions are [x, y, z, w] (memory order of the mot format), Hamilton product. An Euler
 * order names the matrix product left to right (intrinsic): 'YXZ' means R = Ry(y)·Rx(x)·Rz(z),
 * i.e. the rotation about Z is applied first, then X, then Y, all in the parent frame; as a
 * quaternion q = qY ⊗ qX ⊗ qZ. The spec's chosen convention is YXZ (tag [I]: not yet confirmed
 * in game, §11 Q1), which equals DirectXMath XMQuaternionRotationRollPitchYaw and Babylon's
 * Quaternion.RotationYawPitchRoll(y, x, z).
 */
import { quatCanonical, quatFromEulerIntrinsic, quatToEulerIntrinsic, type EulerOrder, type Quat, type Vec3 } from '../../scene/math'

export type { EulerOrder, Quat, Vec3 }
export { quatMultiply, quatNormalize, quatCanonical, quatConjugate, quatW, quatAngle, quatNlerp, quatToMatrix3 } from '../../scene/math'

export const EULER_ORDERS: readonly EulerOrder[] = ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX']

/** The order EMV's `_LocalEulerAngle` is assumed to use: R = Ry·Rx·Rz. [I] (spec §7.3, §11 Q1) */
export const DEFAULT_EULER_ORDER: EulerOrder = 'YXZ'

export function isEulerOrder(s: string): s is EulerOrder {
  return (EULER_ORDERS as readonly string[]).includes(s)
}

/**
 * THE conversion from EMV `_LocalEulerAngle` (radians, [x, y, z]) to a local rotation
 * quaternion: intrinsic `order`, 'YXZ' (default) gives q = qY(y) ⊗ qX(x) ⊗ qZ(z) (spec §7.3),
 * normalised with w ≥ 0.
 */
export function eulerToQuat(e: Vec3, order: EulerOrder = DEFAULT_EULER_ORDER): Quat {
  return quatCanonical(quatFromEulerIntrinsic(e, order))
}

/**
 * Inverse of eulerToQuat (spec §7.3; for YXZ: x = asin(−m[1][2]), y = atan2(m[0][2], m[2][2]),
 * z = atan2(m[1][0], m[1][1])); the middle angle within ±π/2, the last 0 at gimbal lock.
 */
export function quatToEuler(q: Quat, order: EulerOrder = DEFAULT_EULER_ORDER): Vec3 {
  return quatToEulerIntrinsic(q, order)
}
