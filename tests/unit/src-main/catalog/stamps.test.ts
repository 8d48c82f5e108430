/** What a re-index reads of the catalog: source stamps (one query per folder, by path range) and skipped files. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'

let dir: string
let cat: Catalog
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-stamps-'))
  cat = openCatalog(path.join(dir, 'c.sqlite'))
})
afterEach(() => {
  cat.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const info = (p: string, size: number) => ({ path: p, size, mtime: 1000 + size, ino: 7 * size, hash: `h${size}`, kind: 'n64-rom' as const })
const drafts = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, kind: 'thing', name: `thing ${i}`, locator: {} }))

describe('source stamps', () => {
  it('lists exactly the sources whose path starts with the folder, whatever characters follow (the range seeks the path index)', () => {
    const root = '/lib/é/'
    const under = [`${root}a.z64`, `${root}ü/ß.z64`, `${root}日本/ゲーム.z64`, `${root}🎮.z64`, `${root}\u{10FFFE}.z64`]
    const other = ['/lib/é2/a.z64', '/lib/é', '/lib/e/a.z64', '/lib/f.z64', '/lib/é.z64']
    ;[...under, ...other].forEach((p, i) => cat.replaceSource(info(p, i + 1), drafts(i % 3)))
    expect(cat.sourcesUnder(root).map((s) => s.path).sort()).toEqual([...under].sort())
    const stamps = cat.sourceStampsUnder(root)
    expect([...stamps.keys()].sort()).toEqual([...under].sort())
    under.forEach((p, i) => expect(stamps.get(p)).toMatchObject({ size: i + 1, mtime: 1001 + i, ino: 7 * (i + 1), hash: `h${i + 1}`, kind: 'n64-rom', status: 'indexed', assets: i % 3 }))
    expect(stamps.get(under[2]!)).toMatchObject(cat.sourceStamp(under[2]!)!)
    expect(cat.sourceStamp('/lib/none.z64')).toBeNull()
    const plan = cat.db.prepare("EXPLAIN QUERY PLAN SELECT id FROM sources WHERE path >= @p AND path < @end AND instr(path, @p) = 1").all({ p: root, end: `${root}\u{10FFFF}` }) as { detail: string }[]
    expect(plan.map((r) => r.detail).join()).toMatch(/USING (COVERING )?INDEX/)
  })
})

describe('skipped files', () => {
  it('keeps a stamp per path, replaces it, and forgets those under a folder that a walk did not meet', () => {
    cat.skipped.record('/lib/a/notes.txt', { size: 3, mtime: 5, ino: 9, detectors: 'n64,gf' })
    cat.skipped.record('/lib/a/notes.txt', { size: 4, mtime: 6, ino: 9, detectors: 'n64,gf' })
    cat.skipped.record('/lib/a/b/save.dat', { size: 1, mtime: 1, ino: 1, detectors: 'n64,gf' })
    cat.skipped.record('/lib/ab/other.txt', { size: 1, mtime: 1, ino: 2, detectors: 'n64,gf' })
    expect(cat.skipped.get('/lib/a/notes.txt')).toMatchObject({ size: 4, mtime: 6, ino: 9, detectors: 'n64,gf' })
    expect(cat.skipped.forgetUnder('/lib/a/', new Set(['/lib/a/notes.txt']))).toBe(1)
    expect(cat.skipped.get('/lib/a/b/save.dat')).toBeNull()
    expect(cat.skipped.get('/lib/a/notes.txt')).not.toBeNull()
    expect(cat.skipped.get('/lib/ab/other.txt')).not.toBeNull()
  })
})
