/**
 * The sets of a batch export, exported ahead of the writer (export-batch.ts): while the batch
 * writes set i, the worker pool (export-pool.ts, every core) exports the next ones and their files
 * are being read (each set's files at once), a bounded window ahead; the batch takes the results
 * in set order, so its files, manifest, progress and messages come in the same order as from one
 * thread. `threads` 0 exports each set in this thread when asked for, as before the pool (the
 * reference the tests compare the pool with).
 */
import { parseGfSet } from '../../../src-shared/formats/gf/gf-set'
import type { GfLod } from '../../../src-shared/formats/gf/set-models'
import { exportSetGlb, setErrorText } from './export-set'
import { exportOnPool, exportPool, newBatch, type ExportReply } from './export-pool'
import { CancelledError } from './jobs'
import { readSetDirSync } from './set-folder'

/** One set of a batch: its manifest name, its glb path in the output, and how to read its files. */
export interface BatchSet {
  set: string
  glb: string
  /** The set's files (`0.bin` … → bytes) as `parseGfSet` takes them; a throw is the set's error. */
  read: () => Promise<Map<string, Uint8Array>>
  /** The set's folder, when `read` reads one: a pool thread then reads it itself (`readSetDirSync`, the same files and errors). */
  dir?: string
  /** Extra manifest keys (a GARC set's `name`). */
  extra?: Record<string, string>
}

/** A set exported, or its error text (not yet naming the set). */
export type SetOutcome = { glb: Uint8Array; models: number; motions: number; warnings: string[] } | { error: string }

/** Sets per pool thread exported or read ahead of the one the writer waits for. */
const AHEAD_PER_THREAD = 4

/**
 * In this thread, as `gf export` does it. A set folder is read as a pool thread reads it
 * (`readSetDirSync`: one open and one read per file, the same files and errors), not with ~50
 * round trips through libuv's threads, which cost more CPU than the export's own reading
 * (docs/DECISIONS.md "Batch export, third pass"); a GARC's set through `read`.
 */
async function inThread(s: BatchSet, lod: GfLod | undefined): Promise<SetOutcome> {
  try {
    const files = s.dir !== undefined ? readSetDirSync(s.dir).files : await s.read()
    const { glb, result } = await exportSetGlb(parseGfSet(files), { lod, name: s.set })
    return { glb, models: result.models.filter((m) => m.model).length, motions: result.scene.animations.length, warnings: result.warnings }
  } catch (e) {
    // any failure of one set is that set's error (bad input must never stop the batch)
    if (!(e instanceof Error)) throw e
    return { error: setErrorText(e) }
  }
}

const outcome = (r: ExportReply): SetOutcome => ('error' in r ? { error: r.error } : r)

export class SetsAhead {
  private readonly started: (Promise<SetOutcome> | undefined)[] = []
  private readonly batch = newBatch()
  /** Reads under way (a batch that stops waits for them: a GARC is closed after it). */
  private readonly reading = new Set<Promise<unknown>>()

  constructor(
    private readonly list: readonly BatchSet[],
    private readonly lod: GfLod | undefined,
    /** Pool threads; 0: in this thread. */
    private readonly threads: number,
  ) {}

  /** Set i's outcome (asked for in order: each set once). */
  get(i: number): Promise<SetOutcome> {
    if (this.threads === 0) return inThread(this.list[i]!, this.lod)
    const until = Math.min(this.list.length, i + 1 + this.threads * AHEAD_PER_THREAD)
    while (this.started.length < until) {
      const p = this.start(this.list[this.started.length]!)
      p.catch(() => {}) // a set not waited for (the batch stopped) fails unseen
      this.started.push(p)
    }
    const p = this.started[i]!
    this.started[i] = undefined // its glb is the writer's now
    return p
  }

  private async start(s: BatchSet): Promise<SetOutcome> {
    if (s.dir !== undefined) return outcome(await exportOnPool(this.batch, s.set, this.lod, { dir: s.dir }))
    let files: Map<string, Uint8Array>
    const read = s.read()
    this.reading.add(read)
    try {
      files = await read
    } catch (e) {
      if (!(e instanceof Error)) throw e
      return { error: setErrorText(e) }
    } finally {
      this.reading.delete(read)
    }
    return outcome(await exportOnPool(this.batch, s.set, this.lod, files))
  }

  /** The batch is over (done, failed or cancelled): its jobs not yet on a thread are dropped, its reads awaited. */
  async close(): Promise<void> {
    if (this.threads > 0) exportPool().drop((job) => job.batch === this.batch, new CancelledError('the batch export stopped'))
    await Promise.allSettled([...this.reading])
  }
}
