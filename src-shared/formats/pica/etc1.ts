/**
 * ETC1 / ETC1A4 as the PICA200 stores them (spec §10.4), with a decoder and our own encoder.
 *
 * Layout: 8×8 tiles in row order; each tile holds four 4×4 blocks in the order top-left,
 * top-right, bottom-left, bottom-right. An ETC1 colour block is the standard 64-bit ETC1 word
 * (OES_compressed_ETC1_RGB8_texture) stored little-endian: read the 8 bytes as a little-endian
 * u64 W, W >> 32 is the header half H and W & 0xFFFFFFFF the pixel-index half I. ETC1A4 puts an
 * 8-byte alpha block (4 bits per texel, texel (x, y) at nibble x·4 + y) before each colour block.
 * Block order and byte order agree with SPICA's TextureCompression.cs and Citra's texture_decode.cpp.
 */
import { EXPAND4, EXPAND5, QUANT4 } from './texel-codec'
import { MOD, newHalf, searchHalf, type Etc1Effort, type Half } from './etc1-search'

export { ETC1_TABLES } from './etc1-search'

const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v)

/**
 * Decodes one colour block (header half `h`, index half `i`) into `out` (RGBA8 image of width
 * `width`) at pixel (px, py). Alpha is left untouched.
 */
export function decodeEtc1Block(h: number, i: number, out: Uint8Array, width: number, px: number, py: number): void {
  const diff = (h >>> 1) & 1
  const flip = h & 1
  const t1 = (h >>> 5) & 7
  const t2 = (h >>> 2) & 7
  const r = (h >>> 24) & 0xff, g = (h >>> 16) & 0xff, b = (h >>> 8) & 0xff
  let r1: number, g1: number, b1: number, r2: number, g2: number, b2: number
  if (diff) {
    const dr = ((r & 7) << 29) >> 29, dg = ((g & 7) << 29) >> 29, db = ((b & 7) << 29) >> 29
    const c1r = r >> 3, c1g = g >> 3, c1b = b >> 3
    // An invalid differential block (c2 outside 0..31) is undefined; clamp (spec §10.4).
    const c2r = Math.min(31, Math.max(0, c1r + dr)), c2g = Math.min(31, Math.max(0, c1g + dg)), c2b = Math.min(31, Math.max(0, c1b + db))
    r1 = EXPAND5[c1r]!; g1 = EXPAND5[c1g]!; b1 = EXPAND5[c1b]!
    r2 = EXPAND5[c2r]!; g2 = EXPAND5[c2g]!; b2 = EXPAND5[c2b]!
  } else {
    r1 = EXPAND4[r >> 4]!; g1 = EXPAND4[g >> 4]!; b1 = EXPAND4[b >> 4]!
    r2 = EXPAND4[r & 15]!; g2 = EXPAND4[g & 15]!; b2 = EXPAND4[b & 15]!
  }
  for (let x = 0; x < 4; x++) {
    for (let y = 0; y < 4; y++) {
      const k = x * 4 + y
      const idx = ((i >>> k) & 1) | (((i >>> (16 + k)) & 1) << 1)
      const second = flip ? y >= 2 : x >= 2
      const m = MOD[(second ? t2 : t1) * 4 + idx]!
      const o = ((py + y) * width + px + x) * 4
      if (second) {
        out[o] = clamp255(r2 + m); out[o + 1] = clamp255(g2 + m); out[o + 2] = clamp255(b2 + m)
      } else {
        out[o] = clamp255(r1 + m); out[o + 1] = clamp255(g1 + m); out[o + 2] = clamp255(b1 + m)
      }
    }
  }
}

/** Decodes an ETC1 (8 bytes/block) or ETC1A4 (16 bytes/block) level to RGBA8, row 0 = top. */
export function decodeEtc1(src: Uint8Array, width: number, height: number, withAlpha: boolean, out = new Uint8Array(width * height * 4)): Uint8Array {
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength)
  const blockBytes = withAlpha ? 16 : 8
  let s = 0
  for (let ty = 0; ty < height; ty += 8) {
    for (let tx = 0; tx < width; tx += 8) {
      for (let b = 0; b < 4; b++) {
        const px = tx + (b & 1) * 4
        const py = ty + (b >> 1) * 4
        let alphaLo = 0xffffffff, alphaHi = 0xffffffff
        if (withAlpha) {
          alphaLo = view.getUint32(s, true)
          alphaHi = view.getUint32(s + 4, true)
        }
        const c = s + blockBytes - 8
        decodeEtc1Block(view.getUint32(c + 4, true), view.getUint32(c, true), out, width, px, py)
        for (let x = 0; x < 4; x++) {
          for (let y = 0; y < 4; y++) {
            const k = x * 4 + y
            const nib = k < 8 ? (alphaLo >>> (4 * k)) & 15 : (alphaHi >>> (4 * (k - 8))) & 15
            out[((py + y) * width + px + x) * 4 + 3] = withAlpha ? EXPAND4[nib]! : 255
          }
        }
        s += blockBytes
      }
    }
  }
  return out
}

// ---- encoder ------------------------------------------------------------------------------

export type { Etc1Effort } from './etc1-search'

/** Pixel indices (y·4 + x) of the four half-blocks: left, right (flip 0), top, bottom (flip 1). */
const HALVES: readonly Int32Array[] = [
  Int32Array.from([0, 4, 8, 12, 1, 5, 9, 13]),
  Int32Array.from([2, 6, 10, 14, 3, 7, 11, 15]),
  Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]),
  Int32Array.from([8, 9, 10, 11, 12, 13, 14, 15]),
]

const FULL_LO = [0, 0, 0]
const FULL_HI = [31, 31, 31]

/** Scratch state of the block encoder (reused across blocks). */
class BlockEncoder {
  readonly halfPx = [0, 1, 2, 3].map(() => new Int32Array(24))
  readonly ind = [0, 1, 2, 3].map(() => newHalf())
  readonly dif = [0, 1, 2, 3].map(() => newHalf())
  readonly tmpA = newHalf()
  readonly tmpB = newHalf()
  /** Winners copied out of tmpA (as the second half) and tmpB (as the first half). */
  readonly keepA = newHalf()
  readonly keepB = newHalf()
  readonly lo = new Int32Array(3)
  readonly hi = new Int32Array(3)

  constructor(readonly effort: Etc1Effort) {}

  /** Squared RGB error of the last encoded block, as the search computed it. */
  lastErr = 0

  /** Header and index halves of the last encoded block. */
  h = 0
  i = 0

  /** Encodes the 4×4 block whose RGB values are in `block` (16 × RGB, index y·4 + x) into `h`, `i`. */
  encode(block: Int32Array): void {
    for (let h = 0; h < 4; h++) {
      const list = HALVES[h]!, dst = this.halfPx[h]!
      for (let p = 0; p < 8; p++) {
        const s = list[p]! * 3
        dst[p * 3] = block[s]!; dst[p * 3 + 1] = block[s + 1]!; dst[p * 3 + 2] = block[s + 2]!
      }
      searchHalf(dst, 4, FULL_LO, [15, 15, 15], this.effort, this.ind[h]!)
      searchHalf(dst, 5, FULL_LO, FULL_HI, this.effort, this.dif[h]!)
    }
    let bestErr = Infinity
    let H = 0
    let a!: Half, b!: Half, bestFlip = 0, bestDiff = 0
    for (let flip = 0; flip < 2; flip++) {
      const h1 = flip * 2, h2 = flip * 2 + 1
      // Individual mode: two independent 4-bit bases.
      const ie = this.ind[h1]!.err + this.ind[h2]!.err
      if (ie < bestErr) { bestErr = ie; a = this.ind[h1]!; b = this.ind[h2]!; bestFlip = flip; bestDiff = 0 }
      // Differential mode: 5-bit bases with c2 − c1 in −4..+3 per channel.
      const d1 = this.dif[h1]!, d2 = this.dif[h2]!
      if (fits(d1, d2)) {
        const de = d1.err + d2.err
        if (de < bestErr) { bestErr = de; a = d1; b = d2; bestFlip = flip; bestDiff = 1 }
      } else {
        // Keep one half at its optimum and constrain the other to the reachable range.
        this.lo[0] = d1.q0 - 4; this.lo[1] = d1.q1 - 4; this.lo[2] = d1.q2 - 4
        this.hi[0] = d1.q0 + 3; this.hi[1] = d1.q1 + 3; this.hi[2] = d1.q2 + 3
        const c2 = searchHalf(this.halfPx[h2]!, 5, this.lo, this.hi, this.effort, this.tmpA)
        if (d1.err + c2.err < bestErr) { bestErr = d1.err + c2.err; a = d1; b = copyHalf(c2, this.keepA); bestFlip = flip; bestDiff = 1 }
        this.lo[0] = d2.q0 - 3; this.lo[1] = d2.q1 - 3; this.lo[2] = d2.q2 - 3
        this.hi[0] = d2.q0 + 4; this.hi[1] = d2.q1 + 4; this.hi[2] = d2.q2 + 4
        const c1 = searchHalf(this.halfPx[h1]!, 5, this.lo, this.hi, this.effort, this.tmpB)
        if (c1.err + d2.err < bestErr) { bestErr = c1.err + d2.err; a = copyHalf(c1, this.keepB); b = d2; bestFlip = flip; bestDiff = 1 }
      }
    }
    if (bestDiff) {
      const dr = (b.q0 - a.q0) & 7, dg = (b.q1 - a.q1) & 7, db = (b.q2 - a.q2) & 7
      H = ((a.q0 << 3) | dr) << 24 | ((a.q1 << 3) | dg) << 16 | ((a.q2 << 3) | db) << 8
    } else {
      H = ((a.q0 << 4) | b.q0) << 24 | ((a.q1 << 4) | b.q1) << 16 | ((a.q2 << 4) | b.q2) << 8
    }
    H |= (a.table << 5) | (b.table << 2) | (bestDiff << 1) | bestFlip
    this.lastErr = bestErr
    let I = 0
    const l1 = HALVES[bestFlip * 2]!, l2 = HALVES[bestFlip * 2 + 1]!
    for (let p = 0; p < 8; p++) {
      I |= bitsFor(l1[p]!, a.idx[p]!)
      I |= bitsFor(l2[p]!, b.idx[p]!)
    }
    this.h = H >>> 0
    this.i = I >>> 0
  }
}

/** Copies a half result into `dst` (constrained winners live in scratch the next flip reuses). */
function copyHalf(src: Half, dst: Half): Half {
  dst.q0 = src.q0; dst.q1 = src.q1; dst.q2 = src.q2; dst.table = src.table; dst.err = src.err; dst.idx.set(src.idx)
  return dst
}

function fits(a: Half, b: Half): boolean {
  const d0 = b.q0 - a.q0, d1 = b.q1 - a.q1, d2 = b.q2 - a.q2
  return d0 >= -4 && d0 <= 3 && d1 >= -4 && d1 <= 3 && d2 >= -4 && d2 <= 3
}

/** Index bits of pixel `pi` (y·4 + x) with modifier index `idx`: LSB at bit k, MSB at 16 + k, k = x·4 + y. */
function bitsFor(pi: number, idx: number): number {
  const k = (pi & 3) * 4 + (pi >> 2)
  return ((idx & 1) << k) | ((idx >> 1) << (16 + k))
}

/**
 * Encodes one 4×4 block (16 × RGB, index y·4 + x) and returns the header and index halves of the
 * standard ETC1 word plus the squared RGB error the search settled on (for tests and tools).
 */
export function encodeEtc1Block(rgb: ArrayLike<number>, effort: Etc1Effort = 'normal'): { h: number; i: number; err: number } {
  const enc = new BlockEncoder(effort)
  enc.encode(Int32Array.from(rgb))
  return { h: enc.h, i: enc.i, err: enc.lastErr }
}

export interface Etc1EncodeOptions {
  effort?: Etc1Effort
  /**
   * Only the 8-pixel tile rows [from, to) (default: all). Each tile row is stored contiguously,
   * so the parts of a split encode concatenate to the whole (how the worker pool splits work).
   */
  tileRows?: { from: number; to: number }
}

/** Bytes per tile row of an ETC1 (ETC1A4) level `width` texels wide. */
export function etc1TileRowBytes(width: number, withAlpha: boolean): number {
  return (width / 8) * 4 * (withAlpha ? 16 : 8)
}

/**
 * Encodes RGBA8 (row 0 = top, width and height multiples of 8) into PICA ETC1 (8 bytes per
 * block) or ETC1A4 (alpha block + colour block, 16 bytes). ETC1A4 alpha nibble = round(a·15/255).
 */
export function encodeEtc1(rgba: Uint8Array, width: number, height: number, withAlpha: boolean, opts: Etc1EncodeOptions = {}): Uint8Array {
  const blockBytes = withAlpha ? 16 : 8
  const from = opts.tileRows?.from ?? 0, to = opts.tileRows?.to ?? height / 8
  const out = new Uint8Array((to - from) * etc1TileRowBytes(width, withAlpha))
  const view = new DataView(out.buffer)
  const enc = new BlockEncoder(opts.effort ?? 'normal')
  const block = new Int32Array(48)
  let d = 0
  for (let ty = from * 8; ty < to * 8; ty += 8) {
    for (let tx = 0; tx < width; tx += 8) {
      for (let bi = 0; bi < 4; bi++) {
        const px = tx + (bi & 1) * 4
        const py = ty + (bi >> 1) * 4
        let aLo = 0, aHi = 0
        for (let y = 0; y < 4; y++) {
          for (let x = 0; x < 4; x++) {
            const s = ((py + y) * width + px + x) * 4
            const p = (y * 4 + x) * 3
            block[p] = rgba[s]!; block[p + 1] = rgba[s + 1]!; block[p + 2] = rgba[s + 2]!
            if (withAlpha) {
              const k = x * 4 + y
              const nib = QUANT4[rgba[s + 3]!]!
              if (k < 8) aLo |= nib << (4 * k)
              else aHi |= nib << (4 * (k - 8))
            }
          }
        }
        if (withAlpha) {
          view.setUint32(d, aLo >>> 0, true)
          view.setUint32(d + 4, aHi >>> 0, true)
        }
        enc.encode(block)
        const c = d + blockBytes - 8
        view.setUint32(c, enc.i, true)
        view.setUint32(c + 4, enc.h, true)
        d += blockBytes
      }
    }
  }
  return out
}
