/**
 * Indexing GARC archives (CLI.md "GF model archive": one source, its sets as children named as
 * `gf garc` names them; spec §19.6). A model archive in a romfs dump becomes "Pokémon models"
 * with its sets named by species and form; another GARC is listed without children; the entries
 * themselves are never read (an archive whose data is a 300 MiB sparse hole, past the whole-file
 * read limit, indexes from its tables).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import '../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog } from '../../src-main/catalog/catalog'
import { indexPaths } from '../../src-main/indexer/indexer'
import { sourceKindInfo } from '../../src-shared/domains'
import { buildGarc, buildModelArchive } from '../fixtures/gf/build-garc'
import { oracleReadGarc } from '../oracles/garc-reader'

let dir: string
let dump: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-idx-garc-'))
  dump = path.join(dir, 'usum-dump')
  fs.mkdirSync(path.join(dump, 'romfs', 'a', '0', '9'), { recursive: true })
  fs.mkdirSync(path.join(dump, 'exefs'))
  fs.writeFileSync(path.join(dump, 'romfs', 'a', '0', '9', '4'), buildModelArchive(6).bytes)
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('indexing a romfs dump', () => {
  it('the model archive is one "Pokémon models" source, its sets named by species and form', async () => {
    // a GARC that is not a model archive (raw entries, like a text archive)
    fs.mkdirSync(path.join(dump, 'romfs', 'a', '0', '1'), { recursive: true })
    fs.writeFileSync(path.join(dump, 'romfs', 'a', '0', '1', '7'), buildGarc({ version: 6, entries: Array.from({ length: 20 }, (_, i) => new Uint8Array([i, 1, 2, 3])) }))
    // a language-variant archive: one record with bit vector 3 (two sub-files)
    fs.mkdirSync(path.join(dump, 'romfs', 'a', '0', '2'))
    const lang = buildGarc({ version: 6, entries: [new Uint8Array([1, 2, 3, 4])] })
    new DataView(lang.buffer).setUint32(0x24 + 0x10 + 0xc, 3, true) // FATB record 0's vector
    fs.writeFileSync(path.join(dump, 'romfs', 'a', '0', '2', '0'), lang)
    const db = openCatalog(path.join(dir, 'c1.db'))
    try {
      const res = await indexPaths(db, [dump])
      const arc = path.join(dump, 'romfs', 'a', '0', '9', '4')
      const models = res.sources.find((s) => s.path === arc)!
      expect(models).toMatchObject({ kind: 'gf-models', status: 'indexed', assets: 7 })
      // met while walking the dump, another archive is incidental: no source of its own
      expect(res.sources.find((s) => s.path.endsWith(path.join('a', '0', '1', '7')))).toBeUndefined()
      expect(res.sources.find((s) => s.path.endsWith(path.join('a', '0', '2', '0')))).toBeUndefined()
      const src = db.sourceByPath(arc)!
      expect(src.metadata).toMatchObject({ version: 0x600, entries: 39, sets: 4, romfsPath: 'a/0/9/4' })
      const top = db.children(src.id, null)
      expect(top.map((a) => [a.kind, a.name])).toEqual([
        ['gf-garc-set', 'pm0999_00'], ['gf-garc-set', 'Pikachu'], ['gf-garc-set', 'Pikachu (form 3)'], ['gf-garc-set', 'set 3'],
        ['gf-garc-entry', 'entry 36'], ['gf-garc-entry', 'entry 37'], ['gf-garc-entry', 'entry 38'],
      ])
      expect(top[2]!.locator).toEqual({ set: 2, first: 18 })
      expect(top[2]!.metadata).toMatchObject({ set: 2, species: 25, form: 3, textureName: 'pm0025_03_BodyA1' })
      expect(db.search('Pikachu').map((a) => a.name)).toEqual(expect.arrayContaining(['Pikachu', 'Pikachu (form 3)']))
      // the tree names the source after what it is, with its path below romfs
      expect(sourceKindInfo(src.kind)!.sourceName!(src.path)).toBe('Pokémon models (a/0/9/4)')
      // a second run answers from the stamp
      const again = await indexPaths(db, [dump])
      expect(again.sources.find((s) => s.path === arc)!.status).toBe('unchanged')
    } finally {
      db.close()
    }
  })

  it('reads the tables and name headers only: an archive with a 300 MiB sparse entry indexes', async () => {
    const a = buildModelArchive(4)
    const o = oracleReadGarc(a.bytes)
    // make the last entry (outside a set) 300 MiB: its FATB end/length, the header's file size and the FIMB data size
    const big = 300 * 1024 * 1024
    const b = a.bytes.slice()
    const dv = new DataView(b.buffer)
    const last = o.entries.length - 1
    const rec = o.dataOffset - 0xc - 16 * (o.entries.length - last)
    const start = dv.getUint32(rec + 4, true)
    dv.setUint32(rec + 8, start + big, true)
    dv.setUint32(rec + 12, big, true)
    const size = o.dataOffset + start + big
    dv.setUint32(0x14, size, true)
    dv.setUint32(o.dataOffset - 4, size - o.dataOffset, true)
    if (o.largest < big) dv.setUint32(0x18, big, true)
    const f = path.join(dir, 'big', 'romfs', 'a', '0', '9', '4')
    fs.mkdirSync(path.dirname(f), { recursive: true })
    fs.writeFileSync(f, b.subarray(0, o.dataOffset + start))
    fs.truncateSync(f, size)
    const db = openCatalog(path.join(dir, 'c2.db'))
    try {
      const res = await indexPaths(db, [f])
      expect(res.sources[0]).toMatchObject({ kind: 'gf-models', status: 'indexed', assets: 7 })
      expect(db.children(db.sourceByPath(f)!.id, null)[1]!.name).toBe('Pikachu')
    } finally {
      db.close()
    }
  })

  it('named on its own, an archive without models is a "GARC archive" source', async () => {
    const f = path.join(dump, 'romfs', 'a', '0', '1', '7')
    const db = openCatalog(path.join(dir, 'c4.db'))
    try {
      const res = await indexPaths(db, [f])
      expect(res.sources[0]).toMatchObject({ kind: 'gf-garc', status: 'indexed', assets: 0 })
      expect(db.sourceByPath(f)!.metadata).toMatchObject({ entries: 20, sets: 2, romfsPath: 'a/0/1/7' })
    } finally {
      db.close()
    }
  })

  it('a bad archive is recorded with its error (file, structure, offset)', async () => {
    const f = path.join(dir, 'bad.garc')
    const b = buildModelArchive(6).bytes.slice(0, 0x200)
    fs.writeFileSync(f, b)
    const db = openCatalog(path.join(dir, 'c3.db'))
    try {
      const res = await indexPaths(db, [f])
      expect(res.sources[0]!.status).toBe('error')
      expect(res.sources[0]!.error).toMatch(/bad\.garc: GARC header at 0x14: file size field/)
    } finally {
      db.close()
    }
  })
})
