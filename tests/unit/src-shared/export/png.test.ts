/**
 * The PNG writer of every export (src-shared/export/png.ts): filter type 2 (Up) on every row, one
 * IDAT, the chunks' CRCs; checked against hand-computed rows, Node's zlib (inflate, crc32) and an
 * independent decoder (fast-png), with the pure codec.
 */
import { describe, expect, it } from 'vitest'
import { crc32, deflateSync, inflateSync } from 'node:zlib'
import { decode as decodePng } from 'fast-png'
import { encodeRgbaPng, pngCodec, pureCodec, registerPngCodec } from '../../../../src-shared/export/png'
import { discPicture, gradientPicture } from '../../../fixtures/gf/build-set'

/** The chunks of a PNG: type, data, and whether the stored CRC is that of type + data. */
function chunks(png: Uint8Array): { type: string; data: Uint8Array; crcOk: boolean }[] {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const out: { type: string; data: Uint8Array; crcOk: boolean }[] = []
  for (let at = 8; at < png.length; ) {
    const len = v.getUint32(at)
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8))
    out.push({ type, data: png.subarray(at + 8, at + 8 + len), crcOk: v.getUint32(at + 8 + len) === crc32(png.subarray(at + 4, at + 8 + len)) })
    at += 12 + len
  }
  return out
}

describe('PNG writer', () => {
  it('the pure codec is the one registered by default', () => {
    expect(pngCodec()).toBe(pureCodec)
  })

  it('writes each row with filter Up: a 2×2 picture, its rows worked out by hand', () => {
    // row 0: (10,20,30,255) (200,0,5,128); row 1: (12,10,30,0) (1,0,6,128)
    const rgba = new Uint8Array([10, 20, 30, 255, 200, 0, 5, 128, 12, 10, 30, 0, 1, 0, 6, 128])
    const png = encodeRgbaPng(rgba, 2, 2)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const cs = chunks(png)
    expect(cs.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
    expect(cs.every((c) => c.crcOk)).toBe(true)
    // width 2, height 2, depth 8, colour type 6, deflate, filter method 0, no interlace
    expect([...cs[0]!.data]).toEqual([0, 0, 0, 2, 0, 0, 0, 2, 8, 6, 0, 0, 0])
    // row 1 minus row 0, mod 256: 12−10, 10−20, 30−30, 0−255, 1−200, 0−0, 6−5, 128−128
    expect([...inflateSync(cs[1]!.data)]).toEqual([2, 10, 20, 30, 255, 200, 0, 5, 128, 2, 2, 246, 0, 1, 57, 0, 1, 0])
  })

  it('decodes (fast-png) to the same pixels at odd sizes, with the pure codec and a registered one', () => {
    const native = { zlib: (d: Uint8Array) => new Uint8Array(deflateSync(d, { level: 1 })), crc32: (d: Uint8Array) => crc32(d) }
    for (const codec of [pureCodec, native]) {
      registerPngCodec(codec)
      try {
        for (const [w, h] of [[1, 1], [3, 5], [16, 8], [130, 9]] as const) {
          for (const rgba of [gradientPicture(w, h, 3), discPicture(w, h, 2), new Uint8Array(w * h * 4).fill(255)]) {
            const d = decodePng(encodeRgbaPng(rgba, w, h))
            expect([d.width, d.height, d.channels, d.depth]).toEqual([w, h, 4, 8])
            expect(Buffer.from(d.data as Uint8Array).equals(Buffer.from(rgba)), `${w}×${h}`).toBe(true)
          }
        }
      } finally {
        registerPngCodec(undefined)
      }
    }
  })

  it('filters every pair of byte values mod 256, from 4-aligned pixels (a word at a time) and from unaligned ones alike', () => {
    // 256×2 pixels: row 0 byte k = k mod 256, row 1 byte k = (k·7 + 3) mod 256, so the Up
    // differences cover borrows in every lane position; expected rows worked out here byte by byte
    const w = 256, stride = w * 4
    const rgba = new Uint8Array(stride * 2)
    for (let k = 0; k < stride; k++) {
      rgba[k] = k & 255
      rgba[stride + k] = (k * 7 + 3) & 255
    }
    const expected = [2, ...rgba.subarray(0, stride), 2, ...Array.from({ length: stride }, (_, k) => (((k * 7 + 3) & 255) - (k & 255) + 256) & 255)]
    const backing = new Uint8Array(rgba.length + 1)
    backing.set(rgba, 1)
    const unaligned = backing.subarray(1) // byteOffset 1: no 32-bit view possible
    const idat = (png: Uint8Array) => chunks(png).find((c) => c.type === 'IDAT')!.data
    for (const input of [rgba, unaligned]) expect([...inflateSync(idat(encodeRgbaPng(input, w, 2)))], `byteOffset ${input.byteOffset}`).toEqual(expected)
  })

  it('the pure CRC-32 gives the check value of the CRC catalogue and zlib crc32 on any bytes', () => {
    expect(pureCodec.crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926)
    const bytes = gradientPicture(7, 3, 1)
    expect(pureCodec.crc32(bytes)).toBe(crc32(bytes))
  })

  it('refuses pixels that do not fill the size', () => {
    expect(() => encodeRgbaPng(new Uint8Array(15), 2, 2)).toThrow(/2×2 RGBA needs 16 bytes, got 15/)
  })
})
