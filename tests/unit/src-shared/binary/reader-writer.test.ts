import { describe, expect, it } from 'vitest'
import { Reader, Writer, FormatError } from '../../../../src-shared/binary'

describe('Reader', () => {
  const bytes = Uint8Array.from([0x12, 0x34, 0x56, 0x78, 0x3f, 0x80, 0x00, 0x00, 0xff])

  it('reads big and little endian', () => {
    const be = new Reader(bytes, { endian: 'big' })
    expect(be.u32()).toBe(0x12345678)
    expect(be.f32()).toBe(1)
    expect(be.i8()).toBe(-1)
    const le = new Reader(bytes, { endian: 'little' })
    expect(le.u16()).toBe(0x3412)
    expect(le.u32At(0)).toBe(0x78563412)
  })

  it('names file, field and absolute offset when a read runs past the end', () => {
    const r = new Reader(bytes, { endian: 'big', file: 'rom.z64', base: 0x1000 }).sub(4, 4, 'WorldBlockGFX')
    r.seek(2)
    let err: unknown
    try {
      r.u32('WorldBlockGFX.movement')
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(FormatError)
    const fe = err as FormatError
    expect(fe.file).toBe('rom.z64')
    expect(fe.offset).toBe(0x1006)
    expect(fe.message).toContain('WorldBlockGFX.movement')
    expect(fe.message).toContain('0x1006')
    expect(fe.message).toContain('rom.z64')
  })

  it('rejects absurd counts before allocating', () => {
    const r = new Reader(bytes, { file: 'x.bin' })
    expect(() => r.count(0x7fffffff, 4, 'Package.count')).toThrow(/Package.count: count 2147483647/)
    expect(r.count(2, 4, 'ok')).toBe(2)
  })

  it('reads strings', () => {
    const r = new Reader(Uint8Array.from([0x41, 0x42, 0, 0x43, 0x41, 0, 0x42, 0, 0, 0]))
    expect(r.cstringAt(0)).toBe('AB')
    expect(r.asciiAt(0, 3)).toBe('AB')
    expect(r.utf16zAt(4)).toBe('AB')
    expect(() => new Reader(Uint8Array.from([0x41, 0x42])).cstringAt(0, 'Name')).toThrow(/no terminating NUL/)
  })
})

describe('Writer', () => {
  it('writes, aligns and patches reserved offsets', () => {
    const w = new Writer({ endian: 'big', capacity: 2 })
    const off = w.reserveU32('Header.dataOffset')
    w.u16(0xabcd).align(8, 0xee)
    w.patchHere(off)
    w.u8(1)
    const out = w.finish()
    expect([...out]).toEqual([0, 0, 0, 8, 0xab, 0xcd, 0xee, 0xee, 1])
  })

  it('refuses to finish with an unpatched reservation', () => {
    const w = new Writer()
    w.reserveU32('Header.size')
    expect(() => w.finish()).toThrow(/Header.size/)
  })

  it('round-trips through Reader in little endian', () => {
    const w = new Writer()
    w.f32(1.5).i16(-2).u64(0x1122334455667788n).ascii('GF', 4)
    const r = new Reader(w.finish())
    expect(r.f32()).toBe(1.5)
    expect(r.i16()).toBe(-2)
    expect(r.u64()).toBe(0x1122334455667788n)
    expect(r.ascii(4)).toBe('GF')
  })
})
