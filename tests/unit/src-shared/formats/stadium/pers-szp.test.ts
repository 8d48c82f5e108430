import { describe, expect, it } from 'vitest'
import { unwrapFile } from '../../../../../src-shared/formats/stadium/pers-szp'
import { FormatError } from '../../../../../src-shared/binary'

const hex = (s: string) => Uint8Array.from(s.trim().split(/\s+/).map((x) => parseInt(x, 16)))
const YAY0 = '59 61 79 30 00 00 00 21 00 00 00 14 00 00 00 18 E8 00 00 00 70 02 00 00 41 42 43 58 02'

describe('PERS-SZP', () => {
  it('unwraps the §19.1 wrapper with no patches', () => {
    const r = unwrapFile(hex('50 45 52 53 2D 53 5A 50 00 00 00 18 00 00 00 21 00 00 00 21 00 00 00 00 ' + YAY0))
    expect(r.container).toBe('pers-szp')
    expect(new TextDecoder().decode(r.bytes)).toBe('ABCABCABCABCXXXXXXXXXXXXXXXXXXXXX')
    expect(r.warnings).toEqual([])
  })

  it('applies the patch and zero-fills the tail (§19.8)', () => {
    const r = unwrapFile(hex('50 45 52 53 2D 53 5A 50 00 00 00 20 00 00 00 21 00 00 00 28 00 00 00 01 DE AD BE EF 00 00 00 04 ' + YAY0))
    const expected = [0x41, 0x42, 0x43, 0x41, 0xde, 0xad, 0xbe, 0xef, 0x43, 0x41, 0x42, 0x43, ...new Array(21).fill(0x58), ...new Array(7).fill(0)]
    expect([...r.bytes]).toEqual(expected)
    expect(r.patches).toEqual([{ value: 0xdeadbeef, offset: 4 }])
    expect(r.totalSize).toBe(0x28)
    expect(r.warnings.join(' ')).toMatch(/1 patch/)
  })

  it('wipes a patch that lands in the tail (zero-fill comes last)', () => {
    const r = unwrapFile(hex('50 45 52 53 2D 53 5A 50 00 00 00 20 00 00 00 21 00 00 00 28 00 00 00 01 DE AD BE EF 00 00 00 24 ' + YAY0))
    expect([...r.bytes.subarray(0x21)]).toEqual(new Array(7).fill(0))
  })

  it('rejects a patch that is not a word inside the module', () => {
    expect(() => unwrapFile(hex('50 45 52 53 2D 53 5A 50 00 00 00 20 00 00 00 21 00 00 00 28 00 00 00 01 DE AD BE EF 00 00 00 26 ' + YAY0), { file: 'rom', base: 0x100 })).toThrow(FormatError)
  })
})
