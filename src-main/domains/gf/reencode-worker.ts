/**
 * Texture re-encoding for UI previews (`gf:previewReplace`) off the main thread: an ETC1/ETC1A4
 * encode of a 1024×1024 texture takes seconds and would otherwise block the server (browser
 * mode) or the Electron main process. The ETC levels are encoded on the worker pool
 * (etc1-pool.ts, all cores); the header checks, the other formats, the decode of the result and
 * the PSNR run here (milliseconds). A missing or dead worker is an error (etc1-pool.ts).
 */
import { reencodeTexture } from '../../../src-shared/formats/gf/replace'
import { parseGfTexture } from '../../../src-shared/formats/gf/texture'
import { isEtc } from '../../../src-shared/formats/pica/texture-format'
import type { EncodeOptions } from '../../../src-shared/formats/pica/texture-codec'
import { encodePicaWithMipsParallel, stopEtc1Pool, type ParallelOptions } from './etc1-pool'

export interface ReencodeCtx {
  file?: string
  entry?: number
  base?: number
  source?: string
}

export interface ReencodeResult {
  bytes: Uint8Array
  decoded: Uint8Array
  psnr: number
  /** True when the ETC levels went through the worker pool. */
  offThread: boolean
}

/**
 * Re-encodes `entry` (a GFTexture entry) from `rgba`, the ETC levels on the worker pool. Same
 * result and errors as `reencodeTexture`; a cancel (opts.signal) rejects with a CancelledError.
 */
export async function reencodeOffThread(entry: Uint8Array, rgba: Uint8Array, width: number, height: number, ctx: ReencodeCtx = {}, opts: EncodeOptions & ParallelOptions = {}): Promise<ReencodeResult> {
  const h = parseGfTexture(entry, ctx)
  // a size mismatch (or a non-ETC format) is reencodeTexture's to report / cheap to do inline
  if (width !== h.width || height !== h.height || rgba.byteLength !== width * height * 4 || !isEtc(h.format)) {
    return { ...reencodeTexture(entry, rgba, width, height, ctx, opts), offThread: false }
  }
  const pixels = await encodePicaWithMipsParallel(rgba, width, height, h.format, h.levels, opts)
  return { ...reencodeTexture(entry, rgba, width, height, ctx, opts, pixels), offThread: true }
}

/** Stops the worker threads (tests; a later call starts new ones). */
export const stopReencodeWorker = stopEtc1Pool
