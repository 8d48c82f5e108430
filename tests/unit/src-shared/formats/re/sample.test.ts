import { describe, expect, it } from 'vitest'
import { keySpan, sampleRotation, sampleVector, sampleMot, readMotionFile, motionsOf, quatAngle, type MotTrack, type Quat } from '../../../../../src-shared/formats/re'
import { buildTemplateMotlist, fixtureRotation } from '../../../../fixtures/re/template'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'
import { RE3_ROTATION_CODES, codecAxes } from '../../../../fixtures/re/codec-encoder'

function track(channel: 'rotation' | 'translation', frames: number[] | null, values: number[]): MotTrack {
  return { channel, frames: frames ? Uint32Array.from(frames) : null, values: Float64Array.from(values), keyCount: values.length / (channel === 'rotation' ? 4 : 3), offset: 0, flags: 0, frameIndexOffset: 0, frameDataOffset: 0, unpackDataOffset: 0, compression: 0, codec: 'Full', unpack: new Float32Array(0) }
}

describe('key interpolation (spec §4.5)', () => {
  it('finds the key span and clamps outside', () => {
    expect(keySpan([0, 10, 30], 3, -5)).toEqual([0, 0, 0])
    expect(keySpan([0, 10, 30], 3, 0)).toEqual([0, 0, 0])
    expect(keySpan([0, 10, 30], 3, 5)).toEqual([0, 1, 0.5])
    expect(keySpan([0, 10, 30], 3, 10)).toEqual([1, 2, 0])
    expect(keySpan([0, 10, 30], 3, 25)).toEqual([1, 2, 0.75])
    expect(keySpan([0, 10, 30], 3, 99)).toEqual([2, 2, 0])
  })
  it('lerps vectors (hand-computed)', () => {
    const t = track('translation', [2, 6], [0, 0, 0, 4, -8, 2])
    expect(sampleVector(t, 3)).toEqual([1, -2, 0.5])
    expect(sampleVector(t, 0)).toEqual([0, 0, 0])
    expect(sampleVector(t, 100)).toEqual([4, -8, 2])
  })
  it('a track without an index array is one constant key', () => {
    const t = track('translation', null, [1, 2, 3, 9, 9, 9])
    expect(sampleVector(t, 7)).toEqual([1, 2, 3])
  })
  it('interpolates rotations on the shorter arc', () => {
    const s = Math.SQRT1_2
    const t = track('rotation', [0, 10], [0, 0, 0, 1, 0, s, 0, s])
    const q = sampleRotation(t, 5)
    // halfway between identity and 90° about Y: 45° about Y
    expect(quatAngle(q, [0, Math.sin(Math.PI / 8), 0, Math.cos(Math.PI / 8)])).toBeLessThan(1e-9)
    // −q on the second key gives the same result
    const t2 = track('rotation', [0, 10], [0, 0, 0, 1, 0, -s, 0, -s])
    expect(quatAngle(sampleRotation(t2, 5), q)).toBeLessThan(1e-9)
  })
})

describe('sampling a fixture motion', () => {
  it('gives the generated rotation at key frames (3Component bones exactly, packed ones within their step)', () => {
    const f = readMotionFile(buildTemplateMotlist())
    const m = motionsOf(f)[0]!
    const sk = fixtureSkeleton()
    const s = sampleMot(m.mot!, m.skeleton, 10)
    expect(s).toHaveLength(40)
    // bone 2 uses 3Component (0xC0000) in the mixed set: exact to float32
    const want = fixtureRotation(sk[2]!.rotation, 2, 10, 'xyz')
    expect(quatAngle(s[2]!.rotation, want)).toBeLessThan(1e-6)
    // every bone within the coarsest codec's quantisation (5 bits) of the generated value
    s.forEach((b, i) => {
      const code = RE3_ROTATION_CODES[i % RE3_ROTATION_CODES.length]!
      const gen = fixtureRotation(sk[i]!.rotation, i, 10, codecAxes('re3', 'rotation', code))
      expect(quatAngle(b.rotation, gen), `bone ${i} codec 0x${code.toString(16)}`).toBeLessThan(0.05)
    })
  })
  it('falls back to the bone header reference for channels a clip lacks', () => {
    const f = readMotionFile(buildTemplateMotlist())
    const m = motionsOf(f)[2]! // fixture_wave: every 2nd bone, rotation + translation only on some
    const sk = fixtureSkeleton()
    const s = sampleMot(m.mot!, m.skeleton, 0)
    const spine = s.find((b) => b.bone === 'Spine_0')!
    expect(spine.translation).toEqual(sk[2]!.translation.map(Math.fround))
    expect(spine.scale).toEqual([1, 1, 1])
  })
})

export type { Quat }
