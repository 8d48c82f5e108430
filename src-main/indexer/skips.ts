import { promises as fsp, type Stats } from 'node:fs'
import * as path from 'node:path'
import type { IndexResultSource } from '../../src-shared/api/catalog'
import type { Catalog, SourceStamp } from '../catalog/catalog'
import { stampUnchanged, statOrNull, type FileStamp } from './read-source'
import { fileDetectors, folderDetectors } from './registry'

/**
 * Files a folder walk meets that no detector takes (notes, saves, the hundreds of incidental
 * archives of a romfs dump) are remembered by stamp (catalog schema 6, `skipped`), so an unchanged
 * re-index stats them and reads nothing (issue 26 item 3). Remembered with the set of detectors that
 * looked: after an upgrade that adds one, they are looked at again; `--force` always looks.
 */
export function detectorSet(): string {
  return [...fileDetectors(), ...folderDetectors()].map((d) => d.id).join(',')
}

/** A walked file to remember as skipped. */
export interface Skip {
  path: string
  stamp: FileStamp
}

export const stampOf = (st: Stats): FileStamp => ({ size: st.size, mtime: st.mtimeMs, ino: st.ino })

/** True when `file` was skipped before under this stamp by the same detectors (and not racily clean). */
export function skippedBefore(catalog: Catalog, detectors: string, file: string, st: Stats): boolean {
  const s = catalog.skipped.get(file)
  return !!s && s.detectors === detectors && stampUnchanged({ ...s, status: 'indexed', indexedAt: s.seenAt }, stampOf(st))
}

/** Records skipped files (inside the indexing batch); a catalog that fails here fails nothing else. */
export function recordSkips(catalog: Catalog, detectors: string, skips: Skip[]): void {
  for (const s of skips) {
    try {
      catalog.skipped.record(s.path, { ...s.stamp, detectors })
    } catch {
      /* only a re-index's shortcut is lost */
    }
  }
}

/** What exists but could not be read is recorded in the catalog too (a missing path is not). */
export async function recordScanErrors(catalog: Catalog, scanErrors: IndexResultSource[]): Promise<void> {
  for (const s of scanErrors) {
    const st = await fsp.lstat(s.path).catch(() => null)
    if (!st) continue
    try {
      catalog.recordError({ path: s.path, size: st.isFile() ? st.size : 0, mtime: st.mtimeMs, hash: '', kind: s.kind }, s.error!)
    } catch {
      /* the catalog itself failed; the error is still reported to the caller */
    }
  }
}

/**
 * Re-indexing a folder forgets the sources under it whose files are gone (deleted or renamed),
 * with their assets. Only under folders that exist now: an unplugged drive forgets nothing.
 */
export async function pruneVanished(catalog: Catalog, paths: string[], seen: Set<string>, skipped: Set<string>): Promise<string[]> {
  const removed: string[] = []
  for (const p of paths) {
    const dir = path.resolve(p)
    if (!(await fsp.stat(dir).catch(() => null))?.isDirectory()) continue
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep
    // skipped files gone, or taken as sources now
    catalog.skipped.forgetUnder(prefix, skipped)
    for (const s of catalog.sourcesUnder(prefix)) {
      // a path met by this scan exists: only the others are looked at
      if (seen.has(s.path) || removed.includes(s.path)) continue
      const err = await fsp.lstat(s.path).then(() => null, (e: NodeJS.ErrnoException) => e.code)
      if (err !== 'ENOENT') continue
      catalog.removeSource(s.id)
      removed.push(s.path)
    }
  }
  return removed
}

/**
 * The catalogued stamp of a source by path, as it was when indexing began: the sources under the
 * folders indexed are read in one query (a point query per file was most of an unchanged
 * re-index's time), any other path is looked up alone.
 */
export function catalogued(catalog: Catalog, paths: string[]): (p: string) => SourceStamp | null {
  const prefixes = paths.map((p) => path.resolve(p)).filter((p) => statOrNull(p)?.isDirectory()).map((d) => (d.endsWith(path.sep) ? d : d + path.sep))
  const stamps = new Map<string, SourceStamp>()
  for (const pre of prefixes) for (const [p, s] of catalog.sourceStampsUnder(pre)) stamps.set(p, s)
  return (p) => stamps.get(p) ?? (prefixes.some((pre) => p.startsWith(pre)) ? null : catalog.sourceStamp(p))
}
