/**
 * A damaged or locked catalog is said in the user's terms (issue 24): `ls`/`find`/`info` name the
 * catalog file, say what is wrong and what to do (it holds no game bytes: delete it and index
 * again); SQLite's text is quoted inside, never the whole message. Catalogs are damaged by hand:
 * text instead of a database, every page after the header overwritten, the file cut in half.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { cli, repoRoot } from '../../../helpers/cli'
import { openCatalog } from '../../../../src-main/catalog/catalog'
import { CatalogError, explainCatalogError } from '../../../../src-main/catalog/catalog-errors'
import { Services } from '../../../../src-main/services/index'

let tmp: string
let good: Buffer
const PAGE = 4096

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-catalog-errors-'))
  const db = path.join(tmp, 'good.sqlite')
  const r = await cli(['index', path.join(repoRoot, 'resources', 'samples'), '--db', db])
  expect(r.code, r.stderr).toBe(0)
  good = fs.readFileSync(db) // closed: the WAL is checkpointed into the file
  expect(good.readUInt16BE(16)).toBe(PAGE)
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

const damages: [string, () => Buffer, RegExp][] = [
  ['text, not a database', () => Buffer.from('this is not a catalog\n'.repeat(300)), /file is not a database/],
  [
    'every page after the first overwritten',
    () => {
      const b = Buffer.from(good)
      b.fill(0x5a, PAGE)
      return b
    },
    /database disk image is malformed/,
  ],
  ['cut in half', () => good.subarray(0, good.length / 2), /database disk image is malformed/],
]

describe('ls, find and info on a damaged catalog', () => {
  for (const [name, make, sqlite] of damages) {
    it(name, async () => {
      const db = path.join(tmp, `${name.replace(/\W+/g, '_')}.sqlite`)
      const bytes = make()
      fs.writeFileSync(db, bytes)
      for (const argv of [['ls'], ['ls', '--json'], ['find', 'sample'], ['info', '3'], ['info', '3', '--json']]) {
        const r = await cli([...argv, '--db', db])
        const label = `${argv.join(' ')}: ${r.stderr}`
        expect(r.code, label).toBe(1)
        expect(r.stdout, label).toBe('')
        const line = r.stderr.trim()
        expect(line.split('\n'), label).toHaveLength(1)
        // which file, what is wrong, what to do; SQLite's words only quoted inside
        expect(line.startsWith(`modbench ${argv[0]}: error: ${db}: the catalog file is damaged (SQLite: "`), label).toBe(true)
        expect(line, label).toMatch(sqlite)
        expect(line, label).toContain('holds no game bytes')
        expect(line, label).toContain(`delete ${db}`)
        expect(line, label).toContain('modbench index')
      }
      // Reading it changed nothing.
      expect(Buffer.compare(fs.readFileSync(db), bytes)).toBe(0)
    })
  }

  it('the app gets the same message, with a code the UI can branch on', async () => {
    const db = path.join(tmp, 'app.sqlite')
    fs.writeFileSync(db, good)
    const catalog = openCatalog(db)
    const services = new Services(catalog)
    try {
      fs.writeFileSync(db, Buffer.concat([good.subarray(0, PAGE), Buffer.alloc(good.length - PAGE, 0x5a)]))
      const e = await services.invoke('catalog:search', { query: 'sample' }).then(() => null, (x: unknown) => x)
      expect(e).toBeInstanceOf(CatalogError)
      expect((e as CatalogError).code).toBe('catalog-damaged')
      expect((e as Error).message).toMatch(new RegExp(`^${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: the catalog file is damaged`))
    } finally {
      services.dispose()
      catalog.close()
    }
  })
})

describe('"database is locked"', () => {
  it('is explained: another process holds the catalog, try again when it has finished', () => {
    const db = path.join(tmp, 'locked.sqlite')
    openCatalog(db).close()
    const holder = new Database(db)
    holder.pragma('locking_mode = EXCLUSIVE')
    holder.exec('BEGIN EXCLUSIVE')
    holder.exec("INSERT INTO settings (key, value) VALUES ('held', '1')")
    const other = new Database(db, { timeout: 0 })
    try {
      let raw: unknown
      try {
        other.prepare('SELECT COUNT(*) FROM sources').get()
      } catch (e) {
        raw = e
      }
      expect((raw as Error).message).toBe('database is locked')
      const e = explainCatalogError(raw, db) as CatalogError
      expect(e).toBeInstanceOf(CatalogError)
      expect(e.code).toBe('catalog-locked')
      expect(e.message).toBe(`${db}: the catalog is locked (SQLite: "database is locked"): another process (the Modbench app, or an index run) kept it busy too long. Try again when it has finished.`)
    } finally {
      other.close()
      holder.exec('COMMIT')
      holder.close()
    }
  })

  it('leaves errors that are not SQLite’s as they are', () => {
    const e = new Error('x.bin: GFTexture at 0x80: unknown format')
    expect(explainCatalogError(e, '/c.sqlite')).toBe(e)
  })
})
