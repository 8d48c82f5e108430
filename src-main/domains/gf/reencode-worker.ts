/**
 * Texture re-encoding off the main thread, for UI previews (`gf:previewReplace`): an ETC1/ETC1A4
 * encode of a 1024×1024 texture takes seconds and would otherwise block the server (browser mode)
 * or the Electron main process. One lazily started worker thread runs the shared encoder
 * (src-shared/formats/gf/replace.ts) and is unref'd while idle.
 *
 * Built code (the CLI bundle, the Electron main) starts the built etc1-worker beside it; the
 * sources (tsx, tests) start etc1-worker.ts through the tsx bootstrap etc1-worker.mjs
 * (src-main/node/worker-script.ts). A missing worker, or one that dies, fails the job with an error
 * naming it: the encode never silently moves onto the main thread.
 */
import { Worker } from 'node:worker_threads'
import { workerScript } from '../../node/worker-script'
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
  resolve: (r: ReencodeResult) => void
  reject: (e: Error) => void
}

let worker: Worker | undefined
let nextId = 1
const pending = new Map<number, Pending>()

/** The worker died: its jobs fail with the reason; the next job starts a new worker. */
function fail(w: Worker, reason: string): void {
  if (worker !== w) return
  worker = undefined
  w.removeAllListeners()
  void w.terminate().catch(() => {})
  for (const [id, p] of pending) {
    pending.delete(id)
    p.reject(new Error(`the ETC1 worker stopped (${reason}); the texture was not re-encoded`))
  }
}

/** The running worker, started on first use; throws when its script is missing. */
function getWorker(): Worker {
  if (worker) return worker
  const script = workerScript('etc1-worker', import.meta.url)
  const w = new Worker(script.file, { workerData: script.workerData })
  w.on('message', (reply: ReencodeReply) => {
    const p = pending.get(reply.id)
    if (!p) return
    pending.delete(reply.id)
    if (!pending.size) w.unref()
    if ('error' in reply) p.reject(new Error(reply.error))
    else p.resolve({ bytes: reply.bytes, decoded: reply.decoded, psnr: reply.psnr, offThread: true })
  })
  w.on('error', (e) => fail(w, e.message))
  w.on('exit', (code) => fail(w, `exit code ${code}`))
  w.unref()
  worker = w
  return worker
}

/**
 * Re-encodes `entry` (a GFTexture entry) from `rgba` on the worker thread. Same contract and
 * errors as `reencodeTexture` (errors arrive as `Error`s carrying the same message); a missing or
 * dead worker is an error too.
 */
export function reencodeOffThread(entry: Uint8Array, rgba: Uint8Array, width: number, height: number, ctx: ReencodeCtx = {}, opts: EncodeOptions = {}): Promise<ReencodeResult> {
  const job: ReencodeJob = { id: nextId++, entry, rgba, width, height, ctx, opts }
  return new Promise<ReencodeResult>((resolve, reject) => {
    const w = getWorker()
    pending.set(job.id, { resolve, reject })
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
