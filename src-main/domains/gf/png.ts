/** PNG in and out for GF textures (pngjs; Node side only). Rows top first, RGBA8. */
import { promises as fsp } from 'node:fs'
import { crc32 } from 'node:zlib'
import { PNG } from 'pngjs'

export interface RgbaImage {
  width: number
  height: number
  rgba: Uint8Array
}

/** Decodes PNG bytes to RGBA8 (any PNG colour type / depth; pngjs expands to 8-bit RGBA). */
export function decodePng(bytes: Uint8Array, name = 'PNG'): RgbaImage {
  const problem = pngChunkProblem(bytes)
  if (problem) throw new Error(`${name}: not a valid PNG (${problem})`)
  let png: PNG
  try {
    png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  } catch (e) {
    throw new Error(`${name}: not a valid PNG (${pngProblem((e as Error).message)})`)
  }
  const data = png.data
  return { width: png.width, height: png.height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/**
 * What is wrong with the file's chunk structure, with the chunk and its offset (signature, each
 * chunk's length within the file and its CRC-32 over type + data, nothing after IEND), or null.
 * Checked before the library reads it: pngjs's own reader loses a CRC error behind its next one.
 */
export function pngChunkProblem(bytes: Uint8Array): string | null {
  if (bytes.byteLength < 8 || SIGNATURE.some((v, i) => bytes[i] !== v)) return 'no PNG signature at offset 0'
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = 8; ; ) {
    if (at + 8 > bytes.byteLength) return `the file ends at offset 0x${at.toString(16)} before the IEND chunk: it is truncated`
    const length = view.getUint32(at)
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8))
    const end = at + 12 + length
    if (!/^[A-Za-z]{4}$/.test(type)) return `no chunk type at offset 0x${(at + 4).toString(16)}: the file is damaged`
    if (end > bytes.byteLength) return `chunk ${type} at offset 0x${at.toString(16)} runs past the end of the file: it is truncated`
    if (crc32(bytes.subarray(at + 4, end - 4)) !== view.getUint32(end - 4)) return `chunk ${type} at offset 0x${at.toString(16)}: its checksum (CRC) does not match, the file is damaged`
    if (type === 'IEND') return end === bytes.byteLength ? null : `${bytes.byteLength - end} unexpected bytes after the IEND chunk (offset 0x${end.toString(16)})`
    at = end
  }
}

/** The PNG library's error texts (pngjs, zlib) in words a user can act on; an unknown text is kept. */
const PNG_PROBLEMS: [RegExp, string][] = [
  [/Invalid file signature/i, 'no PNG signature at offset 0'],
  [/read requests waitng|read requests waiting|Unexpected end of input|Ran out of data|unexpected end of file/i, 'the file ends before the image does: it is truncated'],
  [/unrecognised content at end of stream|extra data found/i, 'unexpected bytes after the image data'],
  [/Crc error/i, 'a chunk checksum (CRC) does not match: the file is damaged'],
  [/Expected IHDR/i, 'no IHDR header chunk at offset 8'],
  [/Unrecognised filter type/i, 'a pixel row has an unknown filter type: the compressed pixel data (IDAT) is damaged'],
  [/inflate|incorrect header check|invalid (?:distance|code|block|stored)|zlib/i, 'the compressed pixel data (IDAT) is damaged'],
]

/** A library error text as a short explanation (see PNG_PROBLEMS). */
export function pngProblem(text: string): string {
  return PNG_PROBLEMS.find(([re]) => re.test(text))?.[1] ?? text.replace(/^\w/, (c) => c.toLowerCase())
}

export async function readPng(file: string): Promise<RgbaImage> {
  const b = await fsp.readFile(file).catch((e: NodeJS.ErrnoException) => {
    throw new Error(`${file}: cannot read (${e.code ?? e.message})`)
  })
  return decodePng(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), file)
}

/** Encodes RGBA8 to PNG bytes. */
export function encodePng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const png = new PNG({ width, height, colorType: 6, inputColorType: 6, bitDepth: 8 })
  png.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength)
  const out = PNG.sync.write(png, { colorType: 6 })
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
}
