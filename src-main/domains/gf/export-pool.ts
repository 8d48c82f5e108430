/**
 * The batch export's worker pool (`gf export-all`, the app's `gf:exportSets`): one set per job,
 * its nine files in, its glb out (export-worker.ts), on one thread per core (WorkerPool, started
 * on first use and idle-unref'd). Built code starts the built export-worker beside it, the
 * sources export-worker.ts through its tsx bootstrap (src-main/node/worker-script.ts).
 */
import { WorkerPool } from '../../node/worker-pool'
import type { GfLod } from '../../../src-shared/formats/gf/set-models'

export interface ExportJob {
  id: number
  /** The batch the job belongs to: a worker's PNG cache lives for one batch. */
  batch: number
  /** The set's name in the scene (the manifest's `set`). */
  name: string
  lod?: GfLod
  /** `0.bin` … → bytes, as `parseGfSet` takes them (a set read in the main thread: a GARC's). */
  files?: Map<string, Uint8Array>
  /** A set folder the thread reads itself (`readSetDirSync`), instead of `files`. */
  dir?: string
}

export type ExportReply = { id: number; glb: Uint8Array; models: number; motions: number; warnings: string[] } | { id: number; error: string }

let pool: WorkerPool<ExportJob, ExportReply> | undefined
let nextId = 1
let nextBatch = 1

export function exportPool(): WorkerPool<ExportJob, ExportReply> {
  return (pool ??= new WorkerPool<ExportJob, ExportReply>('export-worker', import.meta.url))
}

/** A new batch number (the jobs of one batch share their PNG cache). */
export function newBatch(): number {
  return nextBatch++
}

/**
 * Exports one set on the pool: a folder the thread reads itself, or files read here, moved to the
 * worker (copied first when they are a view into a larger or shared buffer, which cannot be moved whole).
 */
export function exportOnPool(batch: number, name: string, lod: GfLod | undefined, input: Map<string, Uint8Array> | { dir: string }): Promise<ExportReply> {
  if (!(input instanceof Map)) return exportPool().run({ id: nextId++, batch, name, lod, dir: input.dir })
  const files = input
  const own = new Map<string, Uint8Array>()
  const transfer: ArrayBuffer[] = []
  for (const [n, b] of files) {
    if (b.byteLength === 0) {
      own.set(n, new Uint8Array(0))
      continue
    }
    const whole = b.buffer instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && !transfer.includes(b.buffer)
    const mine = whole ? b : b.slice()
    own.set(n, mine)
    transfer.push(mine.buffer as ArrayBuffer)
  }
  return exportPool().run({ id: nextId++, batch, name, lod, files: own }, transfer)
}

/** Stops the pool's threads (tests; a later export starts new ones). */
export async function stopExportPool(): Promise<void> {
  await pool?.stop()
}
