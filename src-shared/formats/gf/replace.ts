/**
 * Texture replacement across a set (spec §12, default byte-exact path): each replacement image is
 * re-encoded in its texture's own format and size; only the pixel bytes of that entry change; every
 * file is then repacked (same-length fast path) and verified against the original.
 */
import { psnr } from '../pica/image'
import type { PicaFormat } from '../pica/texture-format'
import type { EncodeOptions } from '../pica/texture-codec'
import { findTexture, type GfSet } from './gf-set'
import { repackPackage, verifyRepack } from './repack'
import { decodeGfTexture, parseGfTexture, rebuildGfTextureEntry, replaceGfTexturePixels } from './texture'

export interface TextureReplacement {
  file: string
  entry: number
  /** RGBA8, row 0 = top. */
  rgba: Uint8Array
  width: number
  height: number
  /** Where the image came from (for messages). */
  source?: string
  /**
   * Advanced path (spec §12, off by default; unverified in game): store the image at its own
   * size and/or in another format. The entry is rebuilt and the package relaid out.
   */
  reformat?: { format?: PicaFormat; mipmaps?: number }
  /** The texture's levels already encoded from `rgba` (see replaceGfTexturePixels); not with `reformat`. */
  pixels?: Uint8Array
}

export interface ReplacementReport {
  file: string
  entry: number
  name: string
  format: PicaFormat
  width: number
  height: number
  /** PSNR (dB) of the re-encoded texture against the replacement image; Infinity when exact. */
  psnr: number
}

export interface SetRepackResult {
  /** Every file of the set (changed or not), name → bytes to write. */
  files: Map<string, Uint8Array>
  /** Per file, the entries that changed. */
  changes: Map<string, Map<number, Uint8Array>>
  report: ReplacementReport[]
}

/** Channels that a format stores, for a fair PSNR (A8/A4: alpha only; HiLo8: R, G). */
export function psnrChannels(f: PicaFormat): number[] {
  switch (f) {
    case 'A8': case 'A4': return [3]
    case 'HILO8': return [0, 1]
    case 'RGBA8': case 'RGBA5551': case 'RGBA4': case 'LA8': case 'LA4': case 'ETC1A4': return [0, 1, 2, 3]
    default: return [0, 1, 2]
  }
}

export class ReplacementError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ReplacementError'
  }
}

/**
 * Re-encodes one texture entry from an image of the same size; returns the new entry and its PSNR.
 * An image of another size is an error here, as CLI.md requires for `gf replace`; spec §12's
 * "resample it (warn)" is offered by the UI only (the `resize` flag of gf:previewReplace / gf:repack).
 */
export function reencodeTexture(entry: Uint8Array, rgba: Uint8Array, width: number, height: number, ctx: { file?: string; entry?: number; base?: number; source?: string } = {}, opts: EncodeOptions = {}, pixels?: Uint8Array): { bytes: Uint8Array; psnr: number; decoded: Uint8Array } {
  const h = parseGfTexture(entry, ctx)
  if (width !== h.width || height !== h.height) {
    throw new ReplacementError(`${ctx.source ?? 'image'} is ${width}×${height}, but ${ctx.file ?? ''} entry ${ctx.entry ?? '?'} (${h.name}) is ${h.width}×${h.height}; the replacement must have the texture's size`)
  }
  const bytes = replaceGfTexturePixels(entry, h, rgba, opts, pixels)
  const decoded = decodeGfTexture(bytes, h)
  return { bytes, psnr: psnr(rgba, decoded, psnrChannels(h.format)), decoded }
}

/** Applies the replacements and repacks every file; verifies each written file before returning. */
export function repackSet(set: GfSet, replacements: TextureReplacement[], opts: EncodeOptions = {}): SetRepackResult {
  const changes = new Map<string, Map<number, Uint8Array>>()
  const report: ReplacementReport[] = []
  for (const rep of replacements) {
    const ref = findTexture(set, rep.file, rep.entry)
    const f = set.files.find((x) => x.file === rep.file)!
    const base = f.pkg.entries[rep.entry]!.offset
    let m = changes.get(rep.file)
    if (!m) changes.set(rep.file, (m = new Map()))
    const h = ref.header
    if (rep.reformat) {
      const format = rep.reformat.format ?? h.format
      const bytes = rebuildGfTextureEntry(ref.bytes, h, rep.rgba, rep.width, rep.height, format, rep.reformat.mipmaps ?? 1, opts)
      const nh = parseGfTexture(bytes, { file: rep.file, entry: rep.entry })
      m.set(rep.entry, bytes)
      report.push({ file: rep.file, entry: rep.entry, name: h.name, format, width: rep.width, height: rep.height, psnr: psnr(rep.rgba, decodeGfTexture(bytes, nh), psnrChannels(format)) })
      continue
    }
    const { bytes, psnr: p } = reencodeTexture(ref.bytes, rep.rgba, rep.width, rep.height, { file: rep.file, entry: rep.entry, base, source: rep.source }, opts, rep.pixels)
    m.set(rep.entry, bytes)
    report.push({ file: rep.file, entry: rep.entry, name: h.name, format: h.format, width: h.width, height: h.height, psnr: p })
  }
  const files = new Map<string, Uint8Array>()
  for (const f of set.files) {
    const ch = changes.get(f.file) ?? new Map<number, Uint8Array>()
    const out = repackPackage(f.bytes, f.pkg, ch, { file: f.file })
    verifyRepack(f.bytes, f.pkg, out, ch, f.file)
    files.set(f.file, out)
  }
  return { files, changes, report }
}
