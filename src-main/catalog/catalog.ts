import Database from 'better-sqlite3'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { AssetKind, AssetRow, SourceKind, SourceRow } from '../../src-shared/api/catalog'
import type { AssetDraft } from '../plugin/detector'
import type { CatalogAccess } from '../plugin/context'
import { DOOMED_SQL } from './fts'
import { searchTopN } from './fts-search'
import { migrate } from './migrations'
import { dropAssets, ftsFlush, writeError, writeSource, type PendingFts } from './writes'
import { explainCatalogError } from './catalog-errors'
import { PATH_END, skippedFiles, sourceStamp, sourceStampsUnder, UNDER, type SkippedFiles, type SourceStamp } from './stamps'
import { beginWrite, BUSY_TIMEOUT_MS, giveTurn, othersWaiting, tryBegin, type WaitOptions } from './write-lock'

export type { SourceInfo } from './writes'
export type { SkippedStamp, SourceStamp } from './stamps'
import type { SourceInfo } from './writes'


interface AssetDbRow {
  id: number
  source_id: number
  parent_id: number | null
  kind: string
  name: string
  locator: string
  metadata: string
  child_count: number
  source_path?: string
}

interface SourceDbRow {
  id: number
  path: string
  size: number
  mtime: number
  hash: string
  kind: string
  status: 'indexed' | 'error'
  error: string | null
  metadata: string
  indexed_at: number
  ino: number
}

function toAsset(r: AssetDbRow): AssetRow {
  return {
    id: r.id,
    sourceId: r.source_id,
    parent: r.parent_id,
    kind: r.kind as AssetKind, // written from a detector's AssetDraft (or a registered plug-in's kind)
    name: r.name,
    locator: JSON.parse(r.locator) as Record<string, unknown>,
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    childCount: r.child_count,
    sourcePath: r.source_path,
  }
}

/** A source row as the catalog holds it: the API's row plus its metadata and the file's inode. */
export type CatalogSource = SourceRow & { metadata: Record<string, unknown>; ino: number }

function toSource(r: SourceDbRow): CatalogSource {
  return {
    id: r.id,
    path: r.path,
    size: r.size,
    mtime: r.mtime,
    hash: r.hash,
    kind: r.kind as SourceKind,
    status: r.status,
    error: r.error,
    indexedAt: r.indexed_at,
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    ino: r.ino,
  }
}

/**
 * Turns what a user types into an FTS5 query: every word must match as a prefix, quotes
 * escaped, so `pika` finds `Pikachu` and punctuation cannot break the query syntax.
 */
export function ftsQuery(text: string): string | null {
  const phrases = ftsPhrases(text)
  return phrases.length ? phrases.join(' AND ') : null
}

/** The words of a search text (letters and digits; NFKC). */
function ftsWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

/** The prefix phrases of `ftsQuery`, one per word. */
export function ftsPhrases(text: string): string[] {
  return ftsWords(text).map((w) => `"${w.replace(/"/g, '""')}"*`)
}

/** One row of `ls`/`find` (CLI.md's JSON shape): `{"id","kind","name","source","parent"}`. */
export interface ListItem {
  id: number
  kind: string
  name: string
  source: string
  parent: number | null
}

export interface ListFilter {
  kind?: string
  source?: string
}

const ASSET_COLS = 'a.id, a.source_id, a.parent_id, a.kind, a.name, a.locator, a.metadata, a.child_count, s.path AS source_path'

/**
 * The asset catalog: SQLite through better-sqlite3, WAL, numbered migrations. Stores where to
 * find things (paths, offsets, entry indices), never game bytes.
 */
export class Catalog implements CatalogAccess {
  readonly db: Database.Database
  readonly path: string

  constructor(dbPath: string) {
    this.path = dbPath
    if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true })
    let db: Database.Database | null = null
    try {
      this.db = db = new Database(dbPath)
      // First, so that switching to WAL and migrating wait for another process opening it too.
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      db.pragma('foreign_keys = ON')
      // 32 MiB of page cache (SQLite's default is 2 MiB): at a million assets the FTS doclists and
      // index pages a search walks stay cached between searches instead of being read again.
      db.pragma('cache_size = -32768')
      migrate(db)
      db.exec(DOOMED_SQL)
    } catch (e) {
      db?.close()
      throw explainCatalogError(e, dbPath)
    }
    this.tx = this.db.transaction((fn: () => unknown) => fn())
  }

  /** Statements prepared once per connection (preparing is a large part of a small source's cost). */
  private readonly stmts = new Map<string, Database.Statement>()

  private st(sql: string): Database.Statement {
    let s = this.stmts.get(sql)
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)))
    return s
  }

  close(): void {
    this.stmts.clear()
    this.db.close()
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number
  }

  sources(): SourceRow[] {
    return (this.st('SELECT * FROM sources ORDER BY path').all() as SourceDbRow[]).map(toSource)
  }

  source(id: number): CatalogSource | null {
    const r = this.st('SELECT * FROM sources WHERE id = ?').get(id) as SourceDbRow | undefined
    return r ? toSource(r) : null
  }

  sourceByPath(p: string): CatalogSource | null {
    const r = this.st('SELECT * FROM sources WHERE path = ?').get(path.resolve(p)) as SourceDbRow | undefined
    return r ? toSource(r) : null
  }

  /**
   * What a re-index compares of a source, without its metadata (parsing that JSON was a large part
   * of an unchanged set's cost): its stamp, content hash, status and kind, and its asset count.
   */
  sourceStamp(p: string): SourceStamp | null {
    return sourceStamp(this.st.bind(this), path.resolve(p))
  }

  /** `sourceStamp` of every source under a folder (a path ending in a separator), by path: one query for a whole re-index. */
  sourceStampsUnder(prefix: string): Map<string, SourceStamp> {
    return sourceStampsUnder(this.st.bind(this), prefix)
  }

  /** Walked files no detector took, by stamp (stamps.ts). */
  get skipped(): SkippedFiles {
    return skippedFiles(this.st.bind(this))
  }

  asset(id: number): AssetRow | null {
    const r = this.st(`SELECT ${ASSET_COLS} FROM assets a JOIN sources s ON s.id = a.source_id WHERE a.id = ?`).get(id) as AssetDbRow | undefined
    return r ? toAsset(r) : null
  }

  /**
   * A page of the children of `parent` (or of the source's top level), in their order. Paged by
   * key: `after` (the id of the last child already shown) or `offset` both seek on the
   * (parent, source, ord) index, since `ord` numbers each parent's children 0, 1, 2 … without gaps.
   */
  children(sourceId: number, parent: number | null, offset = 0, limit = 1000, after?: number): AssetRow[] {
    let from = Math.max(0, offset)
    if (after !== undefined) {
      const prev = this.st('SELECT ord FROM assets WHERE id = ? AND source_id = ? AND parent_id IS ?').get(after, sourceId, parent) as { ord: number } | undefined
      if (!prev) return []
      from = prev.ord + 1
    }
    const where = parent === null ? 'a.parent_id IS NULL' : 'a.parent_id = @parent'
    const sql = `SELECT ${ASSET_COLS} FROM assets a JOIN sources s ON s.id = a.source_id WHERE ${where} AND a.source_id = @sourceId AND a.ord >= @from ORDER BY a.ord LIMIT @limit`
    const args = parent === null ? { sourceId, from, limit } : { sourceId, parent, from, limit }
    return (this.st(sql).all(args) as AssetDbRow[]).map(toAsset)
  }

  /** All assets, optionally filtered by kind and source path, ordered by source path then id. */
  list(filter: ListFilter = {}): AssetRow[] {
    const out: AssetRow[] = []
    for (const src of this.listSources(filter.source)) {
      const sql = `SELECT ${ASSET_COLS} FROM assets a JOIN sources s ON s.id = a.source_id WHERE a.source_id = ? ${filter.kind ? 'AND a.kind = ?' : ''} ORDER BY a.id`
      const rows = (filter.kind ? this.st(sql).all(src.id, filter.kind) : this.st(sql).all(src.id)) as AssetDbRow[]
      for (const r of rows) out.push(toAsset(r))
    }
    return out
  }

  /**
   * The rows of `list` in `ls`'s shape, one at a time: a source at a time in path order, each
   * source's assets in id order off the (source_id) index, so memory stays flat at any size.
   */
  *listItems(filter: ListFilter = {}): Generator<ListItem> {
    const sql = `SELECT id, kind, name, parent_id AS parent FROM assets WHERE source_id = ? ${filter.kind ? 'AND kind = ?' : ''} ORDER BY id`
    for (const src of this.listSources(filter.source)) {
      const rows = (filter.kind ? this.st(sql).iterate(src.id, filter.kind) : this.st(sql).iterate(src.id)) as IterableIterator<Omit<ListItem, 'source'>>
      for (const r of rows) yield { id: r.id, kind: r.kind, name: r.name, source: src.path, parent: r.parent }
    }
  }

  /**
   * Column widths for `listItems(filter)`'s text lines, known before the first row without counting
   * or scanning the rows (issue 26: `ls` printed nothing until every source was counted): the
   * catalog's largest id (the rowid's end of the b-tree) and the longest kind name, found by a skip
   * scan of the kind index (one probe per distinct kind). Upper bounds for a filtered list.
   */
  listWidths(filter: ListFilter = {}): { id: number; kind: number } {
    const maxId = (this.st('SELECT MAX(id) AS id FROM assets').get() as { id: number | null }).id
    if (filter.kind) return { id: String(maxId ?? '').length, kind: filter.kind.length }
    const k = this.st(`WITH RECURSIVE k(v) AS (SELECT MIN(kind) FROM assets UNION ALL SELECT (SELECT MIN(kind) FROM assets WHERE kind > v) FROM k WHERE v IS NOT NULL)
      SELECT MAX(LENGTH(v)) AS k FROM k`).get() as { k: number | null }
    return { id: String(maxId ?? '').length, kind: k.k ?? 0 }
  }

  /** Id and path of every source whose path starts with `prefix` (a folder path ending in a separator). */
  sourcesUnder(prefix: string): { id: number; path: string }[] {
    return this.st(`SELECT id, path FROM sources WHERE ${UNDER('path')} ORDER BY path`).all({ p: prefix, end: prefix + PATH_END }) as { id: number; path: string }[]
  }

  /** The sources a `--source` filter names: a source's own path; or, when none has it, every source under that folder. */
  private listSources(source?: string): { id: number; path: string }[] {
    if (!source) return this.st('SELECT id, path FROM sources ORDER BY path').all() as { id: number; path: string }[]
    const abs = path.resolve(source)
    const own = this.st('SELECT id, path FROM sources WHERE path = ?').all(abs) as { id: number; path: string }[]
    if (own.length) return own
    return this.sourcesUnder(abs.endsWith(path.sep) ? abs : abs + path.sep)
  }

  /**
   * Full-text search, best first (bm25, ties by id): the top `limit` only, ranking just the FTS
   * buckets that can reach them (fts.ts), never every match.
   */
  search(text: string, limit = 200): AssetRow[] {
    const q = ftsQuery(text)
    if (!q) return []
    const hits = searchTopN(this.st.bind(this), q, ftsWords(text), limit)
    const rows = this.st(`SELECT ${ASSET_COLS} FROM assets a JOIN sources s ON s.id = a.source_id WHERE a.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(hits.map((h) => h.id))) as AssetDbRow[]
    const byId = new Map(rows.map((r) => [r.id, r]))
    const out: AssetRow[] = []
    for (const h of hits) {
      const r = byId.get(h.id)
      if (r) out.push(toAsset(r))
    }
    return out
  }

  assetCount(sourceId?: number): number {
    const r = (sourceId === undefined
      ? this.st('SELECT COUNT(*) AS n FROM assets').get()
      : this.st('SELECT COUNT(*) AS n FROM assets WHERE source_id = ?').get(sourceId)) as { n: number }
    return r.n
  }

  /**
   * Replaces a source's row and all its assets in ONE transaction (a savepoint inside an open
   * batch): a crash or a thrown error part-way leaves the previous rows exactly as they were.
   * `beforeCommit` is a test hook. O(the source's own assets) at any catalog size.
   */
  replaceSource(info: SourceInfo, drafts: AssetDraft<string>[], beforeCommit?: (insertedSoFar: number) => void): { sourceId: number; assets: number } {
    return this.write(() => writeSource(this.st.bind(this), info, drafts, beforeCommit, this.pending ?? undefined))
  }

  /** Records a file that could not be read; its previous assets (if any) are dropped. */
  recordError(info: Omit<SourceInfo, 'metadata'>, error: string): number {
    return this.write(() => writeError(this.st.bind(this), info, error, this.pending ?? undefined))
  }

  /** Inside a batch: the sources whose FTS rows wait for the batch's commit. */
  private pending: PendingFts | null = null

  /** Runs a function in a transaction (a savepoint when one is open); made once, not per write. */
  private readonly tx: Database.Transaction<(fn: () => unknown) => unknown>

  /** One source's write as a transaction (a savepoint in a batch); a rolled-back one leaves the pending FTS list as it was. */
  private write<T>(fn: () => T): T {
    const undo: (() => void)[] = []
    if (this.pending) this.pending.undo = undo
    try {
      // Alone (not in a batch): BEGIN IMMEDIATE, which waits for another process's write lock.
      return (this.db.inTransaction ? this.tx(fn) : this.tx.immediate(fn)) as T
    } catch (e) {
      for (const u of undo.reverse()) u()
      throw e
    } finally {
      if (this.pending) this.pending.undo = undefined
    }
  }

  /** Records a source's new file stamp (size, mtime, inode) after its content proved unchanged. */
  touchSource(id: number, stamp: { size: number; mtime: number; ino: number }): void {
    this.st('UPDATE sources SET size = ?, mtime = ?, ino = ?, indexed_at = ? WHERE id = ?').run(stamp.size, stamp.mtime, stamp.ino, Date.now(), id)
  }

  /** Forgets a source and its assets: O(its own assets). */
  removeSource(id: number): void {
    this.write(() => {
      dropAssets(this.st.bind(this), id, this.pending ?? undefined)
      this.st('DELETE FROM sources WHERE id = ?').run(id)
    })
  }

  /**
   * Runs `fn` with sources written into one transaction (each still its own savepoint), committed
   * when `fn` settles — also when it throws or is cancelled: finished sources stay. Many small
   * sources then cost one commit, not one each. Only one writer may use the connection meanwhile.
   * The transaction holds the catalog's write lock: another process's batch waits its turn
   * (write-lock.ts), and `flush` (commit, then take the lock again) lets a waiting one have a turn.
   */
  async batch<T>(fn: (flush: () => Promise<void>) => Promise<T>, wait: WaitOptions = {}): Promise<T> {
    if (this.db.inTransaction) return fn(async () => {})
    await beginWrite(this.db, this.path, wait)
    this.pending = { sources: new Set(), terms: new Map() }
    // The FTS rows of the batch's sources go in with its commit (one sorted insert for all).
    const commit = () => {
      ftsFlush(this.st.bind(this), this.pending!)
      this.db.exec('COMMIT')
    }
    const flush = async () => {
      if (!this.db.inTransaction) return
      commit()
      if (!othersWaiting(this.path) && tryBegin(this.db)) return
      await giveTurn()
      await beginWrite(this.db, this.path, wait)
    }
    try {
      return await fn(flush)
    } finally {
      try {
        if (this.db.inTransaction) commit()
      } finally {
        this.pending = null
      }
    }
  }

  getSetting<T>(key: string): T | undefined {
    const r = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined
    return r ? (JSON.parse(r.value) as T) : undefined
  }

  setSetting(key: string, value: unknown): void {
    this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, JSON.stringify(value))
  }

  integrityCheck(): string {
    return this.db.pragma('integrity_check', { simple: true }) as string
  }
}

export function openCatalog(dbPath: string): Catalog {
  return new Catalog(dbPath)
}
