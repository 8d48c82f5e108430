/**
 * GFTexture (spec §9): a fixed 0x80-byte header then the PICA pixel data, inside one package
 * entry (any bytes after the pixels up to the entry end are padding, kept as they are).
 * SPICA (`GFTexture.cs`) and Ohana3DS-Rebirth (`GfTexture.cs`) read only the magic, the
 * "texture" section name, TextureLength, the name, width/height/format/mipmaps and the pixels;
 * the other header bytes are writer values and are neither validated nor changed here.
 */
import { FormatError, hex } from '../../binary/errors'
import { Reader } from '../../binary/reader'
import { Writer } from '../../binary/writer'
import { decodePica, encodePicaWithMips, type EncodeOptions } from '../pica/texture-codec'
import { levelSize, mipChain, type PicaFormat } from '../pica/texture-format'

export const GF_TEXTURE_MAGIC = 0x15041213
export const GF_TEXTURE_HEADER_SIZE = 0x80

/** Offsets of the header fields this code reads or rewrites (spec §9.1). */
export const GF_TEXTURE_FIELDS = { magic: 0x00, sectionLength: 0x10, dataLength: 0x18, name: 0x28, width: 0x68, height: 0x6a, format: 0x6c, mipmaps: 0x6e } as const
const F = GF_TEXTURE_FIELDS

/** The header fields that describe the pixels: what a rebuild (spec §12) rewrites. */
export interface GfTextureLayout {
  /** Length of the "texture" section at +0x10 (covers the pixels). */
  sectionLength: number
  /** TextureLength at +0x18: pixel bytes from +0x80. */
  dataLength: number
  width: number
  height: number
  formatId: number
  mipmaps: number
}

/** Reads the layout fields (the header must be in bounds: the Reader throws naming the field otherwise). */
export function readGfTextureLayout(r: Reader): GfTextureLayout {
  return {
    sectionLength: r.u32At(F.sectionLength, 'GFTexture.sectionLength'),
    dataLength: r.u32At(F.dataLength, 'GFTexture.dataLength'),
    width: r.u16At(F.width, 'GFTexture.width'),
    height: r.u16At(F.height, 'GFTexture.height'),
    formatId: r.u16At(F.format, 'GFTexture.format'),
    mipmaps: r.u16At(F.mipmaps, 'GFTexture.mipmaps'),
  }
}

/** Writes the layout fields over a header already in `w` (the counterpart of readGfTextureLayout). */
export function writeGfTextureLayout(w: Writer, l: GfTextureLayout): void {
  w.setU32At(F.sectionLength, l.sectionLength).setU32At(F.dataLength, l.dataLength)
  w.setU16At(F.width, l.width).setU16At(F.height, l.height).setU16At(F.format, l.formatId).setU16At(F.mipmaps, l.mipmaps)
}

/** TextureLength of an entry that starts with the GFTexture magic, else null (no validation). */
export function gfTextureDataLength(entry: Uint8Array): number | null {
  if (entry.byteLength < GF_TEXTURE_HEADER_SIZE) return null
  const r = new Reader(entry, { structure: 'GFTexture' })
  return r.u32At(F.magic, 'GFTexture.magic') === GF_TEXTURE_MAGIC ? r.u32At(F.dataLength, 'GFTexture.dataLength') : null
}

/** GFTextureFormat id → PICA format (spec §9.2, SPICA `GFTextureFormat.cs`). */
export const GF_TEXTURE_FORMATS: ReadonlyMap<number, PicaFormat> = new Map<number, PicaFormat>([
  [0x02, 'RGB565'], [0x03, 'RGB8'], [0x04, 'RGBA8'], [0x16, 'RGBA4'], [0x17, 'RGBA5551'],
  [0x23, 'LA8'], [0x24, 'HILO8'], [0x25, 'L8'], [0x26, 'A8'], [0x27, 'LA4'], [0x28, 'L4'],
  [0x29, 'A4'], [0x2a, 'ETC1'], [0x2b, 'ETC1A4'],
])

export function gfFormatId(f: PicaFormat): number {
  for (const [id, name] of GF_TEXTURE_FORMATS) if (name === f) return id
  throw new RangeError(`no GF format id for ${f}`)
}

export interface GfTextureHeader {
  name: string
  width: number
  height: number
  /** GFTextureFormat id as stored at +0x6C. */
  formatId: number
  format: PicaFormat
  /** "MipmapSize" at +0x6E (levels; 1 = none). */
  mipmaps: number
  /** TextureLength at +0x18: pixel bytes from +0x80. */
  dataLength: number
  /** Mip levels actually present (fit in dataLength), ≥ 1. */
  levels: number
  warnings: string[]
}

export interface TextureContext {
  file?: string
  entry?: number
  /** Absolute file offset of the entry start. */
  base?: number
}

/** Parses and validates the 0x80-byte header of a GFTexture entry. */
export function parseGfTexture(entry: Uint8Array, ctx: TextureContext = {}): GfTextureHeader {
  const structure = `GFTexture${ctx.entry !== undefined ? ` (entry ${ctx.entry})` : ''}`
  const r = new Reader(entry, { file: ctx.file, base: ctx.base ?? 0, structure })
  const err = (detail: string, off: number) => new FormatError(detail, { file: ctx.file, structure, offset: (ctx.base ?? 0) + off })
  if (entry.byteLength < GF_TEXTURE_HEADER_SIZE) throw err(`entry of ${hex(entry.byteLength)} bytes is shorter than the 0x80-byte GFTexture header`, Math.min(entry.byteLength, 0))
  const magic = r.u32At(F.magic, 'GFTexture.magic')
  const warnings: string[] = []
  if (magic !== GF_TEXTURE_MAGIC) warnings.push(`${ctx.file ?? ''} ${structure}: first u32 is ${hex(magic)}, not ${hex(GF_TEXTURE_MAGIC)}; read by structure`)
  const { dataLength, width, height, formatId, mipmaps } = readGfTextureLayout(r)
  const name = r.asciiAt(F.name, 0x40, 'GFTexture.name')
  if (GF_TEXTURE_HEADER_SIZE + dataLength > entry.byteLength) {
    throw err(`pixel data of ${hex(dataLength)} bytes (TextureLength at +0x18) runs past the entry end: ${hex(GF_TEXTURE_HEADER_SIZE + dataLength)} > entry length ${hex(entry.byteLength)}`, F.dataLength)
  }
  const format = GF_TEXTURE_FORMATS.get(formatId)
  if (!format) throw err(`unknown texture format id ${hex(formatId)} at +0x6C`, F.format)
  if (width === 0 || height === 0 || width % 8 || height % 8) throw err(`texture size ${width}×${height} is not a multiple of 8`, F.width)
  if ((width & (width - 1)) || (height & (height - 1))) warnings.push(`${ctx.file ?? ''} ${structure} at ${hex(ctx.base ?? 0)}: size ${width}×${height} is not a power of two`)
  const l0 = levelSize(format, width, height)
  if (l0 > dataLength) throw err(`TextureLength ${hex(dataLength)} is smaller than one ${format} ${width}×${height} level (${hex(l0)} bytes)`, F.dataLength)
  let levels = 1
  const chain = mipChain(format, width, height, Math.max(1, mipmaps))
  for (let i = 1; i < chain.length; i++) {
    if (chain[i]!.offset + chain[i]!.size <= dataLength) levels = i + 1
  }
  if (mipmaps > levels) warnings.push(`${ctx.file ?? ''} ${structure}: ${mipmaps} mip levels announced, ${levels} fit in TextureLength ${hex(dataLength)}`)
  return { name, width, height, formatId, format, mipmaps, dataLength, levels, warnings }
}

/** The pixel bytes of a GFTexture entry (level 0 and mips, as stored). */
export function texturePixels(entry: Uint8Array, h: GfTextureHeader): Uint8Array {
  return entry.subarray(GF_TEXTURE_HEADER_SIZE, GF_TEXTURE_HEADER_SIZE + h.dataLength)
}

/** Decodes level 0 to RGBA8 (row 0 = top of the PNG). */
export function decodeGfTexture(entry: Uint8Array, h: GfTextureHeader): Uint8Array {
  return decodePica(texturePixels(entry, h), h.width, h.height, h.format)
}

/**
 * A new entry equal to `entry` except for the pixel bytes: level 0 (and the mip levels that the
 * header announces and that fit) re-encoded from `rgba` in the texture's own format and size.
 * Bytes after the encoded levels up to TextureLength, and everything else, are kept. `pixels`:
 * those levels already encoded by the caller (what `encodePicaWithMips` gives; the Node side
 * encodes ETC1 on worker threads).
 */
export function replaceGfTexturePixels(entry: Uint8Array, h: GfTextureHeader, rgba: Uint8Array, opts: EncodeOptions = {}, pixels?: Uint8Array): Uint8Array {
  if (rgba.byteLength !== h.width * h.height * 4) throw new RangeError(`replacement is ${rgba.byteLength / 4} pixels, texture ${h.name} is ${h.width}×${h.height}`)
  const encoded = pixels ?? encodePicaWithMips(rgba, h.width, h.height, h.format, h.levels, opts)
  const out = entry.slice()
  out.set(encoded, GF_TEXTURE_HEADER_SIZE)
  return out
}

/**
 * Builds a GFTexture entry with a different size or format (the advanced path, spec §12):
 * header copied from the original except TextureLength (+0x18), the section length (+0x10,
 * shifted by the same delta) and width/height/format/mipmaps (+0x68..+0x6F).
 */
export function rebuildGfTextureEntry(entry: Uint8Array, h: GfTextureHeader, rgba: Uint8Array, width: number, height: number, format: PicaFormat, mipmaps = 1, opts: EncodeOptions = {}): Uint8Array {
  const pixels = encodePicaWithMips(rgba, width, height, format, mipmaps, opts)
  const old = readGfTextureLayout(new Reader(entry, { structure: 'GFTexture' }))
  const w = new Writer({ capacity: GF_TEXTURE_HEADER_SIZE + pixels.byteLength })
  w.bytes(entry.subarray(0, GF_TEXTURE_HEADER_SIZE)).bytes(pixels)
  writeGfTextureLayout(w, {
    sectionLength: (old.sectionLength + pixels.byteLength - h.dataLength) >>> 0,
    dataLength: pixels.byteLength,
    width, height, formatId: gfFormatId(format),
    mipmaps: mipChain(format, width, height, mipmaps).length,
  })
  return w.finish()
}
