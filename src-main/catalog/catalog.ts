import Database from 'better-sqlite3'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { AssetRow, SourceKind, SourceRow } from '../../src-shared/api/catalog'
import type { AssetDraft } from '../indexer/detector'
import { migrate } from './migrations'

export interface SourceInfo {
  path: string
  size: number
  mtime: number
  hash: string
  kind: SourceKind
  metadata?: Record<string, unknown>
}

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
}

function toAsset(r: AssetDbRow): AssetRow {
  return {
    id: r.id,
    sourceId: r.source_id,
    parent: r.parent_id,
    kind: r.kind,
    name: r.name,
    locator: JSON.parse(r.locator) as Record<string, unknown>,
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    childCount: r.child_count,
    sourcePath: r.source_path,
  }
}

function toSource(r: SourceDbRow): SourceRow & { metadata: Record<string, unknown> } {
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
  }
}

/**
 * Turns what a user types into an FTS5 query: every word must match as a prefix, quotes
 * escaped, so `pika` finds `Pikachu` and punctuation cannot break the query syntax.
 */
export function ftsQuery(text: string): string | null {
  const words = text
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
  if (!words.length) return null
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' AND ')
}

const ASSET_COLS = 'a.id, a.source_id, a.parent_id, a.kind, a.name, a.locator, a.metadata, a.child_count, s.path AS source_path'

/**
 * The asset catalog: SQLite through better-sqlite3, WAL, numbered migrations. Stores where to
 * find things (paths, offsets, entry indices), never game bytes.
 */
export class Catalog {
  readonly db: Database.Database
  readonly path: string

  constructor(dbPath: string) {
    this.path = dbPath
    if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true })
    this.db = new Database(dbPath)
    this.db.pragma('journal_mode = WAL')
    this.db.pragma('synchronous = NORMAL')
    this.db.pragma('foreign_keys = ON')
    this.db.pragma('busy_timeout = 5000')
    migrate(this.db)
  }

  close(): void {
    this.db.close()
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number
  }

  sources(): SourceRow[] {
    return (this.db.prepare('SELECT * FROM sources ORDER BY path').all() as SourceDbRow[]).map(toSource)
  }

  source(id: number): (SourceRow & { metadata: Record<string, unknown> }) | null {
    const r = this.db.prepare('SELECT * FROM sources WHERE id = ?').get(id) as SourceDbRow | undefined
    return r ? toSource(r) : null
  }

  sourceByPath(p: string): (SourceRow & { metadata: Record<string, unknown> }) | null {
    const r = this.db.prepare('SELECT * FROM sources WHERE path = ?').get(path.resolve(p)) as SourceDbRow | undefined
    return r ? toSource(r) : null
  }

  asset(id: number): AssetRow | null {
    const r = this.db.prepare(`SELECT ${ASSET_COLS} FROM assets a JOIN sources s ON s.id = a.source_id WHERE a.id = ?`).get(id) as AssetDbRow | undefined
    return r ? toAsset(r) : null
  }

  children(sourceId: number, parent: number | null, offset = 0, limit = 1000): AssetRow[] {
    const sql =
      parent === null
        ? `SELECT ${ASSET_COLS} FROM assets a JOIN sources s ON s.id = a.source_id WHERE a.source_id = ? AND a.parent_id IS NULL ORDER BY a.ord LIMIT ? OFFSET ?`
        : `SELECT ${ASSET_COLS} FROM assets a JOIN sources s ON s.id = a.source_id WHERE a.source_id = ? AND a.parent_id = ? ORDER BY a.ord LIMIT ? OFFSET ?`
    const rows = (parent === null ? this.db.prepare(sql).all(sourceId, limit, offset) : this.db.prepare(sql).all(sourceId, parent, limit, offset)) as AssetDbRow[]
    return rows.map(toAsset)
  }

  /** All assets, optionally filtered by kind and source path. */
  list(filter: { kind?: string; source?: string } = {}): AssetRow[] {
    const where: string[] = []
    const args: unknown[] = []
    if (filter.kind) {
      where.push('a.kind = ?')
      args.push(filter.kind)
    }
    if (filter.source) {
      // A source's own path; or, when no source has that path, a folder: every source under it.
      const abs = path.resolve(filter.source)
      if (this.db.prepare('SELECT 1 FROM sources WHERE path = ?').get(abs)) {
        where.push('s.path = ?')
        args.push(abs)
      } else {
        where.push('instr(s.path, ?) = 1')
        args.push(abs.endsWith(path.sep) ? abs : abs + path.sep)
      }
    }
    const sql = `SELECT ${ASSET_COLS} FROM assets a JOIN sources s ON s.id = a.source_id ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY s.path, a.id`
    return (this.db.prepare(sql).all(...args) as AssetDbRow[]).map(toAsset)
  }

  search(text: string, limit = 200): AssetRow[] {
    const q = ftsQuery(text)
    if (!q) return []
    const sql = `SELECT ${ASSET_COLS} FROM assets_fts f JOIN assets a ON a.id = f.rowid JOIN sources s ON s.id = a.source_id
                 WHERE assets_fts MATCH ? ORDER BY f.rank LIMIT ?`
    return (this.db.prepare(sql).all(q, limit) as AssetDbRow[]).map(toAsset)
  }

  assetCount(sourceId?: number): number {
    const r = (sourceId === undefined
      ? this.db.prepare('SELECT COUNT(*) AS n FROM assets').get()
      : this.db.prepare('SELECT COUNT(*) AS n FROM assets WHERE source_id = ?').get(sourceId)) as { n: number }
    return r.n
  }

  /**
   * Replaces a source's row and all its assets in ONE transaction: a crash or a thrown error
   * part-way leaves the previous rows exactly as they were. `beforeCommit` is a test hook.
   */
  replaceSource(info: SourceInfo, drafts: AssetDraft[], beforeCommit?: (insertedSoFar: number) => void): { sourceId: number; assets: number } {
    const abs = path.resolve(info.path)
    const run = this.db.transaction(() => {
      const existing = this.db.prepare('SELECT id FROM sources WHERE path = ?').get(abs) as { id: number } | undefined
      let sourceId: number
      const meta = JSON.stringify(info.metadata ?? {})
      if (existing) {
        sourceId = existing.id
        this.db.prepare('DELETE FROM assets WHERE source_id = ?').run(sourceId)
        this.db
          .prepare(`UPDATE sources SET size = ?, mtime = ?, hash = ?, kind = ?, status = 'indexed', error = NULL, metadata = ?, indexed_at = ? WHERE id = ?`)
          .run(info.size, info.mtime, info.hash, info.kind, meta, Date.now(), sourceId)
      } else {
        sourceId = Number(
          this.db
            .prepare(`INSERT INTO sources (path, size, mtime, hash, kind, status, error, metadata, indexed_at) VALUES (?, ?, ?, ?, ?, 'indexed', NULL, ?, ?)`)
            .run(abs, info.size, info.mtime, info.hash, info.kind, meta, Date.now()).lastInsertRowid,
        )
      }
      // Ids come from a sequence that only grows: SQLite would hand a deleted row's id to the next
      // insert, so a re-indexed source could give an old id (printed by ls) to another asset.
      const seq = this.db.prepare("SELECT MAX(value, (SELECT COALESCE(MAX(id), 0) FROM assets)) AS v FROM id_seq WHERE name = 'assets'").get() as { v: number } | undefined
      let nextId = (seq?.v ?? 0) + 1
      const ins = this.db.prepare('INSERT INTO assets (id, source_id, parent_id, ord, kind, name, locator, metadata, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      const ids = new Map<string, number>()
      const counts = new Map<number | null, number>()
      let n = 0
      for (const d of drafts) {
        if (ids.has(d.key)) throw new Error(`${abs}: duplicate asset key ${d.key}`)
        let parent: number | null = null
        if (d.parentKey !== undefined) {
          const p = ids.get(d.parentKey)
          if (p === undefined) throw new Error(`${abs}: asset ${d.key} names parent ${d.parentKey}, which comes later or does not exist`)
          parent = p
        }
        const ord = counts.get(parent) ?? 0
        counts.set(parent, ord + 1)
        const id = nextId++
        ins.run(id, sourceId, parent, ord, d.kind, d.name, JSON.stringify(d.locator ?? {}), JSON.stringify(d.metadata ?? {}), (d.tags ?? []).join(' '))
        ids.set(d.key, id)
        n++
        if (beforeCommit && n === Math.ceil(drafts.length / 2)) beforeCommit(n)
      }
      this.db.prepare("INSERT INTO id_seq (name, value) VALUES ('assets', ?) ON CONFLICT(name) DO UPDATE SET value = MAX(value, excluded.value)").run(nextId - 1)
      const upd = this.db.prepare('UPDATE assets SET child_count = ? WHERE id = ?')
      for (const [parent, c] of counts) if (parent !== null) upd.run(c, parent)
      if (beforeCommit && drafts.length === 0) beforeCommit(0)
      return { sourceId, assets: n }
    })
    return run()
  }

  /** Records a file that could not be read; its previous assets (if any) are dropped. */
  recordError(info: Omit<SourceInfo, 'metadata'>, error: string): number {
    const abs = path.resolve(info.path)
    return this.db.transaction(() => {
      const existing = this.db.prepare('SELECT id FROM sources WHERE path = ?').get(abs) as { id: number } | undefined
      if (existing) {
        this.db.prepare('DELETE FROM assets WHERE source_id = ?').run(existing.id)
        this.db
          .prepare(`UPDATE sources SET size = ?, mtime = ?, hash = ?, kind = ?, status = 'error', error = ?, indexed_at = ? WHERE id = ?`)
          .run(info.size, info.mtime, info.hash, info.kind, error, Date.now(), existing.id)
        return existing.id
      }
      return Number(
        this.db
          .prepare(`INSERT INTO sources (path, size, mtime, hash, kind, status, error, metadata, indexed_at) VALUES (?, ?, ?, ?, ?, 'error', ?, '{}', ?)`)
          .run(abs, info.size, info.mtime, info.hash, info.kind, error, Date.now()).lastInsertRowid,
      )
    })()
  }

  removeSource(id: number): void {
    this.db.prepare('DELETE FROM sources WHERE id = ?').run(id)
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
