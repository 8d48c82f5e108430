import { describe, expect, it } from 'vitest'
import { parseGfTexture, decodeGfTexture, replaceGfTexturePixels, rebuildGfTextureEntry, texturePixels, readGfTextureLayout, writeGfTextureLayout, gfTextureDataLength } from '../../../../../src-shared/formats/gf/texture'
import { Reader } from '../../../../../src-shared/binary/reader'
import { Writer } from '../../../../../src-shared/binary/writer'
import { FormatError } from '../../../../../src-shared/binary/errors'

/** Spec §15.4: an 8×8 RGB565 texture "Tex0" with 128 pixel bytes, as hand-written bytes. */
function vector(): Uint8Array {
  const b = new Uint8Array(0x100)
  b.set([0x13, 0x12, 0x04, 0x15, 0x01, 0, 0, 0, 0x74, 0x65, 0x78, 0x74, 0x75, 0x72, 0x65, 0x00], 0x00)
  b.set([0xe8, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0], 0x10)
  b.set([0x54, 0x65, 0x78, 0x30], 0x28)
  b.set([0x08, 0x00, 0x08, 0x00, 0x02, 0x00, 0x01, 0x00], 0x68)
  b.fill(0xff, 0x70, 0x80)
  // pixels: texel 0 red, texel 1 green, texel 2 blue, texel 3 white (spec §15.2)
  b.set([0x00, 0xf8, 0xe0, 0x07, 0x1f, 0x00, 0xff, 0xff], 0x80)
  return b
}

function err(f: () => unknown): FormatError {
  try { f() } catch (e) { if (e instanceof FormatError) return e; throw e }
  throw new Error('no error')
}

describe('GFTexture (spec §9, §15.4)', () => {
  it('reads the header vector', () => {
    const h = parseGfTexture(vector())
    expect(h).toMatchObject({ name: 'Tex0', width: 8, height: 8, formatId: 2, format: 'RGB565', mipmaps: 1, dataLength: 0x80, levels: 1 })
    const img = decodeGfTexture(vector(), h)
    expect(Array.from(img.subarray(0, 8))).toEqual([255, 0, 0, 255, 0, 255, 0, 255])
    expect(Array.from(img.subarray(32, 40))).toEqual([0, 0, 255, 255, 255, 255, 255, 255])
  })

  it('replacement rewrites only the pixel bytes', () => {
    const v = vector()
    const h = parseGfTexture(v)
    const rgba = new Uint8Array(64 * 4).fill(255)
    const out = replaceGfTexturePixels(v, h, rgba)
    expect(out.byteLength).toBe(v.byteLength)
    expect(Array.from(out.subarray(0, 0x80))).toEqual(Array.from(v.subarray(0, 0x80)))
    expect(Array.from(texturePixels(out, h))).toEqual(new Array(128).fill(0xff))
  })

  it('rebuilding with another size shifts +0x10 by the TextureLength delta and keeps other header bytes', () => {
    const v = vector()
    const h = parseGfTexture(v)
    const out = rebuildGfTextureEntry(v, h, new Uint8Array(16 * 8 * 4), 16, 8, 'L8')
    const dv = new DataView(out.buffer)
    expect(dv.getUint32(0x18, true)).toBe(128)
    expect(dv.getUint32(0x10, true)).toBe(0xe8) // 128 − 128 = no change in length
    expect(dv.getUint16(0x68, true)).toBe(16)
    expect(dv.getUint16(0x6c, true)).toBe(0x25)
    expect(Array.from(out.subarray(0x70, 0x80))).toEqual(new Array(16).fill(0xff))
    const out2 = rebuildGfTextureEntry(v, h, new Uint8Array(16 * 16 * 4), 16, 16, 'RGBA8')
    expect(new DataView(out2.buffer).getUint32(0x10, true)).toBe(0xe8 + 1024 - 128)
  })

  it('texture data running past its entry → error at +0x18', () => {
    const v = vector().subarray(0, 0xf0)
    const e = err(() => parseGfTexture(v, { file: '1.bin', entry: 2, base: 0x400 }))
    expect(e.message).toMatch(/runs past the entry end/)
    expect(e.file).toBe('1.bin')
    expect(e.structure).toMatch(/entry 2/)
    expect(e.offset).toBe(0x418)
  })

  it('unknown format id → error at +0x6C', () => {
    const v = vector()
    v[0x6c] = 0x99
    const e = err(() => parseGfTexture(v, { file: '3.bin', entry: 0, base: 0x80 }))
    expect(e.message).toMatch(/unknown texture format id 0x99/)
    expect(e.offset).toBe(0x80 + 0x6c)
  })

  it('entry shorter than the header, bad size, TextureLength below one level', () => {
    expect(err(() => parseGfTexture(vector().subarray(0, 0x40))).message).toMatch(/shorter than the 0x80-byte/)
    const v = vector(); v[0x68] = 12
    expect(err(() => parseGfTexture(v)).message).toMatch(/multiple of 8/)
    const w = vector(); w[0x6c] = 0x04 // RGBA8 8×8 needs 256 bytes, TextureLength is 128
    expect(err(() => parseGfTexture(w)).message).toMatch(/smaller than one RGBA8/)
  })
})

describe('GFTexture layout fields (read and write side by side)', () => {
  it('reads the spec §15.4 header and writes the same fields back at the same offsets', () => {
    const v = vector()
    const l = readGfTextureLayout(new Reader(v))
    expect(l).toEqual({ sectionLength: 0xe8, dataLength: 0x80, width: 8, height: 8, formatId: 0x02, mipmaps: 1 })
    const w = new Writer()
    w.bytes(v.subarray(0, 0x80))
    writeGfTextureLayout(w, { ...l, sectionLength: 0x1e8, dataLength: 0x180, width: 16, height: 24, formatId: 0x2b })
    const out = w.finish()
    // little-endian at +0x10, +0x18, +0x68..+0x6F; every other header byte kept
    expect([...out.subarray(0x10, 0x14)]).toEqual([0xe8, 0x01, 0, 0])
    expect([...out.subarray(0x18, 0x1c)]).toEqual([0x80, 0x01, 0, 0])
    expect([...out.subarray(0x68, 0x70)]).toEqual([16, 0, 24, 0, 0x2b, 0, 1, 0])
    for (const i of [0, 4, 8, 0x14, 0x28, 0x70]) expect(out[i]).toBe(v[i])
    expect(gfTextureDataLength(v)).toBe(0x80)
    const notTexture = v.slice(); notTexture[0] = 0
    expect(gfTextureDataLength(notTexture)).toBeNull()
    expect(gfTextureDataLength(v.subarray(0, 0x7f))).toBeNull()
  })
})
