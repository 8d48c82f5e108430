import { promises as fsp } from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { FsEntry, FsListing, FsRoot } from '../../src-shared/api/files'
import { samplesDir } from '../catalog/paths'
import { detectFileKind, detectFolderKind } from '../indexer/detect-kind'
import type { Handlers, ServiceContext } from './context'

/** Entries a listing returns at most; kinds are detected (a 64 KiB read each) for the first ones. */
const MAX_ENTRIES = 2000
const MAX_DETECT = 300

/**
 * Where browser mode's file browser may look (docs/DECISIONS.md, "file browser roots"): the folder
 * the server started in, the bundled samples, the user's home (the server runs as that user on
 * 127.0.0.1 only), the folders of indexed sources and every path the user chose or typed.
 */
export function browseRoots(ctx: ServiceContext, granted: Iterable<string>): FsRoot[] {
  const roots: FsRoot[] = [
    { label: 'Start folder', path: process.cwd() },
    { label: 'Samples', path: samplesDir() },
    { label: 'Home', path: os.homedir() },
  ]
  for (const s of ctx.catalog.sources()) roots.push({ label: 'Indexed', path: path.dirname(s.path) })
  for (const g of granted) roots.push({ label: 'Chosen', path: g })
  const seen = new Set<string>()
  return roots.filter((r) => {
    const k = path.resolve(r.path)
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

const inside = (p: string, root: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep)

async function entryOf(dir: string, name: string, detect: boolean): Promise<FsEntry | null> {
  const p = path.join(dir, name)
  const st = await fsp.stat(p).catch(() => null)
  if (!st || !(st.isFile() || st.isDirectory())) return null
  const type = st.isDirectory() ? 'folder' : 'file'
  const kind = !detect ? null : type === 'folder' ? await detectFolderKind(p) : await detectFileKind(p, st.size)
  return { name, path: p, type, size: type === 'file' ? st.size : 0, mtime: st.mtimeMs, kind }
}

/** The real paths of the roots, and `p`'s real path (symbolic links resolved) when it is inside one. */
async function withinRoots(p: string, roots: FsRoot[]): Promise<{ real: string; realRoots: string[] }> {
  const realRoots = await Promise.all(roots.map((r) => fsp.realpath(r.path).catch(() => path.resolve(r.path))))
  const real = await fsp.realpath(p).catch(() => path.resolve(p))
  if (!realRoots.some((r) => inside(real, r))) {
    const e = new Error(`${p} is outside the folders the file browser may show (the start folder, the samples, home, indexed and chosen places); type its path to choose it`)
    e.name = 'AccessDenied'
    throw e
  }
  return { real, realRoots }
}

async function list(req: { path?: string }, roots: FsRoot[]): Promise<FsListing> {
  let dir = path.resolve(req.path?.trim() || roots[0]!.path)
  let st = await fsp.stat(dir).catch(() => null)
  if (st?.isFile()) {
    dir = path.dirname(dir)
    st = await fsp.stat(dir).catch(() => null)
  }
  const { real, realRoots } = await withinRoots(dir, roots)
  if (!st?.isDirectory()) throw new Error(`${dir}: no such folder`)
  const names = (await fsp.readdir(dir)).filter((n) => !n.startsWith('.')).sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }))
  const truncated = names.length > MAX_ENTRIES
  const found = await Promise.all(names.slice(0, MAX_ENTRIES).map((n, i) => entryOf(dir, n, i < MAX_DETECT)))
  const entries = found.filter((e): e is FsEntry => e !== null).sort((a, b) => (a.type === b.type ? 0 : a.type === 'folder' ? -1 : 1))
  const up = path.dirname(dir)
  const parent = up !== dir && realRoots.some((r) => inside(real, r) && real !== r) ? up : null
  return { path: dir, parent, kind: await detectFolderKind(dir), entries, roots, truncated }
}

/** Handlers of the `fs:*` channels of the file browser (`fs:grant` is with the catalog's). */
export function filesHandlers(granted: () => Iterable<string>): Handlers {
  return {
    'fs:list': (req, ctx) => list(req, browseRoots(ctx, granted())),
    'fs:stat': async (req, ctx) => {
      const p = path.resolve(req.path)
      const roots = browseRoots(ctx, granted())
      // the path itself inside a root (a chosen file), or the folder it would go in
      await withinRoots(p, roots).catch(() => withinRoots(path.dirname(p), roots))
      const st = await fsp.stat(p).catch(() => null)
      if (!st || !(st.isFile() || st.isDirectory())) return null
      return { type: st.isDirectory() ? 'folder' : 'file', size: st.isFile() ? st.size : 0 }
    },
  }
}
