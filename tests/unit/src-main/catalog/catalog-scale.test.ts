/**
 * The catalog's scale work (issue 15 item 1): migration from the trigger-kept schema, indexes on
 * every cascading key, top-N search equal to FTS5's full ranking, keyed tree pages.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog, ftsQuery, type Catalog } from '../../../../src-main/catalog/catalog'
import { migrations } from '../../../../src-main/catalog/migrations'
import { FTS_KEY, SINGLE_FROM, foldLatin, ftsBucket, ftsRow, repeatedTokens, UNBOUNDED } from '../../../../src-main/catalog/fts'
import type { AssetDraft } from '../../../../src-main/plugin/detector'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-cat-scale-'))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Every FOREIGN KEY … ON DELETE CASCADE of the schema, and whether an index starts with its column. */
function cascadingKeys(db: Database.Database): { table: string; column: string; led: boolean }[] {
  const out: { table: string; column: string; led: boolean }[] = []
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]
  for (const t of tables) {
    const leads = new Set((db.pragma(`index_list(${JSON.stringify(t)})`) as { name: string }[]).map((i) => (db.pragma(`index_info(${JSON.stringify(i.name)})`) as { seqno: number; name: string }[]).find((c) => c.seqno === 0)?.name))
    for (const fk of db.pragma(`foreign_key_list(${JSON.stringify(t)})`) as { from: string; on_delete: string }[]) if (fk.on_delete === 'CASCADE') out.push({ table: t, column: fk.from, led: leads.has(fk.from) })
  }
  return out
}

/** Words whose names give R = 1 and R ≥ 2 rows, repeated tokens and varied lengths. */
function mixedDrafts(seed: number, n: number): AssetDraft<string>[] {
  const words = ['eye', 'eyelid', 'body', 'bone', 'shadow', 'shine', 'pikachu', 'pika', 'tail', 'tex', '01', '012', '013']
  const out: AssetDraft<string>[] = [{ key: 'root', kind: 'game', name: `Game ${seed}`, locator: {} }]
  for (let i = 0; i < n; i++) {
    const h = Math.imul(seed * 131 + i, 2654435761) >>> 0
    const len = 1 + (h % 5)
    const name = Array.from({ length: len }, (_, k) => words[(h >>> (k * 4)) % words.length]).join('_')
    out.push({ key: `a${i}`, parentKey: 'root', kind: 'texture', name, locator: { i }, tags: h % 3 ? ['RGBA8'] : ['ETC1', 'eye'] })
  }
  return out
}

describe('migration from the schema-3 catalog (FTS kept by triggers)', () => {
  it('migrates existing rows: indexes lead every cascading key, search and removal work on old rows', () => {
    const file = path.join(dir, 'v3.sqlite')
    const raw = new Database(file)
    for (const m of migrations.filter((m) => m.version <= 3)) raw.exec(m.sql)
    raw.pragma('user_version = 3')
    expect(cascadingKeys(raw).filter((k) => !k.led).map((k) => `${k.table}.${k.column}`)).toEqual(['assets.parent_id'])
    raw.prepare("INSERT INTO sources (id, path, size, mtime, hash, kind, status, metadata, indexed_at) VALUES (1, '/old/a.z64', 1, 1, 'h', 'n64-rom', 'indexed', '{}', 1)").run()
    const ins = raw.prepare('INSERT INTO assets (id, source_id, parent_id, ord, kind, name, tags, child_count) VALUES (?, 1, ?, ?, ?, ?, ?, ?)')
    ins.run(10, null, 0, 'game', 'Old Game', '', 3)
    ins.run(11, 10, 0, 'texture', 'pikachu_eye', 'RGBA8', 0)
    ins.run(12, 10, 1, 'texture', 'Pikachú body', 'RGBA8', 0)
    ins.run(13, 10, 2, 'texture', 'ﾋﾟｶﾁｭｳ body', '', 0)
    ins.run(14, 10, 3, 'texture', 'eye_eyelid', 'ETC1', 0)
    raw.close()

    const cat = openCatalog(file)
    try {
      expect(cat.schemaVersion).toBe(migrations.at(-1)!.version)
      expect(cascadingKeys(cat.db).every((k) => k.led)).toBe(true)
      expect(cat.search('pika').map((a) => a.id).sort()).toEqual([11, 12])
      expect(cat.search('body').map((a) => a.name).sort()).toEqual(['Pikachú body', 'ﾋﾟｶﾁｭｳ body'])
      expect(cat.children(1, 10).map((a) => a.id)).toEqual([11, 12, 13, 14])
      expect(cat.integrityCheck()).toBe('ok')
      // rows get buckets from their token counts; text we do not tokenize ourselves is unbounded
      expect(cat.db.prepare('SELECT id, fts_bucket FROM assets ORDER BY id').all()).toEqual([
        { id: 10, fts_bucket: 254 * 256 + 2 },
        { id: 11, fts_bucket: 254 * 256 + 3 },
        { id: 12, fts_bucket: 254 * 256 + 3 },
        { id: 13, fts_bucket: UNBOUNDED },
        { id: 14, fts_bucket: 253 * 256 + 3 }, // eye, eyelid share "ey": R 2, D 3
      ])
      // schema 5: the repeated tokens of the R ≥ 2 row, and each term's rows (the unbounded row uncounted)
      expect(cat.db.prepare('SELECT k, t FROM fts_multi_text').all()).toEqual([{ k: (253 * 256 + 3) * FTS_KEY + 14, t: 'eye eyelid' }])
      const docs = Object.fromEntries((cat.db.prepare('SELECT term, docs FROM fts_terms').all() as { term: string; docs: number }[]).map((r) => [r.term, r.docs]))
      expect(docs).toMatchObject({ eye: 2, pikachu: 2, rgba8: 2, body: 1, eyelid: 1, etc1: 1, old: 1, game: 1 })
      expect(cat.search('eye').map((a) => a.id)).toEqual([14, 11])
      cat.removeSource(1)
      expect(cat.assetCount()).toBe(0)
      expect(cat.search('pika')).toEqual([])
      expect(cat.db.prepare('SELECT count(*) FROM fts_buckets WHERE n <> 0').pluck().get()).toBe(0)
      expect(cat.db.prepare('SELECT count(*) FROM fts_terms WHERE docs <> 0').pluck().get()).toBe(0)
    } finally {
      cat.close()
    }
  })
})

describe('FTS buckets', () => {
  it('count tokens as FTS5 does for ASCII and bound the phrase frequency by shared leads', () => {
    // D = 4 tokens (pikachu, eye, 03, rgba8); no two share their first two letters: R = 1
    expect(ftsBucket('pikachu_eye_03', 'RGBA8')).toBe(254 * 256 + 4)
    // shadow/shine share "sh": R = 2, D = 3
    expect(ftsBucket('shadow-shine', 'x')).toBe((255 - 2) * 256 + 3)
    expect(ftsBucket('Pikachú', '')).toBe(254 * 256 + 1)
    expect(ftsBucket('ﾋﾟｶ', '')).toBe(UNBOUNDED)
    // FTS5 agrees on D: its docsize record for the row holds the same per-column token counts
    const db = new Database(':memory:')
    db.exec("CREATE VIRTUAL TABLE t USING fts5(name, tags, tokenize = 'unicode61 remove_diacritics 2')")
    db.prepare('INSERT INTO t (rowid, name, tags) VALUES (1, ?, ?)').run('a.b--c d__E9 x', 'P Q')
    const sz = db.prepare('SELECT sz FROM t_docsize WHERE id = 1').pluck().get() as Uint8Array
    // a, b, c, d, e9, x | p, q
    expect([...sz]).toEqual([6, 2])
    expect(ftsBucket('a.b--c d__E9 x', 'P Q') - 254 * 256).toBe(8)
  })
})

describe('Latin letters with diacritics', () => {
  it('fold as FTS5 folds them (unicode61, remove_diacritics 2), each kept in its token', () => {
    const db = new Database(':memory:')
    db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    const ins = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)')
    const folded = new Map<number, string>()
    for (let c = 0xc0; c <= 0x17f; c++) {
      const f = foldLatin(`a${String.fromCharCode(c)}b`)
      if (f === null) continue
      folded.set(c, f.toLowerCase())
      ins.run(c, `a${String.fromCharCode(c)}b`)
    }
    expect(folded.size).toBeGreaterThan(150)
    expect(Object.fromEntries((db.prepare('SELECT doc, term FROM v').all() as { doc: number; term: string }[]).map((r) => [r.doc, r.term]))).toEqual(Object.fromEntries(folded))
    expect(foldLatin('Pokémon')).toBe('Pokemon')
    expect(foldLatin('ø')).toBeNull()
  })
})

describe('top-N search', () => {
  let cat: Catalog
  let plain: Database.Database
  beforeEach(() => {
    cat = openCatalog(path.join(dir, 'c.sqlite'))
    // Today's semantics, independently: a plain FTS5 table with rowid = asset id, ranked whole.
    plain = new Database(':memory:')
    plain.exec("CREATE VIRTUAL TABLE p USING fts5(name, tags, tokenize = 'unicode61 remove_diacritics 2')")
  })
  afterEach(() => {
    cat.close()
    plain.close()
  })

  function fill(sources: number, per: number, extra: AssetDraft<string>[] = []): void {
    for (let s = 0; s < sources; s++) cat.replaceSource({ path: `/lib/s${s}`, size: 1, mtime: 1, hash: `h${s}`, kind: 'gf-set' }, s === 0 ? [...mixedDrafts(s, per), ...extra.map((d) => ({ ...d, parentKey: 'root' }))] : mixedDrafts(s, per))
    const ins = plain.prepare('INSERT INTO p (rowid, name, tags) VALUES (?, ?, ?)')
    for (const r of cat.db.prepare('SELECT id, name, tags FROM assets ORDER BY id').all() as { id: number; name: string; tags: string }[]) ins.run(r.id, r.name, r.tags)
  }

  const full = (q: string, n: number) => plain.prepare('SELECT rowid FROM p WHERE p MATCH ? ORDER BY rank, rowid LIMIT ?').pluck().all(ftsQuery(q), n)

  const queries = ['eye', 'eyelid', 'ey', 'sh', 'shadow', 'pika', 'pikachu eye', 'body bone', 'rgba8', 'etc1 eye', '01', '012', 'tail tex', 'game', 'e', 'zzz', 'tex_01']

  it('equals the full bm25 ranking (ties by id) for every query and limit', () => {
    fill(6, 300)
    for (const q of queries) for (const n of [1, 7, 50, 200, 5000]) expect(cat.search(q, n).map((a) => a.id), `${q} top ${n}`).toEqual(full(q, n))
  })

  it('still equals it with rows it cannot bound (non-ASCII text) and after a re-index and a removal', () => {
    fill(4, 200, [{ key: 'x1', kind: 'texture', name: 'Pikachú_eye', locator: {} }, { key: 'x2', kind: 'texture', name: 'ﾋﾟｶ eye', locator: {} }])
    for (const q of queries) expect(cat.search(q, 40).map((a) => a.id), q).toEqual(full(q, 40))
    // re-index one source and remove another: the plain table follows by hand
    const s1 = cat.sourceByPath('/lib/s1')!.id
    plain.prepare('DELETE FROM p WHERE rowid IN (SELECT value FROM json_each(?))').run(JSON.stringify(cat.list({ source: '/lib/s1' }).map((a) => a.id)))
    cat.replaceSource({ path: '/lib/s1', size: 2, mtime: 2, hash: 'new', kind: 'gf-set' }, mixedDrafts(99, 150))
    for (const a of cat.list({ source: '/lib/s1' })) plain.prepare('INSERT INTO p (rowid, name, tags) VALUES (?, ?, ?)').run(a.id, a.name, (cat.db.prepare('SELECT tags FROM assets WHERE id = ?').pluck().get(a.id) as string))
    plain.prepare('DELETE FROM p WHERE rowid IN (SELECT value FROM json_each(?))').run(JSON.stringify(cat.list({ source: '/lib/s2' }).map((a) => a.id)))
    cat.removeSource(cat.sourceByPath('/lib/s2')!.id)
    for (const q of queries) expect(cat.search(q, 60).map((a) => a.id), q).toEqual(full(q, 60))
  })

  it('equals it with Latin names with diacritics in the bounded path (no fallback rows)', () => {
    fill(3, 200, [{ key: 'x1', kind: 'game', name: 'Pokémon Snap', locator: {} }, { key: 'x2', kind: 'texture', name: 'pikachú_eyé_pokémon', locator: {}, tags: ['Éye'] }])
    expect(cat.db.prepare('SELECT count(*) FROM fts_buckets WHERE bucket = ? AND n > 0').pluck().get(UNBOUNDED)).toBe(0)
    for (const q of [...queries, 'pokemon', 'pokémon', 'poké snap', 'PIKACHÚ eye', 'éy']) expect(cat.search(q, 30).map((a) => a.id), q).toEqual(full(q, 30))
    expect(cat.search('pokemon').map((a) => a.name).sort()).toEqual(['Pokémon Snap', 'pikachú_eyé_pokémon'])
  })

  it('ranks by hand-checkable bm25: fewer tokens first, a twice-matching row above a once-matching one', () => {
    cat.replaceSource({ path: '/lib/h', size: 1, mtime: 1, hash: 'h', kind: 'gf-set' }, [
      { key: 'a', kind: 'x', name: 'eye_tail_body', locator: {} }, // D 3, f 1
      { key: 'b', kind: 'x', name: 'eye_tail', locator: {} }, // D 2, f 1: above a
      { key: 'c', kind: 'x', name: 'eye_eyelid_body', locator: {} }, // D 3, f 2: above a and b
      { key: 'd', kind: 'x', name: 'tail_eye', locator: {} }, // same score as b: after it by id
    ])
    // bm25 here: idf · f·2.2 / (f + 1.2·(0.25 + 0.75·D/2.75)); f=2,D=3 → 1.523; f=1,D=2 → 1.089; f=1,D=3 → 0.948
    expect(cat.search('eye').map((a) => a.name)).toEqual(['eye_eyelid_body', 'eye_tail', 'tail_eye', 'eye_tail_body'])
    expect(FTS_KEY).toBe(2 ** 32)
  })

  it('indexes for R ≥ 2 rows only the tokens whose first two letters repeat (schema 5)', () => {
    // by hand: pikachu, pika (pi ×2), eye, eye (ey ×2), etc1 (et ×1)
    expect(repeatedTokens('pikachu_pika_eye', 'ETC1 eye')).toBe('pikachu pika eye eye')
    expect(repeatedTokens('Pokémon_poké', '')).toBe('pokemon poke')
    expect(repeatedTokens('shadow_tail', 'RGBA8')).toBe('')
  })

  it("writes each row's bucket, terms and repeated tokens from one pass (ftsRow) as the separate functions give them", () => {
    // by hand: pikachu pika (pi ×2), eye eye (ey ×2), etc1: R = 2, D = 5
    const terms = new Set<string>()
    expect(ftsRow('pikachu_pika_eye', 'ETC1 eye', terms)).toEqual({ bucket: (255 - 2) * 256 + 5, rep: 'pikachu pika eye eye' })
    expect([...terms]).toEqual(['pikachu', 'pika', 'eye', 'etc1'])
    // R = 1: no repeated tokens; unbounded text adds no terms
    expect(ftsRow('pikachu_eye_03', 'RGBA8', new Set())).toEqual({ bucket: 254 * 256 + 4, rep: null })
    const none = new Set<string>()
    expect(ftsRow('ﾋﾟｶ', 'eye', none)).toEqual({ bucket: UNBOUNDED, rep: null })
    expect(none.size).toBe(0)
    // and the same as ftsBucket + repeatedTokens on rows of every shape: over 255 tokens, R over 254, folded Latin
    const texts: [string, string][] = [['Pokémon_poké', ''], ['a '.repeat(256), ''], ['aa '.repeat(255), ''], ['ab '.repeat(254), 'x'], ['shadow-shine', 'x'], ['', ''], ['Ä ä', 'Ö']]
    for (const [name, tags] of texts) {
      const got = new Set<string>()
      const r = ftsRow(name, tags, got)
      const want = new Set<string>()
      const bucket = ftsBucket(name, tags, want)
      expect(r.bucket).toBe(bucket)
      expect(r.rep).toBe(bucket < SINGLE_FROM ? repeatedTokens(name, tags) : null)
      expect([...got]).toEqual(bucket === UNBOUNDED ? [] : [...want])
    }
  })

  it('keeps the three indexes exact through a batch with re-written and rolled-back sources (deletes queued for the flush), and removal', async () => {
    await cat.batch(async (flush) => {
      for (let s = 0; s < 4; s++) cat.replaceSource({ path: `/lib/s${s}`, size: 1, mtime: 1, hash: `h${s}`, kind: 'gf-set' }, mixedDrafts(s, 200))
      // re-written in the same batch (its first rows never reached the FTS index)
      cat.replaceSource({ path: '/lib/s1', size: 2, mtime: 2, hash: 'again', kind: 'gf-set' }, mixedDrafts(50, 120))
      await flush()
      // re-written after a commit, then a write of it that fails half-way (duplicate key): rolled back
      cat.replaceSource({ path: '/lib/s2', size: 2, mtime: 2, hash: 'again', kind: 'gf-set' }, mixedDrafts(60, 150))
      const bad = [...mixedDrafts(70, 90), { key: 'a3', kind: 'x', name: 'eye_eyelid dup', locator: {} }]
      expect(() => cat.replaceSource({ path: '/lib/s2', size: 3, mtime: 3, hash: 'bad', kind: 'gf-set' }, bad)).toThrow(/duplicate asset key a3/)
      // a committed source whose re-write fails: the deletes it queued for the flush roll back too
      expect(() => cat.replaceSource({ path: '/lib/s3', size: 3, mtime: 3, hash: 'bad', kind: 'gf-set' }, bad)).toThrow(/duplicate asset key a3/)
    })
    const ins = plain.prepare('INSERT INTO p (rowid, name, tags) VALUES (?, ?, ?)')
    for (const r of cat.db.prepare('SELECT id, name, tags FROM assets ORDER BY id').all() as { id: number; name: string; tags: string }[]) ins.run(r.id, r.name, r.tags)
    for (const q of queries) for (const n of [10, 300]) expect(cat.search(q, n).map((a) => a.id), `${q} top ${n}`).toEqual(full(q, n))
    // one repeated-token row per R ≥ 2 asset, no orphans
    const keys = (sql: string) => cat.db.prepare(sql).pluck().all() as number[]
    expect(keys(`SELECT fts_bucket * ${FTS_KEY} + id AS k FROM assets WHERE fts_bucket < ${SINGLE_FROM} ORDER BY k`)).toEqual(keys('SELECT k FROM fts_multi_text ORDER BY k'))
    expect(keys('SELECT k FROM fts_multi_text').length).toBeGreaterThan(50)
    // each term's row count (the idf of a one-term word) equals FTS5's own count of its matches
    for (const [term, docs] of cat.db.prepare('SELECT term, docs FROM fts_terms').raw().all() as [string, number][]) expect(docs, term).toBe(cat.db.prepare('SELECT count(*) FROM assets_fts WHERE assets_fts MATCH ?').pluck().get(`"${term}"`))
    // removing every source deletes exactly what was indexed: nothing is left to match
    for (const s of cat.sources()) cat.removeSource(s.id)
    expect(keys("SELECT rowid FROM assets_fts_multi WHERE assets_fts_multi MATCH 'eye* OR pi* OR sh* OR t* OR b* OR 01*'")).toEqual([])
    expect(keys("SELECT rowid FROM assets_fts_rep WHERE assets_fts_rep MATCH 'eye* OR pi* OR sh* OR t* OR b* OR 01*'")).toEqual([])
    expect(keys('SELECT k FROM fts_multi_text')).toEqual([])
    expect(keys('SELECT docs FROM fts_terms WHERE docs <> 0')).toEqual([])
  })
})

describe('tree pages by key', () => {
  it('pages after the last id shown give the same rows as one big page, and offsets seek the same index', () => {
    const cat = openCatalog(path.join(dir, 'p.sqlite'))
    try {
      const { sourceId } = cat.replaceSource({ path: '/lib/p', size: 1, mtime: 1, hash: 'h', kind: 'gf-set' }, mixedDrafts(1, 1234))
      const root = cat.children(sourceId, null)[0]!
      const all = cat.children(sourceId, root.id, 0, 100_000)
      expect(all.length).toBe(1234)
      const paged: number[] = []
      for (let after: number | undefined; ; ) {
        const page = cat.children(sourceId, root.id, 0, 100, after)
        if (!page.length) break
        paged.push(...page.map((a) => a.id))
        after = page.at(-1)!.id
      }
      expect(paged).toEqual(all.map((a) => a.id))
      expect(cat.children(sourceId, root.id, 1200, 10).map((a) => a.id)).toEqual(all.slice(1200, 1210).map((a) => a.id))
      // a key from another parent pages nothing rather than something wrong
      expect(cat.children(sourceId, root.id, 0, 10, root.id)).toEqual([])
      const plan = (cat.db.prepare('EXPLAIN QUERY PLAN SELECT id FROM assets a WHERE a.parent_id = 1 AND a.source_id = 1 AND a.ord >= 5 ORDER BY a.ord').all() as { detail: string }[]).map((r) => r.detail).join(' ')
      expect(plan).toMatch(/USING (COVERING )?INDEX assets_by_parent \(parent_id=\? AND source_id=\? AND ord>\?\)/)
    } finally {
      cat.close()
    }
  })
})
