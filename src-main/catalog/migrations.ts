import type Database from 'better-sqlite3'
import { ftsBucket, ftsMultiRebuild, ftsRebuild } from './fts'

/**
 * Numbered migrations. `PRAGMA user_version` holds the number of the last one applied; each runs
 * in its own transaction. Append new ones; never edit an applied one.
 */
export const migrations: { version: number; name: string; sql: string; run?: (db: Database.Database) => void }[] = [
  {
    version: 1,
    name: 'sources, assets, fts',
    sql: `
      CREATE TABLE sources (
        id          INTEGER PRIMARY KEY,
        path        TEXT NOT NULL UNIQUE,
        size        INTEGER NOT NULL,
        mtime       REAL NOT NULL,
        hash        TEXT NOT NULL,
        kind        TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('indexed', 'error')),
        error       TEXT,
        metadata    TEXT NOT NULL DEFAULT '{}',
        indexed_at  INTEGER NOT NULL
      );
      CREATE TABLE assets (
        id          INTEGER PRIMARY KEY,
        source_id   INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
        parent_id   INTEGER REFERENCES assets(id) ON DELETE CASCADE,
        ord         INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        name        TEXT NOT NULL,
        locator     TEXT NOT NULL DEFAULT '{}',
        metadata    TEXT NOT NULL DEFAULT '{}',
        tags        TEXT NOT NULL DEFAULT '',
        child_count INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX assets_by_parent ON assets (source_id, parent_id, ord);
      CREATE INDEX assets_by_kind ON assets (kind);
      CREATE VIRTUAL TABLE assets_fts USING fts5 (
        name, tags, content = 'assets', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER assets_ai AFTER INSERT ON assets BEGIN
        INSERT INTO assets_fts (rowid, name, tags) VALUES (new.id, new.name, new.tags);
      END;
      CREATE TRIGGER assets_ad AFTER DELETE ON assets BEGIN
        INSERT INTO assets_fts (assets_fts, rowid, name, tags) VALUES ('delete', old.id, old.name, old.tags);
      END;
      CREATE TRIGGER assets_au AFTER UPDATE OF name, tags ON assets BEGIN
        INSERT INTO assets_fts (assets_fts, rowid, name, tags) VALUES ('delete', old.id, old.name, old.tags);
        INSERT INTO assets_fts (rowid, name, tags) VALUES (new.id, new.name, new.tags);
      END;
    `,
  },
  {
    version: 2,
    name: 'settings (recent files, remembered folders)',
    sql: `
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
  {
    version: 3,
    name: 'asset ids are never reused (an id printed by ls keeps meaning that asset or nothing)',
    sql: `
      CREATE TABLE id_seq (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT INTO id_seq (name, value) SELECT 'assets', COALESCE(MAX(id), 0) FROM assets;
    `,
  },
  {
    version: 4,
    name: 'every cascading key leads an index; the FTS index is kept by the catalog, bucketed by score bound',
    // assets_by_parent led with source_id, so each cascaded delete scanned it for parent_id.
    // The per-row triggers cost 85 % of an insert and deleted out of rowid order (FTS5 then
    // flushes per row): the catalog writes the index a source at a time instead (fts.ts).
    sql: `
      DROP TRIGGER assets_ai;
      DROP TRIGGER assets_ad;
      DROP TRIGGER assets_au;
      DROP TABLE assets_fts;
      DROP INDEX assets_by_parent;
      CREATE INDEX assets_by_parent ON assets (parent_id, source_id, ord);
      CREATE INDEX assets_by_source ON assets (source_id);
      ALTER TABLE assets ADD COLUMN fts_bucket INTEGER NOT NULL DEFAULT 0;
      CREATE VIRTUAL TABLE assets_fts USING fts5 (name, tags, content = '', tokenize = 'unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE assets_fts_multi USING fts5 (name, tags, content = '', tokenize = 'unicode61 remove_diacritics 2');
      CREATE TABLE fts_buckets (bucket INTEGER PRIMARY KEY, n INTEGER NOT NULL);
      CREATE TABLE fts_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
      ALTER TABLE sources ADD COLUMN ino INTEGER NOT NULL DEFAULT 0;
    `,
    run(db) {
      db.function('mb_fts_bucket', { deterministic: true }, (name, tags) => ftsBucket(String(name), String(tags)))
      db.exec('UPDATE assets SET fts_bucket = mb_fts_bucket(name, tags)')
      ftsRebuild(db)
    },
  },
  {
    version: 5,
    name: 'a third FTS index of the R ≥ 2 rows: only their tokens whose first two letters repeat in the row',
    // A search then reads the text of just the rows that may hold a word twice, not of every
    // R ≥ 2 match (at a million assets those scattered reads were most of a search's time).
    // fts_terms.docs counts each term's rows: a two-word search needed each word's idf, and
    // counting a common word's matches took most of its time.
    // assets_by_kind goes: every kind filter also names a source (assets_by_source serves it),
    // and keeping a low-cardinality index cost each insert a third index write.
    sql: `
      DROP INDEX assets_by_kind;
      CREATE VIRTUAL TABLE assets_fts_rep USING fts5 (t, content = '', tokenize = 'unicode61 remove_diacritics 2');
      CREATE TABLE fts_multi_text (k INTEGER PRIMARY KEY, t TEXT NOT NULL);
      ALTER TABLE fts_terms ADD COLUMN docs INTEGER NOT NULL DEFAULT 0;
    `,
    run: ftsMultiRebuild,
  },
  {
    version: 6,
    name: 'files a folder walk met and no detector took, by stamp (an unchanged re-index does not read them again)',
    // `detectors` names the detector set that looked at the file: another set (an upgrade) looks again.
    sql: `
      CREATE TABLE skipped (
        path        TEXT PRIMARY KEY,
        size        INTEGER NOT NULL,
        mtime       REAL NOT NULL,
        ino         INTEGER NOT NULL,
        detectors   TEXT NOT NULL,
        seen_at     INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
]

export function migrate(db: Database.Database): number {
  const current = db.pragma('user_version', { simple: true }) as number
  for (const m of migrations) {
    if (m.version <= current) continue
    // IMMEDIATE, and the version read again inside: another process opening the same new catalog
    // may have applied it meanwhile.
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) >= m.version) return
      db.exec(m.sql)
      m.run?.(db)
      db.pragma(`user_version = ${m.version}`)
    }).immediate()
  }
  return db.pragma('user_version', { simple: true }) as number
}
