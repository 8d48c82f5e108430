import { describe, expect, it } from 'vitest'
import { FormatError, Reader, Writer } from '../../../../src-shared/binary'

const bytes = Uint8Array.from([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff])

function thrown(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  throw new Error('did not throw')
}

describe('Reader edge cases', () => {
  it('refuses negative, fractional and NaN offsets with a located FormatError', () => {
    const r = new Reader(bytes, { file: 'f.bin', base: 0x100, structure: 'Head' })
    for (const read of [() => r.u8At(-1, 'Head.a'), () => r.u32At(-4, 'Head.b'), () => r.u16At(1.5, 'Head.c'), () => r.u32At(NaN, 'Head.d'), () => r.i64At(Infinity, 'Head.e')]) {
      const e = thrown(read)
      expect(e).toBeInstanceOf(FormatError)
      const fe = e as FormatError
      expect(fe.file).toBe('f.bin')
      expect(Number.isInteger(fe.offset)).toBe(true)
      expect(fe.offset).toBeGreaterThanOrEqual(0x100)
      expect(fe.message).toMatch(/Head\.[a-e]/)
    }
    // The last valid byte still reads; one past it does not.
    expect(r.u8At(15)).toBe(0xff)
    expect(() => r.u8At(16)).toThrow(FormatError)
    expect(() => r.u32At(13)).toThrow(/runs past the end/)
  })

  it('refuses NaN, negative and fractional sizes and counts instead of moving the cursor', () => {
    const r = new Reader(bytes)
    expect(() => r.bytesAt(0, NaN, 'Blob')).toThrow(FormatError)
    expect(() => r.bytesAt(0, -1, 'Blob')).toThrow(FormatError)
    expect(() => r.bytesN(1.5, 'Blob')).toThrow(FormatError)
    expect(() => r.skip(NaN)).toThrow(FormatError)
    expect(() => r.seek(NaN)).toThrow(FormatError)
    expect(() => r.seek(-1)).toThrow(FormatError)
    expect(() => r.seek(17)).toThrow(FormatError)
    expect(r.pos).toBe(0)
    expect(r.seek(16).remaining).toBe(0) // the end itself is a valid position
    for (const n of [NaN, -1, 1.5, Infinity, 2 ** 53]) expect(() => r.count(n, 4, 'Table.count', 0)).toThrow(/Table\.count/)
    expect(() => r.count(2, 4, 'Table.count', -4)).toThrow(FormatError)
    expect(() => r.count(1, 4, 'Table.count', NaN)).toThrow(FormatError)
    expect(r.count(4, 4, 'Table.count', 0)).toBe(4)
    expect(() => r.count(4, 4, 'Table.count', 1)).toThrow(FormatError)
    expect(() => r.sub(4, -2, 'Sub')).toThrow(FormatError)
    expect(() => r.align(0)).toThrow(RangeError)
    expect(() => r.align(-4)).toThrow(RangeError)
  })

  it('reads 64-bit values exactly, both endians, beyond 2^53', () => {
    const be = new Reader(bytes, { endian: 'big' })
    expect(be.u64At(0)).toBe(0x0011223344556677n)
    expect(be.u64At(8)).toBe(0x8899aabbccddeeffn)
    expect(be.i64At(8)).toBe(0x8899aabbccddeeffn - (1n << 64n))
    const le = new Reader(bytes, { endian: 'little' })
    expect(le.u64At(8)).toBe(0xffeeddccbbaa9988n)
    expect(le.i64At(8)).toBe(0xffeeddccbbaa9988n - (1n << 64n))
    const ones = new Reader(new Uint8Array(8).fill(0xff))
    expect(ones.u64()).toBe(18446744073709551615n)
    expect(ones.pos).toBe(8)
    expect(ones.i64At(0)).toBe(-1n)
    expect(() => ones.u64At(1, 'X.big')).toThrow(/X\.big/)
  })

  it('sub-readers report absolute offsets and cannot see past their window', () => {
    const r = new Reader(bytes, { file: 'g.bin', base: 0x1000 })
    const s = r.sub(8, 4, 'Inner')
    expect(s.u32At(0)).toBe(0xbbaa9988)
    const e = thrown(() => s.u8At(4, 'Inner.x')) as FormatError
    expect(e.offset).toBe(0x100c)
    expect(e.message).toContain('0x100C')
  })
})

describe('Writer edge cases', () => {
  it('refuses a patch of the wrong size, and a bad value before marking the reservation patched', () => {
    const w = new Writer({ endian: 'big' })
    const r32 = w.reserveU32('Header.dataOffset')
    const r16 = w.reserveU16('Header.count')
    const r64 = w.reserveU64('Header.size')
    expect(() => w.patchU16(r32, 1)).toThrow(/Header.dataOffset was reserved as 4 bytes, patched as 2/)
    expect(() => w.patchU32(r16, 1)).toThrow(/Header.count/)
    expect(() => w.patchU32(r64, 1)).toThrow(/Header.size/)
    expect(() => w.patchU16(r16, 0x10000)).toThrow(RangeError)
    // Still open after the failed patches:
    expect(() => w.finish()).toThrow(/Header.dataOffset.*Header.count.*Header.size/)
    w.patchU32(r32, 0xdeadbeef).patchU16(r16, 0xffff).patchU64(r64, (1n << 64n) - 1n)
    expect([...w.finish()]).toEqual([0xde, 0xad, 0xbe, 0xef, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
  })

  it('writes 64-bit values exactly and refuses ones wider than 64 bits', () => {
    const w = new Writer({ endian: 'little' })
    w.u64((1n << 64n) - 1n).i64(-(1n << 63n)).u64(0x0123456789abcdefn).i64(-2n)
    const out = w.finish()
    expect([...out.subarray(0, 8)]).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
    expect([...out.subarray(8, 16)]).toEqual([0, 0, 0, 0, 0, 0, 0, 0x80])
    expect([...out.subarray(16, 24)]).toEqual([0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01])
    const r = new Reader(out)
    expect([r.u64(), r.i64(), r.u64(), r.i64()]).toEqual([(1n << 64n) - 1n, -(1n << 63n), 0x0123456789abcdefn, -2n])
    expect(() => new Writer().u64(1n << 64n)).toThrow(RangeError)
    expect(() => new Writer().i64(-(1n << 63n) - 1n)).toThrow(RangeError)
  })

  it('never wraps or truncates an integer silently (NaN, fractions, out of range)', () => {
    const w = new Writer()
    for (const f of [() => w.u8(256), () => w.u8(-129), () => w.u16(0x10000), () => w.i16(NaN), () => w.u32(2 ** 32), () => w.i32(1.5), () => w.u32(Infinity)]) expect(f).toThrow(RangeError)
    expect(w.length).toBe(0)
    // Two's complement of a negative value is accepted (u16(-1) is FFFF), as is an unsigned value in a signed field.
    w.u16(-1).i8(0xff).u32(-1).i32(0xffffffff)
    expect([...w.finish()]).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
  })

  it('refuses NaN or negative positions and sizes instead of writing at offset 0 or moving back', () => {
    const w = new Writer()
    w.u32(0x11111111)
    expect(() => w.seek(NaN)).toThrow(RangeError)
    expect(() => w.seek(-1)).toThrow(RangeError)
    expect(() => w.zeros(-1)).toThrow(RangeError)
    expect(() => w.zeros(NaN)).toThrow(RangeError)
    expect(() => w.setU32At(NaN, 0)).toThrow(RangeError)
    expect(() => w.setU8At(-1, 0)).toThrow(RangeError)
    expect(() => w.align(0)).toThrow(RangeError) // used to loop forever
    expect(() => w.align(-8)).toThrow(RangeError)
    expect(w.pos).toBe(4)
    expect([...w.finish()]).toEqual([0x11, 0x11, 0x11, 0x11])
  })

  it('grows past its capacity and seeks beyond the end with zero fill', () => {
    const w = new Writer({ capacity: 1, endian: 'big' })
    w.seek(10).u16(0xabcd)
    w.setU32At(20, 0x01020304)
    const out = w.finish()
    expect(out.length).toBe(24)
    expect([...out.subarray(0, 10)]).toEqual(new Array(10).fill(0))
    expect([...out.subarray(10, 12)]).toEqual([0xab, 0xcd])
    expect([...out.subarray(20)]).toEqual([1, 2, 3, 4])
  })
})
