import * as path from 'node:path'
import { promises as fsp } from 'node:fs'
import type { Handlers, ServiceContext } from '../../services/context'
import type { GfImageInput, GfProgress, GfTextureInfo } from '../../../src-shared/api/gf'
import { loadSet } from './set-folder'
import { decodePng, readPng, encodePng, type RgbaImage } from './png'
import { extractSetPngs, repackSetToFolder } from './repack'
import { writeFileAtomic } from '../../node/atomic'
import { findTexture, listTextures, type GfSet, type GfTextureRef } from '../../../src-shared/formats/gf/gf-set'
import { decodeGfTexture } from '../../../src-shared/formats/gf/texture'
import { reencodeTexture, type TextureReplacement } from '../../../src-shared/formats/gf/replace'
import { resizeBilinear } from '../../../src-shared/formats/pica/image'
import { isEtc } from '../../../src-shared/formats/pica/texture-format'
import { reencodeOffThread } from './reencode-worker'
import { asJob } from './jobs'
import { scanPngFolder } from './png-folder'
import { matchPngs } from '../../../src-shared/formats/gf/png-names'

function info(t: GfTextureRef, set: GfSet): GfTextureInfo {
  const f = set.files.find((x) => x.file === t.file)!
  const e = f.pkg.entries[t.entry]!
  const h = t.header
  return { file: t.file, entry: t.entry, name: h.name, width: h.width, height: h.height, format: h.format, mipmaps: h.mipmaps, offset: e.offset, length: e.length }
}

type LoadedSet = Awaited<ReturnType<typeof loadSet>>
const cache = new Map<string, { stamp: string; set: LoadedSet }>()

/** Size and mtime of the set files: a cached parse is reused while they are unchanged. */
async function stampOf(dir: string): Promise<string> {
  const names = await fsp.readdir(dir).catch(() => [] as string[])
  const parts: string[] = []
  for (const n of names.filter((x) => /^[0-8]\.bin$/i.test(x)).sort()) {
    const st = await fsp.stat(path.join(dir, n)).catch(() => null)
    if (st) parts.push(`${n}:${st.size}:${st.mtimeMs}`)
  }
  return parts.join('|')
}

/** Loads (or reuses) a parsed set; the thumbnails of a grid ask for the same set many times. */
async function openSet(ctx: ServiceContext, set: string, lenient = false): Promise<LoadedSet> {
  const dir = ctx.allowPath(set, 'read')
  const key = `${lenient ? 'L' : 'S'}${dir}`
  const stamp = await stampOf(dir)
  const hit = cache.get(key)
  if (hit && hit.stamp === stamp) return hit.set
  const loaded = await loadSet(dir, { lenient, skipDamaged: lenient })
  cache.delete(key)
  cache.set(key, { stamp, set: loaded })
  while (cache.size > 4) cache.delete(cache.keys().next().value!)
  return loaded
}

async function image(ctx: ServiceContext, input: GfImageInput): Promise<RgbaImage & { name: string }> {
  if (input.png) return { ...decodePng(input.png, 'dropped PNG'), name: 'dropped PNG' }
  if (input.path) return { ...(await readPng(ctx.allowPath(input.path, 'read'))), name: input.path }
  throw new Error('no image given (png bytes or path)')
}

/** Fits an image to the texture size: as is, resampled (with a warning), or an error. */
function fit(img: RgbaImage & { name: string }, w: number, h: number, resize: boolean, warnings: string[]): { rgba: Uint8Array; resized: boolean } {
  if (img.width === w && img.height === h) return { rgba: img.rgba, resized: false }
  if (!resize) throw new Error(`${img.name} is ${img.width}×${img.height}; the texture is ${w}×${h}`)
  warnings.push(`${img.name} is ${img.width}×${img.height}; resampled to ${w}×${h}`)
  return { rgba: resizeBilinear(img.rgba, img.width, img.height, w, h), resized: true }
}

function emitProgress(ctx: ServiceContext, p: GfProgress): void {
  // `gf:progress` is declared in src-shared/api/gf.ts (GfEvents); the platform's Events type
  // does not list it yet, hence the cast.
  ;(ctx.emit as unknown as (e: string, payload: unknown) => void)('gf:progress', p)
}

/** Handlers of the `gf:*` channels of src-shared/api/gf.ts. */
export const gfHandlers: Handlers = {
  'gf:textures': async (req, ctx) => {
    const set = await openSet(ctx, req.set, true)
    return { set: req.set, textures: listTextures(set).map((t) => info(t, set)), missing: set.missing, warnings: set.warnings }
  },
  'gf:texture': async (req, ctx) => {
    const set = await openSet(ctx, req.set)
    const t = findTexture(set, req.file, req.entry)
    return { info: info(t, set), rgba: decodeGfTexture(t.bytes, t.header) }
  },
  'gf:previewReplace': async (req, ctx) => {
    const set = await openSet(ctx, req.set)
    const t = findTexture(set, req.file, req.entry)
    const warnings: string[] = []
    const img = await image(ctx, req)
    const { rgba, resized } = fit(img, t.header.width, t.header.height, req.resize ?? true, warnings)
    // ETC1/ETC1A4 encoding is slow (seconds for 1024×1024): it runs on the worker pool (all
    // cores) so the server keeps answering; the other formats are cheap and run inline.
    const job = [t.bytes, rgba, t.header.width, t.header.height, { file: t.file, entry: t.entry }] as const
    const jobId = req.jobId
    const r = isEtc(t.header.format)
      ? await asJob(jobId, (signal) => reencodeOffThread(...job, { signal, onProgress: jobId ? (done, total) => emitProgress(ctx, { jobId, done, total, detail: 'encoding' }) : undefined }))
      : reencodeTexture(...job)
    return { info: info(t, set), source: rgba, rgba: r.decoded, psnr: Number.isFinite(r.psnr) ? r.psnr : null, resized, warnings }
  },
  'gf:repack': async (req, ctx) => {
    const set = await openSet(ctx, req.set)
    const out = ctx.allowPath(req.out, 'write')
    const reps: TextureReplacement[] = []
    const warnings: string[] = []
    for (const r of req.replacements) {
      const t = findTexture(set, r.file, r.entry)
      const img = await image(ctx, r)
      const { rgba } = fit(img, t.header.width, t.header.height, req.resize ?? false, warnings)
      reps.push({ file: r.file, entry: r.entry, rgba, width: t.header.width, height: t.header.height, source: img.name })
    }
    const jobId = req.jobId ?? `gf-repack-${Date.now()}`
    // cancellable through gf:cancelJob; the folder is written atomically, so a cancel leaves none
    const res = await asJob(jobId, (signal) => repackSetToFolder(set, out, reps, { signal, progress: (done, total, detail) => emitProgress(ctx, { jobId, done, total, detail }) }))
    ctx.grantPath(out)
    return { out: res.out, files: res.files, replaced: res.replaced.map((r) => ({ ...r, psnr: Number.isFinite(r.psnr) ? r.psnr : null })) }
  },
  'gf:matchFolder': async (req, ctx) => {
    const set = await openSet(ctx, req.set, true)
    const dir = ctx.allowPath(req.folder, 'read')
    const { pngs, unreadable } = await scanPngFolder(dir)
    const report = matchPngs(listTextures(set).map((t) => info(t, set)), pngs)
    return { folder: dir, ...report, matched: report.matched.map((m) => ({ ...m, path: path.join(dir, ...m.png.split('/')) })), unreadable }
  },
  'gf:exportPng': async (req, ctx) => {
    const set = await openSet(ctx, req.set)
    const t = findTexture(set, req.file, req.entry)
    const out = ctx.allowPath(req.out.toLowerCase().endsWith('.png') ? req.out : `${req.out}.png`, 'write', { overwrite: req.overwrite })
    await fsp.mkdir(path.dirname(out), { recursive: true })
    await writeFileAtomic(out, encodePng(decodeGfTexture(t.bytes, t.header), t.header.width, t.header.height), set.files.map((f) => path.join(set.dir, f.file)))
    return { path: out }
  },
  'gf:exportAll': async (req, ctx) => {
    const set = await openSet(ctx, req.set)
    const out = ctx.allowPath(req.out, 'write')
    const res = await extractSetPngs(set, out)
    ctx.grantPath(out)
    return { out, count: res.textures.length }
  },
}
