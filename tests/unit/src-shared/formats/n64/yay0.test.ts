import { describe, expect, it } from 'vitest'
import { decodeYay0, encodeYay0 } from '../../../../../src-shared/formats/n64/yay0'
import { FormatError } from '../../../../../src-shared/binary'

const hex = (s: string) => Uint8Array.from(s.trim().split(/\s+/).map((x) => parseInt(x, 16)))
// pokemon-stadium.md §19.1
const VECTOR = hex('59 61 79 30 00 00 00 21 00 00 00 14 00 00 00 18 E8 00 00 00 70 02 00 00 41 42 43 58 02')

describe('Yay0', () => {
  it('decodes the §19.1 vector (overlapping run, extended run length)', () => {
    const out = decodeYay0(VECTOR)
    expect(new TextDecoder().decode(out)).toBe('ABCABCABCABCXXXXXXXXXXXXXXXXXXXXX')
    expect(out.length).toBe(0x21)
  })

  it('rejects a back-reference before the start with the offset of the link', () => {
    const bad = VECTOR.slice()
    bad[0x10] = 0x00 // first mask bit 0: a back-reference at output offset 0
    try {
      decodeYay0(bad, { file: 'x.bin', base: 0x1000 })
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError)
      expect((e as FormatError).message).toMatch(/back-reference before the start/)
      expect((e as FormatError).offset).toBe(0x1014)
      expect((e as FormatError).file).toBe('x.bin')
    }
  })

  it('rejects truncated streams and bad headers without hanging', () => {
    expect(() => decodeYay0(VECTOR.subarray(0, 26))).toThrow(FormatError)
    expect(() => decodeYay0(VECTOR.subarray(0, 8))).toThrow(/truncated header/)
    const big = VECTOR.slice()
    big[4] = 0x7f // outSize 2 GiB
    expect(() => decodeYay0(big)).toThrow(/limit/)
  })

  it('round-trips our encoder on repetitive and random data', () => {
    const data = new Uint8Array(5000)
    let x = 1
    for (let i = 0; i < data.length; i++) {
      x = (x * 1103515245 + 12345) >>> 0
      data[i] = i < 2500 ? (i % 37) : x >>> 24
    }
    const enc = encodeYay0(data)
    expect(enc.length).toBeLessThan(data.length)
    expect(decodeYay0(enc)).toEqual(data)
  })
})
