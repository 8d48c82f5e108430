/**
 * Texel layouts of the 12 uncompressed PICA200 formats (spec §10.2), decoded to / encoded from
 * RGBA8 in storage (tiled) order. Multi-byte texels are little-endian. The layouts agree with
 * SPICA's TextureConverter and Citra's texture_decode.cpp / color.h (LA8: byte 0 = A, byte 1 = L;
 * HiLo8: byte 1 → R, byte 0 → G). Decoding to RGBA8 gives A8/A4 RGB = 255 and HiLo8 B = 0.
 */
import type { PicaFormat } from './texture-format'
import { tileMap } from './swizzle'

export type TexelFormat = Exclude<PicaFormat, 'ETC1' | 'ETC1A4'>

// Bit expansion (spec §10.2): 4-bit v → v·17, 5-bit (v<<3)|(v>>2), 6-bit (v<<2)|(v>>4).
export const EXPAND4 = Uint8Array.from({ length: 16 }, (_, v) => v * 17)
export const EXPAND5 = Uint8Array.from({ length: 32 }, (_, v) => (v << 3) | (v >> 2))
export const EXPAND6 = Uint8Array.from({ length: 64 }, (_, v) => (v << 2) | (v >> 4))
// Quantisation with rounding (never truncation): round(v·(2^n−1)/255).
export const QUANT4 = Uint8Array.from({ length: 256 }, (_, v) => Math.round((v * 15) / 255))
export const QUANT5 = Uint8Array.from({ length: 256 }, (_, v) => Math.round((v * 31) / 255))
export const QUANT6 = Uint8Array.from({ length: 256 }, (_, v) => Math.round((v * 63) / 255))

/** Luma used when a grey format is fed colour (Rec. 601 weights; exact for grey input). */
export function luma(r: number, g: number, b: number): number {
  return (77 * r + 150 * g + 29 * b + 128) >> 8
}

/**
 * Decodes `width × height` texels (one level) from `src` to RGBA8, row 0 = first stored row.
 * `src` must hold at least `levelSize` bytes (the caller checks and names the structure).
 */
export function decodeTexels(src: Uint8Array, width: number, height: number, format: TexelFormat, out = new Uint8Array(width * height * 4)): Uint8Array {
  const map = tileMap(width, height)
  const n = width * height
  switch (format) {
    case 'RGBA8':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, s = i * 4
        out[o] = src[s + 3]!; out[o + 1] = src[s + 2]!; out[o + 2] = src[s + 1]!; out[o + 3] = src[s]!
      }
      break
    case 'RGB8':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, s = i * 3
        out[o] = src[s + 2]!; out[o + 1] = src[s + 1]!; out[o + 2] = src[s]!; out[o + 3] = 255
      }
      break
    case 'RGBA5551':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, v = src[i * 2]! | (src[i * 2 + 1]! << 8)
        out[o] = EXPAND5[(v >> 11) & 31]!; out[o + 1] = EXPAND5[(v >> 6) & 31]!; out[o + 2] = EXPAND5[(v >> 1) & 31]!; out[o + 3] = v & 1 ? 255 : 0
      }
      break
    case 'RGB565':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, v = src[i * 2]! | (src[i * 2 + 1]! << 8)
        out[o] = EXPAND5[(v >> 11) & 31]!; out[o + 1] = EXPAND6[(v >> 5) & 63]!; out[o + 2] = EXPAND5[v & 31]!; out[o + 3] = 255
      }
      break
    case 'RGBA4':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, v = src[i * 2]! | (src[i * 2 + 1]! << 8)
        out[o] = EXPAND4[(v >> 12) & 15]!; out[o + 1] = EXPAND4[(v >> 8) & 15]!; out[o + 2] = EXPAND4[(v >> 4) & 15]!; out[o + 3] = EXPAND4[v & 15]!
      }
      break
    case 'LA8':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, l = src[i * 2 + 1]!
        out[o] = l; out[o + 1] = l; out[o + 2] = l; out[o + 3] = src[i * 2]!
      }
      break
    case 'HILO8':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4
        out[o] = src[i * 2 + 1]!; out[o + 1] = src[i * 2]!; out[o + 2] = 0; out[o + 3] = 255
      }
      break
    case 'L8':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, l = src[i]!
        out[o] = l; out[o + 1] = l; out[o + 2] = l; out[o + 3] = 255
      }
      break
    case 'A8':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4
        out[o] = 255; out[o + 1] = 255; out[o + 2] = 255; out[o + 3] = src[i]!
      }
      break
    case 'LA4':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, v = src[i]!, l = EXPAND4[v >> 4]!
        out[o] = l; out[o + 1] = l; out[o + 2] = l; out[o + 3] = EXPAND4[v & 15]!
      }
      break
    case 'L4':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4, l = EXPAND4[(src[i >> 1]! >> ((i & 1) * 4)) & 15]!
        out[o] = l; out[o + 1] = l; out[o + 2] = l; out[o + 3] = 255
      }
      break
    case 'A4':
      for (let i = 0; i < n; i++) {
        const o = map[i]! * 4
        out[o] = 255; out[o + 1] = 255; out[o + 2] = 255; out[o + 3] = EXPAND4[(src[i >> 1]! >> ((i & 1) * 4)) & 15]!
      }
      break
  }
  return out
}

/** Encodes RGBA8 (row 0 = first stored row) into `format`'s tiled layout (exact reverse of decode). */
export function encodeTexels(rgba: Uint8Array, width: number, height: number, format: TexelFormat, out?: Uint8Array): Uint8Array {
  const map = tileMap(width, height)
  const n = width * height
  const dst = out ?? new Uint8Array((n * bitsOf(format)) / 8)
  switch (format) {
    case 'RGBA8':
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4, d = i * 4
        dst[d] = rgba[p + 3]!; dst[d + 1] = rgba[p + 2]!; dst[d + 2] = rgba[p + 1]!; dst[d + 3] = rgba[p]!
      }
      break
    case 'RGB8':
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4, d = i * 3
        dst[d] = rgba[p + 2]!; dst[d + 1] = rgba[p + 1]!; dst[d + 2] = rgba[p]!
      }
      break
    case 'RGBA5551':
      // 1-bit alpha = round(a / 255), i.e. a ≥ 128 (spec §10.2: round, don't truncate).
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4
        const v = (QUANT5[rgba[p]!]! << 11) | (QUANT5[rgba[p + 1]!]! << 6) | (QUANT5[rgba[p + 2]!]! << 1) | (rgba[p + 3]! >= 128 ? 1 : 0)
        dst[i * 2] = v & 0xff; dst[i * 2 + 1] = v >> 8
      }
      break
    case 'RGB565':
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4
        const v = (QUANT5[rgba[p]!]! << 11) | (QUANT6[rgba[p + 1]!]! << 5) | QUANT5[rgba[p + 2]!]!
        dst[i * 2] = v & 0xff; dst[i * 2 + 1] = v >> 8
      }
      break
    case 'RGBA4':
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4
        const v = (QUANT4[rgba[p]!]! << 12) | (QUANT4[rgba[p + 1]!]! << 8) | (QUANT4[rgba[p + 2]!]! << 4) | QUANT4[rgba[p + 3]!]!
        dst[i * 2] = v & 0xff; dst[i * 2 + 1] = v >> 8
      }
      break
    case 'LA8':
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4
        dst[i * 2] = rgba[p + 3]!; dst[i * 2 + 1] = luma(rgba[p]!, rgba[p + 1]!, rgba[p + 2]!)
      }
      break
    case 'HILO8':
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4
        dst[i * 2] = rgba[p + 1]!; dst[i * 2 + 1] = rgba[p]!
      }
      break
    case 'L8':
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4
        dst[i] = luma(rgba[p]!, rgba[p + 1]!, rgba[p + 2]!)
      }
      break
    case 'A8':
      for (let i = 0; i < n; i++) dst[i] = rgba[map[i]! * 4 + 3]!
      break
    case 'LA4':
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4
        dst[i] = (QUANT4[luma(rgba[p]!, rgba[p + 1]!, rgba[p + 2]!)]! << 4) | QUANT4[rgba[p + 3]!]!
      }
      break
    case 'L4':
      dst.fill(0, 0, n >> 1)
      for (let i = 0; i < n; i++) {
        const p = map[i]! * 4
        dst[i >> 1] |= QUANT4[luma(rgba[p]!, rgba[p + 1]!, rgba[p + 2]!)]! << ((i & 1) * 4)
      }
      break
    case 'A4':
      dst.fill(0, 0, n >> 1)
      for (let i = 0; i < n; i++) dst[i >> 1] |= QUANT4[rgba[map[i]! * 4 + 3]!]! << ((i & 1) * 4)
      break
  }
  return dst
}

function bitsOf(f: TexelFormat): number {
  switch (f) {
    case 'RGBA8': return 32
    case 'RGB8': return 24
    case 'L8': case 'A8': case 'LA4': return 8
    case 'L4': case 'A4': return 4
    default: return 16
  }
}
