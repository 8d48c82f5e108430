import { promises as fsp, type Stats } from 'node:fs'
import * as path from 'node:path'
import type { IndexProgress, IndexResult, IndexResultSource, SourceKind } from '../../src-shared/api/catalog'
import { explainCatalogError } from '../catalog/catalog-errors'
import type { Catalog, SourceStamp } from '../catalog/catalog'
import type { EnumerateResult } from '../plugin/detector'
import { fileDetectors } from './registry'
import { catalogued, detectorSet, pruneVanished, recordScanErrors, recordSkips, skippedBefore } from './skips'
import { folderStamp, hashBytes, loadBytes, readHashed, readSetFiles, stampUnchanged, type FileStamp, type SetBytes } from './read-source'
import { SetReadAhead } from './read-thread'
import { scan, type Job, type KnownSource } from './walk'

/** The bytes of a source file as the detectors saw them (kept here for callers of the old place). */
export { loadBytes }
/** The walk lives in walk.ts (re-exported for callers of the old place). */
export { scan, type KnownSource }

export interface IndexOptions {
  onProgress?: (p: Omit<IndexProgress, 'jobId'>) => void
  signal?: AbortSignal
  /**
   * Re-read every source: without it a file whose size, mtime and inode match the catalog is
   * taken as unchanged unread (like git's index), and one whose content hash matches is kept.
   */
  force?: boolean
  /** Test hook: called inside a source's transaction, half-way through its asset rows. */
  duringTransaction?: (sourcePath: string) => void
}

/** The error's message, naming the file when the message itself does not (a bare library error). */
function errorText(e: unknown, file?: string): string {
  const msg = e instanceof Error ? e.message : String(e)
  return file && !msg.includes(path.basename(file)) ? `${file}: ${msg}` : msg
}

/**
 * Indexes files and folders into the catalog. Each source is written in one transaction; an
 * unchanged source (same content hash) is left alone; a file that cannot be read is recorded with
 * its error and the rest continue. Cancelling stops between sources: finished ones stay, the one
 * in progress is rolled back.
 */
/** The result of `indexPaths`: the API's IndexResult, plus the sources forgotten because their files are gone. */
export type IndexPathsResult = IndexResult & { removed?: string[] }

export async function indexPaths(catalog: Catalog, paths: string[], opts: IndexOptions = {}): Promise<IndexPathsResult> {
  const result: IndexPathsResult = { sources: [], assets: 0 }
  const report = opts.onProgress ?? (() => {})
  report({ phase: 'scan', done: 0, total: 0 })
  const scanErrors: IndexResultSource[] = []
  // A file that cannot be read is listed under the kind its name suggests (`x.z64` → n64-rom).
  const kindByName = (p: string): SourceKind => fileDetectors().find((d) => d.extensions?.test(path.basename(p).toLowerCase().replace(/\.gz$/, '')))?.kind ?? 'unknown'
  const prevOf = catalogued(catalog, paths)
  const known: KnownSource | undefined = opts.force
    ? undefined
    : (file, st) => {
        const prev = prevOf(file)
        return prev && stampUnchanged(prev, { size: st.size, mtime: st.mtimeMs, ino: st.ino }) ? prev : null
      }
  const detectors = detectorSet()
  const skippedKnown = opts.force ? undefined : (file: string, st: Stats) => skippedBefore(catalog, detectors, file, st)
  const walk = await scan(paths, opts.signal, (p, e) => scanErrors.push({ path: p, kind: kindByName(p), status: 'error', assets: 0, error: errorText(e, p) }), { source: known, skipped: skippedKnown })
  const jobs = walk.jobs
  // new sets (or every set, forced) are read on a second thread ahead of the loop (read-thread.ts)
  const readAhead = new SetReadAhead(jobs.map((j) => (j.type === 'folder' && (opts.force || !prevOf(j.path)) ? { dir: path.resolve(j.path), members: j.members } : null)))
  // Sources are written in batches (each still its own savepoint): one commit per batch, not per
  // source. A batch is committed every BATCH_MS or BATCH_SOURCES, and when indexing ends or is
  // cancelled; a killed process loses only the open batch, never half a source.
  const run = catalog.batch(async (flush) => {
    let last = Date.now()
    let since = 0
    const tick = async () => {
      if (++since >= BATCH_SOURCES || Date.now() - last >= BATCH_MS) {
        await flush()
        since = 0
        last = Date.now()
      }
    }
    await recordScanErrors(catalog, scanErrors)
    recordSkips(catalog, detectors, walk.skips)
    result.sources.push(...scanErrors)
    let yielded = Date.now()
    for (const [i, job] of jobs.entries()) {
      report({ phase: 'index', done: i, total: jobs.length, current: job.path })
      // Reads are synchronous, so nothing else runs between sources unless we let it: yield to the
      // event loop now and then, or a Ctrl+C (SIGINT → abort) would wait for the whole run.
      if (Date.now() - yielded >= 20) {
        await new Promise<void>((r) => setImmediate(r))
        yielded = Date.now()
      }
      if (opts.signal?.aborted) {
        result.cancelled = true
        result.assets = result.sources.reduce((n, s) => n + s.assets, 0)
        report({ phase: 'cancelled', done: i, total: jobs.length })
        return result
      }
      const done = await indexJob(catalog, job, opts, prevOf, readAhead.take(i))
      if (done) result.sources.push(done)
      else if (job.type === 'file') {
        // incidental: not a source of its own, so remembered as skipped
        walk.skipped.add(job.path)
        recordSkips(catalog, detectors, [{ path: job.path, stamp: { size: job.input.size, mtime: job.mtimeMs, ino: job.ino } }])
      }
      await tick()
    }
    result.assets = result.sources.reduce((n, s) => n + s.assets, 0)
    const removed = await pruneVanished(catalog, paths, new Set([...jobs.map((j) => path.resolve(j.path)), ...scanErrors.map((e) => e.path)]), walk.skipped)
    if (removed.length) result.removed = removed
    report({ phase: 'done', done: jobs.length, total: jobs.length })
    return result
  }, { signal: opts.signal }).finally(() => readAhead.close())
  // Cancelled while waiting for another process's turn at the catalog: what is done stays.
  return run.catch((e: unknown) => {
    if (!opts.signal?.aborted) throw e
    result.cancelled = true
    result.assets = result.sources.reduce((n, s) => n + s.assets, 0)
    report({ phase: 'cancelled', done: result.sources.length, total: jobs.length })
    return result
  })
}

const BATCH_SOURCES = 500
const BATCH_MS = 250

/** A source left as it was: its kind and asset count as catalogued. */
function unchanged(abs: string, prev: SourceStamp): IndexResultSource {
  return { path: abs, kind: prev.kind, status: 'unchanged', assets: prev.assets }
}

/** The bytes of a file source, hashed (SHA-1 and MD5) in the same single read as detection's head. */
async function readFileJob(job: Extract<Job, { type: 'file' }>, abs: string): Promise<{ stamp: FileStamp; bytes: Uint8Array; sha1: string; md5: string }> {
  if (job.gzip) {
    const st = await fsp.stat(abs)
    const bytes = await loadBytes(abs)
    return { stamp: { size: st.size, mtime: st.mtimeMs, ino: st.ino }, bytes, ...hashBytes(bytes) }
  }
  const head = job.input.head
  // A small file's head is the whole file, read right after the scan's stat: nothing to read again.
  if (head.length === job.input.size) return { stamp: { size: job.input.size, mtime: job.mtimeMs, ino: job.ino }, bytes: head, ...hashBytes(head) }
  const r = await readHashed(abs, { bytes: head, size: job.input.size, mtimeMs: job.mtimeMs })
  return { stamp: { size: r.size, mtime: r.mtimeMs, ino: r.ino }, bytes: r.bytes, sha1: r.sha1, md5: r.md5 }
}

/** Null: an incidental file met while walking a folder (EnumerateResult.incidental), not recorded. */
async function indexJob(catalog: Catalog, job: Job, opts: IndexOptions, prevOf: (p: string) => SourceStamp | null, readAhead?: Promise<SetBytes>): Promise<IndexResultSource | null> {
  const abs = path.resolve(job.path)
  if (job.type === 'unchanged') return unchanged(abs, job.prev)
  let kind: SourceKind = job.detector.kind
  let stamp: FileStamp = { size: 0, mtime: 0, ino: 0 }
  let hash = ''
  const info = () => ({ path: abs, size: stamp.size, mtime: stamp.mtime, ino: stamp.ino, hash, kind })
  try {
    let enumerate: () => EnumerateResult<string> | Promise<EnumerateResult<string>>
    const prev = prevOf(abs)
    if (job.type === 'file' && job.detector.enumeratePartial && !job.gzip) {
      // a big archive: its tables and a few headers, not its bytes (the stamp is the scan's)
      const partial = await job.detector.enumeratePartial(job.input)
      stamp = { size: job.input.size, mtime: job.mtimeMs, ino: job.ino }
      hash = partial.hash
      enumerate = () => partial
    } else if (job.type === 'file') {
      const r = await readFileJob(job, abs)
      stamp = r.stamp
      hash = r.sha1
      const input = { ...job.input, md5: r.md5 }
      enumerate = () => job.detector.enumerate(r.bytes, input)
    } else {
      // with no catalogued source to compare to, the stamp comes from the read itself
      if (prev && !opts.force && stampUnchanged(prev, folderStamp(abs, job.members))) return unchanged(abs, prev)
      const set = readAhead ? await readAhead : readSetFiles(abs, job.members)
      stamp = set.stamp
      hash = set.sha1
      enumerate = () => job.detector.enumerate(set.files, abs)
    }
    if (prev && prev.hash === hash && prev.status === 'indexed' && !opts.force) {
      // Same content under a new stamp (touched, copied back, an old catalog without inodes):
      // record the stamp so the next re-index answers from it.
      catalog.touchSource(prev.id, stamp)
      return unchanged(abs, prev)
    }
    let res: EnumerateResult<string>
    try {
      res = await enumerate()
    } catch (e) {
      catalog.recordError(info(), errorText(e, abs))
      return { path: abs, kind, status: 'error', assets: 0, error: errorText(e, abs) }
    }
    if (res.incidental && job.type === 'file' && !job.named && !prev) return null
    kind = res.kind ?? kind
    const hook = opts.duringTransaction
    const { assets } = catalog.replaceSource({ ...info(), metadata: res.metadata }, res.assets, hook ? () => hook(abs) : undefined)
    return { path: abs, kind, status: 'indexed', assets, ...(res.damaged?.length ? { damaged: res.damaged.map((e) => errorText(e, abs)) } : {}) }
  } catch (err) {
    // Unreadable file (permissions, vanished) or a catalog write that failed: record and go on.
    const e = explainCatalogError(err, catalog.path)
    try {
      catalog.recordError(info(), errorText(e, abs))
    } catch {
      /* the catalog itself failed; the error is still reported to the caller */
    }
    return { path: abs, kind, status: 'error', assets: 0, error: errorText(e, abs) }
  }
}
