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
import { registerPngCodec, type PngCodec } from '../../src-shared/export/png-codec'

/** The zlib level of the PNGs Node writes (changing it changes every exported file). */
export const PNG_ZLIB_LEVEL = 1

/**
 * The smallest window that holds all of `data` (at least 2^9: zlib turns 8 into 9): the same
 * matches as the default 32 KiB window, and less state for zlib to allocate and clear per call,
 * which was most of the time of a small texture (~60 % at 16×16).
 */
const windowBitsFor = (n: number): number => Math.max(9, Math.min(15, Math.ceil(Math.log2(n + 262)))) // 262: zlib's MIN_LOOKAHEAD

export const nodePngCodec: PngCodec = {
  zlib: (data) => {
    // memLevel 9: a hash table twice the default's, fewer collisions: 10–20 % faster at level 1 here
    const b = deflateSync(data, { level: PNG_ZLIB_LEVEL, windowBits: windowBitsFor(data.byteLength), memLevel: 9 })
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
  },
  crc32: (data) => crc32(data),
}

/** Registers Node's zlib as this thread's PNG codec (idempotent). */
export function useNodePngCodec(): void {
  registerPngCodec(nodePngCodec)
}
