import type Database from 'better-sqlite3'

/**
 * The full-text index of asset names and tags, kept by the catalog itself (no triggers):
 * a contentless FTS5 table (rows removed with its 'delete' command, the old values read from
 * `assets`; faster here than `contentless_delete=1`) whose rowid is `bucket × 2³² + asset id`.
 * The bucket says what bounds a row's bm25 score: its token count D and R, the most of its
 * tokens that share their first two letters (a prefix phrase of two or more letters matches
 * only tokens that start with its first two, so its frequency f ≤ R). Rows where R ≥ 2 come
 * first in rowid order (R descending, then D ascending: roughly best bound first), then rows
 * where R = 1 by D ascending, so FTS5's own rowid walk meets each region best first (FTS5 seeks
 * a rowid by stepping, and walks backwards slowly: both regions are walked forwards). `fts_terms` lists every indexed token, so a
 * prefix word can be searched as the OR of its terms (FTS5 materialises a prefix's whole
 * doclist before the first row; an OR of terms is walked lazily). `assets_fts_multi` indexes the
 * R ≥ 2 rows (a few per cent) a second time, so a search walks their short doclists instead of
 * stepping through the main ones (FTS5 seeks a rowid by stepping). `assets_fts_rep` indexes, for
 * those rows, only their tokens whose first two letters repeat in the row (`fts_multi_text` keeps
 * them, keyed by FTS rowid, for counting and deleting): the rows that may hold a word twice are
 * then found without reading the text of every R ≥ 2 match. See fts-search.ts.
 *
 * bm25 as FTS5 computes it (sqlite ext/fts5/fts5_aux.c, fts5Bm25Function):
 *   score = Σ_phrases idf_i · f_i·(k1+1) / (f_i + k1·(1 − b + b·D/avgdl)),  k1 = 1.2, b = 0.75,
 *   idf_i = ln((nRow − nHit_i + 0.5) / (nHit_i + 0.5)) (1e-6 when ≤ 0), D the row's token count
 *   (all columns), avgdl = total tokens / nRow; `rank` is −score.
 */
/** The FTS rowid is `bucket × FTS_KEY + asset id`. */
export const FTS_KEY = 2 ** 32
const K1 = 1.2
const B = 0.75

/** The bucket of text whose tokens we do not count ourselves (other non-ASCII, over 255 tokens, R > 254). */
export const UNBOUNDED = 0xffff
/** Buckets from this on hold R = 1 rows (`SINGLE_FROM + D`); below it, R ≥ 2 rows (`(255 − R) × 256 + D`). */
export const SINGLE_FROM = 254 * 256

/** Token counts by their first two (folded) characters, `c1 × 128 + c2` (c2 = 0 for a one-character token). */
const leadCounts = new Int32Array(128 * 128)

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/**
 * Latin letters with diacritics (U+00C0–U+017F) whose canonical decomposition is an ASCII letter
 * plus combining marks: FTS5's unicode61 tokenizer with remove_diacritics 2 folds each to that
 * lower-case letter and keeps it in its token (checked against FTS5 for every one in the tests).
 */
const LATIN_FOLD = new Map<number, number>()
for (let c = 0xc0; c <= 0x17f; c++) {
  const nfd = String.fromCharCode(c).normalize('NFD')
  if (nfd.length > 1 && /^[A-Za-z]\p{M}+$/u.test(nfd)) LATIN_FOLD.set(c, nfd.toLowerCase().charCodeAt(0))
}

/** `text` with those letters folded to ASCII, as FTS5 tokenizes it; null when it holds other non-ASCII characters. */
export function foldLatin(text: string): string | null {
  let out: string | null = null
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) continue
    const f = LATIN_FOLD.get(c)
    if (f === undefined) return null
    out = (out ?? text).slice(0, i) + String.fromCharCode(f) + (out ?? text).slice(i + 1)
  }
  return out ?? text
}

/** The ASCII tokens of a text as FTS5's unicode61 tokenizer makes them (runs of letters and digits, lower-cased). */
function asciiTokens(text: string, out: string[]): void {
  let start = -1
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32
    if (isAlnum(c)) {
      if (start < 0) start = i
    } else if (start >= 0) {
      out.push(text.slice(start, i).toLowerCase())
      start = -1
    }
  }
}

/**
 * The tokens of a row (R ≥ 2) that share their first two letters with another of its tokens,
 * space-separated in order: what `assets_fts_rep` indexes (schema 5). A prefix word of two or
 * more letters can occur twice or more in a row only among these tokens, so a row that does not
 * match a word here holds it once (fts-search.ts). Call only for bounded rows (ASCII once folded).
 */
export function repeatedTokens(name: string, tags: string): string {
  const toks: string[] = []
  asciiTokens(foldLatin(name) ?? '', toks)
  asciiTokens(foldLatin(tags) ?? '', toks)
  const lead = (t: string) => t.slice(0, 2)
  const n = new Map<string, number>()
  for (const t of toks) n.set(lead(t), (n.get(lead(t)) ?? 0) + 1)
  return toks.filter((t) => n.get(lead(t))! >= 2).join(' ')
}

/** One row's tokens and their lead codes (`ftsRow`'s scratch space). */
const rowTokens: string[] = []
const rowLeads: number[] = []

/** Appends the tokens of ASCII text and their lead codes (`c1 × 128 + c2`); false for non-ASCII text. */
function tokenize(text: string): boolean {
  let start = -1
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32
    if (c >= 0x80) return false
    if (isAlnum(c)) {
      if (start < 0) start = i
      continue
    }
    if (start < 0) continue
    const tok = text.slice(start, i).toLowerCase()
    start = -1
    rowTokens.push(tok)
    rowLeads.push(tok.charCodeAt(0) * 128 + (tok.length > 1 ? tok.charCodeAt(1) : 0))
  }
  return true
}

/** The most tokens of the row in `rowTokens` that share a lead (R), its repeated tokens when R ≥ 2 (and R ≤ 254). */
function rowLeadStats(): { r: number; rep: string | null } {
  let r = 0
  for (const lead of rowLeads) r = Math.max(r, ++leadCounts[lead]!)
  let rep: string | null = null
  if (r >= 2 && r <= 254) {
    const kept: string[] = []
    rowTokens.forEach((tok, i) => leadCounts[rowLeads[i]!]! >= 2 && kept.push(tok))
    rep = kept.join(' ')
  }
  for (const lead of rowLeads) leadCounts[lead] = 0
  return { r, rep }
}

/** The bucket of a row of D tokens whose most tokens sharing a lead is R. */
const bucketOf = (r: number, d: number) => (r <= 1 ? SINGLE_FROM + d : (255 - r) * 256 + d)

/**
 * The FTS bucket of an asset (see above), counting its tokens the way FTS5's unicode61
 * tokenizer does for ASCII text (and Latin letters with diacritics, folded); `terms`, when
 * given, collects them (also those of a row it cannot bound, as far as they were read).
 */
export function ftsBucket(name: string, tags: string, terms?: Set<string>): number {
  rowTokens.length = 0
  rowLeads.length = 0
  const n = foldLatin(name)
  const t = foldLatin(tags)
  const ok = n !== null && t !== null && tokenize(n) && tokenize(t)
  if (terms) for (const tok of rowTokens) terms.add(tok)
  if (!ok || rowTokens.length > 255) return UNBOUNDED
  const { r } = rowLeadStats()
  return r > 254 ? UNBOUNDED : bucketOf(r, rowTokens.length)
}

/**
 * What a written row puts in the index, from one pass over its text (the writer's hot path):
 * `ftsBucket(name, tags)`; for a bounded row its distinct terms added to `terms`; for an R ≥ 2 row
 * `repeatedTokens(name, tags)` as `rep` (else null). Unbounded rows add no terms.
 */
export function ftsRow(name: string, tags: string, terms: Set<string>): { bucket: number; rep: string | null } {
  rowTokens.length = 0
  rowLeads.length = 0
  const n = foldLatin(name)
  const t = n === null ? null : foldLatin(tags)
  if (n === null || t === null || !tokenize(n) || !tokenize(t) || rowTokens.length > 255) return { bucket: UNBOUNDED, rep: null }
  const { r, rep } = rowLeadStats()
  if (r > 254) return { bucket: UNBOUNDED, rep: null }
  for (const tok of rowTokens) terms.add(tok)
  return { bucket: bucketOf(r, rowTokens.length), rep }
}

/** R and D of a bucket (not UNBOUNDED). */
export function bucketShape(bucket: number): { r: number; d: number } {
  return bucket >= SINGLE_FROM ? { r: 1, d: bucket - SINGLE_FROM } : { r: 255 - (bucket >> 8), d: bucket & 255 }
}

/** The highest bm25 score (per unit of Σ idf) a row of the bucket can reach; Infinity when unbounded. */
export function bucketBound(bucket: number, avgdl: number): number {
  if (bucket === UNBOUNDED) return Infinity
  const { r, d } = bucketShape(bucket)
  return bm25Term(r, d, avgdl)
}

/** One phrase's bm25 term without its idf: f·(k1+1) / (f + k1·(1 − b + b·D/avgdl)), as FTS5 writes it. */
export function bm25Term(f: number, d: number, avgdl: number): number {
  return (f * (K1 + 1)) / (f + K1 * (1 - B + (B * d) / avgdl))
}

/** Records indexed tokens (kept when their rows go: a term without rows only widens an OR). */
export function addTerms(st: (sql: string) => Database.Statement, terms: Iterable<string>): void {
  const ins = st('INSERT OR IGNORE INTO fts_terms (term) VALUES (?)')
  for (const t of terms) ins.run(t)
}

/** Counts each distinct term of one row (`rowTerms`) once into `counts`. */
export function tallyRow(counts: Map<string, number>, rowTerms: Set<string>): void {
  for (const t of rowTerms) counts.set(t, (counts.get(t) ?? 0) + 1)
}

/** How many of the bounded rows among `rows` hold each term (what bm25's idf counts per term). */
export function rowTermCounts(rows: Iterable<{ name: string; tags: string }>): Map<string, number> {
  const counts = new Map<string, number>()
  const rowTerms = new Set<string>()
  for (const r of rows) {
    rowTerms.clear()
    if (ftsRow(r.name, r.tags, rowTerms).bucket !== UNBOUNDED) tallyRow(counts, rowTerms)
  }
  return counts
}

/**
 * Adds (sign 1) or takes away (−1) rows from each term's row count, `fts_terms.docs` (schema 5):
 * a word searched as one term gets its idf from it instead of counting its matches. Rows we do
 * not tokenize (UNBOUNDED) are never counted; while any exist, search ranks with FTS5 anyway.
 */
export function countTerms(st: (sql: string) => Database.Statement, counts: Map<string, number>, sign: 1 | -1): void {
  const up = st('INSERT INTO fts_terms (term, docs) VALUES (?, ?) ON CONFLICT(term) DO UPDATE SET docs = docs + excluded.docs')
  for (const [t, n] of counts) up.run(t, sign * n)
}

/** Reads an SQLite-style varint (big-endian 7-bit groups, a 9th byte of 8 bits), as FTS5 stores them. */
function varint(buf: Uint8Array, pos: { i: number }): number {
  let v = 0
  for (let n = 0; n < 9; n++) {
    const b = buf[pos.i++]
    if (b === undefined) throw new Error(`FTS averages record: varint runs past the end at byte ${pos.i - 1}`)
    if (n === 8) return v * 256 + b
    v = v * 128 + (b & 0x7f)
    if (!(b & 0x80)) return v
  }
  return v
}

/**
 * nRow and the total token count, from FTS5's averages record (rowid 1 of `%_data`: a varint row
 * count, then one varint token total per column; sqlite ext/fts5/fts5_index.c, FTS5_AVERAGES_ROWID).
 */
export function ftsTotals(st: (sql: string) => Database.Statement): { nRow: number; tokens: number } {
  const r = st('SELECT block FROM assets_fts_data WHERE id = 1').get() as { block: Uint8Array } | undefined
  if (!r || !r.block.length) return { nRow: 0, tokens: 0 }
  const pos = { i: 0 }
  const nRow = varint(r.block, pos)
  let tokens = 0
  while (pos.i < r.block.length) tokens += varint(r.block, pos)
  return { nRow, tokens }
}

/** The FTS rowid of an asset, in SQL (`assets` columns). */
const KEY_SQL = `fts_bucket * ${FTS_KEY} + id`

/**
 * Adds sources' assets to the index, in FTS rowid order (FTS5 flushes its pending terms each
 * time a rowid goes backwards), and counts them into their buckets.
 */
export function ftsAddSource(st: (sql: string) => Database.Statement, sourceIds: number[]): void {
  const one = sourceIds.length === 1
  const where = one ? 'source_id = ?' : 'source_id IN (SELECT value FROM json_each(?))'
  const arg = one ? sourceIds[0] : JSON.stringify(sourceIds)
  st(`INSERT INTO assets_fts (rowid, name, tags) SELECT ${KEY_SQL} AS k, name, tags FROM assets WHERE ${where} ORDER BY k`).run(arg)
  st(`INSERT INTO assets_fts_multi (rowid, name, tags) SELECT ${KEY_SQL} AS k, name, tags FROM assets WHERE ${where} AND fts_bucket < ${SINGLE_FROM} ORDER BY k`).run(arg)
  st(`INSERT INTO assets_fts_rep (rowid, t) SELECT k, t FROM fts_multi_text WHERE k IN (SELECT ${KEY_SQL} FROM assets WHERE ${where} AND fts_bucket < ${SINGLE_FROM}) ORDER BY k`).run(arg)
  st(`INSERT INTO fts_buckets (bucket, n) SELECT fts_bucket, count(*) FROM assets WHERE ${where} GROUP BY fts_bucket ON CONFLICT(bucket) DO UPDATE SET n = n + excluded.n`).run(arg)
}

/** Takes a source's assets out of the index (call before deleting their rows): O(its own assets). */
export function ftsRemoveSource(st: (sql: string) => Database.Statement, sourceId: number): void {
  ftsDoomSource(st, sourceId)
  ftsDeleteDoomed(st)
}

/** The temporary table of index rows to delete (per connection; savepoints roll it back with the rest). */
export const DOOMED_SQL = 'CREATE TEMP TABLE IF NOT EXISTS fts_doomed (k INTEGER PRIMARY KEY, name TEXT NOT NULL, tags TEXT NOT NULL, t TEXT)'

/**
 * Keeps what a source's assets put in the index, to be deleted by `ftsDeleteDoomed` (call before
 * deleting their rows), and takes them out of their buckets. Inside a batch the deletes wait for
 * its flush: one sorted delete per index for the whole batch (FTS5 writes a small segment per
 * source deleted on its own, the cost of a forced re-index of many small files).
 */
export function ftsDoomSource(st: (sql: string) => Database.Statement, sourceId: number): void {
  const key = `a.fts_bucket * ${FTS_KEY} + a.id`
  st(`INSERT INTO temp.fts_doomed (k, name, tags, t) SELECT ${key}, a.name, a.tags, m.t FROM assets a LEFT JOIN fts_multi_text m ON m.k = ${key} WHERE a.source_id = ?`).run(sourceId)
  st('UPDATE fts_buckets SET n = fts_buckets.n - c.cnt FROM (SELECT fts_bucket AS b, count(*) AS cnt FROM assets WHERE source_id = ? GROUP BY fts_bucket) AS c WHERE fts_buckets.bucket = c.b').run(sourceId)
}

/** Deletes the kept rows from the three indexes, in rowid order. */
export function ftsDeleteDoomed(st: (sql: string) => Database.Statement): void {
  st("INSERT INTO assets_fts (assets_fts, rowid, name, tags) SELECT 'delete', k, name, tags FROM temp.fts_doomed ORDER BY k").run()
  st(`INSERT INTO assets_fts_multi (assets_fts_multi, rowid, name, tags) SELECT 'delete', k, name, tags FROM temp.fts_doomed WHERE k < ${SINGLE_FROM * FTS_KEY} ORDER BY k`).run()
  st("INSERT INTO assets_fts_rep (assets_fts_rep, rowid, t) SELECT 'delete', k, t FROM temp.fts_doomed WHERE t IS NOT NULL ORDER BY k").run()
  countTerms(st, rowTermCounts(st(`SELECT name, tags FROM temp.fts_doomed WHERE k < ${UNBOUNDED * FTS_KEY}`).all() as { name: string; tags: string }[]), -1)
  st('DELETE FROM temp.fts_doomed').run()
}

/** Forgets a source's repeated-token rows (after `ftsRemoveSource`, or for rows never indexed). */
export function dropMultiText(st: (sql: string) => Database.Statement, sourceId: number): void {
  st(`DELETE FROM fts_multi_text WHERE k IN (SELECT ${KEY_SQL} FROM assets WHERE source_id = ? AND fts_bucket < ${SINGLE_FROM})`).run(sourceId)
}

/** Schema 5: fills `fts_multi_text` and indexes it in `assets_fts_rep`; counts each term's rows. */
export function ftsMultiRebuild(db: Database.Database): void {
  const ins = db.prepare('INSERT INTO fts_multi_text (k, t) VALUES (?, ?)')
  // .all(), not .iterate(): the connection cannot run the inserts while a query is being read
  for (const r of db.prepare(`SELECT ${KEY_SQL} AS k, name, tags FROM assets WHERE fts_bucket < ${SINGLE_FROM}`).all() as { k: number; name: string; tags: string }[]) ins.run(r.k, repeatedTokens(r.name, r.tags))
  db.prepare('INSERT INTO assets_fts_rep (rowid, t) SELECT k, t FROM fts_multi_text ORDER BY k').run()
  countTerms((sql) => db.prepare(sql), rowTermCounts(db.prepare(`SELECT name, tags FROM assets WHERE fts_bucket != ${UNBOUNDED}`).iterate() as IterableIterator<{ name: string; tags: string }>), 1)
}

/**
 * Rebuilds the whole index from `assets` (buckets already set; the migration from the
 * trigger-kept index, schema 4; schema 5 adds `ftsMultiRebuild`).
 */
export function ftsRebuild(db: Database.Database): void {
  db.prepare('DELETE FROM fts_terms').run()
  const terms = new Set<string>()
  for (const r of db.prepare('SELECT name, tags FROM assets').iterate() as IterableIterator<{ name: string; tags: string }>) ftsBucket(r.name, r.tags, terms)
  addTerms((sql) => db.prepare(sql), terms)
  db.prepare(`INSERT INTO assets_fts (rowid, name, tags) SELECT ${KEY_SQL} AS k, name, tags FROM assets ORDER BY k`).run()
  db.prepare(`INSERT INTO assets_fts_multi (rowid, name, tags) SELECT ${KEY_SQL} AS k, name, tags FROM assets WHERE fts_bucket < ${SINGLE_FROM} ORDER BY k`).run()
  db.prepare('DELETE FROM fts_buckets').run()
  db.prepare('INSERT INTO fts_buckets (bucket, n) SELECT fts_bucket, count(*) FROM assets GROUP BY fts_bucket').run()
}
