import { describe, expect, test } from 'vitest'
import { Reader } from '../../../../../src-shared/binary/reader'
import { FormatError } from '../../../../../src-shared/binary/errors'
import { float24ToNumber, numberToFloat24, unpackFloat24Words, vec4FromFloat24Words, vec4ToFloat24Words } from '../../../../../src-shared/formats/gf/float24'
import { picaHeader, picaRegisters, picaWrites, readPicaCommands } from '../../../../../src-shared/formats/gf/pica-commands'

const words = (...w: number[]) => new Uint8Array(new Uint32Array(w).buffer)

describe('float24 (spec §4.6, §15.6)', () => {
  test.each([[1, 0x3f0000], [-2, 0xc00000], [0.5, 0x3e0000], [255, 0x46fe00], [0, 0]])('%d ↔ %s', (v, code) => {
    expect(numberToFloat24(v)).toBe(code)
    expect(float24ToNumber(code)).toBe(v)
  })
  test('a mantissa bit by hand: 0x3F8000 = 1.5 (exp 63 → 2^0, mantissa 0x8000 = .5)', () => {
    expect(float24ToNumber(0x3f8000)).toBe(1.5)
    expect(Object.is(float24ToNumber(0x800000), -0)).toBe(true)
  })
  test('spec §15.5 fixed attribute words 0x3F000000, 0, 0x003F0000 → (1, 0, 0, 1)', () => {
    expect(unpackFloat24Words(0x3f000000, 0, 0x003f0000)).toEqual([0x3f0000, 0, 0, 0x3f0000])
    expect(vec4FromFloat24Words(0x3f000000, 0, 0x003f0000)).toEqual([1, 0, 0, 1])
    expect(vec4ToFloat24Words([1, 0, 0, 1])).toEqual([0x3f000000, 0, 0x003f0000])
  })
  test('packing by hand: (x, y, z, w) = (0.5, −2, 255, 1)', () => {
    // w=0x3F0000, z=0x46FE00, y=0xC00000, x=0x3E0000
    // DATA0 = w<<8 | z>>16 = 0x3F000046; DATA1 = (z&0xFFFF)<<16 | y>>8 = 0xFE00C000; DATA2 = (y&0xFF)<<24 | x = 0x003E0000
    expect(vec4ToFloat24Words([0.5, -2, 255, 1])).toEqual([0x3f000046, 0xfe00c000, 0x003e0000])
    expect(vec4FromFloat24Words(0x3f000046, 0xfe00c000, 0x003e0000)).toEqual([0.5, -2, 255, 1])
  })
})

describe('PICA command lists (spec §4.5, §15.5)', () => {
  test('header 0x801F0204: register 0x204, mask 0xF, 1 extra, consecutive', () => {
    expect(picaHeader(0x801f0204)).toEqual({ register: 0x204, mask: 0xf, extra: 1, consecutive: true })
  })
  test('spec §15.5 words decode to CONFIG1 / CONFIG2, the padding word skipped', () => {
    const r = new Reader(words(0x00043210, 0x801f0204, 0x50280000, 0, 0x5, 0x803f0232, 0x3f000000, 0, 0x003f0000, 0))
    const cmds = readPicaCommands(r, 0, 40, 'test')
    expect(cmds.map((c) => [c.register, c.params.length, c.offset])).toEqual([[0x204, 2, 0], [0x232, 4, 16]])
    const regs = picaRegisters(picaWrites(cmds))
    expect(regs.get(0x204)).toBe(0x00043210)
    expect(regs.get(0x205)).toBe(0x50280000)
    expect([regs.get(0x232), regs.get(0x233), regs.get(0x234), regs.get(0x235)]).toEqual([5, 0x3f000000, 0, 0x003f0000])
  })
  test('non-consecutive writes go to one register; byte-enable masks keep the other bytes', () => {
    // 0x25E := 0x12345678 (mask F), then 0x0000AB00 with mask 0x2 (byte 1 only) → 0x1234AB78
    const r = new Reader(words(0x12345678, 0x000f025e, 0x0000ab00, 0x0002025e, 7, 0x002f0228, 8, 9))
    const regs = picaRegisters(picaWrites(readPicaCommands(r, 0, 32, 'test')))
    expect(regs.get(0x25e)).toBe(0x1234ab78)
    expect(regs.get(0x228)).toBe(9) // FIFO-style: the last of 7, 8, 9
  })
  test('a command whose count runs past its list names the structure and offset', () => {
    const r = new Reader(words(0, 0, 1, 0x803f0232, 2), { file: '0.bin', base: 0x100 })
    let err: unknown
    try { readPicaCommands(r, 8, 12, 'GFMesh[0] command block 0') } catch (e) { err = e }
    expect(err).toBeInstanceOf(FormatError)
    expect((err as FormatError).message).toMatch(/^0\.bin: GFMesh\[0\] command block 0 at 0x108: command at 0x108 \(register 0x232\) declares 3 extra parameters, 2 more than/)
  })
})
