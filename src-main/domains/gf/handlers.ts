import * as path from 'node:path'
import { promises as fsp } from 'node:fs'
import type { Handlers, ServiceContext } from '../../plugin/context'
import type { GfProgress, GfTextureInfo } from '../../../src-shared/api/gf'
import { loadSet } from './set-folder'
import { allowSet, setStamp } from './set-access'
import { fit, image, replacementsOf } from './replacement-images'
import { encodePng } from './png'
import { extractSetPngs, repackSetToFolder } from './repack'
import { writeFileAtomic } from '../../node/atomic'
import { NEW_FOLDER, appConsent, guardOutput } from '../../node/output-guard'
import { findTexture, listTextures, type GfSet, type GfTextureRef } from '../../../src-shared/formats/gf/gf-set'
import { decodeGfTexture } from '../../../src-shared/formats/gf/texture'
import { reencodeTexture } from '../../../src-shared/formats/gf/replace'
import { isEtc } from '../../../src-shared/formats/pica/texture-format'
import { reencodeOffThread } from './reencode-worker'
import { asJob } from './jobs'
import { matchSetFolder } from './png-folder'

function info(t: GfTextureRef, set: GfSet): GfTextureInfo {
  const f = set.files.find((x) => x.file === t.file)!
  const e = f.pkg.entries[t.entry]!
  const h = t.header
  return { file: t.file, entry: t.entry, name: h.name, width: h.width, height: h.height, format: h.format, mipmaps: h.mipmaps, offset: e.offset, length: e.length }
}

type LoadedSet = Awaited<ReturnType<typeof loadSet>>
const cache = new Map<string, { stamp: string; set: LoadedSet }>()

/** Loads (or reuses) a parsed set (a folder or `ARCHIVE#N`); the thumbnails of a grid ask for the same set many times. */
export async function openSet(ctx: ServiceContext, set: string, lenient = false): Promise<LoadedSet> {
  const allowed = allowSet(ctx, set)
  const key = `${lenient ? 'L' : 'S'}${allowed.set}`
  const stamp = await setStamp(allowed)
  const hit = cache.get(key)
  if (hit && hit.stamp === stamp) return hit.set
  const loaded = await loadSet(allowed.set, { lenient, skipDamaged: lenient })
  cache.delete(key)
  cache.set(key, { stamp, set: loaded })
  while (cache.size > 4) cache.delete(cache.keys().next().value!)
  return loaded
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
    const reps = await replacementsOf(ctx, set, req.replacements, req.resize ?? false, [])
    const jobId = req.jobId ?? `gf-repack-${Date.now()}`
    // cancellable through gf:cancelJob; the folder is written atomically, so a cancel leaves none
    const res = await asJob(jobId, (signal) => repackSetToFolder(set, out, reps, { signal, consent: NEW_FOLDER, progress: (done, total, detail) => emitProgress(ctx, { jobId, done, total, detail }) }))
    ctx.grantPath(out)
    return { out: res.out, files: res.files, replaced: res.replaced.map((r) => ({ ...r, psnr: Number.isFinite(r.psnr) ? r.psnr : null })) }
  },
  'gf:matchFolder': async (req, ctx) => {
    const set = await openSet(ctx, req.set, true)
    const dir = ctx.allowPath(req.folder, 'read')
    const report = await matchSetFolder(set, dir)
    return { folder: dir, ...report, matched: report.matched.map((m) => ({ ...m, path: path.join(dir, ...m.png.split('/')) })) }
  },
  'gf:exportPng': async (req, ctx) => {
    const set = await openSet(ctx, req.set)
    const t = findTexture(set, req.file, req.entry)
    const out = ctx.allowPath(req.out.toLowerCase().endsWith('.png') ? req.out : `${req.out}.png`, 'write', { overwrite: req.overwrite })
    guardOutput({ out, inputs: [set.dir, ...set.inputs], ...appConsent(req.overwrite) })
    await fsp.mkdir(path.dirname(out), { recursive: true })
    await writeFileAtomic(out, encodePng(decodeGfTexture(t.bytes, t.header), t.header.width, t.header.height), set.inputs)
    return { path: out }
  },
  'gf:exportAll': async (req, ctx) => {
    const set = await openSet(ctx, req.set)
    const out = ctx.allowPath(req.out, 'write')
    const res = await extractSetPngs(set, out, { consent: NEW_FOLDER })
    ctx.grantPath(out)
    return { out, count: res.textures.length }
  },
}
