import { describe, expect, it } from 'vitest'
import { detectByteOrder, normaliseRom, openRom, readHeader, md5Hex } from '../../../../../src-shared/formats/n64/rom'
import { snapRomId } from '../../../../../src-shared/formats/snap/rom-id'
import { stadiumRomId } from '../../../../../src-shared/formats/stadium/rom-id'
import { FormatError } from '../../../../../src-shared/binary'

function z64(name: string, size = 0x1000): Uint8Array {
  const b = new Uint8Array(size)
  b.set([0x80, 0x37, 0x12, 0x40], 0)
  for (let i = 0; i < 20; i++) b[0x20 + i] = i < name.length ? name.charCodeAt(i) : 0x20
  b.set([...'NPFE'].map((c) => c.charCodeAt(0)), 0x3b)
  for (let i = 0x40; i < size; i++) b[i] = (i * 7) & 0xff
  return b
}
function toV64(b: Uint8Array): Uint8Array {
  const o = new Uint8Array(b.length)
  for (let i = 0; i < b.length; i += 2) { o[i] = b[i + 1]!; o[i + 1] = b[i]! }
  return o
}
function toN64(b: Uint8Array): Uint8Array {
  const o = new Uint8Array(b.length)
  for (let i = 0; i < b.length; i += 4) { o[i] = b[i + 3]!; o[i + 1] = b[i + 2]!; o[i + 2] = b[i + 1]!; o[i + 3] = b[i]! }
  return o
}

describe('N64 ROM', () => {
  it('detects the three byte orders from the spec table', () => {
    expect(detectByteOrder(Uint8Array.from([0x80, 0x37, 0x12, 0x40]))).toBe('z64')
    expect(detectByteOrder(Uint8Array.from([0x37, 0x80, 0x40, 0x12]))).toBe('v64')
    expect(detectByteOrder(Uint8Array.from([0x40, 0x12, 0x37, 0x80]))).toBe('n64')
    expect(detectByteOrder(Uint8Array.from([0, 0, 0, 0]))).toBeNull()
  })

  it('gives identical images and MD5 for .z64, .v64 and .n64', () => {
    const z = z64('POKEMON SNAP')
    const a = openRom(z, 'a.z64')
    const b = openRom(toV64(z), 'a.v64')
    const c = openRom(toN64(z), 'a.n64')
    expect(b.image).toEqual(z)
    expect(c.image).toEqual(z)
    expect(a.md5).toBe(b.md5)
    expect(a.md5).toBe(c.md5)
    expect([a.byteOrder, b.byteOrder, c.byteOrder]).toEqual(['z64', 'v64', 'n64'])
  })

  it('reads header fields and marks an unknown MD5 as unverified', () => {
    const games = [snapRomId, stadiumRomId]
    const rom = openRom(z64('POKEMON SNAP'), 'x.z64', undefined, games)
    expect(rom.header.name).toBe('POKEMON SNAP')
    expect(rom.header.code).toBe('NPFE')
    expect(rom.header.region).toBe('E')
    expect(rom.game).toBe('snap')
    expect(rom.verified).toBe(false)
    expect(openRom(z64('POKEMON STADIUM'), 'y.z64', undefined, games).game).toBe('stadium')
    expect(openRom(z64('POKEMON STADIUM 2'), 'y.z64', undefined, games).game).toBe('other')
    expect(openRom(z64('ZELDA'), 'z.z64', undefined, games).game).toBe('other')
  })

  it('computes MD5 per RFC 1321 test vectors', () => {
    expect(md5Hex(new Uint8Array())).toBe('d41d8cd98f00b204e9800998ecf8427e')
    expect(md5Hex(new TextEncoder().encode('abc'))).toBe('900150983cd24fb0d6963f7d28e17f72')
  })

  it('rejects foreign and truncated files with file, structure and offset', () => {
    expect(() => normaliseRom(Uint8Array.from([1, 2, 3, 4]), 'foo.bin')).toThrow(FormatError)
    expect(() => normaliseRom(Uint8Array.from([1, 2, 3, 4]), 'foo.bin')).toThrow(/foo.bin: N64Header at 0x0: not an N64 ROM/)
    expect(() => readHeader(new Uint8Array(0x10), 'short.z64')).toThrow(/short.z64: N64Header at 0x10: truncated/)
  })
})
