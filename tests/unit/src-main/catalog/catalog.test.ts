import { describe, expect, it, beforeEach, afterEach } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog, ftsQuery, type Catalog } from '../../../../src-main/catalog/catalog'
import { migrations } from '../../../../src-main/catalog/migrations'
import type { AssetDraft } from '../../../../src-main/plugin/detector'

let dir: string
let cat: Catalog

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-cat-'))
  cat = openCatalog(path.join(dir, 'c.sqlite'))
})
afterEach(() => {
  cat.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const drafts = (names: string[]): AssetDraft<string>[] => [
  { key: 'root', kind: 'game', name: 'Game' },
  ...names.map((n, i) => ({ key: `a${i}`, parentKey: 'root', kind: 'texture', name: n, locator: { entry: i }, metadata: { i }, tags: ['RGB565'] })),
].map((d) => ({ locator: {}, ...d }))

describe('Catalog', () => {
  it('applies every numbered migration and uses WAL', () => {
    expect(cat.schemaVersion).toBe(migrations.at(-1)!.version)
    expect(cat.db.pragma('journal_mode', { simple: true })).toBe('wal')
  })

  it('stores a source with a tree of assets and child counts', () => {
    const { sourceId, assets } = cat.replaceSource({ path: '/x/set', size: 10, mtime: 1, hash: 'h1', kind: 'gf-set' }, drafts(['Eye', 'Body', 'Mouth']))
    expect(assets).toBe(4)
    const top = cat.children(sourceId, null)
    expect(top.map((a) => a.name)).toEqual(['Game'])
    expect(top[0]!.childCount).toBe(3)
    const kids = cat.children(sourceId, top[0]!.id)
    expect(kids.map((a) => a.name)).toEqual(['Eye', 'Body', 'Mouth'])
    expect(kids[1]!.locator).toEqual({ entry: 1 })
    expect(kids[1]!.parent).toBe(top[0]!.id)
    expect(cat.children(sourceId, top[0]!.id, 1, 1).map((a) => a.name)).toEqual(['Body'])
  })

  it('finds assets by name prefix and tags through FTS5', () => {
    cat.replaceSource({ path: '/x/set', size: 10, mtime: 1, hash: 'h1', kind: 'gf-set' }, drafts(['pm0025_00_Eye1', 'pm0025_00_Body']))
    expect(cat.search('body').map((a) => a.name)).toEqual(['pm0025_00_Body'])
    expect(cat.search('Eye').map((a) => a.name)).toEqual(['pm0025_00_Eye1'])
    expect(cat.search('rgb565').length).toBe(2)
    expect(cat.search('"; DROP TABLE assets; --')).toEqual([])
    expect(ftsQuery('pika chu')).toBe('"pika"* AND "chu"*')
  })

  it('replaces a changed source in one transaction and rolls back on failure', () => {
    const { sourceId } = cat.replaceSource({ path: '/x/set', size: 10, mtime: 1, hash: 'h1', kind: 'gf-set' }, drafts(['A', 'B']))
    // A draft naming a parent that does not exist fails half-way: nothing of it may remain.
    const bad: AssetDraft<string>[] = [...drafts(['C']), { key: 'orphan', parentKey: 'nope', kind: 'x', name: 'X', locator: {} }]
    expect(() => cat.replaceSource({ path: '/x/set', size: 11, mtime: 2, hash: 'h2', kind: 'gf-set' }, bad)).toThrow(/parent nope/)
    expect(cat.source(sourceId)!.hash).toBe('h1')
    expect(cat.list().map((a) => a.name)).toEqual(['Game', 'A', 'B'])
    cat.replaceSource({ path: '/x/set', size: 11, mtime: 2, hash: 'h2', kind: 'gf-set' }, drafts(['C']))
    expect(cat.list().map((a) => a.name)).toEqual(['Game', 'C'])
    expect(cat.search('A')).toEqual([])
    expect(cat.source(sourceId)!.hash).toBe('h2')
  })

  it('records errors and lists by kind and source', () => {
    cat.replaceSource({ path: '/x/a', size: 1, mtime: 1, hash: 'a', kind: 'gf-set' }, drafts(['A']))
    cat.recordError({ path: '/x/b', size: 1, mtime: 1, hash: 'b', kind: 'n64-rom' }, 'not an N64 ROM')
    const b = cat.sourceByPath('/x/b')!
    expect(b.status).toBe('error')
    expect(b.error).toBe('not an N64 ROM')
    expect(cat.list({ kind: 'texture' }).map((a) => a.name)).toEqual(['A'])
    expect(cat.list({ source: '/x/b' })).toEqual([])
  })

  it('keeps settings (recent files, remembered folders)', () => {
    cat.setSetting('recent', ['/a', '/b'])
    expect(cat.getSetting<string[]>('recent')).toEqual(['/a', '/b'])
  })
})
