/**
 * Nintendo LZ11 (LZ77 variant, type byte 0x11), as GARC entries may be stored (spec §19.5).
 *
 * Header: 0x11, u24 LE decompressed size; a size of 0 is followed by a u32 LE size (8-byte header).
 * Body: a flag byte, then 8 tokens (bit 7 first): 0 = one literal byte, 1 = a back-reference whose
 * first nibble selects the form (≥ 2: `iD DD`, length i + 1; 0: `0L LD DD`, length 0xLL + 0x11;
 * 1: `1L LL LD DD`, length 0xLLLL + 0x111), distance 0xDDD + 1, copied byte by byte.
 *
 * A *valid stream* (our definition, §19.5): no back-reference before the first output byte, the
 * stream does not end before the declared size, no back-reference runs past the declared size,
 * and the stored length is at most floor4(consumed) + 4.
 */
import { FormatError, LimitError, hex } from '../../binary/errors'

export const LZ11_TYPE = 0x11
/** Sizes above this need the 8-byte header. */
const U24_MAX = 0xffffff
/** A declared size beyond this is refused (a GF set member is a few MiB; 256 MiB is a guard, not a format rule). */
export const LZ11_MAX_SIZE = 256 * 1024 * 1024

export interface Lz11Context {
  file?: string
  /** Structure name for messages (default `LZ11`). */
  structure?: string
  /** Absolute offset of the stream's first byte in the file. */
  base?: number
}

export interface Lz11Header {
  size: number
  headerLength: 4 | 8
}

/** The header of a stream that starts with 0x11, or null when the bytes cannot hold one. */
export function lz11Header(bytes: Uint8Array): Lz11Header | null {
  if (bytes.byteLength < 4 || bytes[0] !== LZ11_TYPE) return null
  const size = bytes[1]! | (bytes[2]! << 8) | (bytes[3]! << 16)
  if (size !== 0) return { size, headerLength: 4 }
  if (bytes.byteLength < 8) return null
  return { size: (bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! << 24)) >>> 0, headerLength: 8 }
}

export interface Lz11Decoded {
  bytes: Uint8Array
  /** Input bytes read up to the end of the last token. */
  consumed: number
}

/**
 * Decodes a whole LZ11 stream and checks it is valid (§19.5); throws FormatError naming the file,
 * the structure and the offset of the offending token. `maxOutput` stops early (a prefix decode
 * for naming): the trailing-bytes rule is then not checked, nor is the end of input an error.
 */
export function decodeLz11(bytes: Uint8Array, ctx: Lz11Context = {}, maxOutput?: number): Lz11Decoded {
  const base = ctx.base ?? 0
  const fail = (detail: string, at: number, Err = FormatError) => new Err(detail, { file: ctx.file, structure: ctx.structure ?? 'LZ11', offset: base + at })
  if (bytes.byteLength < 4) throw fail(`${bytes.byteLength} bytes is too short for an LZ11 header (4 bytes)`, 0)
  if (bytes[0] !== LZ11_TYPE) throw fail(`type byte ${hex(bytes[0]!)} is not 0x11`, 0)
  const h = lz11Header(bytes)
  if (!h) throw fail('the 8-byte header (size 0 followed by a u32 size) is cut short', 4)
  if (h.size > LZ11_MAX_SIZE) throw fail(`declared size ${hex(h.size)} is beyond the ${hex(LZ11_MAX_SIZE)}-byte limit`, 1, LimitError)
  const size = h.size
  const partial = maxOutput !== undefined && maxOutput < size
  const want = partial ? maxOutput : size
  const out = new Uint8Array(partial ? Math.min(size, want + 0x10000 + 0x111) : size)
  let o = 0
  let p = h.headerLength
  const n = bytes.byteLength
  const ended = (what: string, at: number) => (partial ? null : fail(`the stream ends inside ${what} after ${hex(o)} of ${hex(size)} bytes`, at))
  outer: while (o < want) {
    if (p >= n) {
      const e = ended('a flag byte', p)
      if (e) throw e
      break
    }
    const flags = bytes[p++]!
    for (let bit = 7; bit >= 0 && o < want; bit--) {
      if (!((flags >> bit) & 1)) {
        if (p >= n) {
          const e = ended('a literal', p)
          if (e) throw e
          break outer
        }
        out[o++] = bytes[p++]!
        continue
      }
      const at = p
      const i = p < n ? bytes[p]! >> 4 : 0
      const need = i >= 2 ? 2 : i === 0 ? 3 : 4
      if (p + need > n) {
        const e = ended('a back-reference', at)
        if (e) throw e
        break outer
      }
      let len: number
      if (i >= 2) len = i + 1
      else if (i === 0) len = (((bytes[p]! & 0xf) << 4) | (bytes[p + 1]! >> 4)) + 0x11
      else len = (((bytes[p]! & 0xf) << 12) | (bytes[p + 1]! << 4) | (bytes[p + 2]! >> 4)) + 0x111
      const dist = (((bytes[p + need - 2]! & 0xf) << 8) | bytes[p + need - 1]!) + 1
      p += need
      if (dist > o) throw fail(`back-reference at output ${hex(o)} reaches ${dist} bytes back, before the first output byte`, at)
      if (o + len > size) throw fail(`back-reference of ${len} bytes at output ${hex(o)} runs past the declared size ${hex(size)}`, at)
      if (o + len > out.length) break outer // a prefix decode: enough
      for (let k = 0; k < len; k++, o++) out[o] = out[o - dist]!
    }
  }
  if (partial) return { bytes: out.subarray(0, Math.min(o, want)), consumed: p }
  const allowed = Math.floor(p / 4) * 4 + 4
  if (n > allowed) throw fail(`${n - p} bytes follow the end of the stream at ${hex(base + p)} (at most ${allowed - p} padding bytes)`, p)
  return { bytes: out, consumed: p }
}

/** True when the bytes are a compressed entry (§19.5): at least 4 bytes, 0x11 first, a valid stream. */
export function isLz11(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 4 || bytes[0] !== LZ11_TYPE) return false
  try {
    decodeLz11(bytes)
    return true
  } catch (e) {
    if (e instanceof FormatError) return false
    throw e
  }
}

/** The decoded bytes of a compressed entry, or null when the bytes are not a valid stream. */
export function tryDecodeLz11(bytes: Uint8Array): Uint8Array | null {
  if (bytes.byteLength < 4 || bytes[0] !== LZ11_TYPE) return null
  try {
    return decodeLz11(bytes).bytes
  } catch (e) {
    if (e instanceof FormatError) return null
    throw e
  }
}

const MIN_MATCH = 3
const MAX_MATCH = 0xffff + 0x111
const WINDOW = 0x1000
const HASH_BITS = 15
const MAX_CHAIN = 16
/** A match this long ends the search (longer ones are still taken when found first). */
const GOOD_MATCH = 64

/**
 * Encodes `data` as a valid LZ11 stream (greedy, hash chains over 3-byte prefixes; not Nintendo's
 * exact output, which §19.5 does not require). Sizes above 0xFFFFFF use the 8-byte header.
 */
export function encodeLz11(data: Uint8Array): Uint8Array {
  const size = data.byteLength
  const header = size > U24_MAX || size === 0 ? 8 : 4
  // worst case: every byte a literal, one flag byte per 8 tokens
  const out = new Uint8Array(header + size + Math.ceil(size / 8) + 1)
  out[0] = LZ11_TYPE
  if (header === 4) {
    out[1] = size & 0xff
    out[2] = (size >>> 8) & 0xff
    out[3] = (size >>> 16) & 0xff
  } else {
    out[4] = size & 0xff
    out[5] = (size >>> 8) & 0xff
    out[6] = (size >>> 16) & 0xff
    out[7] = (size >>> 24) & 0xff
  }
  const head = new Int32Array(1 << HASH_BITS).fill(-1)
  const prev = new Int32Array(Math.min(size, WINDOW) || 1)
  const hash = (i: number) => Math.imul((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!, 0x9e3779b1) >>> (32 - HASH_BITS)
  const insert = (i: number) => {
    if (i + MIN_MATCH > size) return
    const h = hash(i)
    prev[i % WINDOW] = head[h]!
    head[h] = i
  }
  let o = header
  let i = 0
  while (i < size) {
    const flagAt = o++
    let flags = 0
    for (let bit = 7; bit >= 0 && i < size; bit--) {
      let bestLen = 0
      let bestDist = 0
      if (i + MIN_MATCH <= size) {
        const limit = Math.min(MAX_MATCH, size - i)
        let cand = head[hash(i)]!
        for (let chain = 0; cand >= 0 && i - cand <= WINDOW && chain < MAX_CHAIN; chain++) {
          let l = 0
          while (l < limit && data[cand + l] === data[i + l]) l++
          if (l > bestLen) {
            bestLen = l
            bestDist = i - cand
            if (l === limit || l >= GOOD_MATCH) break
          }
          const next = prev[cand % WINDOW]!
          if (next >= cand) break // the slot was reused by a newer position
          cand = next
        }
      }
      if (bestLen < MIN_MATCH) {
        out[o++] = data[i]!
        insert(i++)
        continue
      }
      flags |= 1 << bit
      const d = bestDist - 1
      if (bestLen <= 0x10) {
        out[o++] = ((bestLen - 1) << 4) | (d >> 8)
      } else if (bestLen <= 0x110) {
        const l = bestLen - 0x11
        out[o++] = l >> 4
        out[o++] = ((l & 0xf) << 4) | (d >> 8)
      } else {
        const l = bestLen - 0x111
        out[o++] = 0x10 | (l >> 12)
        out[o++] = (l >> 4) & 0xff
        out[o++] = ((l & 0xf) << 4) | (d >> 8)
      }
      out[o++] = d & 0xff
      for (let k = 0; k < bestLen; k++) insert(i++)
    }
    out[flagAt] = flags
  }
  return out.slice(0, o)
}
