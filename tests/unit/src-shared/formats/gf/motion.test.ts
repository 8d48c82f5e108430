import { describe, expect, test } from 'vitest'
import { FormatError } from '../../../../../src-shared/binary/errors'
import { parseGfMotion } from '../../../../../src-shared/formats/gf/motion'
import { evalCurve, hermite } from '../../../../../src-shared/formats/gf/motion-curves'
import { applyUvTransform, axisAngleToQuat, boneTrackPose } from '../../../../../src-shared/formats/gf/motion-pose'
import { motionVector } from '../../../../fixtures/gf/build-set'
import { buildGfMotion } from '../../../../fixtures/gf/build-motion'
import { idleMotionSpec, longMotionSpec } from '../../../../fixtures/gf/skinned'

const ctx = { file: '4.bin', entry: 3, base: 0x200 }
const bind = { translation: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0] as [number, number, number], scale: [1, 1, 1] as [number, number, number] }

describe('GFMotion reader: spec §15.7 vector', () => {
  const m = parseGfMotion(motionVector(), ctx)
  test('SubHeader and skeletal section', () => {
    expect([m.frameCount, m.loop, m.hash]).toEqual([10, true, 0xdeadbeef])
    expect(m.skeletal!.map((t) => [t.bone, t.axisAngle])).toEqual([['Origin', false]])
    expect(m.skeletal![0]!.curves.map((c) => (c ? c.keys.length : 0))).toEqual([0, 0, 0, 1, 0, 0, 2, 0, 0])
  })
  test('transX at frame 4.5 is 1.0 and at 1.8 is 0.208 (Hermite, zero slopes); rotX constant 1.5', () => {
    const tx = m.skeletal![0]!.curves[6]!
    expect(evalCurve(tx, 4.5)).toBeCloseTo(1.0, 6)
    expect(evalCurve(tx, 1.8)).toBeCloseTo(0.208, 6)
    expect(evalCurve(tx, -3)).toBe(0) // hold before the first key
    expect(evalCurve(tx, 12)).toBe(2) // and after the last
    expect(evalCurve(m.skeletal![0]!.curves[3]!, 7)).toBe(1.5)
  })
})

describe('curves and poses by hand', () => {
  test('Hermite with slopes: keys (0, 0, 0.5) and (8, 4, 0.5) at frame 2 → 1.0', () => {
    // t = 0.25: h00 = 0.84375, h01 = 0.15625, h10 = 0.140625, h11 = −0.046875 → 0.625 + 8·0.5·(0.140625 − 0.046875) = 1.0
    expect(hermite({ frame: 0, value: 0, slope: 0.5 }, { frame: 8, value: 4, slope: 0.5 }, 2)).toBeCloseTo(1.0, 12)
    // Unequal slopes: (0, 0, 1) → (2, 0, −1) at t = 0.5: 2·(0.125·1 + (−0.125)·(−1)) = 0.5
    expect(hermite({ frame: 0, value: 0, slope: 1 }, { frame: 2, value: 0, slope: -1 }, 1)).toBeCloseTo(0.5, 12)
  })
  const m = parseGfMotion(buildGfMotion(idleMotionSpec()), ctx)
  test('quantised keys: value = qv/65535 · 2 − 1; at frame 2.5 → −0.6875', () => {
    const rz = m.skeletal![1]!.curves[5]!
    expect(rz.keys.map((k) => k.value)).toEqual([-1, 1, -1])
    expect(evalCurve(rz, 2.5)).toBeCloseTo(-0.6875, 6)
    expect(evalCurve(rz, 10)).toBe(1)
  })
  test('axis-angle rotation: v = axis · half-angle → q = (sin|v|·axis, cos|v|)', () => {
    const tail = m.skeletal![2]!
    expect(tail.axisAngle).toBe(true)
    const p = boneTrackPose(tail, bind, 3)
    expect(p.rotation[0]).toBeCloseTo(Math.sin(0.15), 6)
    expect(p.rotation[3]).toBeCloseTo(Math.cos(0.15), 6)
    expect(axisAngleToQuat(0, 0, 0)).toEqual([0, 0, 0, 1])
  })
  test('components without data keep the bind value', () => {
    const p = boneTrackPose(m.skeletal![0]!, { translation: [5, 10, 7], rotation: [0, 0, 0], scale: [1, 1, 1] }, 10)
    expect(p.translation[0]).toBe(5)
    expect(p.translation[1]).toBeCloseTo(11, 6) // transY keys 10 → 12 over 20 frames, midpoint
    expect(p.translation[2]).toBe(7)
  })
  test('material (UV) and visibility sections', () => {
    expect(m.material!.map((t) => [t.material, t.unit])).toEqual([['EyeMat', 0]])
    expect(evalCurve(m.material![0]!.curves[3]!, 20)).toBeCloseTo(0.5, 6)
    expect(Array.from(m.visibility![0]!.visible)).toEqual(Array.from({ length: 21 }, (_, f) => (f < 10 ? 1 : 0)))
  })
  test('u16 frame numbers when FC > 255', () => {
    const l = parseGfMotion(buildGfMotion(longMotionSpec()), ctx)
    expect(l.skeletal![0]!.curves[1]!.keys.map((k) => k.frame)).toEqual([0, 300])
    expect(evalCurve(l.skeletal![0]!.curves[1]!, 150)).toBeCloseTo(1.5, 6)
  })
  test('UV transform (Maya convention, spec §6.5)', () => {
    expect(applyUvTransform({ scale: [1, 1], rotation: 0, translation: [0.25, 0] }, 1, 0)).toEqual([0.75, 0])
    const [u, v] = applyUvTransform({ scale: [2, 1], rotation: Math.PI / 2, translation: [0, 0] }, 1, 0)
    // c = 0, s = 1: u' = 2·(0 − 0) + 2·(0.5 − 0 + 0.5) = 2; v' = 1·(1 + 0) + (−0.5 − 0 + 0.5) = 1
    expect(u).toBeCloseTo(2, 12)
    expect(v).toBeCloseTo(1, 12)
  })
})

describe('bad GFMotion input', () => {
  test('an absurd key count is an error naming file, entry, section and offset', () => {
    const bytes = buildGfMotion({ frameCount: 10, skeletal: [{ bone: 'Waist', curves: { transX: { keys: [[0, 0, 0], [10, 1, 0]], count: 0x7fffffff } } }] })
    let e: unknown
    try { parseGfMotion(bytes, ctx) } catch (x) { e = x }
    expect(e).toBeInstanceOf(FormatError)
    expect((e as FormatError).message).toMatch(/^4\.bin: entry 3 GFMotion skeletal section at 0x[0-9A-F]+: bone 0 'Waist' transX keys: count 2147483647/)
  })
  test('unknown curve codes, frames going back, truncation, absurd section counts', () => {
    const v = motionVector()
    const bad = Uint8Array.from(v)
    bad[0x54] = 0x07 // scaleX code 7
    expect(() => parseGfMotion(bad, ctx)).toThrow(/scaleX: curve code 7 is not known/)
    const back = Uint8Array.from(v)
    back[0x64] = 9; back[0x65] = 0 // frames 9, 0
    expect(() => parseGfMotion(back, ctx)).toThrow(/key frames not increasing/)
    for (const n of [0x10, 0x30, 0x50, 0x70]) expect(() => parseGfMotion(v.subarray(0, n), ctx)).toThrow(FormatError)
    const many = Uint8Array.from(v)
    new DataView(many.buffer).setUint32(4, 0xffffff, true)
    expect(() => parseGfMotion(many, ctx)).toThrow(/section count 16777215 is absurd/)
  })
  test('unknown section types are skipped', () => {
    expect(parseGfMotion(buildGfMotion({ frameCount: 4, unknownSection: true }), ctx).unknownSections).toEqual([2])
  })
})
