/**
 * `.fbxskel.*` reader (src-shared/formats/re/fbxskel.ts; layout from REE-Lib's FbxSkelFile.cs).
 * The first file is assembled here byte by byte from that layout, with the spec §6 hashes and
 * floats written out in hex, so the reader is checked against numbers the fixture builder did not
 * make; the builder (tests/fixtures/re/fbxskel.ts) then serves the older layout and the errors.
 */
import { describe, expect, it } from 'vitest'
import { FormatError } from '../../../../../src-shared/binary'
import { readFbxSkel, readSkeletonSource } from '../../../../../src-shared/formats/re'
import { buildFbxSkel } from '../../../../fixtures/re/fbxskel'
import { characterBones } from '../../../../fixtures/re/mesh'

const hexBytes = (s: string) => Uint8Array.from(s.replace(/\s+/g, '').match(/../g)!, (h) => parseInt(h, 16))
const ZERO = (n: number) => '00'.repeat(n)

/** Two bones, version 7 (rotation first): root, and Hip under it at (0, 1, 0.5), rotated (0, 0, 0.6, 0.8), scale 2. */
const HAND = hexBytes(
  // header: version 7, "skln", 8 × 0, boneOffset 0x30, lookupOffset 0xB0, boneCount 2, 12 × 0
  '07000000 736B6C6E' + ZERO(8) + '3000000000000000 B000000000000000 02000000' + ZERO(12) +
    // bone 0 at 0x30: name at 0xC0, hash 0xABA7DE3C (root, §6), parent −1, symmetry 0
    'C000000000000000 3CDEA7AB FFFF 0000' +
    '00000000 00000000 00000000 0000803F' + ZERO(12) + '0000803F 0000803F 0000803F' + '00' + ZERO(7) +
    // bone 1 at 0x70: name at 0xCA, hash 0x5C62B409 (Hip, §6), parent 0, symmetry 1
    'CA00000000000000 09B4625C 0000 0100' +
    '00000000 00000000 9A99193F CDCC4C3F' + '00000000 0000803F 0000003F' + '00000040 00000040 00000040' + '01' + ZERO(7) +
    // lookup at 0xB0, sorted by hash: (Hip, 1), (root, 0)
    '09B4625C 01000000 3CDEA7AB 00000000' +
    // names at 0xC0: "root\0", "Hip\0" (UTF-16LE)
    '72006F006F0074000000 480069007000 0000',
)

describe('.fbxskel reader', () => {
  it('reads a file assembled by hand from the layout: names, hashes, parents, TRS, symmetry, segment scaling', () => {
    const s = readFbxSkel(HAND, 'ch0000.fbxskel.7')
    expect(s).toMatchObject({ version: 7, suffix: 7, layout: 5 })
    expect(s.bones.map((b) => [b.name, b.hash, b.parent, b.symmetry])).toEqual([
      ['root', 0xaba7de3c, -1, -1],
      ['Hip', 0x5c62b409, 0, -1],
    ])
    const hip = s.bones[1]!
    hip.rotation.forEach((v, k) => expect(v).toBeCloseTo([0, 0, 0.6, 0.8][k]!, 6))
    hip.translation.forEach((v, k) => expect(v).toBeCloseTo([0, 1, 0.5][k]!, 7))
    expect(hip.scale).toEqual([2, 2, 2])
    expect(hip.segmentScaling).toBe(true)
    expect(s.bones[0]!.segmentScaling).toBe(false)
  })

  it('as --skeleton SKEL: plain motion bones, found by the magic at 0x4 whatever the name', () => {
    const src = readSkeletonSource(HAND, 'renamed.bin')
    expect(src.kind).toBe('fbxskel')
    expect(src.bones.map((b) => [b.index, b.name, b.parent, b.storedIndex])).toEqual([
      [0, 'root', -1, 0],
      [1, 'Hip', 0, 1],
    ])
    expect(Object.keys(src.bones[0]!).sort()).toEqual(['hash', 'index', 'name', 'parent', 'rotation', 'storedIndex', 'translation'])
  })

  it('the layout before version 5 (position first), by the file suffix or the header version', () => {
    const bones = characterBones()
    const old = buildFbxSkel(bones, { layout: 4, version: 3 })
    for (const name of ['ch.fbxskel.3', undefined]) {
      const s = readFbxSkel(old, name)
      expect(s.layout).toBe(4)
      expect(s.bones.map((b) => b.name)).toEqual(bones.map((b) => b.name))
      s.bones.forEach((b, i) => {
        b.translation.forEach((v, k) => expect(v).toBeCloseTo(bones[i]!.t[k]!, 6))
        b.rotation.forEach((v, k) => expect(v).toBeCloseTo(bones[i]!.r[k]!, 6))
      })
    }
  })

  it('a file whose suffix names the other layout is read in the one whose rotations are unit quaternions', () => {
    const bones = characterBones()
    const s = readFbxSkel(buildFbxSkel(bones, { layout: 4, version: 3 }), 'mislabelled.fbxskel.7')
    expect(s.layout).toBe(4)
    s.bones[5]!.rotation.forEach((v, k) => expect(v).toBeCloseTo(bones[5]!.r[k]!, 6))
  })

  it('damaged files: a FormatError naming the file, the structure and the offset', () => {
    const good = buildFbxSkel(characterBones())
    const with32 = (at: number, v: number) => {
      const b = good.slice()
      new DataView(b.buffer).setUint32(at, v, true)
      return b
    }
    const parent = good.slice()
    new DataView(parent.buffer).setInt16(0x30 + 2 * 64 + 12, 9, true)
    const cases: [Uint8Array, RegExp][] = [
      [good.slice(0, 0x20), /FbxSkel header at 0x0: the file is 32 bytes, shorter than the 0x30-byte header/],
      [with32(4, 0x12345678), /FbxSkel header at 0x4: not an \.fbxskel file: magic 0x12345678/],
      [with32(0x20, 0), /FbxSkel header at 0x20: .*boneCount is 0/],
      [with32(0x20, 200), /FbxSkel header at 0x10: 200 bones of 64 bytes at boneOffset 0x30 do not fit/],
      [with32(0x30 + 64, 0xfffff), /FbxSkel bone at 0x70: Bone\[1\]\.nameOffset 0xFFFFF is past the end/],
      [parent, /FbxSkel bone at 0xBC: Bone\[2\]\.parent 9 is not a bone of the 8/],
    ]
    for (const [bytes, re] of cases) {
      let err: unknown
      try {
        readFbxSkel(bytes, 'bad.fbxskel.7')
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(FormatError)
      expect((err as Error).message).toContain('bad.fbxskel.7')
      expect((err as Error).message).toMatch(re)
    }
  })
})
