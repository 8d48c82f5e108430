/**
 * The images of pending replacements for the services (`gf:previewReplace`, `gf:repack`,
 * `gf:writeMod`): PNG bytes or a path the user may read, fitted to the texture's size.
 */
import type { ServiceContext } from '../../services/context'
import type { GfImageInput, GfReplacementReq } from '../../../src-shared/api/gf'
import { findTexture, type GfSet } from '../../../src-shared/formats/gf/gf-set'
import type { TextureReplacement } from '../../../src-shared/formats/gf/replace'
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
