import { createHash } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { Gunzip } from 'fflate'
import type { IndexProgress, IndexResult, IndexResultSource, SourceKind } from '../../src-shared/api/catalog'
import type { Catalog } from '../catalog/catalog'
import type { DetectInput, EnumerateResult, FileDetector, FolderDetector } from './detector'
import { readGameFile, type GameFileLimits } from '../node/game-file'
import { detectFile, fileDetectors, folderDetectors, recognisedKinds } from './registry'

const HEAD_BYTES = 64 * 1024
/** Any source file read whole: at most 256 MiB on disk or unpacked (the largest N64 image is 64 MiB). */
const SOURCE_LIMITS: GameFileLimits = { maxBytes: 256 * 1024 * 1024, gzip: 'name' }

/** One unit of indexing work: a file, or a folder forming a set. */
type Job =
  | { type: 'file'; path: string; detector: FileDetector; input: DetectInput }
  | { type: 'folder'; path: string; detector: FolderDetector; members: string[] }

export interface IndexOptions {
  onProgress?: (p: Omit<IndexProgress, 'jobId'>) => void
  signal?: AbortSignal
  /** Re-read sources even when their content hash is unchanged (after a Modbench upgrade). */
  force?: boolean
  /** Test hook: called inside a source's transaction, half-way through its asset rows. */
  duringTransaction?: (sourcePath: string) => void
}

async function readHead(file: string): Promise<Uint8Array> {
  const fh = await fsp.open(file, 'r')
  try {
    const buf = new Uint8Array(HEAD_BYTES)
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    await fh.close()
  }
}

/**
 * The first HEAD_BYTES of a gzip file's unpacked content, unpacking no more than that (a large
 * unrelated `.tar.gz` in a walked folder costs one small read, not a full inflate).
 */
async function gzipHead(file: string): Promise<Uint8Array> {
  const out = new Uint8Array(HEAD_BYTES)
  let have = 0
  const gz = new Gunzip((chunk) => {
    const n = Math.min(chunk.length, HEAD_BYTES - have)
    out.set(chunk.subarray(0, n), have)
    have += n
  })
  const fh = await fsp.open(file, 'r')
  try {
    const size = (await fh.stat()).size
    const buf = new Uint8Array(64 * 1024)
    // Bounded: at most 16 MiB of compressed input is read to fill the head.
    for (let pos = 0; have < HEAD_BYTES && pos < 16 * 1024 * 1024; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos)
      if (bytesRead === 0) break
      pos += bytesRead
      try {
        // The last chunk is pushed as final, so a small file's tail is flushed too.
        gz.push(buf.slice(0, bytesRead), pos >= size)
      } catch (e) {
        throw new Error(`${file}: not a readable gzip file (${(e as Error).message})`)
      }
    }
  } finally {
    await fh.close()
  }
  return out.subarray(0, have)
}

/** gzip-compressed inputs (our bundled samples) are detected and read by their inner name. */
function isGzip(head: Uint8Array, name: string): boolean {
  return name.endsWith('.gz') && head[0] === 0x1f && head[1] === 0x8b
}

/** The bytes of a source file as the detectors saw them (gzip-compressed samples unpacked). */
export function loadBytes(file: string): Promise<Uint8Array> {
  return readGameFile(file, SOURCE_LIMITS)
}

/** Walks the given paths; folders recursively. A set folder claims its member files. */
export async function scan(paths: string[], signal?: AbortSignal, onError?: (p: string, e: Error) => void): Promise<Job[]> {
  const jobs: Job[] = []
  const fileDets = fileDetectors()
  const folderDets = folderDetectors()
  const seen = new Set<string>()
  /** Folders already walked, by real path: a folder named twice or a symlink cycle is walked once. */
  const seenDirs = new Set<string>()

  /** The set a folder forms (GF `0.bin`–`8.bin`), if any, given its file names. */
  function folderSet(names: string[]): { detector: FolderDetector; members: string[] } | null {
    for (const fd of folderDets) if (fd.matchFolder(names)) return { detector: fd, members: fd.members(names) }
    return null
  }

  async function fileNames(dir: string): Promise<string[]> {
    const out: string[] = []
    for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
      if (e.isFile()) out.push(e.name)
      else if (e.isSymbolicLink() && (await fsp.stat(path.join(dir, e.name)).catch(() => null))?.isFile()) out.push(e.name)
    }
    return out.sort()
  }

  /** `named`: the user gave this path itself (not found by walking a folder). */
  async function visitFile(file: string, named = false): Promise<void> {
    if (seen.has(file)) return
    seen.add(file)
    const st = await fsp.stat(file)
    // Only regular files are read: opening a FIFO or a device could block forever.
    if (!st.isFile()) throw new Error(`${file}: not a regular file`)
    let head = await readHead(file)
    let name = path.basename(file).toLowerCase()
    if (isGzip(head, name)) {
      name = name.slice(0, -3)
      try {
        head = await gzipHead(file)
      } catch (e) {
        // A broken `.gz` met in a folder matters only if its inner name is one of our kinds.
        if (named || fileDets.some((d) => d.extensions?.test(name))) throw e
        return
      }
    }
    const input: DetectInput = { path: file, name, size: st.size, head }
    const d = detectFile(input, fileDets)
    if (d) {
      jobs.push({ type: 'file', path: file, detector: d, input })
      return
    }
    if (!named) return // a file met while walking a folder may be anything (notes, saves)
    // A member of a set named on its own (`gf-set/1.bin`) stands for its set folder.
    const dir = path.dirname(file)
    const set = folderSet(await fileNames(dir))
    if (set && set.members.includes(path.basename(file))) {
      const real = await fsp.realpath(dir)
      if (!seenDirs.has(real)) {
        seenDirs.add(real)
        jobs.push({ type: 'folder', path: dir, ...set })
      }
      return
    }
    // Named on purpose and not recognised: say so rather than do nothing silently.
    throw new Error(`${file}: not a kind of file Modbench recognises (${recognisedKinds()})`)
  }

  async function visitDir(dir: string, depth: number): Promise<void> {
    if (signal?.aborted || depth > 32) return
    let entries: import('node:fs').Dirent[]
    let real: string
    try {
      real = await fsp.realpath(dir)
      if (seenDirs.has(real)) return
      seenDirs.add(real)
      entries = await fsp.readdir(dir, { withFileTypes: true })
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
        const st = await fsp.stat(path.join(dir, e.name)).catch(() => null)
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
  return jobs
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
  const jobs = await scan(paths, opts.signal, (p, e) => scanErrors.push({ path: p, kind: kindByName(p), status: 'error', assets: 0, error: errorText(e, p) }))
  // What exists but could not be read is recorded in the catalog too (a missing path is not).
  for (const s of scanErrors) {
    const st = await fsp.lstat(s.path).catch(() => null)
    if (!st) continue
    try {
      catalog.recordError({ path: s.path, size: st.isFile() ? st.size : 0, mtime: st.mtimeMs, hash: '', kind: s.kind }, s.error!)
    } catch {
      /* the catalog itself failed; the error is still reported to the caller */
    }
  }
  result.sources.push(...scanErrors)
  for (const [i, job] of jobs.entries()) {
    report({ phase: 'index', done: i, total: jobs.length, current: job.path })
    if (opts.signal?.aborted) {
      result.cancelled = true
      result.assets = result.sources.reduce((n, s) => n + s.assets, 0)
      report({ phase: 'cancelled', done: i, total: jobs.length })
      return result
    }
    result.sources.push(await indexJob(catalog, job, opts))
  }
  result.assets = result.sources.reduce((n, s) => n + s.assets, 0)
  const removed = await pruneVanished(catalog, paths)
  if (removed.length) result.removed = removed
  report({ phase: 'done', done: jobs.length, total: jobs.length })
  return result
}

/**
 * Re-indexing a folder forgets the sources under it whose files are gone (deleted or renamed),
 * with their assets. Only under folders that exist now: an unplugged drive forgets nothing.
 */
async function pruneVanished(catalog: Catalog, paths: string[]): Promise<string[]> {
  const removed: string[] = []
  for (const p of paths) {
    const dir = path.resolve(p)
    if (!(await fsp.stat(dir).catch(() => null))?.isDirectory()) continue
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep
    for (const s of catalog.sources()) {
      if (!s.path.startsWith(prefix) || removed.includes(s.path)) continue
      const err = await fsp.lstat(s.path).then(() => null, (e: NodeJS.ErrnoException) => e.code)
      if (err !== 'ENOENT') continue
      catalog.removeSource(s.id)
      removed.push(s.path)
    }
  }
  return removed
}

async function indexJob(catalog: Catalog, job: Job, opts: IndexOptions): Promise<IndexResultSource> {
  const abs = path.resolve(job.path)
  let kind: SourceKind = job.detector.kind
  let size = 0
  let mtime = 0
  let hash = ''
  try {
    let enumerate: () => EnumerateResult | Promise<EnumerateResult>
    if (job.type === 'file') {
      const st = await fsp.stat(abs)
      size = st.size
      mtime = st.mtimeMs
      const bytes = await loadBytes(abs)
      hash = createHash('sha1').update(bytes).digest('hex')
      enumerate = () => job.detector.enumerate(bytes, job.input)
    } else {
      const files = new Map<string, Uint8Array>()
      const h = createHash('sha1')
      for (const m of job.members) {
        const p = path.join(abs, m)
        const st = await fsp.stat(p)
        size += st.size
        mtime = Math.max(mtime, st.mtimeMs)
        const bytes = new Uint8Array(await fsp.readFile(p))
        files.set(m, bytes)
        h.update(m).update('\0').update(bytes)
      }
      hash = h.digest('hex')
      enumerate = () => job.detector.enumerate(files, abs)
    }
    const prev = catalog.sourceByPath(abs)
    if (prev && prev.hash === hash && prev.status === 'indexed' && !opts.force) {
      return { path: abs, kind: prev.kind, status: 'unchanged', assets: catalog.assetCount(prev.id) }
    }
    let res: EnumerateResult
    try {
      res = await enumerate()
    } catch (e) {
      catalog.recordError({ path: abs, size, mtime, hash, kind }, errorText(e, abs))
      return { path: abs, kind, status: 'error', assets: 0, error: errorText(e, abs) }
    }
    kind = res.kind ?? kind
    const hook = opts.duringTransaction
    const { assets } = catalog.replaceSource({ path: abs, size, mtime, hash, kind, metadata: res.metadata }, res.assets, hook ? () => hook(abs) : undefined)
    return { path: abs, kind, status: 'indexed', assets }
  } catch (e) {
    // Unreadable file (permissions, vanished) or a catalog write that failed: record and go on.
    try {
      catalog.recordError({ path: abs, size, mtime, hash, kind }, errorText(e, abs))
    } catch {
      /* the catalog itself failed; the error is still reported to the caller */
    }
    return { path: abs, kind, status: 'error', assets: 0, error: errorText(e, abs) }
  }
}
