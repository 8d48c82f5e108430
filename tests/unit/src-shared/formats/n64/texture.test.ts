import { describe, expect, it } from 'vitest'
import { decodePalette, decodeTexture, loadBlockDxt, loadBlockTexelsMinus1, blockRowBytes } from '../../../../../src-shared/formats/n64/texture'
import { FormatError } from '../../../../../src-shared/binary'

const bytes = (hex: string) => Uint8Array.from(hex.replace(/\s+/g, '').match(/../g)!.map((h) => parseInt(h, 16)))
const px = (out: Uint8Array, i: number) => [...out.subarray(i * 4, i * 4 + 4)]

describe('N64 texture decoders (pokemon-snap.md §5.5, §14.2)', () => {
  const palBytes = bytes('0000 F801 07C1 003F 8421 FFFF 0842' + '0000'.repeat(9))
  const pal = decodePalette(palBytes, 16)

  it('decodes the §14.2 RGBA5551 palette', () => {
    expect(px(pal, 0)).toEqual([0, 0, 0, 0])
    expect(px(pal, 1)).toEqual([255, 0, 0, 255])
    expect(px(pal, 2)).toEqual([0, 255, 0, 255])
    expect(px(pal, 3)).toEqual([0, 0, 255, 255])
    expect(px(pal, 4)).toEqual([132, 132, 132, 255])
    expect(px(pal, 5)).toEqual([255, 255, 255, 255])
    expect(px(pal, 6)).toEqual([8, 8, 8, 0])
  })

  it('decodes the §14.2 4×2 CI4 texture', () => {
    const out = decodeTexture({ fmt: 2, siz: 0, width: 4, height: 2, data: bytes('01 23 45 60'), palette: pal })
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => px(out, i))).toEqual([
      [0, 0, 0, 0], [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255],
      [132, 132, 132, 255], [255, 255, 255, 255], [8, 8, 8, 0], [0, 0, 0, 0],
    ])
  })

  it('decodes the same bytes as I4 (intensity = alpha)', () => {
    const out = decodeTexture({ fmt: 4, siz: 0, width: 4, height: 2, data: bytes('01 23 45 60') })
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => out[i * 4 + 3])).toEqual([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x00])
    expect(px(out, 5)).toEqual([0x55, 0x55, 0x55, 0x55])
  })

  it('decodes RGBA16 and RGBA32', () => {
    expect(px(decodeTexture({ fmt: 0, siz: 2, width: 1, height: 1, data: bytes('F801') }), 0)).toEqual([255, 0, 0, 255])
    // 0x0842: r=1 g=1 b=1 a=0 → e5(1) = 8
    expect(px(decodeTexture({ fmt: 0, siz: 2, width: 1, height: 1, data: bytes('0842') }), 0)).toEqual([8, 8, 8, 0])
    expect(px(decodeTexture({ fmt: 0, siz: 3, width: 1, height: 1, data: bytes('11223344') }), 0)).toEqual([0x11, 0x22, 0x33, 0x44])
  })

  it('decodes IA4, IA8, IA16, I8 by hand-computed values', () => {
    // IA4 nibble 0xB = 1011: I = e3(5) = 160|20|2 = 182, alpha bit 1 → 255; nibble 0x4: I = e3(2) = 64|8|1 = 73, A = 0
    const ia4 = decodeTexture({ fmt: 3, siz: 0, width: 2, height: 1, data: bytes('B4') })
    expect(px(ia4, 0)).toEqual([182, 182, 182, 255])
    expect(px(ia4, 1)).toEqual([73, 73, 73, 0])
    // IA8 0x3C: I = 3*17 = 51, A = 12*17 = 204
    expect(px(decodeTexture({ fmt: 3, siz: 1, width: 1, height: 1, data: bytes('3C') }), 0)).toEqual([51, 51, 51, 204])
    expect(px(decodeTexture({ fmt: 3, siz: 2, width: 1, height: 1, data: bytes('7F80') }), 0)).toEqual([0x7f, 0x7f, 0x7f, 0x80])
    expect(px(decodeTexture({ fmt: 4, siz: 1, width: 1, height: 1, data: bytes('9A') }), 0)).toEqual([0x9a, 0x9a, 0x9a, 0x9a])
  })

  it('decodes CI8 with a 256-entry palette', () => {
    const p = new Uint8Array(512)
    p[200 * 2] = 0x07; p[200 * 2 + 1] = 0xc1
    const out = decodeTexture({ fmt: 2, siz: 1, width: 2, height: 1, data: bytes('C8 00'), palette: decodePalette(p, 256) })
    expect(px(out, 0)).toEqual([0, 255, 0, 255])
    expect(px(out, 1)).toEqual([0, 0, 0, 0])
  })

  it('honours row pitch and the odd-row deinterleave', () => {
    // 2×2 I8 with 8-byte rows; row 1's texels stored at byte 4 (swapped word)
    const data = new Uint8Array(16)
    data[0] = 1; data[1] = 2; data[8 + 4] = 3; data[8 + 5] = 4
    const out = decodeTexture({ fmt: 4, siz: 1, width: 2, height: 2, data, rowBytes: 8, deinterleave: true })
    expect([0, 1, 2, 3].map((i) => out[i * 4])).toEqual([1, 2, 3, 4])
    const plain = decodeTexture({ fmt: 4, siz: 1, width: 2, height: 2, data, rowBytes: 8 })
    expect([2, 3].map((i) => plain[i * 4])).toEqual([0, 0])
  })

  it('rejects short data, bad formats and CI without palette', () => {
    expect(() => decodeTexture({ fmt: 0, siz: 2, width: 4, height: 4, data: new Uint8Array(31) })).toThrow(FormatError)
    expect(() => decodeTexture({ fmt: 1, siz: 2, width: 1, height: 1, data: new Uint8Array(2) })).toThrow(/unsupported/)
    expect(() => decodeTexture({ fmt: 2, siz: 0, width: 2, height: 1, data: new Uint8Array(1) })).toThrow(/palette/)
  })

  it('computes LOADBLOCK parameters (§14.1: 32×32 CI4 → texels−1 = 255, dxt 0x400 is 2048/2 words)', () => {
    expect(loadBlockTexelsMinus1(0, 32, 32)).toBe(255)
    expect(loadBlockDxt(0, 32)).toBe(1024)
    expect(loadBlockDxt(2, 32)).toBe(256)
    expect(blockRowBytes(0, 32, 2)).toBe(16)
    expect(blockRowBytes(0, 32, 0)).toBe(16)
  })
})
