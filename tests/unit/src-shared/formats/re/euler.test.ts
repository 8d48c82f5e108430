import { describe, expect, it } from 'vitest'
import { Quaternion } from '@babylonjs/core/Maths/math.vector.js'
import { eulerToQuat, quatToEuler, quatAngle, quatMultiply, quatCanonical, EULER_ORDERS, DEFAULT_EULER_ORDER, type Quat, type Vec3 } from '../../../../../src-shared/formats/re/euler'

const close = (a: readonly number[], b: readonly number[], eps = 1e-7) => {
  expect(a.length).toBe(b.length)
  a.forEach((v, i) => expect(Math.abs(v - b[i]!), `component ${i}: ${v} vs ${b[i]}`).toBeLessThanOrEqual(eps))
}
/** Same rotation (q and −q). */
const sameRotation = (a: Quat, b: Quat, eps = 1e-9) => expect(quatAngle(a, b)).toBeLessThan(eps)

const PI = Math.PI

describe('Euler → quaternion (spec §10.1)', () => {
  it('defaults to R = Ry·Rx·Rz', () => {
    expect(DEFAULT_EULER_ORDER).toBe('YXZ')
  })

  it('single-axis rotations give ±sin(θ/2) on that axis', () => {
    const h = Math.SQRT1_2
    close(eulerToQuat([0, PI / 2, 0]), [0, h, 0, h])
    close(eulerToQuat([PI / 2, 0, 0]), [h, 0, 0, h])
    close(eulerToQuat([0, 0, PI / 2]), [0, 0, h, h])
  })

  it('(0, −π, −π) is the seed\'s mot value ±(1, 0, 0, 0)', () => {
    const q = eulerToQuat([0, -PI, -PI])
    close(q.map(Math.abs), [1, 0, 0, 0])
  })

  // Rows of §10.1: input, YXZ (chosen), YZX, ZXY.
  const rows: [Vec3, Quat, Quat, Quat][] = [
    [[0.3, 0.5, 0.7], [0.2198958, 0.1801459, 0.2937772, 0.9126271], [0.2198958, 0.2794439, 0.2937772, 0.8872722], [0.0521324, 0.2794439, 0.3632374, 0.8872722]],
    [[0.11111450195312, -1.8742e-9, 0.059826150536537], [0.0555038, -0.0016608, 0.0298625, 0.9980104], [0.0555038, 0.0016608, 0.0298625, 0.9980104], [0.0555038, 0.0016608, 0.0298625, 0.9980104]],
    [[-0.036831300705671, 0.0036867388989776, -0.099788509309292], [-0.0184836, 0.0009224, -0.0498311, 0.9985862], [-0.0184836, 0.0027592, -0.0498311, 0.9985828], [-0.0182997, 0.0027592, -0.0498989, 0.9985828]],
  ]
  it.each(rows)('%j → YXZ %j, YZX %j, ZXY %j', (e, yxz, yzx, zxy) => {
    close(eulerToQuat(e), yxz, 5e-7)
    close(eulerToQuat(e, 'YXZ'), yxz, 5e-7)
    close(eulerToQuat(e, 'YZX'), yzx, 5e-7)
    close(eulerToQuat(e, 'ZXY'), zxy, 5e-7)
  })

  it('is not the naive sin(a/2) per axis for multi-axis rotations', () => {
    const q = eulerToQuat([0.3, 0.5, 0.7])
    const naive = [Math.sin(0.15), Math.sin(0.25), Math.sin(0.35)]
    expect(Math.abs(q[0] - naive[0]!)).toBeGreaterThan(0.05)
  })

  it('(1.7, 0, 0) gives (0.7512804, 0, 0, 0.6599831) and reads back as (1.4416, π, π) under YXZ', () => {
    const q = eulerToQuat([1.7, 0, 0])
    close(q, [0.7512804, 0, 0, 0.6599831])
    const e = quatToEuler(q)
    close([e[0], Math.abs(e[1]), Math.abs(e[2])], [PI - 1.7, PI, PI], 1e-9)
    // YZX does not fold X.
    close(quatToEuler(eulerToQuat([1.7, 0, 0], 'YZX'), 'YZX').map(Math.abs), [1.7, 0, 0], 1e-9)
  })

  it('always returns unit quaternions with w ≥ 0', () => {
    for (let i = 0; i < 200; i++) {
      const e: Vec3 = [Math.sin(i) * 3, Math.cos(i * 1.3) * 3, Math.sin(i * 0.7) * 3]
      for (const o of EULER_ORDERS) {
        const q = eulerToQuat(e, o)
        expect(Math.hypot(...q)).toBeCloseTo(1, 12)
        expect(q[3]).toBeGreaterThanOrEqual(0)
      }
    }
  })

  it('matches Babylon.js RotationYawPitchRoll(y, x, z) (guards a Babylon upgrade)', () => {
    for (const e of [[0.3, 0.5, 0.7], [-1.2, 2.5, 0.1], [1.5, -3, 2.9]] as Vec3[]) {
      const b = Quaternion.RotationYawPitchRoll(e[1], e[0], e[2])
      sameRotation(eulerToQuat(e), [b.x, b.y, b.z, b.w])
      const f = Quaternion.FromEulerAngles(e[0], e[1], e[2])
      sameRotation(eulerToQuat(e), [f.x, f.y, f.z, f.w])
    }
  })

  it('composes as qY ⊗ qX ⊗ qZ by hand for YXZ', () => {
    const e: Vec3 = [0.4, -0.9, 1.3]
    const ax = (i: number, a: number): Quat => {
      const q: Quat = [0, 0, 0, Math.cos(a / 2)]
      q[i] = Math.sin(a / 2)
      return q
    }
    sameRotation(eulerToQuat(e), quatCanonical(quatMultiply(quatMultiply(ax(1, e[1]), ax(0, e[0])), ax(2, e[2]))))
    sameRotation(eulerToQuat(e, 'ZXY'), quatCanonical(quatMultiply(quatMultiply(ax(2, e[2]), ax(0, e[0])), ax(1, e[1]))))
  })
})

describe('quaternion → Euler', () => {
  it('round-trips the rotation for every order, including gimbal lock', () => {
    const cases: Vec3[] = [[0.3, 0.5, 0.7], [-1.2, 2.5, 0.1], [0, 0, 0], [PI / 2, 0.4, 0.3], [-PI / 2, 1, -2], [0.2, PI / 2, 0.1], [1, -0.5, PI / 2]]
    for (let i = 0; i < 60; i++) cases.push([Math.sin(i * 3.1) * 3, Math.cos(i * 1.7) * 3, Math.sin(i * 0.37 + 1) * 3])
    for (const o of EULER_ORDERS) {
      for (const e of cases) {
        const q = eulerToQuat(e, o)
        const back = quatToEuler(q, o)
        sameRotation(eulerToQuat(back, o), q, 1e-6)
      }
    }
  })

  it('keeps angles already in range (middle angle within ±π/2)', () => {
    close(quatToEuler(eulerToQuat([0.3, 0.5, 0.7])), [0.3, 0.5, 0.7], 1e-12)
    close(quatToEuler(eulerToQuat([0.3, 0.5, 0.7], 'ZXY'), 'ZXY'), [0.3, 0.5, 0.7], 1e-12)
  })
})
