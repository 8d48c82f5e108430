/**
 * Service handlers of `src-shared/api/gf-model.ts`: the model scene of a set (with pending
 * texture replacements shown on it) and the batch export of a folder with progress and cancel.
 */
import type { Handlers, ServiceContext } from '../../services/context'
import type { GfReplacementReq } from '../../../src-shared/api/gf'
import { findTexture } from '../../../src-shared/formats/gf/gf-set'
import { buildGfScene } from '../../../src-shared/formats/gf/scene'
import { resizeBilinear } from '../../../src-shared/formats/pica/image'
import { decodePng, readPng } from './png'
import { loadSet } from './set-folder'
import { exportAllSets } from './export-batch'
import { NEW_FOLDER } from '../../node/output-guard'
import { asJob, cancelJob } from './jobs'


async function overrides(ctx: ServiceContext, set: Awaited<ReturnType<typeof loadSet>>, reps: GfReplacementReq[]): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>()
  for (const r of reps) {
    const t = findTexture(set, r.file, r.entry)
    const img = r.png ? decodePng(r.png, 'dropped PNG') : r.path ? await readPng(ctx.allowPath(r.path, 'read')) : null
    if (!img) continue
    const { width: w, height: h } = t.header
    out.set(`${r.file}#${r.entry}`, img.width === w && img.height === h ? img.rgba : resizeBilinear(img.rgba, img.width, img.height, w, h))
  }
  return out
}

export const gfModelHandlers: Handlers = {
  'gf:model': async (req, ctx) => {
    const set = await loadSet(ctx.allowPath(req.set, 'read'), { lenient: true })
    const pending = await overrides(ctx, set, req.replacements ?? [])
    const lod = req.lod ?? 'high'
    const r = buildGfScene(set, { lod, name: req.set.split(/[\\/]/).filter(Boolean).pop(), textureOverride: (file, entry) => pending.get(`${file}#${entry}`) })
    return { scene: r.scene, lod, models: r.models.map((m) => ({ entry: m.entry, lod: m.lod, ...(m.error ? { error: m.error } : {}) })), motions: r.motions, warnings: r.warnings.slice(0, 200) }
  },
  'gf:exportSets': async (req, ctx) => {
    const dir = ctx.allowPath(req.dir, 'read')
    const out = ctx.allowPath(req.out, 'write')
    const emit = ctx.emit as unknown as (e: string, payload: unknown) => void
    const manifest = await asJob(req.jobId, (signal) => exportAllSets(dir, out, { consent: NEW_FOLDER, lod: req.lod, signal, progress: (done, total, detail) => emit('gf:progress', { jobId: req.jobId, done, total, detail }) }))
    ctx.grantPath(out)
    return { out, manifest }
  },
  'gf:cancelJob': async (req) => ({ cancelled: cancelJob(req.jobId) }),
}
