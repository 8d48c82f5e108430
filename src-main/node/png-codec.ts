/**
 * The PNG codec of every Node process that exports (the CLI, the Electron main, the batch export's
 * workers): Node's native zlib, 2–3× fflate's speed here (`npm run bench gf-batch`), at level 1.
 * One call at each entry registers it (src-shared/export/png.ts), so every Node path — `gf export`,
 * `export ID`, `gf export-all` in one thread or on the pool, the app's exports — writes the same
 * PNG bytes. Level 1: with PNG's Up filter it was the fastest level and its PNGs were within
 * 6–8 % of level 3's size and 24–46 % smaller than the fflate level 3 / filter 0 PNGs before
 * (docs/DECISIONS.md "Batch export, second pass").
 */
import { crc32, deflateSync } from 'node:zlib'
import { registerPngCodec, type PngCodec } from '../../src-shared/export/png'

/** The zlib level of the PNGs Node writes (changing it changes every exported file). */
export const PNG_ZLIB_LEVEL = 1

export const nodePngCodec: PngCodec = {
  zlib: (data) => {
    const b = deflateSync(data, { level: PNG_ZLIB_LEVEL })
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
  },
  crc32: (data) => crc32(data),
}

/** Registers Node's zlib as this thread's PNG codec (idempotent). */
export function useNodePngCodec(): void {
  registerPngCodec(nodePngCodec)
}
