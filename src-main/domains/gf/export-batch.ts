/**
 * Batch export of every GF set under a folder (CLI.md `gf export-all`, the app's folder action):
 * each set → `<out>/<set path relative to the root>.glb`, plus `<out>/manifest.json`. A broken set
 * is listed with its error and the rest go on. The output folder is written atomically (a
 * temporary sibling renamed at the end), so a cancelled or crashed batch leaves nothing behind.
 * The sets are exported on a worker pool, ahead of the writer (export-ahead.ts); files, manifest,
 * progress and messages keep the sets' order.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { GfBatchItem } from '../../../src-shared/api/gf-model'
import type { GfLod } from '../../../src-shared/formats/gf/set-models'
import { inSetFolder, readSetFolder } from './set-folder'
import { writeDirAtomic } from '../../node/atomic'
import { guardOutput, isSameOrInside, realPathLoose, type OutputConsent } from '../../node/output-guard'
import { SetsAhead, type BatchSet } from './export-ahead'
import { exportPool } from './export-pool'

/** One manifest row (CLI.md `gf export-all`), plus the count of warnings of a set that exported. */
export type BatchItem = GfBatchItem & { warnings?: number; name?: string }

export interface BatchOptions {
  lod?: GfLod
  progress?: (done: number, total: number, detail: string) => void
  warn?: (w: string) => void
  signal?: AbortSignal
  /** Whether an existing output folder may be replaced, and how messages name it (default: not, `--out`). */
  consent?: OutputConsent
  /** What the output may never be, lie in or hold (the sets, the archive). */
  inputs?: readonly string[]
  /** Export the sets in this thread, one at a time, instead of on the worker pool (one thread per core). */
  inThread?: boolean
}

const MAX_DEPTH = 32

/** Folders walked between two turns of the event loop (the walk's calls are synchronous: ~5 µs each, an await cost ~30). */
const WALK_SLICE = 64

/**
 * Folders under `root` (itself included) holding a `0.bin`, sorted; `skip` (the output) is not
 * entered. Symbolic links are followed (a set whose `.bin` files or folder are links to the dump is
 * still a set, issue 26); a folder reached twice through links is walked once. Each folder is
 * read with synchronous calls, the event loop let turn every WALK_SLICE folders.
 */
export async function findSetFolders(root: string, skip?: string): Promise<string[]> {
  const out: string[] = []
  const seen = new Set<string>()
  const kindOf = (dir: string, e: fs.Dirent): 'file' | 'dir' | null => {
    if (e.isFile()) return 'file'
    if (e.isDirectory()) return 'dir'
    if (!e.isSymbolicLink()) return null
    const st = fs.statSync(path.join(dir, e.name), { throwIfNoEntry: false })
    return st?.isFile() ? 'file' : st?.isDirectory() ? 'dir' : null
  }
  let walked = 0
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || (skip && path.resolve(dir) === path.resolve(skip))) return
    if (++walked % WALK_SLICE === 0) await new Promise((resolve) => setImmediate(resolve))
    const real = tryOr(() => fs.realpathSync.native(dir), dir)
    if (seen.has(real)) return
    seen.add(real)
    const entries = tryOr(() => fs.readdirSync(dir, { withFileTypes: true }), []).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const kinds = entries.map((e) => tryOr(() => kindOf(dir, e), null))
    if (entries.some((e, i) => kinds[i] === 'file' && e.name.toLowerCase() === '0.bin')) out.push(dir)
    for (let i = 0; i < entries.length; i++) if (kinds[i] === 'dir' && !entries[i]!.name.startsWith('.')) await walk(path.join(dir, entries[i]!.name), depth + 1)
  }
  if (!tryOr(() => fs.statSync(root), null)?.isDirectory()) throw new Error(`${root}: no such folder`)
  await walk(root, 0)
  return out
}

/** `f()`, or `fallback` when it throws (an unreadable folder or entry is skipped, as before). */
function tryOr<T>(f: () => T, fallback: T): T {
  try {
    return f()
  } catch {
    return fallback
  }
}

function relGlb(root: string, dir: string): string {
  const rel = path.relative(root, dir)
  return `${rel === '' ? path.basename(path.resolve(root)) : rel}.glb`.split(path.sep).join('/')
}

/** `text` naming a member of `set` with it (`set/6.bin: …`), else prefixed with `set: `. */
function named(set: string, text: string): string {
  if (set === '.') return text
  const joined = inSetFolder(set, text).split(path.sep).join('/')
  return joined !== text ? joined : `${set}: ${text}`
}

export type { BatchSet } from './export-ahead'

/** Runs the batch into `outDir` (a new or empty folder); returns the manifest. */
export async function exportAllSets(root: string, outDir: string, opts: BatchOptions = {}): Promise<BatchItem[]> {
  // not skipping OUTDIR: a set there is an input (replacing OUTDIR with --force would delete it)
  const sets = await findSetFolders(root)
  // the inputs are the sets: an OUTDIR beside them inside DIR is fine, one that is DIR, holds a set
  // or lies inside one is not (with --force it would delete a set)
  const beside = realPathLoose(outDir) !== realPathLoose(root) && isSameOrInside(realPathLoose(outDir), realPathLoose(root))
  const inputs = beside ? sets : [root, ...sets]
  return exportBatch(sets.map((dir) => ({ set: path.relative(root, dir).split(path.sep).join('/') || '.', glb: relGlb(root, dir), dir, read: async () => (await readSetFolder(dir)).files })), outDir, { ...opts, inputs })
}

/**
 * Exports each set to its glb, then the manifest, all into `outDir` written atomically (CLI.md's
 * output rule checked against `opts.inputs` before any work and again before the rename).
 */
export async function exportBatch(sets: BatchSet[] | (() => Promise<BatchSet[]>), outDir: string, opts: BatchOptions = {}): Promise<BatchItem[]> {
  const guard = () => guardOutput({ out: outDir, kind: 'folder', inputs: opts.inputs, ...opts.consent })
  guard()
  const manifest: BatchItem[] = []
  await writeDirAtomic(outDir, batchFiles(sets, opts, manifest), async () => guard(), { replace: opts.consent?.force === true })
  return manifest
}

/**
 * The batch's files in order (each set's glb, then the manifest), filling `manifest` as it goes.
 * A module-level generator, not a closure per batch: generator objects of one generator function
 * share their hidden class, so writeDirAtomic's optimised loop stays valid from batch to batch (a
 * closure per batch gave each batch's generator a new prototype, a "wrong map" deoptimisation and a
 * recompile per batch; docs/DECISIONS.md "Batch export, third pass").
 */
async function* batchFiles(sets: BatchSet[] | (() => Promise<BatchSet[]>), opts: BatchOptions, manifest: BatchItem[]): AsyncGenerator<[string, Uint8Array | string]> {
  const list = typeof sets === 'function' ? await sets() : sets
  // one set gains nothing from threads but their start
  const ahead = new SetsAhead(list, opts.lod, list.length < 2 || opts.inThread ? 0 : exportPool().size)
  try {
    for (let i = 0; i < list.length; i++) {
      opts.signal?.throwIfAborted()
      const { set, glb, extra } = list[i]!
      opts.progress?.(i, list.length, set)
      const r = await ahead.get(i)
      opts.signal?.throwIfAborted() // only a cancel stops the batch
      if ('error' in r) {
        manifest.push({ set, glb: null, ...extra, models: 0, motions: 0, error: named(set, r.error) })
        continue
      }
      // warnings and errors name the member with its folder relative to the root (`a/0009/6.bin: …`), as `set` does
      for (const w of r.warnings) opts.warn?.(named(set, w))
      manifest.push({ set, glb, ...extra, models: r.models, motions: r.motions, ...(r.warnings.length ? { warnings: r.warnings.length } : {}) })
      yield [glb, r.glb]
    }
  } finally {
    await ahead.close()
  }
  opts.progress?.(list.length, list.length, 'manifest')
  yield ['manifest.json', JSON.stringify(manifest, null, 2) + '\n']
}
