/**
 * `npm run bench catalog`: the catalog at scale. Builds a catalog of 1 000 000 × BENCH_SCALE
 * assets (default BENCH_SCALE=0.1: 100 000; `BENCH_SCALE=1` for the million) in sources of
 * 1 000, and prints each figure beside a plain better-sqlite3 table + FTS5 table (rowid = id)
 * doing the same work: insert rate, re-index and removal of one source, search latency (and
 * whether the top results equal the plain table's `ORDER BY rank`), streamed `ls`, tree pages.
 * Times are process CPU time (steadier than wall time on a shared machine) unless marked wall.
 */
import Database from 'better-sqlite3'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { performance } from 'node:perf_hooks'
import { openCatalog, ftsQuery, type Catalog } from '../src-main/catalog/catalog'
import { writeJsonArray } from '../src-main/cli/json-stream'
import type { AssetDraft } from '../src-main/plugin/detector'
import { BENCH_QUERIES, sourceDrafts } from './catalog-data'
import type { Report } from './run'

const PER_SOURCE = 1000

/** The peer: one plain table and an FTS5 table over it, written directly with prepared statements. */
class Plain {
  db: Database.Database
  private ins: Database.Statement
  private insFts: Database.Statement
  private nextId = 1
  constructor(file: string) {
    this.db = new Database(file)
    this.db.pragma('journal_mode = WAL')
    this.db.pragma('synchronous = NORMAL')
    this.db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, source INTEGER, parent INTEGER, ord INTEGER, kind TEXT, name TEXT, locator TEXT, metadata TEXT, tags TEXT);
      CREATE INDEX t_by_parent ON t (source, parent, ord);
      CREATE VIRTUAL TABLE tf USING fts5 (name, tags, tokenize = 'unicode61 remove_diacritics 2');`)
    this.ins = this.db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    this.insFts = this.db.prepare('INSERT INTO tf (rowid, name, tags) VALUES (?, ?, ?)')
  }
  replace(source: number, drafts: AssetDraft<string>[]): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM tf WHERE rowid IN (SELECT id FROM t WHERE source = ?)').run(source)
      this.db.prepare('DELETE FROM t WHERE source = ?').run(source)
      const ids = new Map<string, number>()
      const ords = new Map<number | null, number>()
      for (const d of drafts) {
        const id = this.nextId++
        const parent = d.parentKey === undefined ? null : ids.get(d.parentKey)!
        const ord = ords.get(parent) ?? 0
        ords.set(parent, ord + 1)
        const tags = (d.tags ?? []).join(' ')
        this.ins.run(id, source, parent, ord, d.kind, d.name, JSON.stringify(d.locator ?? {}), JSON.stringify(d.metadata ?? {}), tags)
        this.insFts.run(id, d.name, tags)
        ids.set(d.key, id)
      }
    })()
  }
  remove(source: number): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM tf WHERE rowid IN (SELECT id FROM t WHERE source = ?)').run(source)
      this.db.prepare('DELETE FROM t WHERE source = ?').run(source)
    })()
  }
  search(text: string, limit: number): number[] {
    return this.db.prepare('SELECT rowid FROM tf WHERE tf MATCH ? ORDER BY rank LIMIT ?').pluck().all(ftsQuery(text), limit) as number[]
  }
}

/** Process CPU time (the machine is shared: wall time swings with the neighbours' load), and wall time. */
function ms<T>(f: () => T): { ms: number; wall: number; value: T } {
  const c0 = process.cpuUsage()
  const t = performance.now()
  const value = f()
  const c = process.cpuUsage(c0)
  return { ms: (c.user + c.system) / 1000, wall: performance.now() - t, value }
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

function build(cat: Catalog, plain: Plain, dir: string, sources: number, report: Report): void {
  let tc = 0
  let tp = 0
  for (let s = 0; s < sources; s++) {
    const drafts = sourceDrafts(s, PER_SOURCE)
    tc += ms(() => cat.replaceSource({ path: path.join(dir, `src-${String(s).padStart(6, '0')}`), size: 1, mtime: 1, hash: `h${s}`, kind: 'gf-set' }, drafts)).ms
    tp += ms(() => plain.replace(s + 1, drafts)).ms
  }
  const n = sources * PER_SOURCE
  report('catalog', `insert ${n} assets (sources of ${PER_SOURCE}), CPU`, n / (tc / 1000), 'assets/s', `plain table + FTS5: ${(n / (tp / 1000)).toFixed(0)} assets/s`)
}

/** Re-index, removal and first insert of one source, five rounds: medians (one round swings with the neighbours' load). */
function reindex(cat: Catalog, plain: Plain, dir: string, sources: number, report: Report): void {
  const s = Math.floor(sources / 2)
  const p = path.join(dir, `src-${String(s).padStart(6, '0')}`)
  const rounds = { re: [] as number[], rp: [] as number[], rm: [] as number[], rmp: [] as number[], first: [] as number[] }
  for (let round = 0; round < 5; round++) {
    const changed = sourceDrafts(s + 100_000 + round, PER_SOURCE)
    rounds.re.push(ms(() => cat.replaceSource({ path: p, size: 2, mtime: 2, hash: `changed${round}`, kind: 'gf-set' }, changed)).ms)
    rounds.rp.push(ms(() => plain.replace(s + 1, changed)).ms)
    const id = cat.sourceByPath(p)!.id
    rounds.rm.push(ms(() => cat.removeSource(id)).ms)
    rounds.rmp.push(ms(() => plain.remove(s + 1)).ms)
    rounds.first.push(ms(() => cat.replaceSource({ path: p, size: 1, mtime: 1, hash: `h${s}`, kind: 'gf-set' }, sourceDrafts(s, PER_SOURCE))).ms)
    plain.replace(s + 1, sourceDrafts(s, PER_SOURCE))
  }
  const [re, rp, rm, rmp, first] = [rounds.re, rounds.rp, rounds.rm, rounds.rmp, rounds.first].map((xs) => percentile(xs, 50)) as [number, number, number, number, number]
  const n = sources * PER_SOURCE
  report('catalog', `re-index a changed ${PER_SOURCE}-asset source in ${n} (median of 5)`, re, 'ms', `${(re / first).toFixed(2)}× its insert (${first.toFixed(1)} ms); plain: ${rp.toFixed(1)} ms`)
  report('catalog', `remove a ${PER_SOURCE}-asset source from ${n} (median of 5)`, rm, 'ms', `plain: ${rmp.toFixed(1)} ms`)
}

function search(cat: Catalog, plain: Plain, n: number, report: Report): void {
  const lat: number[] = []
  const latWords: number[] = []
  const latPlain: number[] = []
  let same = 0
  let worst = { q: '', ms: 0 }
  for (const q of BENCH_QUERIES) {
    const a = ms(() => cat.search(q, 200))
    const b = ms(() => plain.search(q, 200))
    if (JSON.stringify(a.value.map((r) => r.id)) === JSON.stringify(b.value)) same++
    for (let i = 0; i < 5; i++) {
      const t = ms(() => cat.search(q, 200)).ms
      lat.push(t)
      // words of two letters or more: the bounded path (a one-letter word is ranked whole)
      if (q.split(' ').every((w) => w.length >= 2)) latWords.push(t)
      if (t > worst.ms) worst = { q, ms: t }
      latPlain.push(ms(() => plain.search(q, 200)).ms)
    }
  }
  const note = `plain ORDER BY rank: p50 ${percentile(latPlain, 50).toFixed(1)} ms, p95 ${percentile(latPlain, 95).toFixed(1)} ms`
  report('catalog', `search p50, ${BENCH_QUERIES.length} queries, top 200 of ${n}`, percentile(lat, 50), 'ms', note)
  report('catalog', `search p95 (slowest: "${worst.q}" ${worst.ms.toFixed(1)} ms)`, percentile(lat, 95), 'ms', `same top 200 as plain ORDER BY rank on ${same}/${BENCH_QUERIES.length} queries`)
  report('catalog', 'search p95, queries whose words all have 2+ letters', percentile(latWords, 95), 'ms', `p50 ${percentile(latWords, 50).toFixed(1)} ms`)
}

function listing(cat: Catalog, plain: Plain, n: number, report: Report): void {
  let bytes = 0
  let peak = 0
  const heap0 = process.memoryUsage().heapUsed
  const t = ms(() =>
    writeJsonArray(cat.listItems(), (s) => {
      bytes += s.length
      peak = Math.max(peak, process.memoryUsage().heapUsed - heap0)
    }),
  ).ms
  const tp = ms(() => {
    let k = 0
    for (const r of plain.db.prepare('SELECT id, kind, name, source, parent FROM t ORDER BY id').iterate()) k += (r as { id: number }).id
    return k
  }).ms
  report('catalog', `ls --json streamed, ${n} assets`, n / (t / 1000), 'rows/s', `${(t / 1000).toFixed(1)} s, ${(bytes / 2 ** 20).toFixed(0)} MiB out, heap +${(peak / 2 ** 20).toFixed(0)} MiB; plain SELECT iterate: ${(tp / 1000).toFixed(2)} s`)
}

/** A 50 000-child folder paged deep: by key (ours) and by OFFSET (the plain table, as the tree did). */
function paging(cat: Catalog, plain: Plain, dir: string, report: Report): void {
  const kids = 50_000
  const drafts: AssetDraft<string>[] = [{ key: 'root', kind: 'folder', name: 'Flat folder', locator: {} }]
  for (let i = 0; i < kids; i++) drafts.push({ key: `k${i}`, parentKey: 'root', kind: 'texture', name: `flat_${i}`, locator: { i } })
  const { sourceId } = cat.replaceSource({ path: path.join(dir, 'flat'), size: 1, mtime: 1, hash: 'f', kind: 'gf-set' }, drafts)
  plain.replace(999_999, drafts)
  const root = cat.children(sourceId, null)[0]!
  const last = cat.children(sourceId, root.id, kids - 11, 1)[0]!
  const byKey = ms(() => {
    for (let i = 0; i < 200; i++) cat.children(sourceId, root.id, 0, 10, last.id)
  }).ms / 200
  const parent = plain.db.prepare('SELECT id FROM t WHERE source = 999999 AND parent IS NULL').pluck().get()
  const pp = plain.db.prepare('SELECT * FROM t WHERE source = 999999 AND parent = ? ORDER BY ord LIMIT 10 OFFSET ?')
  const byOffset = ms(() => {
    for (let i = 0; i < 200; i++) pp.all(parent, kids - 10)
  }).ms / 200
  report('catalog', `tree page of 10 after child ${kids - 10} of ${kids} (by key)`, byKey * 1000, 'µs/page', `plain OFFSET ${kids - 10}: ${(byOffset * 1000).toFixed(0)} µs/page`)
}

/** The small case: re-indexing a 10 000-asset source in an otherwise empty catalog. */
function emptyReindex(dir: string, report: Report): void {
  const cat = openCatalog(path.join(dir, 'small.sqlite'))
  const drafts = sourceDrafts(1, 10_000, 100)
  const info = { path: path.join(dir, 'one'), size: 1, mtime: 1, hash: 'a', kind: 'gf-set' as const }
  const first = ms(() => cat.replaceSource(info, drafts)).ms
  const again = ms(() => cat.replaceSource({ ...info, hash: 'b' }, sourceDrafts(2, 10_000, 100))).ms
  report('catalog', 're-index a 10 000-asset source, empty catalog', again, 'ms', `${(again / first).toFixed(2)}× its first insert (${first.toFixed(0)} ms)`)
  cat.close()
}

export async function run(report: Report): Promise<void> {
  const scale = Number(process.env.BENCH_SCALE ?? 0.1)
  const sources = Math.max(2, Math.round((1_000_000 * scale) / PER_SOURCE))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bench-cat-'))
  const cat = openCatalog(path.join(dir, 'c.sqlite'))
  const plain = new Plain(path.join(dir, 'plain.sqlite'))
  try {
    emptyReindex(dir, report)
    build(cat, plain, dir, sources, report)
    reindex(cat, plain, dir, sources, report)
    search(cat, plain, sources * PER_SOURCE, report)
    listing(cat, plain, sources * PER_SOURCE, report)
    paging(cat, plain, dir, report)
  } finally {
    cat.close()
    plain.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
