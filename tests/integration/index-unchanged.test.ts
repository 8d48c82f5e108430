/**
 * The unchanged re-index (issue 26 item 3) touches only stats: no file of the library is opened,
 * nothing is hashed and no catalog row is written when every size, mtime and inode is the same.
 * Reads are counted by wrapping node:fs's opening and reading calls (the tests run as root here,
 * where `chmod 000` would not stop a read); writes by SQLite's own `total_changes()`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import fsCjs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import * as os from 'node:os'
import * as path from 'node:path'
import '../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog, type Catalog } from '../../src-main/catalog/catalog'
import { indexPaths } from '../../src-main/indexer/indexer'
import { buildSyntheticSet } from '../fixtures/gf/build-set'
import { genericRom } from '../fixtures/platform/n64'

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-idx-unchanged-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const HOUR_AGO = new Date(Date.now() - 3600_000)

function writeOld(file: string, bytes: Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, bytes)
  fs.utimesSync(file, HOUR_AGO, HOUR_AGO)
}

/** Two GF sets (one in a sub-folder), two N64 images and a note, all dated an hour ago. */
function library(name: string): { lib: string; sets: string[]; roms: string[] } {
  const lib = path.join(dir, name)
  const sets = [path.join(lib, 'a0001'), path.join(lib, 'more', 'a0002')]
  const set = buildSyntheticSet(1).files
  for (const s of sets) for (const [n, b] of set) writeOld(path.join(s, n), b)
  const roms = [path.join(lib, 'one.z64'), path.join(lib, 'more', 'two.z64')]
  roms.forEach((r, i) => writeOld(r, genericRom(`GAME ${i}`, 'NUCE')))
  writeOld(path.join(lib, 'notes.txt'), new TextEncoder().encode('not a game file'))
  return { lib, sets, roms }
}

/** Runs `fn` on a new library and a catalog of its own. */
async function withLibrary(name: string, fn: (l: ReturnType<typeof library>, cat: Catalog) => Promise<void>): Promise<void> {
  const l = library(name)
  const cat = openCatalog(path.join(dir, `${name}.sqlite`))
  try {
    await fn(l, cat)
  } finally {
    cat.close()
  }
}

/** The library's files opened or read through node:fs while `fn` runs (every wrapped call names its path). */
const patched: (() => void)[] = []
afterEach(() => {
  for (const undo of patched.splice(0)) undo()
  syncBuiltinESMExports()
})

async function readsDuring<T>(under: string, fn: () => Promise<T>): Promise<{ value: T; reads: string[] }> {
  const reads: string[] = []
  const target = fsCjs as unknown as Record<string, unknown>
  const promises = fsCjs.promises as unknown as Record<string, unknown>
  const wrap = (obj: Record<string, unknown>, name: string) => {
    const orig = obj[name] as (...a: unknown[]) => unknown
    obj[name] = function (this: unknown, ...args: unknown[]) {
      const p = args[0]
      if ((typeof p === 'string' || p instanceof URL) && String(p).startsWith(under)) reads.push(`${name} ${String(p)}`)
      return orig.apply(this, args)
    }
    patched.push(() => (obj[name] = orig))
  }
  for (const n of ['openSync', 'open', 'readFileSync', 'readFile', 'createReadStream', 'openAsBlob']) wrap(target, n)
  for (const n of ['open', 'readFile']) wrap(promises, n)
  syncBuiltinESMExports()
  try {
    return { value: await fn(), reads }
  } finally {
    for (const undo of patched.splice(0)) undo()
    syncBuiltinESMExports()
  }
}

const totalChanges = (c: Catalog) => (c.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n
const sourceRows = (c: Catalog) => c.db.prepare('SELECT * FROM sources ORDER BY path').all()

describe('re-indexing an unchanged library', () => {
  it('opens no file of it, writes no row, and reports every source unchanged with its assets', async () => {
    await withLibrary('lib', async ({ lib, sets, roms }, cat) => {
      // the wrapper sees the first index's reads: it counts what it should
      const first = await readsDuring(lib, () => indexPaths(cat, [lib]))
      for (const s of sets) expect(first.reads.filter((r) => r.includes(s + path.sep)).length).toBe(9)
      for (const r of roms) expect(first.reads.some((x) => x.endsWith(r))).toBe(true)
      expect(first.value.sources.map((s) => s.status)).toEqual(Array(4).fill('indexed'))

      const rows = sourceRows(cat)
      const changes = totalChanges(cat)
      const again = await readsDuring(lib, () => indexPaths(cat, [lib]))
      expect(again.reads).toEqual([])
      expect(totalChanges(cat)).toBe(changes)
      expect(sourceRows(cat)).toEqual(rows)
      const byPath = (r: typeof first.value) => Object.fromEntries(r.sources.map((s) => [s.path, s.assets]))
      expect(again.value.sources.map((s) => s.status)).toEqual(Array(4).fill('unchanged'))
      expect(byPath(again.value)).toEqual(byPath(first.value))
      expect(again.value.assets).toBe(first.value.assets)
      expect(again.value.removed).toBeUndefined()
    })
  })

  it('does not notice a set member rewritten under the same size, mtime and inode (it was not read), and --force does', async () => {
    await withLibrary('same-stamp', async ({ lib, sets }, cat) => {
      await indexPaths(cat, [lib])
      const named = (q: string) => cat.search(q).filter((a) => a.name === q).length
      expect(named('pm0999_00_BodyA1')).toBe(4) // a texture of 1.bin and of 2.bin in each set
      // 1.bin's first texture renamed in place: same length, same inode, mtime put back
      const f = path.join(sets[0]!, '1.bin')
      const st = fs.statSync(f)
      const bytes = fs.readFileSync(f)
      const at = bytes.indexOf('pm0999_00_BodyA1')
      expect(at).toBeGreaterThan(0)
      bytes.write('pm0999_00_BodyZ9', at, 'latin1')
      fs.writeFileSync(f, bytes, { flag: 'r+' })
      fs.utimesSync(f, st.atime, st.mtime)
      expect(fs.statSync(f).ino).toBe(st.ino)
      const again = await indexPaths(cat, [lib])
      expect(again.sources.find((s) => s.path === sets[0])!.status).toBe('unchanged')
      expect(named('pm0999_00_BodyZ9')).toBe(0)
      await indexPaths(cat, [lib], { force: true })
      expect(named('pm0999_00_BodyZ9')).toBe(1)
      expect(named('pm0999_00_BodyA1')).toBe(3)
    })
  })

  it('reads only the set whose member changed', async () => {
    await withLibrary('one-changed', async ({ lib, sets }, cat) => {
      await indexPaths(cat, [lib])
      const later = new Date(HOUR_AGO.getTime() + 60_000)
      fs.utimesSync(path.join(sets[1]!, '5.bin'), later, later)
      const changes = totalChanges(cat)
      const again = await readsDuring(lib, () => indexPaths(cat, [lib]))
      // the touched set's nine files, nothing else; same bytes, so only its new stamp is written
      expect(again.reads.length).toBe(9)
      expect(again.reads.every((r) => r.includes(sets[1]! + path.sep))).toBe(true)
      expect(again.value.sources.map((s) => s.status)).toEqual(Array(4).fill('unchanged'))
      expect(totalChanges(cat) - changes).toBe(1)
      expect(cat.sourceByPath(sets[1]!)!.mtime).toBe(fs.statSync(path.join(sets[1]!, '5.bin')).mtimeMs)
    })
  })

  it('remembers a walked file no detector took by its stamp: looked at again once it changes, forgotten once it is gone', async () => {
    await withLibrary('skipped', async ({ lib }, cat) => {
      const note = path.join(lib, 'notes.txt')
      const first = await readsDuring(lib, () => indexPaths(cat, [lib]))
      expect(first.reads.filter((r) => r.endsWith(note)).length).toBe(1)
      expect(cat.skipped.get(note)).toMatchObject({ size: 15, mtime: fs.statSync(note).mtimeMs, ino: fs.statSync(note).ino })
      // the same bytes under a new stamp are looked at again (and skipped again)
      fs.utimesSync(note, new Date(), new Date(HOUR_AGO.getTime() + 1000))
      expect((await readsDuring(lib, () => indexPaths(cat, [lib]))).reads).toEqual([`openSync ${note}`])
      // --force looks at every file
      expect((await readsDuring(lib, () => indexPaths(cat, [lib], { force: true }))).reads.filter((r) => r.endsWith(note)).length).toBe(1)
      // now an N64 image under that name: a source, and no longer remembered as skipped
      writeOld(note, genericRom('NOTE GAME', 'NNTE'))
      const again = await indexPaths(cat, [lib])
      expect(again.sources.find((s) => s.path === note)).toMatchObject({ status: 'indexed', assets: 1 })
      expect(cat.skipped.get(note)).toBeNull()
      writeOld(path.join(lib, 'more', 'save.dat'), new Uint8Array(32))
      await indexPaths(cat, [lib])
      expect(cat.skipped.get(path.join(lib, 'more', 'save.dat'))).not.toBeNull()
      fs.rmSync(path.join(lib, 'more', 'save.dat'))
      await indexPaths(cat, [lib])
      expect(cat.skipped.get(path.join(lib, 'more', 'save.dat'))).toBeNull()
    })
  })
})

describe('a first index of many sets (read ahead on a second thread)', () => {
  it('gives the same sources, assets and damaged-member reports as indexing each set on its own', async () => {
    const lib = path.join(dir, 'many')
    const set = buildSyntheticSet(1).files
    const sets = Array.from({ length: 20 }, (_, i) => path.join(lib, `a${String(i).padStart(4, '0')}`))
    for (const s of sets) for (const [n, b] of set) writeOld(path.join(s, n), b)
    writeOld(path.join(sets[7]!, '3.bin'), new TextEncoder().encode('not a GF package at all'))
    const whole = openCatalog(path.join(dir, 'many-whole.sqlite'))
    const one = openCatalog(path.join(dir, 'many-one.sqlite'))
    try {
      const a = await indexPaths(whole, [lib])
      const b = { sources: (await Promise.all(sets.map(async (s) => (await indexPaths(one, [path.join(s, '0.bin')])).sources))).flat() }
      const shape = (r: { sources: { path: string; status: string; assets: number; damaged?: string[] }[] }) => r.sources.map((s) => ({ path: s.path, status: s.status, assets: s.assets, damaged: s.damaged }))
      expect(shape(a)).toEqual(shape(b))
      expect(a.sources[7]!.damaged![0]).toContain('3.bin')
      expect(a.sources.filter((s) => s.damaged).length).toBe(1)
      const rows = (c: Catalog) => c.db.prepare('SELECT s.path, a.kind, a.name, a.locator, a.metadata FROM assets a JOIN sources s ON s.id = a.source_id ORDER BY s.path, a.ord, a.id').all()
      expect(rows(whole)).toEqual(rows(one))
      expect(whole.sources().map((s) => s.hash)).toEqual(one.sources().map((s) => s.hash))
    } finally {
      whole.close()
      one.close()
    }
  })
})
