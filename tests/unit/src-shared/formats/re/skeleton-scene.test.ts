import { describe, expect, it } from 'vitest'
import { skeletonScene } from '../../../../../src-shared/formats/re/skeleton-scene'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { mat4Multiply, worldMatrices } from '../../../../../src-shared/scene/math'
import { worldPose, quatCanonical } from '../../../../../src-shared/formats/re'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'

const s = Math.SQRT1_2
// A child listed before its parent: 0 Hand (parent 2), 1 root, 2 Arm (parent 1, 90° about Z).
const tiny = {
  names: ['Hand', 'root', 'Arm'],
  parents: [2, -1, 1],
  translations: [1, 0, 0, 0, 1, 0, 1, 0, 0],
  rotations: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, s, s],
}

describe('skeletonScene', () => {
  it('orders nodes parents first and keeps the bone ↔ node maps', () => {
    const { scene, nodeOfBone, boneOfNode } = skeletonScene('tiny', tiny)
    expect(scene.nodes.map((n) => n.name)).toEqual(['root', 'Arm', 'Hand'])
    expect(scene.nodes.map((n) => n.parent)).toEqual([-1, 0, 1])
    expect(Array.from(nodeOfBone)).toEqual([2, 0, 1])
    expect(Array.from(boneOfNode)).toEqual([1, 2, 0])
    expect(() => validateScene(scene)).not.toThrow()
  })

  it('puts the joints where hand computation does: root (0,1,0), Arm (1,1,0), Hand (1,2,0)', () => {
    const { scene } = skeletonScene('tiny', tiny)
    const w = worldMatrices(scene.nodes)
    const at = (i: number) => [w[i * 16 + 12], w[i * 16 + 13], w[i * 16 + 14]]
    ;[[0, 1, 0], [1, 1, 0], [1, 2, 0]].forEach((p, i) => at(i).forEach((v, k) => expect(v).toBeCloseTo(p[k]!, 9)))
  })

  it('binds the skin at rest: world × inverse bind = identity for every joint', () => {
    const sk = fixtureSkeleton()
    const { scene } = skeletonScene('fx', { names: sk.map((b) => b.name), parents: sk.map((b) => b.parent), translations: sk.flatMap((b) => b.translation), rotations: sk.flatMap((b) => quatCanonical(b.rotation)) })
    expect(() => validateScene(scene)).not.toThrow()
    const skin = scene.skins[0]!
    expect(skin.joints).toHaveLength(40)
    const w = worldMatrices(scene.nodes)
    for (let k = 0; k < skin.joints.length; k++) {
      const m = mat4Multiply(w.subarray(skin.joints[k]! * 16, skin.joints[k]! * 16 + 16), skin.inverseBindMatrices.subarray(k * 16, k * 16 + 16))
      for (let e = 0; e < 16; e++) expect(m[e]).toBeCloseTo(e % 5 === 0 ? 1 : 0, 5)
    }
  })

  it('agrees with the pose editor’s own world pose (worldPose) for a posed skeleton', () => {
    const sk = fixtureSkeleton()
    const parents = sk.map((b) => b.parent)
    const t = sk.flatMap((b) => b.translation)
    const r = Float64Array.from(sk.flatMap((b) => quatCanonical(b.rotation)))
    r.set([0, 0, Math.sin(0.6), Math.cos(0.6)], 1 * 4) // Hip turned
    const { scene, nodeOfBone } = skeletonScene('fx', { names: sk.map((b) => b.name), parents, translations: t, rotations: r }, r)
    const w = worldMatrices(scene.nodes)
    const ref = worldPose(parents, t, r)
    for (let b = 0; b < sk.length; b++) for (let k = 0; k < 3; k++) expect(w[nodeOfBone[b]! * 16 + 12 + k]).toBeCloseTo(ref.positions[b * 3 + k]!, 9)
  })

  it('a parent cycle becomes roots instead of a hang', () => {
    const { scene } = skeletonScene('cycle', { names: ['a', 'b'], parents: [1, 0], translations: [0, 0, 0, 0, 1, 0], rotations: [0, 0, 0, 1, 0, 0, 0, 1] })
    expect(scene.nodes).toHaveLength(2)
    expect(() => validateScene(scene)).not.toThrow()
  })
})
