/**
 * ETC1/ETC1A4 encoding on all cores: a pool of worker threads (one per core, started on first
 * use, unref'd while idle) that encode ranges of 8-pixel tile rows of a level (`encodeEtc1` with
 * `tileRows`); the parts concatenate to the level. The image crosses once, in a
 * SharedArrayBuffer. Progress is reported per finished range; an AbortSignal stops handing out
 * ranges and rejects with a CancelledError (code `cancelled`, which the API error carries).
 *
 * Built code starts the built etc1-worker beside it, the sources start etc1-worker.ts through the
 * tsx bootstrap (src-main/node/worker-script.ts). A missing worker, or one that dies, fails the
 * encode with an error naming it: the work never silently moves onto the main thread (levels
 * under PARALLEL_MIN_TEXELS are encoded inline by design: a round trip costs more).
 */
import { Worker } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import { workerScript } from '../../node/worker-script'
import { CancelledError } from './jobs'
import { encodeEtc1, etc1TileRowBytes, type Etc1Effort } from '../../../src-shared/formats/pica/etc1'
import { encodePica, mipImages, type EncodeOptions } from '../../../src-shared/formats/pica/texture-codec'
import { isEtc, type PicaFormat } from '../../../src-shared/formats/pica/texture-format'

export interface Etc1RowsJob {
  id: number
  /** RGBA8 of the whole level, in a SharedArrayBuffer. */
  rgba: Uint8Array
  width: number
  height: number
  withAlpha: boolean
  effort: Etc1Effort
  from: number
  to: number
}

export type Etc1RowsReply = { id: number; bytes: Uint8Array } | { id: number; error: string }

export interface ParallelOptions {
  signal?: AbortSignal
  /** Tile rows encoded so far out of all tile rows of the job (every level). */
  onProgress?(done: number, total: number): void
}

/** Levels smaller than this (texels) are encoded inline: a worker round trip costs more. */
const PARALLEL_MIN_TEXELS = 128 * 128

interface Task {
  job: Etc1RowsJob
  resolve(bytes: Uint8Array): void
  reject(e: Error): void
}

let pool: { workers: Worker[]; idle: Worker[]; busy: Map<Worker, Task> } | undefined
const queue: Task[] = []
let nextId = 1

/** Starts one worker thread (throws, naming it, when its script is missing). */
function spawnEtc1Worker(): Worker {
  const script = workerScript('etc1-worker', import.meta.url)
  return new Worker(script.file, { workerData: script.workerData })
}

/** Number of worker threads the pool runs (starting it). */
export function etc1PoolSize(): number {
  return getPool().workers.length
}

function getPool(): NonNullable<typeof pool> {
  if (pool) return pool
  const n = Math.max(1, Math.min(16, availableParallelism()))
  const p = { workers: [] as Worker[], idle: [] as Worker[], busy: new Map<Worker, Task>() }
  {
    for (let i = 0; i < n; i++) {
      const w = spawnEtc1Worker()
      w.on('message', (reply: Etc1RowsReply) => {
        const t = p.busy.get(w)
        p.busy.delete(w)
        p.idle.push(w)
        if ('error' in reply) t?.reject(new Error(reply.error))
        else t?.resolve(reply.bytes)
        pump()
      })
      w.on('error', (e) => fail(w, e.message))
      w.on('exit', (code) => fail(w, `exit code ${code}`))
      w.unref()
      p.workers.push(w)
      p.idle.push(w)
    }
  }
  pool = p
  return p
}

/** A worker died: the pool stops, its running and queued ranges fail; the next encode starts a new pool. */
function fail(w: Worker, reason: string): void {
  const p = pool
  if (!p || !p.workers.includes(w)) return
  pool = undefined
  for (const x of p.workers) {
    x.removeAllListeners()
    void x.terminate().catch(() => {})
  }
  const err = new Error(`an ETC1 worker stopped (${reason}); the texture was not encoded`)
  for (const t of [...p.busy.values(), ...queue.splice(0)]) t.reject(err)
}

function pump(): void {
  const p = pool
  if (!p) return
  while (p.idle.length && queue.length) {
    const w = p.idle.pop()!, t = queue.shift()!
    p.busy.set(w, t)
    w.ref()
    w.postMessage(t.job)
  }
  for (const w of p.idle) w.unref()
}

function runRows(job: Etc1RowsJob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    try {
      getPool()
    } catch (e) {
      return reject(e as Error)
    }
    queue.push({ job, resolve, reject })
    pump()
  })
}

/**
 * Encodes one ETC1/ETC1A4 level on the pool: ranges of tile rows (several per thread, for even
 * load and progress), concatenated. Same bytes as `encodeEtc1`.
 */
export async function encodeEtc1Parallel(rgba: Uint8Array, width: number, height: number, withAlpha: boolean, effort: Etc1Effort, opts: ParallelOptions & { rowsBefore?: number; rowsTotal?: number } = {}): Promise<Uint8Array> {
  const rows = height / 8
  const before = opts.rowsBefore ?? 0, total = opts.rowsTotal ?? rows
  opts.signal?.throwIfAborted()
  if (width * height < PARALLEL_MIN_TEXELS) {
    const out = encodeEtc1(rgba, width, height, withAlpha, { effort })
    opts.onProgress?.(before + rows, total)
    return out
  }
  const shared = new Uint8Array(new SharedArrayBuffer(width * height * 4))
  shared.set(rgba.subarray(0, width * height * 4))
  const step = Math.max(1, Math.ceil(rows / (etc1PoolSize() * 8)))
  const out = new Uint8Array(rows * etc1TileRowBytes(width, withAlpha))
  const tasks: Etc1RowsJob[] = []
  for (let from = 0; from < rows; from += step) tasks.push({ id: nextId++, rgba: shared, width, height, withAlpha, effort, from, to: Math.min(rows, from + step) })
  let done = 0
  await new Promise<void>((resolve, reject) => {
    let left = tasks.length, failed = false
    const fail = (e: Error) => {
      if (failed) return
      failed = true
      // ranges not yet handed to a worker are dropped; those running finish and are ignored
      for (let i = queue.length - 1; i >= 0; i--) if (tasks.includes(queue[i]!.job)) queue.splice(i, 1)
      reject(e)
    }
    const onAbort = () => fail(new CancelledError(`ETC1 encode of ${width}×${height} cancelled`))
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    for (const job of tasks) {
      runRows(job).then((bytes) => {
        if (failed) return
        out.set(bytes, job.from * etc1TileRowBytes(width, withAlpha))
        done += job.to - job.from
        opts.onProgress?.(before + done, total)
        if (--left === 0) {
          opts.signal?.removeEventListener('abort', onAbort)
          resolve()
        }
      }, fail)
    }
  })
  return out
}

/**
 * `encodePicaWithMips` with the ETC1/ETC1A4 levels encoded on the pool (other formats inline).
 * Progress counts tile rows over every level.
 */
export async function encodePicaWithMipsParallel(rgba: Uint8Array, width: number, height: number, format: PicaFormat, levels: number, opts: EncodeOptions & ParallelOptions = {}): Promise<Uint8Array> {
  const chain = mipImages(rgba, width, height, format, levels)
  const last = chain[chain.length - 1]!
  const out = new Uint8Array(last.offset + last.size)
  const total = chain.reduce((n, lv) => n + lv.height / 8, 0)
  let before = 0
  for (const lv of chain) {
    const bytes = isEtc(format)
      ? await encodeEtc1Parallel(lv.rgba, lv.width, lv.height, format === 'ETC1A4', opts.etc1Effort ?? 'normal', { ...opts, rowsBefore: before, rowsTotal: total })
      : encodePica(lv.rgba, lv.width, lv.height, format, opts)
    out.set(bytes, lv.offset)
    before += lv.height / 8
  }
  return out
}

/** Stops the pool's threads (tests; a later encode starts new ones). */
export async function stopEtc1Pool(): Promise<void> {
  const p = pool
  pool = undefined
  if (p) {
    for (const w of p.workers) w.removeAllListeners()
    await Promise.all(p.workers.map((w) => w.terminate()))
  }
}
