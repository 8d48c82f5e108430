import type Database from 'better-sqlite3'

/**
 * The full-text index of asset names and tags, kept by the catalog itself (no triggers):
 * a contentless FTS5 table (rows removed with its 'delete' command, the old values read from
 * `assets`; faster than `contentless_delete=1` here) whose rowid is
 * `bucket × 2³² + asset id`. The bucket groups assets by what bounds their bm25 score
 * (token count D, and R: the most tokens that share a first letter), so a search ranks the few
 * buckets that can hold the top N instead of every match (see `searchTopN`).
 *
 * bm25 as FTS5 computes it (sqlite ext/fts5/fts5_aux.c, fts5Bm25Function):
 *   score = Σ_phrases idf_i · f_i·(k1+1) / (f_i + k1·(1 − b + b·D/avgdl)),  k1 = 1.2, b = 0.75,
 *   idf_i = max(1e-6, ln((nRow − nHit_i + 0.5) / (nHit_i + 0.5))), D the row's token count
 *   (all columns), avgdl = total tokens / nRow; `rank` is −score.
 */
export const FTS_KEY = 2 ** 32
const K1 = 1.2
const B = 0.75

/** Bucket 0: text whose tokens we do not count ourselves (non-ASCII, or over 255 tokens): always ranked. */
export const UNBOUNDED = 0

const firstCounts = new Int32Array(128)

/** Adds the tokens of one ASCII column to the first-letter counts; returns [tokens, max count] or null for non-ASCII. */
function countTokens(text: string, touched: number[], acc: { d: number; r: number }): boolean {
  let inToken = false
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    if (c >= 0x80) return false
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
    if (alnum && !inToken) {
      if (c >= 65 && c <= 90) c += 32
      if (firstCounts[c] === 0) touched.push(c)
      const n = ++firstCounts[c]!
      if (n > acc.r) acc.r = n
      acc.d++
    }
    inToken = alnum
  }
  return true
}

/**
 * The FTS bucket of an asset: `R × 256 + D` for ASCII text, where FTS5's unicode61 tokenizer
 * splits exactly at non-alphanumerics and folds case (so we count its tokens ourselves); else 0.
 * A prefix phrase matches only tokens that start with its first letter, so f ≤ R for any query.
 */
export function ftsBucket(name: string, tags: string): number {
  const touched: number[] = []
  const acc = { d: 0, r: 0 }
  const ok = countTokens(name, touched, acc) && countTokens(tags, touched, acc)
  for (const c of touched) firstCounts[c] = 0
  if (!ok || acc.d === 0 || acc.d > 255) return UNBOUNDED
  return acc.r * 256 + acc.d
}

/** The highest bm25 score (per unit of Σ idf) a row of the bucket can reach; Infinity for bucket 0. */
export function bucketBound(bucket: number, avgdl: number): number {
  if (bucket === UNBOUNDED) return Infinity
  return bm25Term(bucket >> 8, bucket & 255, avgdl)
}

function bm25Term(f: number, d: number, avgdl: number): number {
  return (f * (K1 + 1)) / (f + K1 * (1 - B + (B * d) / avgdl))
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
export function ftsTotals(db: Database.Database, table = 'assets_fts'): { nRow: number; tokens: number } {
  const r = db.prepare(`SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: Uint8Array } | undefined
  if (!r || !r.block.length) return { nRow: 0, tokens: 0 }
  const pos = { i: 0 }
  const nRow = varint(r.block, pos)
  let tokens = 0
  while (pos.i < r.block.length) tokens += varint(r.block, pos)
  return { nRow, tokens }
}

export interface Hit {
  id: number
  /** bm25 score, positive (FTS5's rank negated). */
  score: number
  bucket: number
}

/** The FTS rowid of an asset, in SQL (`assets` columns). */
const KEY_SQL = `fts_bucket * ${FTS_KEY} + id`

/**
 * Adds a source's assets to the index, in FTS rowid order (FTS5 flushes its pending terms each
 * time a rowid goes backwards), and counts them into their buckets.
 */
export function ftsAddSource(st: (sql: string) => Database.Statement, sourceId: number): void {
  st(`INSERT INTO assets_fts (rowid, name, tags) SELECT ${KEY_SQL} AS k, name, tags FROM assets WHERE source_id = ? ORDER BY k`).run(sourceId)
  st('INSERT INTO fts_buckets (bucket, n) SELECT fts_bucket, count(*) FROM assets WHERE source_id = ? GROUP BY fts_bucket ON CONFLICT(bucket) DO UPDATE SET n = n + excluded.n').run(sourceId)
}

/** Takes a source's assets out of the index (call before deleting their rows): O(its own assets). */
export function ftsRemoveSource(st: (sql: string) => Database.Statement, sourceId: number): void {
  st(`INSERT INTO assets_fts (assets_fts, rowid, name, tags) SELECT 'delete', ${KEY_SQL} AS k, name, tags FROM assets WHERE source_id = ? ORDER BY k`).run(sourceId)
  st('UPDATE fts_buckets SET n = fts_buckets.n - c.cnt FROM (SELECT fts_bucket AS b, count(*) AS cnt FROM assets WHERE source_id = ? GROUP BY fts_bucket) AS c WHERE fts_buckets.bucket = c.b').run(sourceId)
}

/** Rebuilds the whole index from `assets` (the migration from the trigger-kept index). */
export function ftsRebuild(db: Database.Database): void {
  db.prepare(`INSERT INTO assets_fts (rowid, name, tags) SELECT ${KEY_SQL} AS k, name, tags FROM assets ORDER BY k`).run()
  db.prepare('DELETE FROM fts_buckets').run()
  db.prepare('INSERT INTO fts_buckets (bucket, n) SELECT fts_bucket, count(*) FROM assets GROUP BY fts_bucket').run()
}

/** Best first: higher score, then the lower asset id (the order a full `ORDER BY rank, rowid` gives). */
function byRank(a: Hit, b: Hit): number {
  return b.score - a.score || a.id - b.id
}

/**
 * The top `limit` matches of an FTS5 query (as produced by `ftsQuery`), exactly as a full
 * `ORDER BY rank, rowid LIMIT limit` over the whole index would give them, ranking only the buckets
 * whose score bound can still beat the current N-th hit.
 */
export function searchTopN(db: Database.Database, query: string, phrases: string[], limit: number): Hit[] {
  if (limit <= 0) return []
  const { nRow, tokens } = ftsTotals(db)
  if (!nRow) return []
  const avgdl = tokens / nRow
  const buckets = (db.prepare('SELECT bucket FROM fts_buckets WHERE n > 0').pluck().all() as number[])
    .map((b) => ({ b, bound: bucketBound(b, avgdl) }))
    .sort((x, y) => y.bound - x.bound || x.b - y.b)
  const stmt = db.prepare('SELECT rowid AS k, rank AS r FROM assets_fts WHERE assets_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank, rowid LIMIT ?')
  let hits: Hit[] = []
  let sumIdf: number | undefined
  for (const { b, bound } of buckets) {
    if (hits.length >= limit) {
      sumIdf ??= derivedIdfSum(hits, avgdl) ?? idfSum(db, phrases, nRow)
      // Stop once no row of this bucket (nor of any later one: bounds only fall) can reach the
      // N-th hit; the margin keeps float rounding from cutting a tie.
      if (sumIdf * bound < hits[limit - 1]!.score * (1 - 1e-9)) break
    }
    const rows = stmt.all(query, b * FTS_KEY, b * FTS_KEY + (FTS_KEY - 1), limit) as { k: number; r: number }[]
    if (!rows.length) continue
    for (const row of rows) hits.push({ id: row.k % FTS_KEY, score: -row.r, bucket: b })
    hits.sort(byRank)
    if (hits.length > limit) hits = hits.slice(0, limit)
  }
  return hits
}

/**
 * Σ idf read off a hit whose every phrase frequency is known to be 1 (bucket R = 1: f ≥ 1 as it
 * matched, f ≤ R), since then score = Σ idf · bm25Term(1, D): saves counting the matches again.
 */
function derivedIdfSum(hits: Hit[], avgdl: number): number | undefined {
  const h = hits.find((x) => x.bucket !== UNBOUNDED && x.bucket >> 8 === 1)
  return h ? h.score / bm25Term(1, h.bucket & 255, avgdl) : undefined
}

/** Σ idf over the query's phrases, as bm25 computes it (one count of the matching rows per phrase). */
function idfSum(db: Database.Database, phrases: string[], nRow: number): number {
  const count = db.prepare('SELECT count(*) FROM assets_fts WHERE assets_fts MATCH ?').pluck()
  let s = 0
  for (const p of phrases) {
    const nHit = count.get(p) as number
    s += Math.max(1e-6, Math.log((nRow - nHit + 0.5) / (nHit + 0.5)))
  }
  return s
}
