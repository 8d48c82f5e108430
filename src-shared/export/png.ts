/**
 * PNG bytes of an RGBA8 picture, as every glb and exported texture holds them (PNG 1.2 / ISO 15948):
 * the signature, IHDR (8-bit RGBA, no interlace), one IDAT holding every row with filter type 2
 * ("Up": each byte minus the byte above it, the first row as is), IEND. Up costs one subtraction
 * per byte and halves what deflate has to code in smooth pictures: the PNGs are 24–46 % smaller
 * than with filter 0 (docs/DECISIONS.md "Batch export, second pass").
 *
 * The deflate is a capability: pure fflate (level 3) unless the process registered a faster one
 * with `registerPngCodec` (png-codec.ts; the Node entry points install Node's native zlib, src-main/node/png-codec.ts,
 * so all their exports give the same bytes). The rows go into one scratch buffer reused from
 * picture to picture and the file is assembled in one allocation. Pure: no Node, no DOM.
 */
import { zlibSync } from 'fflate'
import { registeredPngCodec, type PngCodec } from './png-codec'

export { registerPngCodec, type PngCodec } from './png-codec'

const CRC_TABLE = (() => {
  const t = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c >>> 0
  }
  return t
})()

/** The codec in pure JavaScript (the browser's exports, and any process that registered none). */
export const pureCodec: PngCodec = {
  zlib: (data) => zlibSync(data, { level: 3 }),
  crc32(data) {
    let c = 0xffffffff
    for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  },
}

/** The codec PNGs are written with now: the registered one, else the pure one. */
export function pngCodec(): PngCodec {
  return registeredPngCodec() ?? pureCodec
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
/** PNG filter type 2 (ISO 15948 §9.2). */
const FILTER_UP = 2
let scratch = new Uint8Array(0)
/** One filtered row, 4-aligned (the scratch rows start one byte after each filter byte). */
let row32 = new Uint32Array(0)
const HIGH = 0x80808080 | 0

/** The rows as filtered for the IDAT (a filter byte, Up, before each), in the scratch buffer. */
function filteredRows(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const stride = width * 4
  const n = height * (stride + 1)
  if (scratch.byteLength < n) scratch = new Uint8Array(Math.max(n, scratch.byteLength * 2))
  const rows = scratch.subarray(0, n)
  if (height === 0) return rows
  rows[0] = FILTER_UP
  rows.set(rgba.subarray(0, stride), 1) // the row above the first is all zeros
  if (rgba.byteOffset % 4 === 0) upRowsByWord(rgba, width, height, rows)
  else {
    for (let y = 1, at = stride + 1, src = stride; y < height; y++, at += stride + 1, src += stride) {
      rows[at] = FILTER_UP
      for (let i = 0; i < stride; i++) rows[at + 1 + i] = rgba[src + i]! - rgba[src - stride + i]! // stored mod 256
    }
  }
  return rows
}

/**
 * Rows 1… of `filteredRows`, a pixel (4 bytes) per step: each byte minus the byte above, mod 256,
 * in all four lanes at once (the high bit of each lane is set in the minuend and cleared in the
 * subtrahend, so no lane borrows from the next; the XOR puts the true high bits back). Byte-wise,
 * so the host's byte order does not matter. 2.7× the byte loop on 64×64 and larger pictures.
 */
function upRowsByWord(rgba: Uint8Array, width: number, height: number, rows: Uint8Array): void {
  const stride = width * 4
  const px = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height)
  if (row32.length < width) row32 = new Uint32Array(width)
  const row = new Uint8Array(row32.buffer, 0, stride)
  for (let y = 1, at = stride + 1, w = width; y < height; y++, at += stride + 1, w += width) {
    rows[at] = FILTER_UP
    for (let i = 0; i < width; i++) {
      const a = px[w + i]!
      const b = px[w - width + i]!
      row32[i] = ((a | HIGH) - (b & ~HIGH)) ^ ((a ^ ~b) & HIGH)
    }
    rows.set(row, at + 1)
  }
}

/** Writes chunk `type` (its data already at `at + 8`) with its length and CRC; returns its end. */
function chunk(out: Uint8Array, view: DataView, at: number, type: string, length: number): number {
  view.setUint32(at, length)
  for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i)
  view.setUint32(at + 8 + length, pngCodec().crc32(out.subarray(at + 4, at + 8 + length)))
  return at + 12 + length
}

/** RGBA8 (top row first) → PNG bytes. */
export function encodeRgbaPng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  if (rgba.byteLength !== width * height * 4) throw new RangeError(`${width}×${height} RGBA needs ${width * height * 4} bytes, got ${rgba.byteLength}`)
  const idat = pngCodec().zlib(filteredRows(rgba, width, height))
  const out = new Uint8Array(8 + 25 + 12 + idat.byteLength + 12)
  const view = new DataView(out.buffer)
  out.set(SIGNATURE)
  view.setUint32(16, width)
  view.setUint32(20, height)
  out.set([8, 6, 0, 0, 0], 24) // depth 8, colour type 6 (RGBA), deflate, adaptive filtering, no interlace
  let at = chunk(out, view, 8, 'IHDR', 13)
  out.set(idat, at + 8)
  at = chunk(out, view, at, 'IDAT', idat.byteLength)
  chunk(out, view, at, 'IEND', 0)
  return out
}
