/**
 * Yay0 (Nintendo's LZ77 variant with separate mask / link / chunk streams), exact
 * (pokemon-stadium.md §3.3; the same container is used across N64 titles).
 *
 * Header (16 bytes, offsets relative to the magic):
 *   0x00 "Yay0", 0x04 u32 outSize, 0x08 u32 linkOffset, 0x0C u32 chunkOffset; mask words from 0x10.
 * A back-reference reaching before the start of the output is a FormatError (the game would read
 * whatever precedes its buffer).
 */
import { FormatError, hex } from '../../binary'

export interface Yay0Options {
  file?: string
  /** Absolute offset of `src[0]` in the file, for error messages. */
  base?: number
  /** Refuse streams that claim more output than this (default 64 MiB). */
  maxOutput?: number
}

export interface Yay0Header {
  outSize: number
  linkOffset: number
  chunkOffset: number
}

export function isYay0(src: Uint8Array): boolean {
  return src.length >= 4 && src[0] === 0x59 && src[1] === 0x61 && src[2] === 0x79 && src[3] === 0x30
}

export function readYay0Header(src: Uint8Array, opts: Yay0Options = {}): Yay0Header {
  const base = opts.base ?? 0
  const err = (d: string, o: number) => new FormatError(d, { file: opts.file, structure: 'Yay0', offset: base + o })
  if (src.length < 0x10) throw err(`truncated header: ${src.length} bytes, need 0x10`, 0)
  if (!isYay0(src)) throw err('missing "Yay0" magic', 0)
  const v = new DataView(src.buffer, src.byteOffset, src.byteLength)
  const outSize = v.getUint32(4)
  const linkOffset = v.getUint32(8)
  const chunkOffset = v.getUint32(12)
  if (outSize > (opts.maxOutput ?? 64 << 20)) throw err(`outSize ${hex(outSize)} is larger than the limit`, 4)
  if (linkOffset < 0x10 || linkOffset > src.length) throw err(`linkOffset ${hex(linkOffset)} outside the ${hex(src.length)}-byte stream`, 8)
  if (chunkOffset < 0x10 || chunkOffset > src.length) throw err(`chunkOffset ${hex(chunkOffset)} outside the ${hex(src.length)}-byte stream`, 12)
  return { outSize, linkOffset, chunkOffset }
}

/** Decodes a Yay0 stream; stops exactly at outSize. */
export function decodeYay0(src: Uint8Array, opts: Yay0Options = {}): Uint8Array {
  const base = opts.base ?? 0
  const { outSize, linkOffset, chunkOffset } = readYay0Header(src, opts)
  const err = (d: string, o: number) => new FormatError(d, { file: opts.file, structure: 'Yay0', offset: base + o })
  const out = new Uint8Array(outSize)
  const n = src.length
  let o = 0
  let mp = 0x10
  let lp = linkOffset
  let cp = chunkOffset
  let mask = 0
  let bits = 0
  while (o < outSize) {
    if (bits === 0) {
      if (mp + 4 > n) throw err(`mask stream runs past the end (output ${hex(o)} of ${hex(outSize)})`, mp)
      mask = ((src[mp]! << 24) | (src[mp + 1]! << 16) | (src[mp + 2]! << 8) | src[mp + 3]!) >>> 0
      mp += 4
      bits = 32
    }
    if (mask & 0x80000000) {
      if (cp >= n) throw err(`chunk stream runs past the end (output ${hex(o)} of ${hex(outSize)})`, cp)
      out[o++] = src[cp++]!
    } else {
      if (lp + 2 > n) throw err(`link stream runs past the end (output ${hex(o)} of ${hex(outSize)})`, lp)
      const linkAt = lp
      const link = (src[lp]! << 8) | src[lp + 1]!
      lp += 2
      const dist = (link & 0x0fff) + 1
      let count = link >>> 12
      if (count === 0) {
        if (cp >= n) throw err(`chunk stream runs past the end reading a run length (output ${hex(o)})`, cp)
        count = src[cp++]! + 0x12
      } else {
        count += 2
      }
      if (dist > o) throw err(`back-reference before the start: distance ${dist} at output offset ${hex(o)}`, linkAt)
      const end = Math.min(outSize, o + count)
      // byte by byte: overlapping runs repeat the last `dist` bytes
      for (let from = o - dist; o < end; ) out[o++] = out[from++]!
    }
    mask = (mask << 1) >>> 0
    bits--
  }
  return out
}

/**
 * A simple greedy Yay0 encoder (our own, for fixtures and samples; not tuned for ratio).
 * Searches back-references up to 0x1000 bytes back with a small hash chain.
 */
export function encodeYay0(data: Uint8Array): Uint8Array {
  const masks: number[] = []
  const links: number[] = []
  const chunks: number[] = []
  let mask = 0
  let bits = 0
  const pushBit = (b: number) => {
    mask = (mask << 1) | b
    bits++
    if (bits === 32) {
      masks.push(mask >>> 0)
      mask = 0
      bits = 0
    }
  }
  const head = new Map<number, number[]>()
  const key = (i: number) => (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!
  let i = 0
  while (i < data.length) {
    let bestLen = 0
    let bestDist = 0
    if (i + 3 <= data.length) {
      const cands = head.get(key(i))
      if (cands) {
        for (let c = cands.length - 1; c >= 0 && c >= cands.length - 32; c--) {
          const j = cands[c]!
          const dist = i - j
          if (dist > 0x1000) break
          let len = 0
          const max = Math.min(273, data.length - i)
          while (len < max && data[j + len] === data[i + len]) len++
          if (len > bestLen) {
            bestLen = len
            bestDist = dist
          }
        }
      }
    }
    const advance = bestLen >= 3 ? bestLen : 1
    for (let k = i; k < i + advance && k + 3 <= data.length; k++) {
      const h = key(k)
      let list = head.get(h)
      if (!list) head.set(h, (list = []))
      list.push(k)
      if (list.length > 64) list.splice(0, list.length - 64)
    }
    if (bestLen >= 3) {
      pushBit(0)
      const d = bestDist - 1
      if (bestLen <= 17) {
        links.push(((bestLen - 2) << 12) | d)
      } else {
        links.push(d)
        chunks.push(bestLen - 0x12)
      }
      i += bestLen
    } else {
      pushBit(1)
      chunks.push(data[i]!)
      i++
    }
  }
  if (bits > 0) masks.push((mask << (32 - bits)) >>> 0)
  const linkOffset = 0x10 + masks.length * 4
  const chunkOffset = linkOffset + links.length * 2
  const out = new Uint8Array(chunkOffset + chunks.length)
  const v = new DataView(out.buffer)
  out.set([0x59, 0x61, 0x79, 0x30])
  v.setUint32(4, data.length)
  v.setUint32(8, linkOffset)
  v.setUint32(12, chunkOffset)
  masks.forEach((m, k) => v.setUint32(0x10 + k * 4, m))
  links.forEach((l, k) => v.setUint16(linkOffset + k * 2, l))
  out.set(chunks, chunkOffset)
  return out
}
