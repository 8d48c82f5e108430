/**
 * Texture re-encoding off the main thread, for UI previews (`gf:previewReplace`): an ETC1/ETC1A4
 * encode of a 1024×1024 texture takes seconds and would otherwise block the server (browser mode)
 * or the Electron main process. One lazily started worker thread runs the shared encoder
 * (src-shared/formats/gf/replace.ts) and is unref'd while idle.
 *
 * The worker is a TypeScript module loaded through tsx (etc1-worker.mjs registers it), which is
 * how the CLI, `modbench serve` and the tests run. Where that is not available (a bundled
 * Electron main, where the .ts sources are not shipped) or the worker fails, the job runs inline:
 * same result, only not off the main thread.
 */
import { Worker } from 'node:worker_threads'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as path from 'node:path'
import { reencodeTexture } from '../../../src-shared/formats/gf/replace'
import type { EncodeOptions } from '../../../src-shared/formats/pica/texture-codec'

export interface ReencodeCtx {
  file?: string
  entry?: number
  base?: number
  source?: string
}

export interface ReencodeJob {
  id: number
  entry: Uint8Array
  rgba: Uint8Array
  width: number
  height: number
  ctx: ReencodeCtx
  opts: EncodeOptions
}

export type ReencodeReply = { id: number; bytes: Uint8Array; decoded: Uint8Array; psnr: number } | { id: number; error: string }

export interface ReencodeResult {
  bytes: Uint8Array
  decoded: Uint8Array
  psnr: number
  /** True when the work ran on the worker thread. */
  offThread: boolean
}

interface Pending {
  job: ReencodeJob
  resolve: (r: ReencodeResult) => void
  reject: (e: Error) => void
}

let worker: Worker | null | undefined
let nextId = 1
const pending = new Map<number, Pending>()

function inline(job: ReencodeJob): ReencodeResult {
  const r = reencodeTexture(job.entry, job.rgba, job.width, job.height, job.ctx, job.opts)
  return { bytes: r.bytes, decoded: r.decoded, psnr: r.psnr, offThread: false }
}

/** A worker died or could not start: finish its jobs inline and stop using workers. */
function failOver(): void {
  const w = worker
  worker = null
  w?.removeAllListeners()
  void w?.terminate().catch(() => {})
  for (const [id, p] of pending) {
    pending.delete(id)
    try {
      p.resolve(inline(p.job))
    } catch (e) {
      p.reject(e as Error)
    }
  }
}

function getWorker(): Worker | null {
  if (worker !== undefined) return worker
  worker = null
  try {
    const here = path.dirname(fileURLToPath(import.meta.url))
    const boot = path.join(here, 'etc1-worker.mjs')
    const entry = path.join(here, 'etc1-worker.ts')
    const tsconfig = path.resolve(here, '..', '..', '..', 'tsconfig.json')
    if (!existsSync(boot) || !existsSync(entry)) return null
    const w = new Worker(boot, { workerData: { entry: new URL(`file://${entry}`).href, tsconfig } })
    w.on('message', (reply: ReencodeReply) => {
      const p = pending.get(reply.id)
      if (!p) return
      pending.delete(reply.id)
      if (!pending.size) w.unref()
      if ('error' in reply) p.reject(new Error(reply.error))
      else p.resolve({ bytes: reply.bytes, decoded: reply.decoded, psnr: reply.psnr, offThread: true })
    })
    w.on('error', failOver)
    w.on('exit', () => {
      if (worker === w) failOver()
    })
    w.unref()
    worker = w
  } catch {
    worker = null
  }
  return worker
}

/**
 * Re-encodes `entry` (a GFTexture entry) from `rgba` on the worker thread, or inline when no
 * worker is available. Same contract and errors as `reencodeTexture` (errors arrive as `Error`s
 * carrying the same message).
 */
export function reencodeOffThread(entry: Uint8Array, rgba: Uint8Array, width: number, height: number, ctx: ReencodeCtx = {}, opts: EncodeOptions = {}): Promise<ReencodeResult> {
  const job: ReencodeJob = { id: nextId++, entry, rgba, width, height, ctx, opts }
  const w = getWorker()
  if (!w) return Promise.resolve().then(() => inline(job))
  return new Promise<ReencodeResult>((resolve, reject) => {
    pending.set(job.id, { job, resolve, reject })
    w.ref()
    // Copies (structured clone): the caller keeps its buffers (the entry is a view into the set).
    w.postMessage(job)
  })
}

/** Stops the worker (tests; a later call starts a new one). */
export async function stopReencodeWorker(): Promise<void> {
  const w = worker
  worker = undefined
  if (w) {
    w.removeAllListeners()
    await w.terminate()
  }
}
