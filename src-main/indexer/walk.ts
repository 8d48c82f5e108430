/**
 * The indexer's walk (`scan`): the paths the user gave → units of indexing work. Folders are walked
 * recursively; a folder forming a set claims its member files; a file whose stamp says it is
 * unchanged (or skipped before) passes unread.
 *
 * The walk is synchronous: a readdir or stat of a cached folder costs microseconds, an asynchronous
 * one a thread-pool round trip (issue 26: the unchanged re-index waited, not worked). Its state is
 * one `Walk` object handed down, so no closure is made per file.
 */
import * as fs from 'node:fs'
import { promises as fsp, type Dirent, type Stats } from 'node:fs'
import * as path from 'node:path'
import type { SourceStamp } from '../catalog/catalog'
import type { DetectInput, FileDetector, FolderDetector } from '../plugin/detector'
import { detectFile, fileDetectors, folderDetectors, recognisedKinds } from './registry'
import { stampOf, type Skip } from './skips'
import { gzipHead, isGzip, readHead, statOrNull } from './read-source'

/** Bytes read at most from a file of an opened folder that is only part of a set (to say what is wrong with it). */
const MAX_PARTIAL_READ = 256 * 1024 * 1024

/** One unit of indexing work: a file, or a folder forming a set. */
export type Job =
  | { type: 'file'; path: string; detector: FileDetector<string>; input: DetectInput; mtimeMs: number; ino: number; gzip: boolean; named: boolean }
  | { type: 'folder'; path: string; detector: FolderDetector<string>; members: string[] }
  | { type: 'unchanged'; path: string; prev: SourceStamp }

/** A catalogued source whose file stamp says it is unchanged (null: read it). */
export type KnownSource = (file: string, st: Stats) => SourceStamp | null

/** What a walk found: the work, and the walked files no detector took (`skips.ts`). */
export interface ScanResult {
  jobs: Job[]
  /** Met for the first time (or changed) and not taken: to remember. */
  skips: Skip[]
  /** Every walked file not taken, remembered before or now. */
  skipped: Set<string>
}

/** How a walk tells a file it may pass by from its stat alone. */
export interface Known {
  source?: KnownSource
  /** True for a walked file skipped before under the same stamp. */
  skipped?: (file: string, st: Stats) => boolean
}

type OnError = (p: string, e: Error) => void

/** A walk in progress: what it found so far and what it was given. */
interface Walk extends ScanResult {
  fileDets: FileDetector<string>[]
  folderDets: FolderDetector<string>[]
  seen: Set<string>
  /** Folders already walked, by real path: a folder named twice or a symlink cycle is walked once. */
  seenDirs: Set<string>
  signal: AbortSignal | undefined
  onError: OnError | undefined
  known: Known
}

/** Walks the given paths; folders recursively. A set folder claims its member files. */
export async function scan(paths: string[], signal?: AbortSignal, onError?: OnError, known: Known = {}): Promise<ScanResult> {
  const w: Walk = {
    jobs: [],
    skips: [],
    skipped: new Set<string>(),
    fileDets: fileDetectors(),
    folderDets: folderDetectors(),
    seen: new Set<string>(),
    seenDirs: new Set<string>(),
    signal,
    onError,
    known,
  }
  for (const p of paths) {
    const abs = path.resolve(p)
    try {
      const st = await fsp.stat(abs)
      if (st.isDirectory()) await visitDir(w, abs, 0)
      else await visitFile(w, abs, true)
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      onError?.(abs, err.code === 'ENOENT' ? new Error(`${abs}: no such file or folder`) : err)
    }
  }
  return { jobs: w.jobs, skips: w.skips, skipped: w.skipped }
}

/** The set a folder forms (GF `0.bin`–`8.bin`), if any, given its file names. */
function folderSet(w: Walk, names: string[]): { detector: FolderDetector<string>; members: string[] } | null {
  for (const fd of w.folderDets) if (fd.matchFolder(names)) return { detector: fd, members: fd.members(names) }
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

/** A walked file no detector takes: passed by now and remembered for the next walk. */
function skipFile(w: Walk, file: string, st: Stats): void {
  w.skipped.add(file)
  w.skips.push({ path: file, stamp: stampOf(st) })
}

/** `named`: the user gave this path itself (not found by walking a folder). */
async function visitFile(w: Walk, file: string, named = false): Promise<void> {
  if (w.seen.has(file)) return
  w.seen.add(file)
  const st = fs.statSync(file)
  // Only regular files are read: opening a FIFO or a device could block forever.
  if (!st.isFile()) throw new Error(`${file}: not a regular file`)
  const prev = w.known.source?.(file, st)
  if (prev) {
    w.jobs.push({ type: 'unchanged', path: file, prev })
    return
  }
  if (!named && w.known.skipped?.(file, st)) {
    w.skipped.add(file)
    return
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
      if (named || w.fileDets.some((d) => d.extensions?.test(name))) throw e
      return skipFile(w, file, st)
    }
  }
  const input: DetectInput = { path: file, name, size: st.size, head }
  const d = detectFile(input, w.fileDets)
  if (d) {
    w.jobs.push({ type: 'file', path: file, detector: d, input, mtimeMs: st.mtimeMs, ino: st.ino, gzip, named })
    return
  }
  if (!named) return skipFile(w, file, st) // a file met while walking a folder may be anything (notes, saves)
  visitSetMember(w, file)
}

/** A file named on its own that no detector takes: a member of a set (`gf-set/1.bin`) stands for its set folder. */
function visitSetMember(w: Walk, file: string): void {
  const dir = path.dirname(file)
  const set = folderSet(w, fileNames(dir))
  if (set && set.members.includes(path.basename(file))) {
    const real = fs.realpathSync.native(dir)
    if (!w.seenDirs.has(real)) {
      w.seenDirs.add(real)
      w.jobs.push({ type: 'folder', path: dir, ...set })
    }
    return
  }
  // Named on purpose and not recognised: say so rather than do nothing silently.
  throw new Error(`${file}: not a kind of file Modbench recognises (${recognisedKinds()})`)
}

/** The folder the user opened is no set but holds set files: why nothing of them is added (an error naming the file). */
async function explainPartialSet(w: Walk, dir: string, files: string[]): Promise<void> {
  const read = async (n: string) => {
    const file = path.join(dir, n)
    if ((await fsp.stat(file)).size > MAX_PARTIAL_READ) throw new Error(`${file}: larger than ${MAX_PARTIAL_READ} bytes, not read`)
    return new Uint8Array(await fsp.readFile(file))
  }
  for (const fd of w.folderDets) {
    try {
      const why = await fd.explainPartial?.(files, read)
      if (why) return w.onError?.(path.join(dir, why.file), new Error(`${path.join(dir, why.file)}: ${why.message}`))
    } catch (e) {
      return w.onError?.(dir, e as Error)
    }
  }
}

/** A folder's entries split into file and folder names (sorted), following symbolic links; dot names and node_modules left out. */
function splitEntries(dir: string, entries: Dirent[]): { files: string[]; dirs: string[] } {
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
  return { files, dirs }
}

async function visitDir(w: Walk, dir: string, depth: number): Promise<void> {
  if (w.signal?.aborted || depth > 32) return
  let entries: Dirent[]
  let real: string
  try {
    real = fs.realpathSync.native(dir)
    if (w.seenDirs.has(real)) return
    w.seenDirs.add(real)
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch (e) {
    w.onError?.(dir, e as Error)
    return
  }
  const { files, dirs } = splitEntries(dir, entries)
  const set = folderSet(w, files)
  const claimed = new Set<string>(set?.members ?? [])
  if (set) w.jobs.push({ type: 'folder', path: dir, ...set })
  else if (depth === 0) await explainPartialSet(w, dir, files)
  for (const n of files) {
    if (claimed.has(n)) continue
    try {
      await visitFile(w, path.join(dir, n))
    } catch (e) {
      w.onError?.(path.join(dir, n), e as Error)
    }
  }
  for (const n of dirs) await visitDir(w, path.join(dir, n), depth + 1)
}
