import { describe, expect, it } from 'vitest'
import { sha256 } from '@noble/hashes/sha2.js'
import { FormatError } from '../../../../../src-shared/binary'
import {
  readMotlist,
  writeMotlist,
  writeMot,
  readMotionFile,
  describeMotionFile,
  sampleMot,
  eulerToQuat,
  motionsOf,
  SUPPORTED_MOTLIST_VERSIONS,
  type Motlist,
} from '../../../../../src-shared/formats/re'
import { spec103Bytes, spec103Drafts, SPEC_10_3_SHA256 } from '../../../../fixtures/re/spec-vectors'
import { buildTemplateMotlist } from '../../../../fixtures/re/template'

const hexOf = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('')
const u32 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset).getUint32(o, true)
const u64 = (b: Uint8Array, o: number) => Number(new DataView(b.buffer, b.byteOffset).getBigUint64(o, true))

function expectFormatError(fn: () => unknown, re?: RegExp): FormatError {
  try {
    fn()
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(FormatError)
    if (re) expect((e as Error).message).toMatch(re)
    return e as FormatError
  }
  throw new Error('expected a FormatError')
}

describe('§10.3 minimal RE4R motlist', () => {
  const spec = spec103Bytes()

  it('the spec hex dump is 680 bytes with the spec SHA-256', () => {
    expect(spec.byteLength).toBe(680)
    expect(hexOf(sha256(spec))).toBe(SPEC_10_3_SHA256)
  })

  it('our writer reproduces it byte for byte', () => {
    const d = spec103Drafts(eulerToQuat([0, Math.PI / 2, 0]))
    const out = writeMotlist({ ...d.motlist, mots: [writeMot(d.mot)] })
    expect(hexOf(sha256(out))).toBe(SPEC_10_3_SHA256)
    expect(out).toEqual(spec)
  })

  it('reads the spec bytes per the offset map', () => {
    const ml = readMotlist(spec, 'spec.motlist.663')
    expect(ml.version).toBe(663)
    expect(ml.motVersion).toBe(613)
    expect(ml.name).toBe('pose')
    expect(ml.header).toMatchObject({ pointersOffset: 0x40, motionIndicesOffset: 0x260, nameOffset: 0x36, numMots: 1, uknNum: 0 })
    expect(ml.mots).toHaveLength(1)
    const mot = ml.mots[0]!
    expect(mot.offset).toBe(0x50)
    expect(mot.header).toMatchObject({ version: 613, motSize: 0, boneHeaderOffsetStart: 0x140, boneClipHeaderOffset: 0x80, nameOffset: 0x130, frameCount: 1, blending: 0, endFrame: 1, boneCount: 2, boneClipCount: 2, frameRate: 60 })
    expect(mot.ownsBones).toBe(true)
    expect(mot.bones!.map((b) => [b.name, b.parent, b.hash])).toEqual([['root', -1, 0xaba7de3c], ['Hip', 0, 0x5c62b409]])
    expect(mot.bones![1]!.translation).toEqual([0, 1, 0])
    expect(mot.clips.map((c) => [c.offset, c.boneIndex, c.trackFlags, c.weightByte, c.trackHeaderOffset])).toEqual([[0x80, 0, 2, 0xff, 0xa0], [0x8c, 1, 3, 0xff, 0xb4]])
    const hipR = mot.clips[1]!.rotation!
    expect(hipR).toMatchObject({ offset: 0xc8, flags: 0x002c0112, keyCount: 2, frameIndexOffset: 0x114, frameDataOffset: 0x118, unpackDataOffset: 0 })
    expect([...hipR.frames!]).toEqual([0, 1])
    expect(mot.clips[1]!.translation).toMatchObject({ offset: 0xb4, flags: 0x002000f2, frameIndexOffset: 0xf8, frameDataOffset: 0xfc })
    expect(ml.entries).toHaveLength(1)
    expect(ml.entries[0]).toMatchObject({ motNumber: 0, switch: 0, type: 1, flags: 0, pointer: 0x50, mot: 0 })
    expect(ml.entries[0]!.unknown).toEqual(new Array(12).fill(0))
  })

  it('samples the pose: Hip R = (0, 0.7071068, 0, 0.7071068), T = (0, 1, 0)', () => {
    const ml = readMotlist(spec)
    const s = sampleMot(ml.mots[0]!, ml.skeleton, 0)
    expect(s.map((b) => b.bone)).toEqual(['root', 'Hip'])
    expect(s[0]!.rotation).toEqual([0, 0, 0, 1])
    s[1]!.rotation.forEach((v, i) => expect(v).toBeCloseTo([0, 0.7071068, 0, 0.7071068][i]!, 6))
    expect(s[1]!.translation).toEqual([0, 1, 0])
    expect(s[1]!.scale).toEqual([1, 1, 1])
  })

  it('every truncation is a FormatError naming the file (never a hang or another error)', () => {
    for (let n = 0; n < spec.byteLength; n++) {
      const e = expectFormatError(() => readMotionFile(spec.subarray(0, n), 'cut.motlist.663'))
      expect(e.message).toContain('cut.motlist.663')
    }
  })

  it('survives byte corruption: only FormatErrors or a successful read', () => {
    let seed = 12345
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    for (let i = 0; i < 1500; i++) {
      const b = spec.slice()
      const k = 1 + Math.floor(rnd() * 4)
      for (let j = 0; j < k; j++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256)
      try {
        const f = readMotionFile(b, 'fuzz')
        describeMotionFile(f)
        for (const m of motionsOf(f)) if (m.mot) sampleMot(m.mot, m.skeleton, 0.5)
      } catch (e) {
        expect(e, String(e)).toBeInstanceOf(FormatError)
      }
    }
  })
})

describe('motlist structure', () => {
  it('de-duplicates shared mots like the seed file (3 IDs, shared mot) and ends at the MotIndex table', () => {
    const b = buildTemplateMotlist()
    const ml = readMotlist(b)
    expect(ml.entries.map((e) => e.motNumber)).toEqual([155, 160, 162])
    expect(ml.entries.map((e) => e.mot)).toEqual([0, 0, 1])
    expect(ml.entries[0]!.pointer).toBe(ml.entries[1]!.pointer)
    expect(ml.mots).toHaveLength(2)
    expect(ml.entries.every((e) => e.type === 1)).toBe(true)
    expect(b.byteLength).toBe(ml.header.motionIndicesOffset + 3 * 0x48)
    // the second mot has no bone list of its own and uses the shared one
    expect(ml.mots[1]!.ownsBones).toBe(false)
    expect(ml.mots[1]!.header.motSize).toBeGreaterThan(0)
    expect(ml.skeleton).toHaveLength(40)
    const info = describeMotionFile({ kind: 'motlist', motlist: ml })
    expect(info.motions[2]!.bones).toHaveLength(40)
    expect(info.motions[2]!.tracks.every((t) => t.bone !== null)).toBe(true)
  })

  it.each([
    [60, 0x28, 4],
    [85, 0x30, 24],
    [99, 0x30, 24],
    [486, 0x30, 24],
    [524, 0x30, 72],
    [663, 0x30, 72],
    [751, 0x30, 72],
    [992, 0x30, 72],
  ])('version %d: numMots at 0x%s, %d-byte MotIndex entries', (version, numAt, size) => {
    const b = buildTemplateMotlist({ version, codecs: 'simple' })
    expect(u32(b, 0)).toBe(version)
    expect(u32(b, numAt)).toBe(3)
    const ml = readMotlist(b)
    expect(b.byteLength).toBe(ml.header.motionIndicesOffset + 3 * size)
    expect(ml.entries.map((e) => e.motNumber)).toEqual([155, 160, 162])
    // name right after the header: 0x2C (v60), 0x34 (v85–524), 0x36 (v ≥ 528)
    expect(u64(b, 0x20)).toBe(version <= 60 ? 0x2c : version < 528 ? 0x34 : 0x36)
  })

  it('gives the same motion data in every version (simple codecs)', () => {
    const ref = readMotlist(buildTemplateMotlist({ version: 663, codecs: 'simple' }))
    const refSample = sampleMot(ref.mots[0]!, ref.skeleton, 12.5)
    for (const version of [60, 85, 99, 486, 524, 528, 653, 751, 992, 1004]) {
      const ml = readMotlist(buildTemplateMotlist({ version, codecs: 'simple' }))
      const s = sampleMot(ml.mots[0]!, ml.skeleton, 12.5)
      expect(s.map((x) => x.bone)).toEqual(refSample.map((x) => x.bone))
      s.forEach((x, i) => x.rotation.forEach((v, k) => expect(v).toBeCloseTo(refSample[i]!.rotation[k]!, 6)))
    }
  })

  it('reads the v ≥ 1036 header (motpack pointer at 0x30, numMots at 0x38)', () => {
    // Built by hand first, then compared with the writer's output.
    const mot = writeMot({ ...spec103Drafts([0, 0, 0, 1]).mot, version: 973 })
    const name = [...'onimusha'].flatMap((c) => [c.charCodeAt(0), 0]).concat([0, 0])
    const nameAt = 0x3e
    const ptrAt = 0x60
    const motAt = 0x70
    const idxAt = motAt + mot.byteLength
    const b = new Uint8Array(idxAt + 0x48)
    const v = new DataView(b.buffer)
    v.setUint32(0, 1036, true)
    b.set([0x6d, 0x6c, 0x73, 0x74], 4)
    v.setBigUint64(0x10, BigInt(ptrAt), true)
    v.setBigUint64(0x18, BigInt(idxAt), true)
    v.setBigUint64(0x20, BigInt(nameAt), true)
    v.setInt32(0x38, 1, true)
    b.set(name, nameAt)
    v.setBigUint64(ptrAt, BigInt(motAt), true)
    b.set(mot, motAt)
    v.setUint16(idxAt + 8, 42, true)
    b[idxAt + 0x14] = 1
    const ml = readMotlist(b)
    expect(ml).toMatchObject({ version: 1036, motVersion: 973, name: 'onimusha' })
    expect(ml.header.numMots).toBe(1)
    expect(ml.entries[0]).toMatchObject({ motNumber: 42, type: 1, mot: 0 })
    expect(ml.mots[0]!.bones!.map((x) => x.name)).toEqual(['root', 'Hip'])
    // Written with the motpack pointer 0 (none): header 0x3E, name right after it.
    const w = writeMotlist({ version: 1036, name: 'onimusha', mots: [mot], entries: [{ mot: 0, motNumber: 42 }] })
    const wv = new DataView(w.buffer, w.byteOffset)
    expect(wv.getBigUint64(0x20, true)).toBe(0x3en)
    expect(wv.getBigUint64(0x30, true)).toBe(0n)
    expect(wv.getInt32(0x38, true)).toBe(1)
    const back = readMotlist(w)
    expect(back).toMatchObject({ version: 1036, motVersion: 973, name: 'onimusha' })
    expect(back.entries[0]).toMatchObject({ motNumber: 42, type: 1, mot: 0 })
  })

  it('reads a pointer to no mot (0) as a motion without data', () => {
    const mot = writeMot(spec103Drafts([0, 0, 0, 1]).mot)
    const b = writeMotlist({ version: 663, name: 'x', mots: [mot], entries: [{ mot: 0, motNumber: 3 }, { mot: -1, motNumber: 4 }] })
    const ml = readMotlist(b)
    expect(ml.entries.map((e) => e.mot)).toEqual([0, -1])
    const info = describeMotionFile({ kind: 'motlist', motlist: ml })
    expect(info.motions[1]).toMatchObject({ id: 4, name: null, tracks: [] })
  })
})

describe('bad motlists', () => {
  const good = () => spec103Bytes()
  it('wrong magic', () => {
    const b = good()
    b[4] = 0x78
    expectFormatError(() => readMotionFile(b, 'a.motlist.663'), /a\.motlist\.663.*at 0x4.*not an RE Engine motion file/)
  })
  it('unsupported version lists the supported ones', () => {
    const b = good()
    new DataView(b.buffer).setUint32(0, 999, true)
    const e = expectFormatError(() => readMotlist(b, 'v.motlist.999'), /motlist version 999 is not supported; supported: /)
    expect(e.message).toContain(SUPPORTED_MOTLIST_VERSIONS.join(', '))
    expect(e.offset).toBe(0)
  })
  it('a foreign file', () => {
    expectFormatError(() => readMotionFile(new TextEncoder().encode('PK\u0003\u0004 this is a zip'), 'x.zip'), /neither 'mlst' nor 'mot '/)
    expectFormatError(() => readMotionFile(new Uint8Array(3), 'tiny'), /too short/)
  })
  it('absurd numMots', () => {
    const b = good()
    new DataView(b.buffer).setInt32(0x30, 0x7fffffff, true)
    expectFormatError(() => readMotlist(b), /numMots/)
  })
  it('a pointer past the end', () => {
    const b = good()
    new DataView(b.buffer).setBigUint64(0x40, 0x10000n, true)
    expectFormatError(() => readMotlist(b), /Pointers\[0\]/)
  })
  it('a bone whose parent pointer is not a bone header', () => {
    const b = good()
    // Hip's parentOffs at mot+0x1A0+8 → 0x154 (not on an 80-byte boundary)
    new DataView(b.buffer).setBigUint64(0x50 + 0x1a8, 0x154n, true)
    expectFormatError(() => readMotlist(b), /BoneHeader\[1\]\.parentOffs/)
  })
  it('a parent cycle', () => {
    const b = good()
    new DataView(b.buffer).setBigUint64(0x50 + 0x158, 0x1a0n, true) // root's parent = Hip
    expectFormatError(() => readMotlist(b), /cycle/)
  })
  it('an unknown compression code names the clip and the codes it knows', () => {
    const b = good()
    new DataView(b.buffer).setUint32(0x50 + 0xa0, 0x002f0112, true)
    expectFormatError(() => readMotlist(b), /BoneClip\[0\].*rotation.*unknown rotation compression 0xF0000/)
  })
  it('a bad frame index size code', () => {
    const b = good()
    new DataView(b.buffer).setUint32(0x50 + 0xa0, 0x003c0112, true)
    expectFormatError(() => readMotlist(b), /frame index size code 3/)
  })
  it('a key count beyond the data', () => {
    const b = good()
    new DataView(b.buffer).setInt32(0x50 + 0xa4, 100000, true)
    expectFormatError(() => readMotlist(b), /keyCount/)
  })
  it('a translation flag on a quaternion track', () => {
    const b = good()
    b[0x50 + 0x82] = 1 // root clip: T instead of R, but the track is a quaternion
    expectFormatError(() => readMotlist(b), /translation track has value type 0x112/)
  })
})

export type { Motlist }
