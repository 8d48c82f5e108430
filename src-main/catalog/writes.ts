import type Database from 'better-sqlite3'
import * as path from 'node:path'
import type { SourceKind } from '../../src-shared/api/catalog'
import type { AssetDraft } from '../plugin/detector'
import { FTS_KEY, UNBOUNDED, countTerms, dropMultiText, rowTermCounts, tallyRow, ftsAddSource, ftsRow, ftsDeleteDoomed, ftsDoomSource, ftsRemoveSource } from './fts'

export interface SourceInfo {
  path: string
  size: number
  mtime: number
  hash: string
  kind: SourceKind
  metadata?: Record<string, unknown>
  /** The file's inode (0 when unknown): with size and mtime, what an unchanged re-index compares. */
  ino?: number
}

/** The catalog's cached statement for an SQL text. */
export type Prepare = (sql: string) => Database.Statement

/**
 * Sources whose rows are written but not yet in the FTS index, and their terms: inside a batch
 * the index is written once per batch (`ftsFlush`), not once per source.
 */
export interface PendingFts {
  sources: Set<number>
  /** Their terms, with how many of their rows hold each. */
  terms: Map<string, number>
  /** How to undo this source's changes to `sources` when its savepoint rolls back (set by the writer). */
  undo?: (() => void)[]
  /** The next asset id inside the batch (read once, written to `id_seq` by `ftsFlush`). */
  nextId?: number
  /** Set when committed sources' index rows wait in `temp.fts_doomed` for the flush. */
  doomed?: boolean
}

/** Takes a source's assets out of the FTS index (unless they never went in) and deletes them; the cascade has an index to follow. */
export function dropAssets(st: Prepare, sourceId: number, pending?: PendingFts): void {
  if (pending?.sources.delete(sourceId)) {
    // its rows never reached the index: take their terms out of the batch's counts
    const counts = rowTermCounts(st(`SELECT name, tags FROM assets WHERE source_id = ? AND fts_bucket != ${UNBOUNDED}`).all(sourceId) as { name: string; tags: string }[])
    mergeCounts(pending.terms, counts, -1)
    pending.undo?.push(() => {
      pending.sources.add(sourceId)
      mergeCounts(pending.terms, counts, 1)
    })
  } else if (pending) {
    ftsDoomSource(st, sourceId)
    pending.doomed = true
  } else ftsRemoveSource(st, sourceId)
  dropMultiText(st, sourceId)
  st('DELETE FROM assets WHERE source_id = ?').run(sourceId)
}

/** Adds (sign 1) or subtracts (−1) term counts into a batch's. */
function mergeCounts(into: Map<string, number>, counts: Map<string, number>, sign: 1 | -1): void {
  for (const [t, n] of counts) into.set(t, (into.get(t) ?? 0) + sign * n)
}

/** Writes the pending sources' rows into the FTS index, in rowid order, and their terms (and the batch's id sequence). */
export function ftsFlush(st: Prepare, pending: PendingFts): void {
  // deleted ids are never given again, so the deletes may all go first
  if (pending.doomed) ftsDeleteDoomed(st)
  pending.doomed = false
  if (pending.sources.size) ftsAddSource(st, [...pending.sources])
  countTerms(st, pending.terms, 1)
  if (pending.nextId !== undefined) saveNextId(st, pending.nextId)
  pending.sources.clear()
  pending.terms.clear()
  pending.nextId = undefined
}

/**
 * The next asset id. Ids come from a sequence that only grows: SQLite would hand a deleted row's
 * id to the next insert, so a re-indexed source could give an old id (printed by ls) to another asset.
 */
function loadNextId(st: Prepare): number {
  const seq = st("SELECT MAX(value, (SELECT COALESCE(MAX(id), 0) FROM assets)) AS v FROM id_seq WHERE name = 'assets'").get() as { v: number } | undefined
  return (seq?.v ?? 0) + 1
}

function saveNextId(st: Prepare, nextId: number): void {
  st("INSERT INTO id_seq (name, value) VALUES ('assets', ?) ON CONFLICT(name) DO UPDATE SET value = MAX(value, excluded.value)").run(nextId - 1)
}

/** The source row for `info`, created or updated (its assets dropped); returns its id. Call inside a transaction. */
function upsertSource(st: Prepare, info: SourceInfo, status: 'indexed' | 'error', error: string | null, meta: string | null, pending?: PendingFts): number {
  const abs = path.resolve(info.path)
  const existing = st('SELECT id FROM sources WHERE path = ?').get(abs) as { id: number } | undefined
  if (existing) {
    dropAssets(st, existing.id, pending)
    st(`UPDATE sources SET size = ?, mtime = ?, ino = ?, hash = ?, kind = ?, status = ?, error = ?, metadata = COALESCE(?, metadata), indexed_at = ? WHERE id = ?`).run(info.size, info.mtime, info.ino ?? 0, info.hash, info.kind, status, error, meta, Date.now(), existing.id)
    return existing.id
  }
  return Number(
    st(`INSERT INTO sources (path, size, mtime, ino, hash, kind, status, error, metadata, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(abs, info.size, info.mtime, info.ino ?? 0, info.hash, info.kind, status, error, meta ?? '{}', Date.now()).lastInsertRowid,
  )
}

/** Rows one INSERT writes at most (`RowWriter`). */
const CHUNK = 48
const rowSql = new Map<string, string[]>()

/**
 * Rows of one table written CHUNK at a time by a multi-row `INSERT … VALUES (…), (…)` (the
 * statements cached per row count): a statement's step, reset and call cost about as much as
 * binding a row, so a source's 45 rows cost 3 statements instead of 45.
 */
class RowWriter {
  private readonly values: unknown[] = []
  private rows = 0
  /** The statement's text for 1 … CHUNK rows. */
  private readonly sql: string[]
  /** `head`: `INSERT INTO t (a, b, …)`; `width`: its column count. */
  constructor(
    private readonly st: Prepare,
    head: string,
    width: number,
  ) {
    this.sql = rowSql.get(head) ?? []
    if (!this.sql.length) {
      const one = `(${Array(width).fill('?').join(', ')})`
      for (let n = 0; n <= CHUNK; n++) this.sql.push(`${head} VALUES ${Array(n).fill(one).join(', ')}`)
      rowSql.set(head, this.sql)
    }
  }

  add(...row: unknown[]): void {
    for (const v of row) this.values.push(v)
    if (++this.rows === CHUNK) this.flush()
  }

  /** Writes the rows added so far. */
  flush(): void {
    if (!this.rows) return
    this.st(this.sql[this.rows]!).run(this.values)
    this.values.length = 0
    this.rows = 0
  }
}

/** How many children each draft has, by key (so each row is written once, with its final count). */
function childCounts(drafts: AssetDraft<string>[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const d of drafts) if (d.parentKey !== undefined) counts.set(d.parentKey, (counts.get(d.parentKey) ?? 0) + 1)
  return counts
}

/** Writes a source and its assets (replacing what it had). Call inside a transaction. */
export function writeSource(st: Prepare, info: SourceInfo, drafts: AssetDraft<string>[], beforeCommit?: (insertedSoFar: number) => void, pending?: PendingFts): { sourceId: number; assets: number } {
  const abs = path.resolve(info.path)
  const sourceId = upsertSource(st, info, 'indexed', null, JSON.stringify(info.metadata ?? {}), pending)
  // Inside a batch the sequence is read once and saved at the batch's commit; an id handed out
  // in a savepoint that rolls back is simply skipped (ids only grow).
  let nextId = pending ? (pending.nextId ??= loadNextId(st)) : loadNextId(st)
  if (nextId + drafts.length >= FTS_KEY) throw new Error(`${abs}: the catalog ran out of asset ids (${FTS_KEY} at most)`)
  const ins = new RowWriter(st, 'INSERT INTO assets (id, source_id, parent_id, ord, kind, name, locator, metadata, tags, child_count, fts_bucket)', 11)
  const multi = new RowWriter(st, 'INSERT INTO fts_multi_text (k, t)', 2)
  const kids = childCounts(drafts)
  const ids = new Map<string, number>()
  const ords = new Map<number | null, number>()
  // this source's term counts, merged into the batch's once all its rows are written
  const terms = new Map<string, number>()
  const rowTerms = new Set<string>()
  let n = 0
  for (const d of drafts) {
    if (ids.has(d.key)) throw new Error(`${abs}: duplicate asset key ${d.key}`)
    let parent: number | null = null
    if (d.parentKey !== undefined) {
      const p = ids.get(d.parentKey)
      if (p === undefined) throw new Error(`${abs}: asset ${d.key} names parent ${d.parentKey}, which comes later or does not exist`)
      parent = p
    }
    const ord = ords.get(parent) ?? 0
    ords.set(parent, ord + 1)
    const id = nextId++
    const tags = d.tags?.length ? d.tags.join(' ') : ''
    const locator = d.locator ? JSON.stringify(d.locator) : '{}'
    const metadata = d.metadata ? JSON.stringify(d.metadata) : '{}'
    rowTerms.clear()
    const { bucket, rep } = ftsRow(d.name, tags, rowTerms)
    if (bucket !== UNBOUNDED) tallyRow(terms, rowTerms)
    ins.add(id, sourceId, parent, ord, d.kind, d.name, locator, metadata, tags, kids.get(d.key) ?? 0, bucket)
    if (rep !== null) multi.add(bucket * FTS_KEY + id, rep)
    ids.set(d.key, id)
    n++
    if (beforeCommit && n === Math.ceil(drafts.length / 2)) {
      ins.flush()
      beforeCommit(n)
    }
  }
  ins.flush()
  multi.flush()
  if (beforeCommit && drafts.length === 0) beforeCommit(0)
  if (pending) {
    pending.nextId = nextId
    mergeCounts(pending.terms, terms, 1)
    pending.undo?.push(() => mergeCounts(pending.terms, terms, -1))
    if (!pending.sources.has(sourceId)) {
      pending.sources.add(sourceId)
      pending.undo?.push(() => pending.sources.delete(sourceId))
    }
  } else ftsFlush(st, { sources: new Set([sourceId]), terms, nextId })
  return { sourceId, assets: n }
}

/** Records a file that could not be read; its previous assets (if any) are dropped. Call inside a transaction. */
export function writeError(st: Prepare, info: Omit<SourceInfo, 'metadata'>, error: string, pending?: PendingFts): number {
  return upsertSource(st, info, 'error', error, null, pending)
}
