/**
 * The images of pending replacements: for the services that encode them (`gf:previewReplace`,
 * `gf:repack`, `gf:writeMod`: PNG bytes or a path the user may read, fitted to the texture's size)
 * and as the pixels a scene shows instead of the stored ones (the view's model, its Export .glb,
 * `gf export --texture`: resampled when the size differs; the PNG's pixels, not a re-encode).
 */
import type { ServiceContext } from '../../plugin/context'
import type { GfImageInput, GfReplacementReq } from '../../../src-shared/api/gf'
import { findTexture, type GfSet } from '../../../src-shared/formats/gf/gf-set'
import type { TextureReplacement } from '../../../src-shared/formats/gf/replace'
import type { TextureOverride } from '../../../src-shared/formats/gf/scene-materials'
import { resizeBilinear } from '../../../src-shared/formats/pica/image'
import { decodePng, readPng, type RgbaImage } from './png'

export async function image(ctx: ServiceContext, input: GfImageInput): Promise<RgbaImage & { name: string }> {
  if (input.png) return { ...decodePng(input.png, 'dropped PNG'), name: 'dropped PNG' }
  if (input.path) return { ...(await readPng(ctx.allowPath(input.path, 'read'))), name: input.path }
  throw new Error('no image given (png bytes or path)')
}

/** Fits an image to the texture size: as is, resampled (with a warning), or an error. */
export function fit(img: RgbaImage & { name: string }, w: number, h: number, resize: boolean, warnings: string[]): { rgba: Uint8Array; resized: boolean } {
  if (img.width === w && img.height === h) return { rgba: img.rgba, resized: false }
  if (!resize) throw new Error(`${img.name} is ${img.width}×${img.height}; the texture is ${w}×${h}`)
  warnings.push(`${img.name} is ${img.width}×${img.height}; resampled to ${w}×${h}`)
  return { rgba: resizeBilinear(img.rgba, img.width, img.height, w, h), resized: true }
}

/** Each replacement read and fitted (resampled with a warning when `resize`, else an error on another size). */
export async function replacementsOf(ctx: ServiceContext, set: GfSet, reqs: readonly GfReplacementReq[], resize: boolean, warnings: string[]): Promise<TextureReplacement[]> {
  const reps: TextureReplacement[] = []
  for (const r of reqs) {
    const t = findTexture(set, r.file, r.entry)
    const img = await image(ctx, r)
    const { rgba } = fit(img, t.header.width, t.header.height, resize, warnings)
    reps.push({ file: r.file, entry: r.entry, rgba, width: t.header.width, height: t.header.height, source: img.name })
  }
  return reps
}

/** `file#entry` → RGBA8 at the texture's size; `read` opens a path (the services check it first). */
export async function replacementPixels(set: GfSet, reps: readonly (GfImageInput & { file: string; entry: number })[], read: (path: string) => Promise<RgbaImage> = readPng): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>()
  for (const r of reps) {
    const t = findTexture(set, r.file, r.entry)
    const img = r.png ? { ...decodePng(r.png, 'dropped PNG'), name: 'dropped PNG' } : r.path ? { ...(await read(r.path)), name: r.path } : null
    if (img) out.set(`${r.file}#${r.entry}`, fit(img, t.header.width, t.header.height, true, []).rgba)
  }
  return out
}

/** The scene's texture override of a pixel map. */
export function overrideOf(pixels: ReadonlyMap<string, Uint8Array>): TextureOverride {
  return (file, entry) => pixels.get(`${file}#${entry}`)
}
