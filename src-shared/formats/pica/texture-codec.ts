/**
 * Decode / encode whole PICA200 textures (all 14 formats, optional mip chain) to and from RGBA8.
 * Images are row-major RGBA8 with row 0 = the first stored row = the top of an exported PNG
 * (spec §10.3: no flip between storage order and PNG; only a GPU upload needs `flipRows`).
 */
import { FormatError } from '../../binary/errors'
import { decodeEtc1, encodeEtc1, type Etc1Effort } from './etc1'
import { decodeTexels, encodeTexels } from './texel-codec'
import { levelSize, mipChain, type PicaFormat } from './texture-format'
import { downsample2x } from './image'

function checkSize(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0 || width % 8 || height % 8) {
    throw new FormatError(`texture size ${width}×${height} is not a positive multiple of 8 (PICA textures are made of 8×8 tiles)`, { structure: 'PICA texture' })
  }
}

/** Decodes one level (`width × height`) of `format` from `data` to RGBA8. */
export function decodePica(data: Uint8Array, width: number, height: number, format: PicaFormat): Uint8Array {
  checkSize(width, height)
  const need = levelSize(format, width, height)
  if (data.byteLength < need) {
    throw new FormatError(`${format} ${width}×${height} needs ${need} bytes, only ${data.byteLength} present`, { structure: 'PICA texture' })
  }
  if (format === 'ETC1') return decodeEtc1(data, width, height, false)
  if (format === 'ETC1A4') return decodeEtc1(data, width, height, true)
  return decodeTexels(data, width, height, format)
}

export interface EncodeOptions {
  /** ETC1 search effort (default 'normal'). */
  etc1Effort?: Etc1Effort
}

/** Encodes one level of RGBA8 into `format`. */
export function encodePica(rgba: Uint8Array, width: number, height: number, format: PicaFormat, opts: EncodeOptions = {}): Uint8Array {
  checkSize(width, height)
  if (rgba.byteLength < width * height * 4) throw new RangeError(`encodePica: ${width}×${height} needs ${width * height * 4} RGBA bytes, got ${rgba.byteLength}`)
  if (format === 'ETC1') return encodeEtc1(rgba, width, height, false, { effort: opts.etc1Effort })
  if (format === 'ETC1A4') return encodeEtc1(rgba, width, height, true, { effort: opts.etc1Effort })
  return encodeTexels(rgba, width, height, format)
}

/** One level of a mip chain with its image (RGBA8) and where its bytes go. */
export interface MipImage {
  width: number
  height: number
  offset: number
  size: number
  rgba: Uint8Array
}

/**
 * Level 0 and the mip levels (`levels` in total, each a 2×2 box-filtered half of the previous
 * one; stops below 8 texels) with their images, as a GFTexture stores them back to back (spec §9.2).
 */
export function mipImages(rgba: Uint8Array, width: number, height: number, format: PicaFormat, levels: number): MipImage[] {
  const chain = mipChain(format, width, height, levels)
  let img = rgba
  return chain.map((lv, i) => {
    if (i > 0) img = downsample2x(img, chain[i - 1]!.width, chain[i - 1]!.height)
    return { ...lv, rgba: img }
  })
}

/** Encodes level 0 and its mip levels (see `mipImages`) back to back. */
export function encodePicaWithMips(rgba: Uint8Array, width: number, height: number, format: PicaFormat, levels: number, opts: EncodeOptions = {}): Uint8Array {
  const chain = mipImages(rgba, width, height, format, levels)
  const last = chain[chain.length - 1]!
  const out = new Uint8Array(last.offset + last.size)
  for (const lv of chain) out.set(encodePica(lv.rgba, lv.width, lv.height, format, opts), lv.offset)
  return out
}
