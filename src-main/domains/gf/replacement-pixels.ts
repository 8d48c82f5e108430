/**
 * Pending texture replacements as the pixels a scene shows instead of the stored ones (the view's
 * model, `gf export --texture`, the view's Export .glb): each PNG decoded and, when its size
 * differs, resampled (bilinear) to the texture's size. They are the PNG's pixels, not a re-encode.
 */
import { findTexture, type GfSet } from '../../../src-shared/formats/gf/gf-set'
import type { TextureOverride } from '../../../src-shared/formats/gf/scene-materials'
import { resizeBilinear } from '../../../src-shared/formats/pica/image'
import { decodePng, readPng, type RgbaImage } from './png'

export interface PngReplacement {
  file: string
  entry: number
  /** PNG bytes (a dropped file) or a path. */
  png?: Uint8Array
  path?: string
}

/** `file#entry` → RGBA8 at the texture's size; `read` opens a path (the services check it first). */
export async function replacementPixels(set: GfSet, reps: readonly PngReplacement[], read: (path: string) => Promise<RgbaImage> = readPng): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>()
  for (const r of reps) {
    const t = findTexture(set, r.file, r.entry)
    const img = r.png ? decodePng(r.png, 'dropped PNG') : r.path ? await read(r.path) : null
    if (!img) continue
    const { width: w, height: h } = t.header
    out.set(`${r.file}#${r.entry}`, img.width === w && img.height === h ? img.rgba : resizeBilinear(img.rgba, img.width, img.height, w, h))
  }
  return out
}

/** The scene's texture override of a pixel map. */
export function overrideOf(pixels: ReadonlyMap<string, Uint8Array>): TextureOverride {
  return (file, entry) => pixels.get(`${file}#${entry}`)
}
