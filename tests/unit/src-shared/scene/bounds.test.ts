import { describe, expect, it } from 'vitest'
import { demoScene } from '../../../../src-shared/scene/demo'
import { boundsCenter, boundsRadius, sceneBounds } from '../../../../src-shared/scene/bounds'
import { samplePose } from '../../../../src-shared/scene/sample'

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
  it('is null for a scene without geometry', () => {
    expect(sceneBounds({ ...s, nodes: [], curves: [] })).toBeNull()
  })
})
