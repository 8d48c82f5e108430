/**
 * Gf domain of the API contract (Pokémon USUM GF sets). Channels are `gf:verb`. `set` is the
 * folder of a set (the `gf-set` source path). Images cross as RGBA8 `Uint8Array`s (row 0 = top),
 * PNG files as bytes or paths.
 */
import type { PicaFormat } from '../formats/pica/texture-format'
import type { PngMatchReport, PngMatchTarget } from '../formats/gf/png-names'

export interface GfTextureInfo {
  file: string
  entry: number
  name: string
  width: number
  height: number
  format: PicaFormat
  mipmaps: number
  /** Absolute offset of the entry in its file, and its length. */
  offset: number
  length: number
}

/** A replacement image: PNG bytes (drop, preview) or a PNG path (file picker). */
export interface GfImageInput {
  png?: Uint8Array
  path?: string
}

export interface GfReplacementReq extends GfImageInput {
  file: string
  entry: number
}

export interface GfReplacedReport {
  file: string
  entry: number
  name: string
  format: PicaFormat
  width: number
  height: number
  /** PSNR in dB of the re-encode against the image; null when exact. */
  psnr: number | null
}

export interface GfProgress {
  jobId: string
  done: number
  total: number
  detail?: string
}

export interface GfApi {
  /** Every texture of the set, in file/entry order. */
  'gf:textures': { req: { set: string }; res: { set: string; textures: GfTextureInfo[]; missing: string[]; warnings: string[] } }
  /** One texture decoded to RGBA8 (level 0). */
  'gf:texture': { req: { set: string; file: string; entry: number }; res: { info: GfTextureInfo; rgba: Uint8Array } }
  /**
   * Re-encodes an image in the texture's format and size and decodes it back: the "after" view.
   * An image of another size is resampled (bilinear) when `resize` is true, refused otherwise.
   * With a `jobId`: ETC encoding progress as `gf:progress` events, cancellable with `gf:cancelJob`.
   */
  'gf:previewReplace': {
    req: GfReplacementReq & { set: string; resize?: boolean; jobId?: string }
    res: { info: GfTextureInfo; source: Uint8Array; rgba: Uint8Array; psnr: number | null; resized: boolean; warnings: string[] }
  }
  /**
   * Writes a repacked set into a new folder `out`; progress as `gf:progress` events with `jobId`;
   * `gf:cancelJob` with that id cancels it (no folder is left).
   */
  'gf:repack': {
    req: { set: string; out: string; replacements: GfReplacementReq[]; resize?: boolean; jobId?: string }
    res: { out: string; files: { file: string; changed: boolean; size: number; sha256: string }[]; replaced: GfReplacedReport[] }
  }
  /**
   * Matches the PNGs of `folder` (and of its direct sub-folders) to the set's textures by name
   * (`<name>.png` or `<entry>_<name>.png`, optionally in a `<file without .bin>/` folder, as
   * `gf extract` writes them): what matched (with its absolute path), what has the wrong size,
   * what fits several textures, what fits none, what cannot be read. Nothing is queued or written.
   */
  'gf:matchFolder': {
    req: { set: string; folder: string }
    res: Omit<PngMatchReport, 'matched'> & { folder: string; matched: (PngMatchTarget & { path: string })[]; unreadable: { png: string; error: string }[] }
  }
  /** One texture as a PNG file. */
  'gf:exportPng': { req: { set: string; file: string; entry: number; out: string; overwrite?: boolean }; res: { path: string } }
  /** Every texture as PNG into a new folder (`<out>/<file>/<entry>_<name>.png`). */
  'gf:exportAll': { req: { set: string; out: string }; res: { out: string; count: number } }
}

/** Events of the gf domain (the platform's `Events` type must include them to deliver them). */
export interface GfEvents {
  'gf:progress': GfProgress
}
