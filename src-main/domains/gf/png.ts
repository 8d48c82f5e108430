/** PNG in and out for GF textures (pngjs; Node side only). Rows top first, RGBA8. */
import { promises as fsp } from 'node:fs'
import { PNG } from 'pngjs'

export interface RgbaImage {
  width: number
  height: number
  rgba: Uint8Array
}

/** Decodes PNG bytes to RGBA8 (any PNG colour type / depth; pngjs expands to 8-bit RGBA). */
export function decodePng(bytes: Uint8Array, name = 'PNG'): RgbaImage {
  let png: PNG
  try {
    png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  } catch (e) {
    throw new Error(`${name}: not a readable PNG (${(e as Error).message})`)
  }
  const data = png.data
  return { width: png.width, height: png.height, rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }
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
