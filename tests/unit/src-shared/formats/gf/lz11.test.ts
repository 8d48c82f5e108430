/** LZ11 (spec gf-packages §19.5) against the §19.7 vectors, and the encoder through a second-hand decoder. */
import { describe, expect, it } from 'vitest'
import { FormatError } from '../../../../../src-shared/binary/errors'
import { decodeLz11, encodeLz11, isLz11, lz11Header, tryDecodeLz11 } from '../../../../../src-shared/formats/gf/lz11'
import { oracleLz11 } from '../../../../oracles/garc-reader'
import { Rng } from '../../../../helpers/fuzz'

const h = (s: string) => new Uint8Array(s.trim().split(/\s+/).map((x) => parseInt(x, 16)))
const ascii = (s: string) => new Uint8Array([...s].map((c) => c.charCodeAt(0)))

describe('LZ11 decoder: §19.7 vectors', () => {
  it('form i ≥ 2: literal A, then length 5 at distance 1', () => {
    expect(decodeLz11(h('11 06 00 00 40 41 40 00')).bytes).toEqual(ascii('AAAAAA'))
  })
  it('form 0: abc, then 21 bytes at distance 3, then XYZ (27 bytes)', () => {
    const out = decodeLz11(h('11 1B 00 00 10 61 62 63 00 40 02 58 59 5A')).bytes
    expect(out).toEqual(ascii('abc'.repeat(8) + 'XYZ'))
    expect(out.length).toBe(27)
  })
  it('form 1: one zero, then 299 at distance 1 (300 zero bytes)', () => {
    const out = decodeLz11(h('11 2C 01 00 40 00 10 01 A0 00')).bytes
    expect(out.length).toBe(300)
    expect(out.every((b) => b === 0)).toBe(true)
  })
  it('the three invalid streams are errors with structure and offset', () => {
    const cases: [string, number, RegExp][] = [
      ['11 06 00 00 80 20 05', 5, /before the first output byte/], // distance 6 with nothing decoded; token at 5
      ['11 06 00 00 40 41 50 00', 6, /past the declared size/], // length 6 after 1 byte
      ['11 06 00 00 40 41 40', 6, /ends inside a back-reference/], // truncated
    ]
    for (const [s, at, re] of cases) {
      let err: unknown
      try {
        decodeLz11(h(s), { file: 'x.garc', structure: 'GARC entry 1 LZ11', base: 0x100 })
      } catch (e) {
        err = e
      }
      expect(err, s).toBeInstanceOf(FormatError)
      const fe = err as FormatError
      expect(fe.detail, s).toMatch(re)
      expect(fe.offset, s).toBe(0x100 + at)
      expect(fe.message, s).toMatch(/^x\.garc: GARC entry 1 LZ11 at 0x/)
      expect(isLz11(h(s)), s).toBe(false)
      expect(tryDecodeLz11(h(s)), s).toBeNull()
    }
  })
  it('trailing bytes: 4 zero bytes after the 8-byte stream are valid, 5 are not', () => {
    const s = h('11 06 00 00 40 41 40 00')
    const plus = (n: number) => new Uint8Array([...s, ...new Array(n).fill(0)])
    expect(isLz11(plus(4))).toBe(true)
    expect(isLz11(plus(5))).toBe(false)
    // consumed 7 (not a multiple of 4) → at most floor4(7) + 4 = 8 bytes stored: one trailing byte
    const abc = h('11 03 00 00 00 41 42 43') // 8 bytes, consumed 8
    expect(decodeLz11(abc).consumed).toBe(8)
    const ab = h('11 02 00 00 00 41 42') // consumed 7 → 1 byte of padding allowed
    expect(isLz11(new Uint8Array([...ab, 0]))).toBe(true)
    expect(isLz11(new Uint8Array([...ab, 0, 0]))).toBe(false)
  })
  it('the 8-byte header: size 0 followed by a u32', () => {
    expect(lz11Header(h('11 00 00 00 03 00 00 00'))).toEqual({ size: 3, headerLength: 8 })
    expect(decodeLz11(h('11 00 00 00 03 00 00 00 00 41 42 43')).bytes).toEqual(ascii('ABC'))
    expect(lz11Header(h('11 00 00 00 03'))).toBeNull()
  })
  it('a prefix decode stops early and accepts a cut stream', () => {
    const s = h('11 1B 00 00 10 61 62 63 00 40 02 58 59 5A')
    expect(decodeLz11(s.subarray(0, 8), {}, 3).bytes).toEqual(ascii('abc'))
  })
})

describe('LZ11 encoder', () => {
  const rng = new Rng(22)
  const samples: [string, Uint8Array][] = [
    ['empty', new Uint8Array(0)],
    ['one byte', new Uint8Array([5])],
    ['random 5000', Uint8Array.from({ length: 5000 }, () => rng.int(256))],
    ['runs', Uint8Array.from({ length: 70000 }, (_, i) => (i >> 9) & 3)], // runs of 512: the 4-byte form
    ['long zero run', new Uint8Array(100000)], // runs longer than one token (65808)
    ['text', ascii('the quick brown fox jumps over the lazy dog; '.repeat(200))],
    ['near window', Uint8Array.from({ length: 20000 }, (_, i) => (i % 4099) & 0xff)], // repeats at distance 4099 > 0x1000
  ]
  for (const [name, data] of samples) {
    it(`round trip: ${name}`, () => {
      const enc = encodeLz11(data)
      expect(oracleLz11(enc)).toEqual(data)
      expect(decodeLz11(enc).bytes).toEqual(data)
      expect(isLz11(enc)).toBe(true)
    })
  }
  it('compresses repetition (a zero run of 100000 bytes to under 2 %)', () => {
    expect(encodeLz11(new Uint8Array(100000)).length).toBeLessThan(2000)
  })
})
