import { describe, expect, it } from 'vitest'
import { poseScene } from '../../../../../src-renderer/components/re/pose-scene'
import type { ReSkeleton } from '../../../../../src-shared/api/re'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { mat4Multiply, worldMatrices } from '../../../../../src-shared/scene/math'
import { worldPose, quatCanonical } from '../../../../../src-shared/formats/re'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'

const s = Math.SQRT1_2
const skel = (names: string[], parents: number[], translations: number[], rotations: number[]): ReSkeleton => ({
  names, parents: Int32Array.from(parents), hashes: new Uint32Array(names.length), translations: Float64Array.from(translations), rotations: Float64Array.from(rotations),
})
// A child listed before its parent: 0 Hand (parent 2), 1 root, 2 Arm (parent 1, 90° about Z).
const tiny = skel(['Hand', 'root', 'Arm'], [2, -1, 1], [1, 0, 0, 0, 1, 0, 1, 0, 0], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, s, s])
const fixture = (rot?: Float64Array) => {
  const sk = fixtureSkeleton()
  return skel(sk.map((b) => b.name), sk.map((b) => b.parent), sk.flatMap((b) => b.translation), rot ? Array.from(rot) : sk.flatMap((b) => quatCanonical(b.rotation)))
}

describe('poseScene: a template skeleton as the neutral skeleton scene (re/scene.ts)', () => {
  it('orders nodes parents first and keeps the bone ↔ node maps', () => {
    const { scene, boneNodes } = poseScene(tiny, 'tiny')
    expect(scene.nodes.map((n) => n.name)).toEqual(['root', 'Arm', 'Hand'])
    expect(scene.nodes.map((n) => n.parent)).toEqual([-1, 0, 1])
    expect(boneNodes).toEqual([2, 0, 1])
    expect(() => validateScene(scene)).not.toThrow()
  })

  it('puts the joints where hand computation does: root (0,1,0), Arm (1,1,0), Hand (1,2,0)', () => {
    const { scene } = poseScene(tiny, 'tiny')
    const w = worldMatrices(scene.nodes)
    const at = (i: number) => [w[i * 16 + 12], w[i * 16 + 13], w[i * 16 + 14]]
    ;[[0, 1, 0], [1, 1, 0], [1, 2, 0]].forEach((p, i) => at(i).forEach((v, k) => expect(v).toBeCloseTo(p[k]!, 9)))
  })

  it('binds the skin at rest: world × inverse bind = identity for every joint', () => {
    const { scene } = poseScene(fixture(), 'fx')
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
    const { scene, boneNodes } = poseScene(fixture(r), 'fx')
    const w = worldMatrices(scene.nodes)
    const ref = worldPose(parents, t, r)
    for (let b = 0; b < sk.length; b++) for (let k = 0; k < 3; k++) expect(w[boneNodes[b]! * 16 + 12 + k]).toBeCloseTo(ref.positions[b * 3 + k]!, 9)
  })

  it('a parent cycle is an error naming the bone, not a hang', () => {
    expect(() => poseScene(skel(['a', 'b'], [1, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 1, 0, 0, 0, 1]), 'cycle')).toThrow(/bone 0 "a": its parent chain is a cycle/)
  })
})
