/**
 * Worker thread body of the batch export pool (export-pool.ts): one set's files (read here when the
 * job names a folder) → its glb, as the
 * in-process path exports it (`parseGfSet`, `exportSetGlb`), the textures' PNG bytes from this
 * thread's PngCache (a texture met again in the same batch is not deflated again; emptied when
 * the next batch starts or the thread has been idle for 2 s). Started through export-worker.mjs
 * from the sources, as is when built.
 */
import { parentPort, type Transferable } from 'node:worker_threads'
import { parseGfSet } from '../../../src-shared/formats/gf/gf-set'
import { exportSetGlb, setErrorText } from './export-set'
import { PngCache } from './png-cache'
import { readSetDirSync } from './set-folder'
import type { ExportJob, ExportReply } from './export-pool'
import { useNodePngCodec } from '../../node/png-codec'

useNodePngCodec() // a thread's registrations are its own: the same PNG bytes as the main thread's

const cache = new PngCache()
let batch = -1

async function exportJob(job: ExportJob): Promise<[ExportReply, Transferable[]]> {
  if (job.batch !== batch) {
    cache.clear() // PNGs are shared within a batch only: a long-lived app does not keep them
    batch = job.batch
  }
  try {
    const set = parseGfSet(job.files ?? readSetDirSync(job.dir!).files)
    const { glb, result } = await exportSetGlb(set, { lod: job.lod, name: job.name, png: (t) => cache.png(t.rgba, t.width, t.height) })
    const reply: ExportReply = { id: job.id, glb, models: result.models.filter((m) => m.model).length, motions: result.scene.animations.length, warnings: result.warnings }
    return [reply, [glb.buffer as ArrayBuffer]]
  } catch (e) {
    return [{ id: job.id, error: setErrorText(e) }, []]
  }
}

/** An idle thread lets its PNGs go (the app's pool lives on after a batch). */
const IDLE_CLEAR_MS = 2000
let idle: NodeJS.Timeout | undefined

// one job at a time, replies in the order the jobs came (the pool counts on it)
let chain = Promise.resolve()
parentPort!.on('message', (job: ExportJob) => {
  clearTimeout(idle)
  chain = chain.then(async () => {
    const [reply, transfer] = await exportJob(job)
    parentPort!.postMessage(reply, transfer)
    clearTimeout(idle)
    idle = setTimeout(() => cache.clear(), IDLE_CLEAR_MS).unref()
  })
})
