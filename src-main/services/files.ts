import { promises as fsp } from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { FsEntry, FsListing, FsRoot } from '../../src-shared/api/files'
import { samplesDir } from '../catalog/paths'
import { detectFileKind, detectFolderKind } from '../indexer/detect-kind'
import type { Handlers, ServiceContext } from '../plugin/context'

/** Entries a listing returns at most; kinds are detected (a 64 KiB read each) for the first ones. */
const MAX_ENTRIES = 2000
const MAX_DETECT = 300

/**
 * The places the file browser offers (docs/DECISIONS.md, "File browser places"): the user's home,
 * the folders the dialog used lately, the server's start folder, the bundled samples, the folders
 * of indexed sources and every path the user chose (a chosen file stands for its folder). Each is
 * checked: one that no longer exists stays listed, greyed with the reason, so clicking it never
 * errors and the user sees why it went.
 */
export async function browseRoots(ctx: ServiceContext, granted: Iterable<string>, recent: readonly string[] = []): Promise<FsRoot[]> {
  const roots: FsRoot[] = [{ label: 'Home', path: os.homedir() }]
  for (const r of recent.slice(0, 8)) if (path.isAbsolute(r)) roots.push({ label: 'Recent', path: r })
  roots.push({ label: 'Start folder', path: process.cwd() }, { label: 'Samples', path: samplesDir() })
  for (const s of ctx.catalog.sources()) roots.push({ label: 'Indexed', path: path.dirname(s.path) })
  for (const g of granted) roots.push({ label: 'Chosen', path: g })
  const seen = new Set<string>()
  const out: FsRoot[] = []
  for (const r of roots) {
    let p = path.resolve(r.path)
    let st = await fsp.stat(p).catch(() => null)
    if (st?.isFile()) {
      p = path.dirname(p)
      st = await fsp.stat(p).catch(() => null)
    }
    if (seen.has(p)) continue
    seen.add(p)
    out.push(st?.isDirectory() ? { label: r.label, path: p } : { label: r.label, path: p, unavailable: st ? 'not a folder' : 'no longer exists' })
  }
  return out
}

/**
 * The catalog's own files, never opened to detect a kind: SQLite holds POSIX locks on them, and
 * closing any other descriptor of those files in this process drops them (the server's connection
 * then kept reading an old snapshot: a file indexed afterwards never showed).
 */
async function catalogFiles(ctx: ServiceContext): Promise<Set<string>> {
  const db = path.resolve(ctx.catalog.path)
  const ids = await Promise.all(['', '-wal', '-shm', '-journal'].map((s) => fsp.stat(db + s).then(fileId, () => '')))
  return new Set(ids.filter(Boolean))
}

/** A file's identity whatever the path spelling (links, case): device and inode. */
const fileId = (st: { dev: number; ino: number }) => `${st.dev}:${st.ino}`

async function entryOf(dir: string, name: string, detect: boolean, skip: Set<string>): Promise<FsEntry | null> {
  const p = path.join(dir, name)
  const st = await fsp.stat(p).catch(() => null)
  if (!st || !(st.isFile() || st.isDirectory())) return null
  const type = st.isDirectory() ? 'folder' : 'file'
  const kind = !detect || skip.has(fileId(st)) ? null : type === 'folder' ? await detectFolderKind(p) : await detectFileKind(p, st.size)
  return { name, path: p, type, size: type === 'file' ? st.size : 0, mtime: st.mtimeMs, kind }
}

/**
 * Lists a folder anywhere the server's user may read (the dialog goes up past the start folder, as
 * a native dialog does); reading or writing a file's content still needs the access rules
 * (`allowPath`), which a choice in the dialog grants.
 */
async function list(req: { path?: string; recent?: string[] }, roots: FsRoot[], skip: Set<string>): Promise<FsListing> {
  let dir = path.resolve(req.path?.trim() || os.homedir())
  let st = await fsp.stat(dir).catch(() => null)
  if (st?.isFile()) {
    dir = path.dirname(dir)
    st = await fsp.stat(dir).catch(() => null)
  }
  if (!st?.isDirectory()) throw new Error(`${dir}: no such folder`)
  const names = (await fsp.readdir(dir)).filter((n) => !n.startsWith('.')).sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }))
  const truncated = names.length > MAX_ENTRIES
  const found = await Promise.all(names.slice(0, MAX_ENTRIES).map((n, i) => entryOf(dir, n, i < MAX_DETECT, skip)))
  const entries = found.filter((e): e is FsEntry => e !== null).sort((a, b) => (a.type === b.type ? 0 : a.type === 'folder' ? -1 : 1))
  const up = path.dirname(dir)
  return { path: dir, parent: up !== dir ? up : null, kind: await detectFolderKind(dir), entries, roots, truncated }
}

/** Handlers of the `fs:*` channels of the file browser (`fs:grant` is with the catalog's). */
export function filesHandlers(granted: () => Iterable<string>): Handlers {
  return {
    'fs:list': async (req, ctx) => list(req, await browseRoots(ctx, granted(), req.recent ?? []), await catalogFiles(ctx)),
    'fs:stat': async (req) => {
      const st = await fsp.stat(path.resolve(req.path)).catch(() => null)
      if (!st || !(st.isFile() || st.isDirectory())) return null
      return { type: st.isDirectory() ? 'folder' : 'file', size: st.isFile() ? st.size : 0 }
    },
  }
}
