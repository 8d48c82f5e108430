/** The spec's hand-checkable vectors (pokemon-stadium.md §19.2–§19.7). */
import { describe, expect, it } from 'vitest'
import { Module } from '../../../../../src-shared/formats/stadium/fragment'
import { bitfield, hermite, tenthsToAngle, playbackFrames } from '../../../../../src-shared/formats/stadium/skeletal-anim'
import { jointBasis, jointQuat, poseMatrices, zxyBasis, zxyQuat } from '../../../../../src-shared/formats/stadium/joint-math'
import { fragmentSlotBase } from '../../../../../src-shared/formats/stadium/archive'
import { jointMode, type Bone, type Level } from '../../../../../src-shared/formats/stadium/model-graph'

const mod = (bytes: number[]) => new Module(Uint8Array.from(bytes), 0x8ff00000, 'test')

describe('§19.2 packed bitfield', () => {
  const m = mod([0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0, 0])
  it('12-bit and 16-bit values', () => {
    expect([0, 1, 2, 3].map((i) => bitfield(m, 0, i, 12))).toEqual([291, 1110, 1929, -1348])
    expect([0, 1, 2].map((i) => bitfield(m, 0, i, 16))).toEqual([4660, 22136, -25924])
  })
  it('packed rotation = s16(v << 4)', () => {
    const a = ((-1348 << 4) << 16) >> 16
    expect(a).toBe(-21568)
    expect((a / 32768) * 180).toBeCloseTo(-118.4765625, 10)
  })
})

describe('§19.3 Hermite', () => {
  const keys = (k: number[][]) => {
    const b: number[] = []
    for (const key of k) for (const v of key) b.push((v >> 8) & 0xff, v & 0xff)
    return mod(b)
  }
  it('narrow keys (0,0,0) (10,100,0) (20,0,0)', () => {
    const m = keys([[0, 0, 0], [10, 100, 0], [20, 0, 0]])
    expect([0, 5, 10, 15, 20].map((f) => hermite(m, 0, 0, 3, false, f))).toEqual([0, 50, 100, 50, 0])
  })
  it('keys (0,0,30) (10,100,0)', () => {
    const m = keys([[0, 0, 30], [10, 100, 0]])
    const v = [0, 2, 5, 8, 10].map((f) => hermite(m, 0, 0, 2, false, f))
    expect(v[0]).toBe(0)
    expect(v[1]).toBeCloseTo(11.68, 2)
    expect(v[2]).toBeCloseTo(51.25, 2)
    expect(v[3]).toBeCloseTo(89.92, 2)
    expect(v[4]).toBe(100)
  })
  it('tenths of a degree → binary angle, wrapped and signed', () => {
    expect(tenthsToAngle(900)).toBe(0x4000)
    expect(tenthsToAngle(2700)).toBe(-0x4000)
    expect(tenthsToAngle(-900)).toBe(-0x4000)
  })
})

describe('§12.5 playback', () => {
  it('startFrame, …, nFrames−1, loopStart, … (wrap) and hold', () => {
    expect(playbackFrames({ startFrame: 1, loopStartFrame: 2, frameCount: 5, hold: false }, 9)).toEqual([1, 2, 3, 4, 2, 3, 4, 2, 3])
    expect(playbackFrames({ startFrame: 0, loopStartFrame: 0, frameCount: 3, hold: true }, 5)).toEqual([0, 1, 2, 2, 2])
  })
})

describe('§19.4 rotation → quaternion', () => {
  it('game rows and q = qz⊗qy⊗qx', () => {
    const m = jointBasis([0x2000, 0x1000, 0x0800], [0, 0, 0], 'exact')
    const rows = [0.9061274, 0.18024, -0.3826834, 0.1274489, 0.746311, 0.6532815, 0.4033483, -0.6407289, 0.6532815]
    const got = [m[0], m[1], m[2], m[4], m[5], m[6], m[8], m[9], m[10]]
    got.forEach((x, i) => expect(x).toBeCloseTo(rows[i]!, 6))
    const q = jointQuat([0x2000, 0x1000, 0x0800], 'exact')
    expect(q[0]).toBeCloseTo(0.3558564, 6)
    expect(q[1]).toBeCloseTo(0.2161609, 6)
    expect(q[2]).toBeCloseTo(0.0145177, 6)
    expect(q[3]).toBeCloseTo(0.9090819, 6)
  })
  it('the ZXY basis matches its quaternion qy⊗qx⊗qz (rotating ex, ey, ez gives the rows)', () => {
    const r: [number, number, number] = [0x1230, -0x2340, 0x3450]
    const m = zxyBasis(r, [0, 0, 0], 'exact')
    const [x, y, z, w] = zxyQuat(r, 'exact')
    const rot = (v: number[]) => {
      // v' = q v q*
      const ix = w * v[0]! + y * v[2]! - z * v[1]!, iy = w * v[1]! + z * v[0]! - x * v[2]!, iz = w * v[2]! + x * v[1]! - y * v[0]!, iw = -x * v[0]! - y * v[1]! - z * v[2]!
      return [ix * w + iw * -x + iy * -z - iz * -y, iy * w + iw * -y + iz * -x - ix * -z, iz * w + iw * -z + ix * -y - iy * -x]
    }
    ;[[1, 0, 0], [0, 1, 0], [0, 0, 1]].forEach((e, row) => rot(e).forEach((c, k) => expect(c).toBeCloseTo(m[row * 4 + k]!, 9)))
  })
})

describe('§19.5 bone chain with non-uniform scale', () => {
  const bone = (index: number, parent: number, t: number[], r: number[], s: number[]): Bone => ({ index, level: index + 1, parent, jointId: index, rawFlags: 1, mode: 0, animChannel: -1, translation: t as never, rotation: r as never, scale: s as never, at: 0, name: `b${index}` })
  const bones = [bone(0, -1, [0, 10, 0], [0, 0, 0], [2, 1, 1]), bone(1, 0, [5, 0, 0], [0, 0, 0x4000], [1, 3, 1]), bone(2, 1, [0, 2, 0], [0, 0, 0], [1, 1, 1])]
  const levels: Level[] = [{ index: 0, kind: 'root', parent: -1, bone: -1, at: 0 }, ...bones.map((b) => ({ index: b.index + 1, kind: 'joint' as const, parent: b.index, bone: b.index, at: 0 }))]
  const pose = (b: number) => ({ t: bones[b]!.translation, r: bones[b]!.rotation, s: bones[b]!.scale })
  it('M_A, M_B, M_C and the vertex (1,0,0) of C at (4,12,0)', () => {
    const { M, acc } = poseMatrices(levels, bones, pose)
    const near = (a: ArrayLike<number>, b: number[]) => b.forEach((x, i) => expect(a[i]).toBeCloseTo(x, 9))
    near(M[1]!, [2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 10, 0, 1])
    near(M[2]!, [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 1, 0, 10, 10, 0, 1])
    near(M[3]!, [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 1, 0, 4, 10, 0, 1])
    expect(acc[3]).toEqual([2, 3, 1])
    const C = M[3]!
    expect([1 * C[0]! + C[12]!, 1 * C[1]! + C[13]!, 1 * C[2]! + C[14]!].map((v) => Math.round(v * 1e9) / 1e9)).toEqual([4, 12, 0])
  })
  it('a 0x1C root scale of 0.1 in front', () => {
    const lv: Level[] = [levels[0]!, { index: 1, kind: 'scale', parent: 0, bone: -1, scale: [0.1, 0.1, 0.1], at: 0 }, ...bones.map((b) => ({ index: b.index + 2, kind: 'joint' as const, parent: b.index + 1, bone: b.index, at: 0 }))]
    const { M } = poseMatrices(lv, bones, pose)
    const C = M[4]!
    ;[0, 0.2, 0, 0, -0.3, 0, 0, 0, 0, 0, 0.1, 0, 0.4, 1.0, 0, 1].forEach((x, i) => expect(C[i]).toBeCloseTo(x, 9))
  })
})

describe('§4.1 / §11.2 small rules', () => {
  it('link base from the archive id', () => {
    expect(fragmentSlotBase(0xef)).toBe(0x8ff00000)
    expect(fragmentSlotBase(0x10)).toBe(0x82000000)
  })
  it('joint mode from rawFlags', () => {
    expect(jointMode(1)).toBe(0)
    expect(jointMode(0)).toBe(1)
    expect(jointMode(2)).toBe(3)
    expect(jointMode(3)).toBe(2)
  })
})
