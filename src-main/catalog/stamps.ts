import type { SourceKind } from '../../src-shared/api/catalog'
import type { Prepare } from './writes'

/** A source's row as a re-index compares it (`Catalog.sourceStamp`). */
export interface SourceStamp {
  id: number
  kind: SourceKind
  size: number
  mtime: number
  ino: number
  hash: string
  status: 'indexed' | 'error'
  indexedAt: number
  /** How many assets it has. */
  assets: number
}

/** Paths under a prefix `@p` as a range of the path index (`@end` = `@p` + PATH_END, after every such path in UTF-8 order). */
export const PATH_END = '\u{10FFFF}'
export const UNDER = (col: string) => `${col} >= @p AND ${col} < @end AND instr(${col}, @p) = 1`

/** What a re-index compares of a source (an absolute path), without its metadata (parsing that JSON was a large part of an unchanged set's cost). */
export function sourceStamp(st: Prepare, abs: string): SourceStamp | null {
  const sql = 'SELECT id, kind, size, mtime, ino, hash, status, indexed_at AS indexedAt, (SELECT COUNT(*) FROM assets WHERE source_id = sources.id) AS assets FROM sources WHERE path = ?'
  return (st(sql).get(abs) as SourceStamp | undefined) ?? null
}

/** `sourceStamp` of every source under a folder (a path ending in a separator), by path. */
export function sourceStampsUnder(st: Prepare, prefix: string): Map<string, SourceStamp> {
  const rows = st(`SELECT s.path, s.id, s.kind, s.size, s.mtime, s.ino, s.hash, s.status, s.indexed_at AS indexedAt, COUNT(a.id) AS assets
    FROM sources s LEFT JOIN assets a ON a.source_id = s.id WHERE ${UNDER('s.path')} GROUP BY s.id`).all({ p: prefix, end: prefix + PATH_END }) as (SourceStamp & { path: string })[]
  const out = new Map<string, SourceStamp>()
  for (const r of rows) out.set(r.path, r)
  return out
}

/** A skipped file's stamp, as `SkippedFiles.record` kept it. */
export interface SkippedStamp {
  size: number
  mtime: number
  ino: number
  /** The detector set that looked at it (another set, after an upgrade, looks again). */
  detectors: string
  seenAt: number
}

/**
 * Files a folder walk met that no detector took, or took only as incidental (schema 6): an
 * unchanged re-index answers from their stamp instead of reading their head again (issue 26).
 */
export interface SkippedFiles {
  /** The stamp kept for a path, or null. */
  get(path: string): SkippedStamp | null
  record(path: string, stamp: Omit<SkippedStamp, 'seenAt'>): void
  /** Forgets the ones under a folder (a path ending in a separator) that a walk did not meet; returns how many. */
  forgetUnder(prefix: string, met: Set<string>): number
}

export function skippedFiles(st: Prepare): SkippedFiles {
  return {
    get: (p) => (st('SELECT size, mtime, ino, detectors, seen_at AS seenAt FROM skipped WHERE path = ?').get(p) as SkippedStamp | undefined) ?? null,
    record(p, s) {
      st('INSERT INTO skipped (path, size, mtime, ino, detectors, seen_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, ino = excluded.ino, detectors = excluded.detectors, seen_at = excluded.seen_at').run(p, s.size, s.mtime, s.ino, s.detectors, Date.now())
    },
    forgetUnder(prefix, met) {
      const gone = (st(`SELECT path FROM skipped WHERE ${UNDER('path')}`).all({ p: prefix, end: prefix + PATH_END }) as { path: string }[]).filter((r) => !met.has(r.path))
      for (const r of gone) st('DELETE FROM skipped WHERE path = ?').run(r.path)
      return gone.length
    },
  }
}
