/**
 * Service handlers of `src-shared/api/gf-model.ts`: the model scene of a set (with pending
 * texture replacements shown on it) and the batch export of a folder with progress and cancel.
 */
import * as path from 'node:path'
import { promises as fsp } from 'node:fs'
import type { Handlers } from '../../plugin/context'
import { writeFileAtomic } from '../../node/atomic'
import { buildGfScene } from '../../../src-shared/formats/gf/scene'
import { readPng } from './png'
import { allowSet, cachedSet } from './set-access'
import { setSceneName } from './set-folder'
import { overrideOf, replacementPixels } from './replacement-images'
import { exportAllSets } from './export-batch'
import { NEW_FOLDER, appConsent, guardOutput } from '../../node/output-guard'
import { asJob, cancelJob } from './jobs'


export const gfModelHandlers: Handlers = {
  'gf:model': async (req, ctx) => {
    const set = await cachedSet(allowSet(ctx, req.set), { lenient: true })
    const pending = await replacementPixels(set, req.replacements ?? [], (p) => readPng(ctx.allowPath(p, 'read')))
    const lod = req.lod ?? 'high'
    const r = buildGfScene(set, { lod, name: setSceneName(set), textureOverride: overrideOf(pending) })
    return { scene: r.scene, lod, models: r.models.map((m) => ({ entry: m.entry, lod: m.lod, ...(m.error ? { error: m.error } : {}) })), motions: r.motions, warnings: r.warnings.slice(0, 200) }
  },
  'gf:exportGlb': async (req, ctx) => {
    const set = await cachedSet(allowSet(ctx, req.set), { lenient: true })
    const out = ctx.allowPath(req.out.toLowerCase().endsWith('.glb') ? req.out : `${req.out}.glb`, 'write', { overwrite: req.overwrite })
    const reps = req.replacements ?? []
    // the output rule: never the set (its folder or archive) nor a replacement PNG; an existing file only when confirmed
    const guard = () => guardOutput({ out, inputs: [set.dir, ...set.inputs, ...reps.map((r) => r.path)], ...appConsent(req.overwrite) })
    guard()
    const pending = await replacementPixels(set, reps, (p) => readPng(ctx.allowPath(p, 'read')))
    const { exportSetGlb } = await import('./export-set')
    const { glb, result } = await exportSetGlb(set, { lod: req.lod ?? 'high', strictMotions: false, name: setSceneName(set), textureOverride: overrideOf(pending) })
    await fsp.mkdir(path.dirname(out), { recursive: true })
    guard() // a file may have appeared meanwhile
    await writeFileAtomic(out, glb, set.inputs)
    ctx.grantPath(out)
    return { out, bytes: glb.byteLength, replaced: pending.size, warnings: result.warnings.length }
  },
  'gf:writeMod': async (req, ctx) => {
    ctx.allowPath(req.archive, 'read')
    const emit = ctx.emit as unknown as (e: string, payload: unknown) => void
    let out = ''
    // one job from the first await on, so a Cancel pressed at once is not lost
    const res = await asJob(req.jobId, async (signal) => {
      const { modTarget, writeMod } = await import('./write-mod')
      out = await modTarget(path.resolve(req.archive), req.target, req.overwrite === true)
      ctx.allowPath(out, 'write', { overwrite: true }) // modTarget refused an existing one the user did not confirm
      return writeMod(ctx, req, out, signal, (done, total, detail) => emit('gf:progress', { jobId: req.jobId, done, total, detail }))
    })
    ctx.grantPath(out)
    return res
  },
  'gf:exportSets': async (req, ctx) => {
    const dir = ctx.allowPath(req.dir, 'read')
    const out = ctx.allowPath(req.out, 'write')
    const emit = ctx.emit as unknown as (e: string, payload: unknown) => void
    const manifest = await asJob(req.jobId, async (signal) => {
      // a model archive (a file): every set of it, as `gf export-all GARC` (the job is cancellable from the start)
      const archive = (await fsp.stat(dir).catch(() => null))?.isFile() === true
      const run = archive ? (await import('./export-garc')).exportAllGarcSets : exportAllSets
      return run(dir, out, { consent: NEW_FOLDER, lod: req.lod, signal, progress: (done, total, detail) => emit('gf:progress', { jobId: req.jobId, done, total, detail }) })
    })
    ctx.grantPath(out)
    return { out, manifest }
  },
  'gf:cancelJob': async (req) => ({ cancelled: cancelJob(req.jobId) }),
}
