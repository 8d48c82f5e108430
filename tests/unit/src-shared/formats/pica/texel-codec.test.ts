import { describe, expect, it } from 'vitest'
import { decodePica, encodePica } from '../../../../../src-shared/formats/pica/texture-codec'
import { PICA_FORMATS, levelSize, type PicaFormat } from '../../../../../src-shared/formats/pica/texture-format'
import { EXPAND5, EXPAND6, QUANT5, QUANT6, QUANT4, EXPAND4 } from '../../../../../src-shared/formats/pica/texel-codec'

/** An 8×8 tile whose first texels (storage indices 0, 1, 2, 3 → pixels (0,0), (1,0), (0,1), (1,1)) are given. */
function tile(bytesPerTexel: number, texels: number[][]): Uint8Array {
  const b = new Uint8Array(64 * bytesPerTexel)
  texels.forEach((t, i) => b.set(t, i * bytesPerTexel))
  return b
}
const px = (img: Uint8Array, x: number, y: number) => Array.from(img.subarray((y * 8 + x) * 4, (y * 8 + x) * 4 + 4))

describe('texel decoders (hand-computed texels, spec §10.2)', () => {
  it('RGB565: spec §15.2 example', () => {
    const img = decodePica(tile(2, [[0x00, 0xf8], [0xe0, 0x07], [0x1f, 0x00], [0xff, 0xff], [0x10, 0x84]]), 8, 8, 'RGB565')
    expect(px(img, 0, 0)).toEqual([255, 0, 0, 255])
    expect(px(img, 1, 0)).toEqual([0, 255, 0, 255])
    expect(px(img, 0, 1)).toEqual([0, 0, 255, 255])
    expect(px(img, 1, 1)).toEqual([255, 255, 255, 255])
    // storage index 4 → pixel (2, 0): u16 0x8410 → R 16 → 132, G 32 → 130, B 16 → 132
    expect(px(img, 2, 0)).toEqual([132, 130, 132, 255])
  })

  it('RGBA8: bytes A, B, G, R', () => {
    const img = decodePica(tile(4, [[0x40, 0x30, 0x20, 0x10]]), 8, 8, 'RGBA8')
    expect(px(img, 0, 0)).toEqual([0x10, 0x20, 0x30, 0x40])
  })

  it('RGB8: bytes B, G, R', () => {
    const img = decodePica(tile(3, [[0x30, 0x20, 0x10], [1, 2, 3]]), 8, 8, 'RGB8')
    expect(px(img, 0, 0)).toEqual([0x10, 0x20, 0x30, 255])
    expect(px(img, 1, 0)).toEqual([3, 2, 1, 255])
  })

  it('RGBA5551: R 11–15, G 6–10, B 1–5, A bit 0', () => {
    // 0b11111_00000_10000_1 = 0xF821 → R 31→255, G 0, B 16→132, A 255
    const img = decodePica(tile(2, [[0x21, 0xf8], [0x20, 0xf8]]), 8, 8, 'RGBA5551')
    expect(px(img, 0, 0)).toEqual([255, 0, 132, 255])
    expect(px(img, 1, 0)).toEqual([255, 0, 132, 0])
  })

  it('RGBA4: R 12–15, G 8–11, B 4–7, A 0–3', () => {
    // 0x1234 → R 1·17, G 2·17, B 3·17, A 4·17
    const img = decodePica(tile(2, [[0x34, 0x12]]), 8, 8, 'RGBA4')
    expect(px(img, 0, 0)).toEqual([17, 34, 51, 68])
  })

  it('LA8: byte 0 = A, byte 1 = L (not Ohana\'s swapped order)', () => {
    const img = decodePica(tile(2, [[0x80, 0x40]]), 8, 8, 'LA8')
    expect(px(img, 0, 0)).toEqual([0x40, 0x40, 0x40, 0x80])
  })

  it('HILO8: byte 1 → R, byte 0 → G, B 0, A 255', () => {
    const img = decodePica(tile(2, [[0x11, 0x99]]), 8, 8, 'HILO8')
    expect(px(img, 0, 0)).toEqual([0x99, 0x11, 0, 255])
  })

  it('L8, A8', () => {
    expect(px(decodePica(tile(1, [[0x5a]]), 8, 8, 'L8'), 0, 0)).toEqual([0x5a, 0x5a, 0x5a, 255])
    expect(px(decodePica(tile(1, [[0x5a]]), 8, 8, 'A8'), 0, 0)).toEqual([255, 255, 255, 0x5a])
  })

  it('LA4: high nibble L, low nibble A', () => {
    expect(px(decodePica(tile(1, [[0xc3]]), 8, 8, 'LA4'), 0, 0)).toEqual([204, 204, 204, 51])
  })

  it('L4 and A4: the even texel is the low nibble', () => {
    const b = new Uint8Array(32)
    b[0] = 0x2e // texel 0 (0,0) = 0xE, texel 1 (1,0) = 0x2
    const l = decodePica(b, 8, 8, 'L4')
    expect(px(l, 0, 0)).toEqual([238, 238, 238, 255])
    expect(px(l, 1, 0)).toEqual([34, 34, 34, 255])
    const a = decodePica(b, 8, 8, 'A4')
    expect(px(a, 0, 0)).toEqual([255, 255, 255, 238])
    expect(px(a, 1, 0)).toEqual([255, 255, 255, 34])
  })

  it('rejects sizes that are not multiples of 8 and short data', () => {
    expect(() => decodePica(new Uint8Array(1000), 12, 8, 'L8')).toThrow(/multiple of 8/)
    expect(() => decodePica(new Uint8Array(63), 8, 8, 'L8')).toThrow(/needs 64 bytes/)
  })
})

describe('texel encoders', () => {
  it('bit expansion and rounding quantisation are inverse', () => {
    for (let v = 0; v < 32; v++) expect(QUANT5[EXPAND5[v]!]).toBe(v)
    for (let v = 0; v < 64; v++) expect(QUANT6[EXPAND6[v]!]).toBe(v)
    for (let v = 0; v < 16; v++) expect(QUANT4[EXPAND4[v]!]).toBe(v)
    // rounding, not truncation: 255·31/255 … 4·31/255 = 0.486 → 0, 5·31/255 = 0.61 → 1
    expect(QUANT5[4]).toBe(0)
    expect(QUANT5[5]).toBe(1)
  })

  it('hand-computed encodings', () => {
    const img = new Uint8Array(64 * 4)
    img.set([255, 0, 132, 255], 0)
    expect(Array.from(encodePica(img, 8, 8, 'RGBA5551').subarray(0, 2))).toEqual([0x21, 0xf8])
    img.set([0x10, 0x20, 0x30, 0x40], 0)
    expect(Array.from(encodePica(img, 8, 8, 'RGBA8').subarray(0, 4))).toEqual([0x40, 0x30, 0x20, 0x10])
    img.set([0x99, 0x11, 0x77, 0x00], 0)
    expect(Array.from(encodePica(img, 8, 8, 'HILO8').subarray(0, 2))).toEqual([0x11, 0x99])
    img.set([100, 100, 100, 0x80], 0)
    expect(Array.from(encodePica(img, 8, 8, 'LA8').subarray(0, 2))).toEqual([0x80, 100])
    // pixel (1,0) is storage index 1: the high nibble of byte 0 in L4
    img.set([0, 0, 0, 255], 0)
    img.set([255, 255, 255, 255], 4)
    expect(encodePica(img, 8, 8, 'L4')[0]).toBe(0xf0)
  })

  it.each(PICA_FORMATS.filter((f) => f !== 'ETC1' && f !== 'ETC1A4'))('%s: decode → encode gives back the stored bytes', (f) => {
    const format = f as PicaFormat
    const w = 16, h = 8
    const stored = new Uint8Array(levelSize(format, w, h))
    let s = 12345
    for (let i = 0; i < stored.length; i++) stored[i] = (s = (s * 1103515245 + 12345) >>> 0) >>> 24
    // LA8/L8/LA4/L4 store grey only; HiLo8 and A8 ignore the unstored channels.
    const back = encodePica(decodePica(stored, w, h, format), w, h, format)
    expect(Array.from(back)).toEqual(Array.from(stored))
  })
})
