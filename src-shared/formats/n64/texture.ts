/**
 * N64 texel decoders → RGBA8 (pokemon-snap.md §5.5, pokemon-stadium.md §10.1). Game-neutral:
 * Snap and Stadium both use these. All inputs are big-endian RDRAM bytes.
 */
import { FormatError, hex } from '../../binary'

/** G_IM_FMT_* */
export const ImFmt = { RGBA: 0, YUV: 1, CI: 2, IA: 3, I: 4 } as const
/** G_IM_SIZ_* */
export const ImSiz = { b4: 0, b8: 1, b16: 2, b32: 3 } as const

export type TexelFormat = 'RGBA16' | 'RGBA32' | 'CI4' | 'CI8' | 'IA4' | 'IA8' | 'IA16' | 'I4' | 'I8'

const FMT_NAMES = ['RGBA', 'YUV', 'CI', 'IA', 'I']
const SIZ_BITS = [4, 8, 16, 32]

/** The format name for a (fmt, siz) pair, or null when the RDP has no such texel format. */
export function texelFormat(fmt: number, siz: number): TexelFormat | null {
  const name = `${FMT_NAMES[fmt] ?? '?'}${SIZ_BITS[siz] ?? '?'}`
  switch (name) {
    case 'RGBA16': case 'RGBA32': case 'CI4': case 'CI8': case 'IA4': case 'IA8': case 'IA16': case 'I4': case 'I8':
      return name
    default:
      return null
  }
}

/** Bits per texel of a G_IM_SIZ value. */
export function bitsPerTexel(siz: number): number {
  return SIZ_BITS[siz & 3]!
}

/** Bytes a tightly packed w×h texture of this size takes (4-bit rows round up to whole bytes). */
export function textureByteSize(siz: number, width: number, height: number): number {
  return Math.ceil((width * bitsPerTexel(siz)) / 8) * height
}

const e5 = (v: number): number => (v << 3) | (v >> 2)
const e3 = (v: number): number => (v << 5) | (v << 2) | (v >> 1)

/** One RGBA5551 texel (big-endian u16 value) → RGBA8 written at `out[o..o+3]`. */
export function rgba16ToRgba8(p: number, out: Uint8Array, o: number): void {
  out[o] = e5((p >> 11) & 31)
  out[o + 1] = e5((p >> 6) & 31)
  out[o + 2] = e5((p >> 1) & 31)
  out[o + 3] = p & 1 ? 255 : 0
}

/** TLUT entry type (othermode H TEXTLUT): 2 = RGBA16, 3 = IA16. */
export type TlutType = 'RGBA16' | 'IA16'

/**
 * Decodes a palette of `count` big-endian u16 entries to RGBA8 (4 bytes per entry).
 * Entries past the end of `bytes` are an error (palettes are never implied).
 */
export function decodePalette(bytes: Uint8Array, count: number, type: TlutType = 'RGBA16', where = 'TLUT'): Uint8Array {
  if (!Number.isInteger(count) || count < 0) throw new FormatError(`palette entry count ${count} is not a whole number ≥ 0`, { structure: where })
  if (bytes.length < count * 2) throw new FormatError(`palette of ${count} entries needs ${count * 2} bytes, ${bytes.length} available`, { structure: where })
  const out = new Uint8Array(count * 4)
  for (let i = 0; i < count; i++) {
    const p = (bytes[i * 2]! << 8) | bytes[i * 2 + 1]!
    if (type === 'RGBA16') rgba16ToRgba8(p, out, i * 4)
    else {
      out[i * 4] = out[i * 4 + 1] = out[i * 4 + 2] = p >> 8
      out[i * 4 + 3] = p & 0xff
    }
  }
  return out
}

export interface DecodeTextureInput {
  fmt: number
  siz: number
  width: number
  height: number
  /** Bytes starting at the first texel. */
  data: Uint8Array
  /** Bytes from one row start to the next; default tightly packed. */
  rowBytes?: number
  /** RGBA8 palette (from `decodePalette`) for CI formats: 16 entries for CI4, 256 for CI8. */
  palette?: Uint8Array
  /**
   * Undo the RDP's odd-row 32-bit word swap (only for data loaded with LOADBLOCK dxt = 0,
   * pokemon-snap.md §5.4): on odd rows read byte offsets XOR 4 within each 8-byte word.
   */
  deinterleave?: boolean
  /** Name of the structure for errors (e.g. `texture 0x80200000`). */
  where?: string
}

/**
 * Decodes any RDP texel format to RGBA8, top row first. Intensity formats give RGB = I.
 * CI texels whose index is beyond the palette decode as transparent black.
 */
export function decodeTexture(t: DecodeTextureInput): Uint8Array {
  const name = checkTextureInput(t)
  const w = t.width
  const packed = Math.ceil((w * bitsPerTexel(t.siz)) / 8)
  return decodeTexels(name, w, t.height, t.data, t.rowBytes ?? packed, t.deinterleave === true, t.palette)
}

/** The texel format's name, after checking the size, the row pitch, the data length and the palette (FormatError naming `t.where`). */
function checkTextureInput(t: DecodeTextureInput): TexelFormat {
  const { fmt, siz, width: w, height: h, data } = t
  const where = t.where ?? 'texture'
  const name = texelFormat(fmt, siz)
  if (!name) throw new FormatError(`unsupported texel format fmt ${fmt} siz ${siz}`, { structure: where })
  if (!Number.isInteger(w) || !Number.isInteger(h) || w <= 0 || h <= 0 || w > 4096 || h > 4096) {
    throw new FormatError(`bad texture size ${w}×${h}`, { structure: where })
  }
  const bpp = bitsPerTexel(siz)
  const packed = Math.ceil((w * bpp) / 8)
  const pitch = t.rowBytes ?? packed
  if (pitch < packed) throw new FormatError(`row pitch ${pitch} is less than the ${packed} bytes a ${w}-texel ${name} row needs`, { structure: where })
  const need = pitch * (h - 1) + packed
  if (data.length < need) throw new FormatError(`${name} ${w}×${h} (pitch ${pitch}) needs ${hex(need)} bytes, ${hex(data.length)} available`, { structure: where })
  if ((fmt === ImFmt.CI) && !t.palette) throw new FormatError(`${name} texture without a palette`, { structure: where })
  return name
}

/** The texel loop: `w`×`h` texels of format `name` from rows `pitch` bytes apart (odd rows word-swapped when `swap`). */
function decodeTexels(name: TexelFormat, w: number, h: number, data: Uint8Array, pitch: number, swap: boolean, pal: Uint8Array | undefined): Uint8Array {
  const palCount = pal ? pal.length >> 2 : 0
  const out = new Uint8Array(w * h * 4)
  const byteAt = (row: number, b: number): number => {
    const o = row * pitch + b
    return data[swap && row & 1 ? o ^ 4 : o] ?? 0
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 4
      switch (name) {
        case 'RGBA16': {
          rgba16ToRgba8((byteAt(y, x * 2) << 8) | byteAt(y, x * 2 + 1), out, o)
          break
        }
        case 'RGBA32': {
          out[o] = byteAt(y, x * 4)
          out[o + 1] = byteAt(y, x * 4 + 1)
          out[o + 2] = byteAt(y, x * 4 + 2)
          out[o + 3] = byteAt(y, x * 4 + 3)
          break
        }
        case 'CI4': case 'CI8': {
          const b = name === 'CI8' ? byteAt(y, x) : x & 1 ? byteAt(y, x >> 1) & 15 : byteAt(y, x >> 1) >> 4
          if (b < palCount) {
            out[o] = pal![b * 4]!
            out[o + 1] = pal![b * 4 + 1]!
            out[o + 2] = pal![b * 4 + 2]!
            out[o + 3] = pal![b * 4 + 3]!
          }
          break
        }
        case 'IA4': {
          const n = x & 1 ? byteAt(y, x >> 1) & 15 : byteAt(y, x >> 1) >> 4
          const i = e3(n >> 1)
          out[o] = out[o + 1] = out[o + 2] = i
          out[o + 3] = n & 1 ? 255 : 0
          break
        }
        case 'IA8': {
          const b = byteAt(y, x)
          out[o] = out[o + 1] = out[o + 2] = (b >> 4) * 17
          out[o + 3] = (b & 15) * 17
          break
        }
        case 'IA16': {
          out[o] = out[o + 1] = out[o + 2] = byteAt(y, x * 2)
          out[o + 3] = byteAt(y, x * 2 + 1)
          break
        }
        case 'I4': {
          const n = x & 1 ? byteAt(y, x >> 1) & 15 : byteAt(y, x >> 1) >> 4
          out[o] = out[o + 1] = out[o + 2] = out[o + 3] = n * 17
          break
        }
        case 'I8': {
          const b = byteAt(y, x)
          out[o] = out[o + 1] = out[o + 2] = out[o + 3] = b
          break
        }
      }
    }
  }
  return out
}

/**
 * Row pitch in bytes for a LOADBLOCK-loaded texture from the render tile's `line` (64-bit words
 * per row; 0 = tightly packed). For RGBA32 TMEM splits each texel across two banks, so `line`
 * counts half the row (pokemon-snap.md §5.4).
 */
export function blockRowBytes(siz: number, width: number, line: number): number {
  const packed = Math.ceil((width * bitsPerTexel(siz)) / 8)
  if (line === 0) return packed
  const bytes = line * 8 * (siz === ImSiz.b32 ? 2 : 1)
  return Math.max(bytes, packed)
}

/** LOADBLOCK `dxt` for a texture `width` texels wide (pokemon-snap.md §5.4). */
export function loadBlockDxt(siz: number, width: number): number {
  const wordsPerRow = Math.max(1, Math.floor((width * bitsPerTexel(siz)) / 64))
  return Math.ceil(2048 / wordsPerRow)
}

/** LOADBLOCK texel count − 1, in the load size (4b/8b textures load as 16b). */
export function loadBlockTexelsMinus1(siz: number, width: number, height: number): number {
  const n = width * height
  if (siz === ImSiz.b4) return ((n + 3) >> 2) - 1
  if (siz === ImSiz.b8) return ((n + 1) >> 1) - 1
  return n - 1
}
