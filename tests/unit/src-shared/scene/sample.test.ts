import { describe, expect, it } from 'vitest'
import { clipTime, keyIndex, sampleChannel, samplePose, sampleTextureSwap, sampleVec4Track, sampleVisibility } from '../../../../src-shared/scene/sample'
import type { Animation, Channel } from '../../../../src-shared/scene/types'
import { emptyScene } from '../../../../src-shared/scene/types'

const close = (a: ArrayLike<number>, b: ArrayLike<number>, eps = 1e-6) => {
  expect(a.length).toBe(b.length)
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i]), `element ${i}: ${a[i]} vs ${b[i]}`).toBeLessThanOrEqual(eps)
}

const tr = (times: number[], values: number[], interpolation: Channel['interpolation']): Channel => ({
  node: 0, path: 'translation', times: new Float32Array(times), values: new Float32Array(values), interpolation,
})

describe('animation sampling', () => {
  it('keyIndex finds the last key at or before t', () => {
    const t = new Float32Array([0, 1, 2, 4])
    expect([-1, 0, 0, 1, 2, 2, 3, 3].map((x, i) => keyIndex(t, [-0.5, 0, 0.9, 1, 2, 3.99, 4, 9][i]))).toEqual([-1, 0, 0, 1, 2, 2, 3, 3])
    expect(keyIndex(new Float32Array(0), 1)).toBe(-1)
  })

  it('STEP holds the previous key', () => {
    const ch = tr([0, 1, 2], [0, 0, 0, 10, 0, 0, 20, 0, 0], 'STEP')
    close(sampleChannel(ch, 0.99), [0, 0, 0])
    close(sampleChannel(ch, 1), [10, 0, 0])
    close(sampleChannel(ch, 1.5), [10, 0, 0])
    close(sampleChannel(ch, 5), [20, 0, 0])
    close(sampleChannel(ch, -1), [0, 0, 0])
  })

  it('LINEAR lerps translations and slerps rotations', () => {
    const ch = tr([1, 3], [0, 2, 4, 10, 2, -4], 'LINEAR')
    close(sampleChannel(ch, 1.5), [2.5, 2, 2])
    close(sampleChannel(ch, 2), [5, 2, 0])
    const rot: Channel = { node: 0, path: 'rotation', times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 1, 0, 1, 0, 0]), interpolation: 'LINEAR' }
    // Identity → 180° about Y; at u = 1/3 the angle is 60°: (0, sin 30°, 0, cos 30°).
    close(sampleChannel(rot, 1 / 3), [0, 0.5, 0, Math.sqrt(3) / 2])
  })

  it('CUBICSPLINE follows the Hermite basis with tangents scaled by the key interval', () => {
    // Keys at t=0 (value 0, out-tangent 1) and t=2 (value 1, in-tangent 0); per key: in, value, out.
    const ch = tr([0, 2], [9, 9, 9, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 9, 9, 9], 'CUBICSPLINE')
    // At t = 1: u = 0.5, h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = −0.125; m0 = 2·1, m1 = 2·0.
    // p = 0.5·0 + 0.125·2 + 0.5·1 − 0.125·0 = 0.75.
    close(sampleChannel(ch, 1), [0.75, 0.75, 0.75])
    // At t = 0.5: u = 0.25: h10 = 0.140625, h01 = 0.15625 → 0.28125 + 0.15625 = 0.4375.
    close(sampleChannel(ch, 0.5), [0.4375, 0.4375, 0.4375])
    // Ends give the values, not the tangents.
    close(sampleChannel(ch, 0), [0, 0, 0])
    close(sampleChannel(ch, 2), [1, 1, 1])
  })

  it('CUBICSPLINE rotations come out normalised', () => {
    const q = [0, 0, Math.SQRT1_2, Math.SQRT1_2]
    const rot: Channel = { node: 0, path: 'rotation', times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, ...q, 0, 0, 0, 0]), interpolation: 'CUBICSPLINE' }
    const r = sampleChannel(rot, 0.5)
    expect(Math.hypot(...r)).toBeCloseTo(1, 10)
    // Zero tangents, symmetric: halfway is the normalised average, i.e. 45° about Z.
    close(r, [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 1e-7) // float32 keys
  })

  it('tracks: texture swap and visibility step, UV/colour lerp', () => {
    expect([0, 0.5, 1, 3].map((t) => sampleTextureSwap({ material: 0, times: new Float32Array([0, 1, 2]), textures: new Uint32Array([4, 5, 6]) }, t))).toEqual([4, 4, 5, 6])
    expect([0, 1.4, 1.5, 3].map((t) => sampleVisibility({ node: 0, times: new Float32Array([0, 1.5]), visible: new Uint8Array([1, 0]) }, t))).toEqual([true, true, false, false])
    close(sampleVec4Track({ material: 0, times: new Float32Array([0, 2]), values: new Float32Array([0, 0, 1, 1, 1, 0.5, 2, 1]) }, 0.5), [0.25, 0.125, 1.25, 1])
  })

  it('pose keeps rest TRS of unanimated nodes; clip time wraps or clamps', () => {
    const s = emptyScene('x')
    s.nodes.push({ name: 'a', parent: -1, translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [2, 2, 2] })
    const anim: Animation = { name: 'c', duration: 2, frameRate: 30, channels: [tr([0, 2], [0, 0, 0, 4, 0, 0], 'LINEAR')] }
    const p = samplePose(s, anim, 1)
    close(p[0].translation, [2, 0, 0])
    close(p[0].scale, [2, 2, 2])
    expect(clipTime(anim, 5, true)).toBeCloseTo(1)
    expect(clipTime(anim, -0.5, true)).toBeCloseTo(1.5)
    expect(clipTime(anim, 5, false)).toBe(2)
  })
})
