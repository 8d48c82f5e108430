import * as fs from 'node:fs'
import { promises as fsp, type Stats } from 'node:fs'
import * as path from 'node:path'
import type { IndexProgress, IndexResult, IndexResultSource, SourceKind } from '../../src-shared/api/catalog'
import { explainCatalogError } from '../catalog/catalog-errors'
import type { Catalog, SourceStamp } from '../catalog/catalog'
import type { DetectInput, EnumerateResult, FileDetector, FolderDetector } from '../plugin/detector'
import { detectFile, fileDetectors, folderDetectors, recognisedKinds } from './registry'
import { catalogued, detectorSet, pruneVanished, recordScanErrors, recordSkips, skippedBefore, stampOf, type Skip } from './skips'
import { folderStamp, gzipHead, hashBytes, isGzip, loadBytes, readHashed, readHead, readSetFiles, stampUnchanged, statOrNull, type FileStamp, type SetBytes } from './read-source'
import { SetReadAhead } from './read-thread'

/** The bytes of a source file as the detectors saw them (kept here for callers of the old place). */
export { loadBytes }


/** Bytes read at most from a file of an opened folder that is only part of a set (to say what is wrong with it). */
const MAX_PARTIAL_READ = 256 * 1024 * 1024

/** One unit of indexing work: a file, or a folder forming a set. */
type Job =
  | { type: 'file'; path: string; detector: FileDetector<string>; input: DetectInput; mtimeMs: number; ino: number; gzip: boolean; named: boolean }
  | { type: 'folder'; path: string; detector: FolderDetector<string>; members: string[] }
  | { type: 'unchanged'; path: string; prev: SourceStamp }

/** A catalogued source whose file stamp says it is unchanged (null: read it). */
export type KnownSource = (file: string, st: Stats) => SourceStamp | null

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

/** What a walk found: the work, and the walked files no detector took (`skips.ts`). */
interface ScanResult {
  jobs: Job[]
  /** Met for the first time (or changed) and not taken: to remember. */
  skips: Skip[]
  /** Every walked file not taken, remembered before or now. */
  skipped: Set<string>
}

/** How a walk tells a file it may pass by from its stat alone. */
interface Known {
  source?: KnownSource
  /** True for a walked file skipped before under the same stamp. */
  skipped?: (file: string, st: Stats) => boolean
}

/** Walks the given paths; folders recursively. A set folder claims its member files. */
export async function scan(paths: string[], signal?: AbortSignal, onError?: (p: string, e: Error) => void, known: Known = {}): Promise<ScanResult> {
  const jobs: Job[] = []
  const skips: Skip[] = []
  const skipped = new Set<string>()
  const fileDets = fileDetectors()
  const folderDets = folderDetectors()
  const seen = new Set<string>()
  /** Folders already walked, by real path: a folder named twice or a symlink cycle is walked once. */
  const seenDirs = new Set<string>()

  /** The set a folder forms (GF `0.bin`–`8.bin`), if any, given its file names. */
  function folderSet(names: string[]): { detector: FolderDetector<string>; members: string[] } | null {
    for (const fd of folderDets) if (fd.matchFolder(names)) return { detector: fd, members: fd.members(names) }
    return null
  }

  function fileNames(dir: string): string[] {
    const out: string[] = []
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isFile()) out.push(e.name)
      else if (e.isSymbolicLink() && statOrNull(path.join(dir, e.name))?.isFile()) out.push(e.name)
    }
    return out.sort()
  }

  /** `named`: the user gave this path itself (not found by walking a folder). */
  async function visitFile(file: string, named = false): Promise<void> {
    if (seen.has(file)) return
    seen.add(file)
    const st = fs.statSync(file)
    // Only regular files are read: opening a FIFO or a device could block forever.
    if (!st.isFile()) throw new Error(`${file}: not a regular file`)
    const prev = known.source?.(file, st)
    if (prev) {
      jobs.push({ type: 'unchanged', path: file, prev })
      return
    }
    if (!named && known.skipped?.(file, st)) {
      skipped.add(file)
      return
    }
    const skip = () => {
      skipped.add(file)
      skips.push({ path: file, stamp: stampOf(st) })
    }
    let head = await readHead(file, st.size)
    let name = path.basename(file).toLowerCase()
    const gzip = isGzip(head, name)
    if (gzip) {
      name = name.slice(0, -3)
      try {
        head = await gzipHead(file)
      } catch (e) {
        // A broken `.gz` met in a folder matters only if its inner name is one of our kinds.
        if (named || fileDets.some((d) => d.extensions?.test(name))) throw e
        return skip()
      }
    }
    const input: DetectInput = { path: file, name, size: st.size, head }
    const d = detectFile(input, fileDets)
    if (d) {
      jobs.push({ type: 'file', path: file, detector: d, input, mtimeMs: st.mtimeMs, ino: st.ino, gzip, named })
      return
    }
    if (!named) return skip() // a file met while walking a folder may be anything (notes, saves)
    // A member of a set named on its own (`gf-set/1.bin`) stands for its set folder.
    const dir = path.dirname(file)
    const set = folderSet(fileNames(dir))
    if (set && set.members.includes(path.basename(file))) {
      const real = fs.realpathSync.native(dir)
      if (!seenDirs.has(real)) {
        seenDirs.add(real)
        jobs.push({ type: 'folder', path: dir, ...set })
      }
      return
    }
    // Named on purpose and not recognised: say so rather than do nothing silently.
    throw new Error(`${file}: not a kind of file Modbench recognises (${recognisedKinds()})`)
  }

  /** The folder the user opened is no set but holds set files: why nothing of them is added (an error naming the file). */
  async function explainPartialSet(dir: string, files: string[]): Promise<void> {
    const read = async (n: string) => {
      const file = path.join(dir, n)
      if ((await fsp.stat(file)).size > MAX_PARTIAL_READ) throw new Error(`${file}: larger than ${MAX_PARTIAL_READ} bytes, not read`)
      return new Uint8Array(await fsp.readFile(file))
    }
    for (const fd of folderDets) {
      try {
        const why = await fd.explainPartial?.(files, read)
        if (why) return onError?.(path.join(dir, why.file), new Error(`${path.join(dir, why.file)}: ${why.message}`))
      } catch (e) {
        return onError?.(dir, e as Error)
      }
    }
  }

  // The walk is synchronous: a readdir or stat of a cached folder costs microseconds, an
  // asynchronous one a thread-pool round trip (issue 26: the unchanged re-index waited, not worked).
  async function visitDir(dir: string, depth: number): Promise<void> {
    if (signal?.aborted || depth > 32) return
    let entries: import('node:fs').Dirent[]
    let real: string
    try {
      real = fs.realpathSync.native(dir)
      if (seenDirs.has(real)) return
      seenDirs.add(real)
      entries = fs.readdirSync(dir, { withFileTypes: true })
    } catch (e) {
      onError?.(dir, e as Error)
      return
    }
    // Symbolic links are followed (a ROM folder full of links is common); cycles stop at seenDirs.
    const files: string[] = []
    const dirs: string[] = []
    for (const e of entries) {
      if (e.name.startsWith('.')) continue
      let isFile = e.isFile()
      let isDir = e.isDirectory()
      if (e.isSymbolicLink()) {
        const st = statOrNull(path.join(dir, e.name))
        isFile = !!st?.isFile()
        isDir = !!st?.isDirectory()
      }
      if (isFile) files.push(e.name)
      else if (isDir && e.name !== 'node_modules') dirs.push(e.name)
    }
    files.sort()
    dirs.sort()
    const set = folderSet(files)
    const claimed = new Set<string>(set?.members ?? [])
    if (set) jobs.push({ type: 'folder', path: dir, ...set })
    else if (depth === 0) await explainPartialSet(dir, files)
    for (const n of files) {
      if (claimed.has(n)) continue
      try {
        await visitFile(path.join(dir, n))
      } catch (e) {
        onError?.(path.join(dir, n), e as Error)
      }
    }
    for (const n of dirs) await visitDir(path.join(dir, n), depth + 1)
  }

  for (const p of paths) {
    const abs = path.resolve(p)
    try {
      const st = await fsp.stat(abs)
      if (st.isDirectory()) await visitDir(abs, 0)
      else await visitFile(abs, true)
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      onError?.(abs, err.code === 'ENOENT' ? new Error(`${abs}: no such file or folder`) : err)
    }
  }
  return { jobs, skips, skipped }
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
