/**
 * Two writers on one catalog (issue 24): two `modbench index` processes started at once on one new
 * catalog both finish with every source indexed (the second used to lose all of them to "database
 * is locked"); the app's services and a CLI run share a catalog the same way; a writer holding the
 * lock makes an index run wait for it, not fail. Real child processes on our own synthetic ROMs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog } from '../../src-main/catalog/catalog'
import { Services } from '../../src-main/services/index'
import { spawnCli } from '../helpers/cli'

/** A big-endian N64 image with its header name (our bytes, a pattern). */
function rom(name: string, seed: number, size = 0x4000): Uint8Array {
  const b = new Uint8Array(size)
  for (let i = 0; i < size; i++) b[i] = (i * 7 + seed * 13) & 0xff
  b.set([0x80, 0x37, 0x12, 0x40], 0)
  for (let i = 0; i < 20; i++) b[0x20 + i] = i < name.length ? name.charCodeAt(i) : 0x20
  b.set([0x4e, 0x5a, 0x5a, 0x45], 0x3b)
  return b
}

let tmp: string
const N = 300

/** A folder of N ROMs named `<prefix><i>.z64`. */
function library(prefix: string): string {
  const dir = path.join(tmp, prefix)
  fs.mkdirSync(dir)
  for (let i = 0; i < N; i++) fs.writeFileSync(path.join(dir, `${prefix}${i}.z64`), rom(`${prefix.toUpperCase()} ${i}`, i + prefix.length * 1000))
  return dir
}

type Doc = { sources: { path: string; status: string; error?: string }[] }

/** The catalog's sources under `dir`, by status. */
function statusesUnder(db: string, dir: string): Record<string, number> {
  const c = openCatalog(db)
  try {
    const out: Record<string, number> = {}
    for (const s of c.sources()) if (s.path.startsWith(dir + path.sep)) out[s.status] = (out[s.status] ?? 0) + 1
    return out
  } finally {
    c.close()
  }
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-concurrent-'))
  // Build the CLI once before processes race to start it.
  expect((await spawnCli(['--version'])).code).toBe(0)
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('two processes on one catalog', () => {
  it('two index runs started together on a new catalog both exit 0 with every source indexed', async () => {
    const a = library('a')
    const b = library('b')
    const db = path.join(tmp, 'two.sqlite')
    const [ra, rb] = await Promise.all([spawnCli(['index', a, '--db', db, '--json']), spawnCli(['index', b, '--db', db, '--json'])])
    for (const [r, dir] of [[ra, a], [rb, b]] as const) {
      expect(r.code, r.stderr).toBe(0)
      const doc = JSON.parse(r.stdout) as Doc
      expect(doc.sources.filter((s) => s.status !== 'indexed')).toEqual([])
      expect(doc.sources).toHaveLength(N)
      expect(statusesUnder(db, dir)).toEqual({ indexed: N })
    }
    expect(fs.existsSync(`${db}-wait`)).toBe(false)
  }, 120_000)

  it('the app and the CLI index into one catalog at the same time', async () => {
    const a = library('app')
    const b = library('cli')
    const db = path.join(tmp, 'shared.sqlite')
    const catalog = openCatalog(db)
    const services = new Services(catalog)
    try {
      const [app, run] = await Promise.all([services.invoke('index:start', { paths: [a] }), spawnCli(['index', b, '--db', db, '--json'])])
      expect(run.code, run.stderr).toBe(0)
      expect(app.sources.filter((s) => s.status !== 'indexed')).toEqual([])
      expect((JSON.parse(run.stdout) as Doc).sources.filter((s) => s.status !== 'indexed')).toEqual([])
      expect(statusesUnder(db, a)).toEqual({ indexed: N })
      expect(statusesUnder(db, b)).toEqual({ indexed: N })
    } finally {
      services.dispose()
      catalog.close()
    }
  }, 120_000)

  it('an index run waits while another connection holds the write lock, then finishes', async () => {
    const dir = path.join(tmp, 'held')
    fs.mkdirSync(dir)
    for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, `h${i}.z64`), rom(`HELD ${i}`, 7000 + i))
    const db = path.join(tmp, 'held.sqlite')
    openCatalog(db).close()
    const holder = new Database(db)
    holder.exec('BEGIN IMMEDIATE')
    holder.exec("INSERT INTO settings (key, value) VALUES ('held', '1')")
    const started = Date.now()
    const run = spawnCli(['index', dir, '--db', db, '--json'])
    // Longer than SQLite's busy timeout: the run must wait its turn, not give up.
    await new Promise((r) => setTimeout(r, 6000))
    holder.exec('COMMIT')
    holder.close()
    const r = await run
    expect(r.code, r.stderr).toBe(0)
    expect(Date.now() - started).toBeGreaterThanOrEqual(6000)
    expect(statusesUnder(db, dir)).toEqual({ indexed: 5 })
  }, 120_000)
})
