/**
 * PNG bytes of textures for a batch export (export-worker.ts): each distinct texture (same size
 * and RGBA) is deflated once and its PNG reused by every later model and set that holds it. The
 * bytes are the glTF exporter's own (`encodeRgbaPng`, src-shared/export/png.ts, with the codec
 * the thread registered), so a glb is the same whichever path wrote it.
 */
import { createHash } from 'node:crypto'
import { encodeRgbaPng } from '../../../src-shared/export/png'

/** Encoded PNGs by texture content; the oldest are forgotten beyond `maxBytes` of PNG. */
export class PngCache {
  private readonly byKey = new Map<string, Uint8Array>()
  private bytes = 0
  hits = 0
  misses = 0

  constructor(private readonly maxBytes = 64 << 20) {}

  png(rgba: Uint8Array, width: number, height: number): Uint8Array {
    const key = createHash('sha1').update(`${width}x${height}:`).update(rgba).digest('base64')
    const known = this.byKey.get(key)
    if (known) {
      this.hits++
      return known
    }
    this.misses++
    const png = encodeRgbaPng(rgba, width, height)
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
