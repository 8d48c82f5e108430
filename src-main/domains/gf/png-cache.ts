/**
 * PNG bytes of textures for a batch export (export-worker.ts): each distinct texture (same size
 * and RGBA) is deflated once and its PNG reused by every later model and set that holds it.
 *
 * The bytes are those of the glTF exporter's own encoder (`texturePng`, fast-png 8), so a glb is
 * the same whichever path wrote it: the PNG signature, IHDR (8-bit RGBA, no interlace), one IDAT
 * holding every row with filter type 0 deflated by fflate's `zlibSync` at level 3 (fast-png's
 * default, kept by measurement: docs/DECISIONS.md "Batch export"), IEND. Written here without
 * fast-png's byte-at-a-time buffer: the rows go into one scratch buffer reused from texture to
 * texture, and the file is assembled in one allocation.
 */
import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { zlibSync, type DeflateOptions } from 'fflate'

/** The zlib level of every PNG a glb holds (fast-png's default: changing it changes the files). */
export const PNG_LEVEL: NonNullable<DeflateOptions['level']> = 3

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
let scratch = new Uint8Array(0)

/** The rows as PNG filters them (a 0 byte, filter "none", before each), in the scratch buffer. */
function filteredRows(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const stride = width * 4
  const n = height * (stride + 1)
  if (scratch.byteLength < n) scratch = new Uint8Array(Math.max(n, scratch.byteLength * 2))
  const rows = scratch.subarray(0, n)
  for (let y = 0, at = 0; y < height; y++, at += stride + 1) {
    rows[at] = 0
    rows.set(rgba.subarray(y * stride, y * stride + stride), at + 1)
  }
  return rows
}

/** Writes chunk `type` (its data already at `at + 8`) with its length and CRC; returns its end. */
function chunk(out: Uint8Array, view: DataView, at: number, type: string, length: number): number {
  view.setUint32(at, length)
  for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i)
  view.setUint32(at + 8 + length, crc32(out.subarray(at + 4, at + 8 + length)))
  return at + 12 + length
}

/** RGBA8 (top row first) → PNG bytes, as `texturePng` writes them at `level` 3. */
export function encodeRgbaPng(rgba: Uint8Array, width: number, height: number, level = PNG_LEVEL): Uint8Array {
  if (rgba.byteLength !== width * height * 4) throw new RangeError(`${width}×${height} RGBA needs ${width * height * 4} bytes, got ${rgba.byteLength}`)
  const idat = zlibSync(filteredRows(rgba, width, height), { level })
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

/** Encoded PNGs by texture content; the oldest are forgotten beyond `maxBytes` of PNG. */
export class PngCache {
  private readonly byKey = new Map<string, Uint8Array>()
  private bytes = 0
  hits = 0
  misses = 0

  constructor(
    private readonly maxBytes = 64 << 20,
    private readonly level = PNG_LEVEL,
  ) {}

  png(rgba: Uint8Array, width: number, height: number): Uint8Array {
    const key = createHash('sha1').update(`${width}x${height}:`).update(rgba).digest('base64')
    const known = this.byKey.get(key)
    if (known) {
      this.hits++
      return known
    }
    this.misses++
    const png = encodeRgbaPng(rgba, width, height, this.level)
    this.byKey.set(key, png)
    this.bytes += png.byteLength
    for (const [k, v] of this.byKey) {
      if (this.bytes <= this.maxBytes) break
      this.byKey.delete(k)
      this.bytes -= v.byteLength
    }
    return png
  }

  clear(): void {
    this.byKey.clear()
    this.bytes = 0
    this.hits = this.misses = 0
  }
}
