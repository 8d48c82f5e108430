import { describe, expect, it } from 'vitest'
import { demoScene } from '../../../../src-shared/scene/demo'
import { boundsCenter, boundsRadius, sceneBounds } from '../../../../src-shared/scene/bounds'
import { samplePose } from '../../../../src-shared/scene/sample'
import { emptyScene } from '../../../../src-shared/scene/types'
import { validateScene } from '../../../../src-shared/scene/validate'

describe('scene bounds', () => {
  const s = demoScene()
  it('rest bounds of the demo, by hand: ground ±3 in x/z, cap top at 3 + 1.2 + 0.2 = 4.4', () => {
    const b = sceneBounds(s)!
    b.min.forEach((v, i) => expect(v).toBeCloseTo([-3, 0, -3][i], 5))
    b.max.forEach((v, i) => expect(v).toBeCloseTo([3, 4.4, 3][i], 5))
    expect(boundsCenter(b)[1]).toBeCloseTo(2.2, 5)
    expect(boundsRadius(b)).toBeCloseTo(Math.hypot(6, 4.4, 6) / 2, 5)
  })
  it('skinning moves the bounds: bent at 0.5 s the top is lower and the tube leans to −x', () => {
    const noGround = { ...s, curves: [], nodes: s.nodes.map((n, i) => (i >= 7 ? { ...n, mesh: undefined } : n)) }
    const rest = sceneBounds(noGround)!
    const bent = sceneBounds(noGround, samplePose(noGround, s.animations[0], 0.5))!
    expect(bent.max[1]).toBeLessThan(rest.max[1] - 0.5)
    expect(bent.min[0]).toBeLessThan(rest.min[0] - 1)
  })
  it('skins with all 8 influences: 1/8 on each of 8 joints at x = 0..7 (identity inverse binds) puts x at 3.5', () => {
    const e = emptyScene('eight')
    for (let k = 0; k < 8; k++) e.nodes.push({ name: `j${k}`, parent: -1, translation: [k, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] })
    const ibm = new Float32Array(8 * 16)
    for (let k = 0; k < 8; k++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], k * 16)
    e.skins.push({ name: 'skin', joints: [0, 1, 2, 3, 4, 5, 6, 7], inverseBindMatrices: ibm })
    e.materials.push({ name: 'm', baseColor: [1, 1, 1, 1], alphaMode: 'OPAQUE', doubleSided: false })
    const eighth = new Float32Array(12).fill(1 / 8)
    e.meshes.push({ name: 'tri', primitives: [{ positions: new Float32Array([0, 0, 0, 0, 1, 0, 0, 0, 1]), indices: new Uint32Array([0, 1, 2]), material: 0, joints: new Uint16Array([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]), weights: eighth, joints1: new Uint16Array([4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7]), weights1: eighth }] })
    e.nodes.push({ name: 'tri', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: 0, skin: 0 })
    validateScene(e)
    const b = sceneBounds(e)!
    expect([b.min[0], b.max[0]]).toEqual([3.5, 3.5])
    expect([b.min[1], b.max[1], b.min[2], b.max[2]]).toEqual([0, 1, 0, 1])
  })
  it('is null for a scene without geometry', () => {
    expect(sceneBounds({ ...s, nodes: [], curves: [] })).toBeNull()
  })
})
