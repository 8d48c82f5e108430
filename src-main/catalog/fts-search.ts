import type Database from 'better-sqlite3'
import { FTS_KEY, SINGLE_FROM, UNBOUNDED, bm25Term, bucketBound, bucketShape, foldLatin, ftsTotals } from './fts'

/**
 * Top-N full-text search over the bucketed index of fts.ts. It gives exactly what
 * `ORDER BY rank, id LIMIT N` over every match gives (bm25 as FTS5 computes it, ties by id),
 * without ranking every match:
 * - each prefix word is searched as the OR of its indexed terms (`fts_terms`), walked lazily;
 * - R = 1 rows (every phrase occurs once) score by D alone, lower D higher, and lie in rowid
 *   order by D: their first N matches in rowid order are their top N (one short walk);
 * - R ≥ 2 rows lie before them: walked best bound first, their phrase counts read off their own
 *   text, until no bucket left can reach the N-th hit;
 * - the idf (each word's match count, what FTS5's bm25 counts first) is needed only when a row's
 *   words occur unequally often; otherwise Σ idf is one positive factor of every score.
 * A one-letter word, a word or row with non-ASCII characters other than Latin letters with
 * diacritics, fall back to FTS5's full ranking.
 */
export interface Hit {
  id: number
  /** bm25 score (positive; FTS5's rank negated), or a positive multiple of it. */
  score: number
}

/**
 * Best first: higher score, then the lower id. Scores within 1e-12 of each other count as equal:
 * the same row scored by FTS5 (C `log`) and here (`Math.log`) may differ in the last bit.
 */
export function byRank(a: Hit, b: Hit): number {
  const d = b.score - a.score
  return Math.abs(d) <= 1e-12 * Math.max(a.score, b.score) ? a.id - b.id : d
}

type Prepare = (sql: string) => Database.Statement

interface Ctx {
  /** Set when a row's phrases occur unequally often: then the idf weights change the order. */
  unequal?: boolean
  st: Prepare
  /** The query as ORs of exact terms. */
  query: string
  /** Any of its words (the OR of those ORs). */
  anyWord: string
  words: string[]
  idf: number[]
  avgdl: number
  limit: number
}

/** bm25 of a row with phrase frequencies `f` and `d` tokens, summed in FTS5's order. */
function bm25(c: Ctx, f: (i: number) => number, d: number): number {
  let s = 0
  for (let i = 0; i < c.idf.length; i++) s += c.idf[i]! * bm25Term(f(i), d, c.avgdl)
  return s
}

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/** How many tokens of ASCII `text` start with `word` (lower-case ASCII letters and digits). */
function countPrefix(word: string, text: string): number {
  let n = 0
  for (let i = 0; i < text.length; ) {
    if (!isAlnum(text.charCodeAt(i))) {
      i++
      continue
    }
    let j = 0
    while (j < word.length && i + j < text.length && (text.charCodeAt(i + j) | 0x20) === word.charCodeAt(j) && isAlnum(text.charCodeAt(i + j))) j++
    if (j === word.length) n++
    while (i < text.length && isAlnum(text.charCodeAt(i))) i++
  }
  return n
}

/** The best R = 1 rows: the first `limit` matches in rowid order (D ascending, then id). */
function singleHits(c: Ctx): Hit[] {
  const keys = c.st('SELECT rowid FROM assets_fts WHERE assets_fts MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid LIMIT ?').pluck().all(c.query, SINGLE_FROM * FTS_KEY, UNBOUNDED * FTS_KEY, c.limit) as number[]
  return keys.map((k) => ({ id: k % FTS_KEY, score: bm25(c, () => 1, Math.floor(k / FTS_KEY) - SINGLE_FROM) }))
}

/**
 * Adds the R ≥ 2 rows that can reach the top N: walks their matches in rowid order (higher R,
 * then lower D first; their own index, `assets_fts_multi`) until no bucket left can beat the N-th
 * hit. A row can hold a word twice only if its repeated tokens (`assets_fts_rep`, schema 5) match that word; any other row holds
 * each word once and scores by D alone. Only the former have their tokens read and counted.
 */
function multiHits(c: Ctx, hits: Hit[], buckets: number[], sumIdf: number): Hit[] {
  const multi = buckets.filter((b) => b < SINGLE_FROM).sort((x, y) => x - y)
  if (!multi.length) return hits
  // best bound among the buckets at or after each one in the walk
  const rest = new Map<number, number>()
  let best = 0
  for (let i = multi.length - 1; i >= 0; i--) rest.set(multi[i]!, (best = Math.max(best, bucketBound(multi[i]!, c.avgdl))))
  // the margin keeps float rounding from cutting a tie, which the lower id may still win
  const nth = hits.length >= c.limit ? hits[c.limit - 1]!.score * (1 - 1e-9) : -Infinity
  const repeated = new Set(c.st('SELECT rowid FROM assets_fts_rep WHERE assets_fts_rep MATCH ?').pluck().all(c.anyWord) as number[])
  const keys: number[] = []
  const found: Hit[] = []
  for (const k of c.st('SELECT rowid FROM assets_fts_multi WHERE assets_fts_multi MATCH ? ORDER BY rowid').pluck().iterate(c.query) as IterableIterator<number>) {
    const bucket = Math.floor(k / FTS_KEY)
    if (sumIdf * (rest.get(bucket) ?? Infinity) < nth) break
    if (repeated.has(k)) keys.push(k)
    else found.push({ id: k % FTS_KEY, score: bm25(c, () => 1, bucketShape(bucket).d) })
  }
  if (keys.length) {
    // their repeated tokens, in one query (FTS5 reading a stored copy row by row is slower); a
    // word absent from them occurs once in the row (the row matches every word)
    const rows = c.st('SELECT k, t FROM fts_multi_text WHERE k IN (SELECT value FROM json_each(?))').all(JSON.stringify(keys)) as { k: number; t: string }[]
    for (const r of rows) {
      const f = c.words.map((w) => Math.max(1, countPrefix(w, r.t)))
      if (f.some((x) => x !== f[0])) c.unequal = true
      found.push({ id: r.k % FTS_KEY, score: bm25(c, (i) => f[i]!, bucketShape(Math.floor(r.k / FTS_KEY)).d) })
    }
  }
  return hits.concat(found).sort(byRank).slice(0, c.limit)
}

/** The whole ranking by FTS5, for what the bounds do not cover. */
function fullRank(st: Prepare, query: string, limit: number): Hit[] {
  const rows = st(`SELECT rowid % ${FTS_KEY} AS id, rank AS r FROM assets_fts WHERE assets_fts MATCH ? ORDER BY rank, id LIMIT ?`).all(query, limit) as { id: number; r: number }[]
  return rows.map((r) => ({ id: r.id, score: -r.r }))
}

/** At most this many terms per word are ORed; a word prefixing more is ranked by FTS5 whole. */
const MAX_TERMS = 64

/** The indexed terms a word prefixes (null when too many). */
function expand(st: Prepare, word: string): string[] | null {
  const terms = st('SELECT term FROM fts_terms WHERE term >= ? AND term < ? LIMIT ?').pluck().all(word, `${word}\x7f`, MAX_TERMS + 1) as string[]
  return terms.length > MAX_TERMS ? null : terms
}

/** Terms as one OR phrase. */
const orOf = (terms: string[]) => `(${terms.map((t) => `"${t}"`).join(' OR ')})`

/** The top `limit` hits of `query` (the AND of one prefix phrase per word of `words`), best first. */
export function searchTopN(st: Prepare, query: string, words: string[], limit: number): Hit[] {
  if (limit <= 0) return []
  const { nRow, tokens } = ftsTotals(st)
  if (!nRow) return []
  const buckets = st('SELECT bucket FROM fts_buckets WHERE n > 0').pluck().all() as number[]
  // query words fold like the rows (FTS5 tokenizes both the same way)
  const folded = words.map((w) => foldLatin(w))
  if (buckets.includes(UNBOUNDED) || !folded.every((w) => w !== null && w.length >= 2 && /^[A-Za-z0-9]+$/.test(w))) return fullRank(st, query, limit)
  const lower = (folded as string[]).map((w) => w.toLowerCase())
  const expanded: string[][] = []
  for (const w of lower) {
    const e = expand(st, w)
    if (e === null) return fullRank(st, query, limit)
    if (!e.length) return []
    expanded.push(e)
  }
  const ors = expanded.map(orOf)
  // Where every phrase occurs equally often in a row, its score is Σ idf times a factor of its
  // own, so the order needs no idf: rank with unit weights first, and count the matches (the
  // idf) only when a row turns up whose phrases occur unequally often.
  const c: Ctx = { st, query: ors.join(' AND '), anyWord: ors.join(' OR '), words: lower, idf: ors.map(() => 1), avgdl: tokens / nRow, limit }
  const run = () => multiHits(c, singleHits(c).sort(byRank), buckets, c.idf.reduce((a, b) => a + b, 0))
  const hits = run()
  if (!c.unequal || ors.length === 1) return hits
  c.idf = expanded.map((terms) => idfOf(st, terms, nRow))
  return run()
}

/**
 * A word's idf as bm25 computes it, from the number of rows it matches: for one term, the
 * catalog's own count of the term's rows (`fts_terms.docs`); for several, their matches counted.
 */
function idfOf(st: Prepare, terms: string[], nRow: number): number {
  const nHit = (terms.length === 1 ? st('SELECT docs FROM fts_terms WHERE term = ?').pluck().get(terms[0]) : st('SELECT count(*) FROM assets_fts WHERE assets_fts MATCH ?').pluck().get(orOf(terms))) as number
  const v = Math.log((nRow - nHit + 0.5) / (nHit + 0.5))
  return v <= 0 ? 1e-6 : v
}
