import { describe, expect, it } from 'vitest'
import {
  mat4FromEulerExtrinsicXYZ, mat4FromEulerExtrinsicZXY, mat4FromTRS, mat4Invert, mat4Multiply, mat4ScaleColumns, quatFromAxisAngle, quatFromEulerExtrinsicXYZ,
  quatFromEulerIntrinsic, quatRotateVec3, quatSlerp, quatToEulerIntrinsic, transformPoint, worldMatrices, type EulerOrder,
} from '../../../../src-shared/scene/math'
import type { SceneNode } from '../../../../src-shared/scene/types'

const close = (a: ArrayLike<number>, b: ArrayLike<number>, eps = 1e-9) => {
  expect(a.length).toBe(b.length)
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i]), `element ${i}: ${a[i]} vs ${b[i]}`).toBeLessThanOrEqual(eps)
}

describe('scene math', () => {
  it('TRS → column-major matrix, checked by hand', () => {
    // 90° about Z: x→y, y→−x. Then scale (2,3,4) first, translation (5,6,7) last.
    const m = mat4FromTRS([5, 6, 7], [0, 0, Math.SQRT1_2, Math.SQRT1_2], [2, 3, 4])
    // Columns: R·S·e_x = (0,2,0), R·S·e_y = (−3,0,0), R·S·e_z = (0,0,4), translation (5,6,7).
    close(m, [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 5, 6, 7, 1], 1e-12)
    // The point (1,1,1): scale → (2,3,4), rotate → (−3,2,4), translate → (2,8,11).
    close(transformPoint(m, [1, 1, 1]), [2, 8, 11], 1e-12)
  })

  it('multiply applies the right matrix first, invert undoes', () => {
    const a = mat4FromTRS([1, 0, 0], [0, 0, 0, 1], [1, 1, 1])
    const b = mat4FromTRS([0, 0, 0], [0, 0, Math.SQRT1_2, Math.SQRT1_2], [1, 1, 1])
    // a·b: rotate then translate: (1,0,0) → (0,1,0) → (1,1,0).
    close(transformPoint(mat4Multiply(a, b), [1, 0, 0]), [1, 1, 0], 1e-12)
    // b·a: translate then rotate: (1,0,0) → (2,0,0) → (0,2,0).
    close(transformPoint(mat4Multiply(b, a), [1, 0, 0]), [0, 2, 0], 1e-12)
    const m = mat4FromTRS([3, -2, 1], quatFromAxisAngle([0.6, 0, 0.8], 1.1), [2, 0.5, 1.5])
    const inv = mat4Invert(m)!
    close(mat4Multiply(m, inv), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-12)
    expect(mat4Invert([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toBeNull()
  })

  it('slerp: halfway between identity and 90° about Z is 45° about Z; takes the short arc', () => {
    const q90 = [0, 0, Math.SQRT1_2, Math.SQRT1_2]
    close(quatSlerp([0, 0, 0, 1], q90, 0.5), [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 1e-12)
    close(quatSlerp([0, 0, 0, 1], q90, 0.25), [0, 0, Math.sin(Math.PI / 16), Math.cos(Math.PI / 16)], 1e-12)
    // −q90 is the same rotation: the result must still be 45° (sign aside), not a detour.
    const r = quatSlerp([0, 0, 0, 1], q90.map((v) => -v), 0.5)
    close(r, [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 1e-12)
  })

  it('world matrices chain parents', () => {
    const n = (parent: number, t: [number, number, number], r: [number, number, number, number] = [0, 0, 0, 1]): SceneNode => ({ name: '', parent, translation: t, rotation: r, scale: [1, 1, 1] })
    const nodes = [n(-1, [0, 1, 0], [0, 0, Math.SQRT1_2, Math.SQRT1_2]), n(0, [1, 0, 0]), n(1, [1, 0, 0])]
    const w = worldMatrices(nodes)
    // Root rotated 90° about Z at (0,1,0): children along its local +X go along world +Y.
    close(w.subarray(16 + 12, 16 + 15), [0, 2, 0], 1e-12)
    close(w.subarray(32 + 12, 32 + 15), [0, 3, 0], 1e-12)
  })

  describe('Euler conventions (checked by hand on quarter turns)', () => {
    const h = Math.PI / 2
    const rot = (q: ArrayLike<number>, v: number[]) => transformPoint(mat4FromTRS([0, 0, 0], q, [1, 1, 1]), v)
    it('extrinsic XYZ: about fixed X, then fixed Y (R = Rz·Ry·Rx)', () => {
      // (0,1,0) —X 90°→ (0,0,1) —Y 90°→ (1,0,0)
      close(rot(quatFromEulerExtrinsicXYZ([h, h, 0]), [0, 1, 0]), [1, 0, 0], 1e-12)
      close(transformPoint(mat4FromEulerExtrinsicXYZ([h, h, 0]), [0, 1, 0]), [1, 0, 0], 1e-12)
      // a lone angle is the plain axis rotation
      close(quatFromEulerExtrinsicXYZ([0.3, 0, 0]), [Math.sin(0.15), 0, 0, Math.cos(0.15)], 1e-15)
      // the closed form and the product form are the same rotation (intrinsic 'ZYX')
      for (const e of [[0.3, -1.1, 2.5], [-2.9, 0.7, 0.01], [1.5, 1.5, -1.5]]) close(quatFromEulerExtrinsicXYZ(e), quatFromEulerIntrinsic(e, 'ZYX'), 1e-15)
    })
    it('extrinsic ZXY: about fixed Z, then fixed X (R = Ry·Rx·Rz = intrinsic YXZ)', () => {
      // (1,0,0) —Z 90°→ (0,1,0) —X 90°→ (0,0,1)
      close(transformPoint(mat4FromEulerExtrinsicZXY([h, 0, h]), [1, 0, 0]), [0, 0, 1], 1e-12)
      close(rot(quatFromEulerIntrinsic([h, 0, h], 'YXZ'), [1, 0, 0]), [0, 0, 1], 1e-12)
      const e = [0.4, -0.9, 1.3]
      close(mat4FromTRS([0, 0, 0], quatFromEulerIntrinsic(e, 'YXZ'), [1, 1, 1]), mat4FromEulerExtrinsicZXY(e), 1e-15)
      close(mat4FromTRS([0, 0, 0], quatFromEulerIntrinsic(e, 'ZYX'), [1, 1, 1]), mat4FromEulerExtrinsicXYZ(e), 1e-15)
    })
    it('quatToEulerIntrinsic inverts quatFromEulerIntrinsic for every order', () => {
      const orders: EulerOrder[] = ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX']
      for (const o of orders) close(quatToEulerIntrinsic(quatFromEulerIntrinsic([0.2, -0.5, 1.1], o), o), [0.2, -0.5, 1.1], 1e-12)
    })
    it('scale columns is M·S; rotating a vector matches the matrix', () => {
      const m = mat4ScaleColumns(mat4FromEulerExtrinsicXYZ([0, 0, h], [1, 2, 3]), [2, 3, 4])
      // S (2,3,4) first: (1,1,1) → (2,3,4); Rz 90° → (−3,2,4); + (1,2,3) → (−2,4,7)
      close(transformPoint(m, [1, 1, 1]), [-2, 4, 7], 1e-12)
      const q = quatFromAxisAngle([0.6, 0, 0.8], 1.1)
      close(quatRotateVec3(q, [1, -2, 0.5]), rot(q, [1, -2, 0.5]), 1e-12)
    })
  })
})
