// @vitest-environment happy-dom
import { describe, expect, it, vi, beforeEach } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow, SourceRow } from '../../../../src-shared/api'

/**
 * The tree race of issue 14, as the user met it: two sources expanded, a stage selected, then a
 * folder of new ROMs whose paths sort before them is indexed. The service answers out of order
 * (children arrive after different delays) and the catalog's change event lands while indexing's
 * own refresh is still loading children: two refreshes overlap. Before the fix the late answer of
 * one refresh was spliced in at a stale position (index -1: over the last row), listing a source
 * twice and dropping another, and indexing selected the first new source.
 */
const src = (id: number, path: string): SourceRow => ({ id, path, size: 1, mtime: 0, hash: `h${id}`, kind: 'snap-rom', status: 'indexed', error: null, indexedAt: 0 })
const asset = (id: number, sourceId: number, parent: number | null, name: string, childCount: number): AssetRow => ({ id, sourceId, parent, kind: parent === null ? 'snap-game' : 'snap-stage', name, locator: {}, metadata: {}, childCount })

const OLD = [src(1, '/roms/zz/stadium.z64'), src(2, '/roms/zz/snap.z64')]
const NEW = Array.from({ length: 6 }, (_, i) => src(10 + i, `/roms/aa/new ${i + 1}.z64`))
const ASSETS: AssetRow[] = [
  asset(100, 1, null, 'Stadium', 2), asset(101, 1, 100, 'Model A', 0), asset(102, 1, 100, 'Model B', 0),
  asset(200, 2, null, 'Snap', 2), asset(201, 2, 200, 'Beach', 0), asset(202, 2, 200, 'Tunnel', 0),
  ...NEW.map((s) => asset(1000 + s.id, s.id, null, `Game ${s.id}`, 0)),
]
let sources: SourceRow[] = []
const handlers = new Map<string, (p: unknown) => void>()
/** Delays (ms) of successive children answers: out of order on purpose. */
const DELAYS = [9, 1, 14, 3, 7, 2, 11, 5]
let n = 0
const later = <T>(v: T, ms: number) => new Promise<T>((r) => setTimeout(() => r(v), ms))

async function invoke(channel: string, req: Record<string, unknown>): Promise<unknown> {
  switch (channel) {
    case 'catalog:sources': return later([...sources].sort((a, b) => (a.path < b.path ? -1 : 1)), 1)
    case 'catalog:children': return later(ASSETS.filter((a) => a.sourceId === req.sourceId && a.parent === req.parent), DELAYS[n++ % DELAYS.length]!)
    case 'catalog:asset': return ASSETS.find((a) => a.id === req.id) ?? null
    case 'catalog:reveal': return later(revealIn(ASSETS, req), DELAYS[n++ % DELAYS.length]!)
    case 'index:start':
      sources = [...sources, ...NEW]
      // the server's change event arrives before the job's answer
      handlers.get('catalog:changed')!({ sourceIds: [] })
      return later({ sources: NEW.map((s) => ({ path: s.path, kind: s.kind, status: 'indexed', assets: 1 })), assets: NEW.length }, 2)
    default: throw new Error(`unexpected ${channel}`)
  }
}

vi.mock('../../../../src-renderer/bridge', async () => (await import('../../../helpers/fake-bridge')).fakeBridgeModule(invoke, handlers))
const { revealIn } = await import('../../../helpers/fake-bridge')

const { useCatalogStore } = await import('../../../../src-renderer/stores/catalog')

beforeEach(() => {
  // each test is a fresh tab: no tree remembered from the one before (stores/tree-memory.ts)
  sessionStorage.clear()
  setActivePinia(createPinia())
  sources = [...OLD]
  n = 0
})

const settle = () => new Promise((r) => setTimeout(r, 400))
const keysOf = (store: ReturnType<typeof useCatalogStore>) => store.rows.map((r) => r.key)

describe('catalog tree under concurrent indexing (issue 14 recipe)', () => {
  it('lists every source once, keeps expansion and selection', async () => {
    const store = useCatalogStore()
    await store.loadSources()
    // two sources expanded, a stage selected
    for (const key of ['s1', 's2', 'a200']) await store.toggle(store.rows.find((r) => r.key === key)!)
    store.select(store.rows.find((r) => r.key === 'a201')!)
    const before = keysOf(store)
    expect(before).toEqual(['f/roms/zz', 's2', 'a200', 'a201', 'a202', 's1', 'a100'])

    const indexing = store.indexPaths(['/roms/aa'])
    // a third refresh while the first two are in flight (e.g. a re-index of another job)
    await later(null, 3)
    void store.loadSources()
    await indexing
    await settle()

    const keys = keysOf(store)
    expect(new Set(keys).size, `no row twice: ${keys.join(' ')}`).toBe(keys.length)
    // the new folder sorts first; its sources by name; the old folder exactly as it was
    expect(keys).toEqual(['f/roms/aa', 's10', 's11', 's12', 's13', 's14', 's15', ...before])
    expect(store.rows.filter((r) => r.type === 'source').map((r) => r.sourceId).sort((a, b) => a - b)).toEqual([1, 2, 10, 11, 12, 13, 14, 15])
    // depth follows the parent: every child sits right below its parent, one deeper
    for (const r of store.rows) if (r.asset?.parent != null) {
      const i = keys.indexOf(r.key)
      const parent = store.rows.slice(0, i).reverse().find((p) => p.depth < r.depth)!
      expect(parent.key).toBe(`a${r.asset.parent}`)
    }
    expect(store.selected?.key, 'indexing does not move the selection').toBe('a201')
    expect(store.rows.includes(store.selected!), 'the selection is the row shown').toBe(true)
    expect(store.rows.find((r) => r.key === 's1')?.expanded).toBe(true)
    expect(store.rows.find((r) => r.key === 's2')?.expanded).toBe(true)
  })

  it('a toggle made while a refresh is loading is kept (the refresh rebuilds with it)', async () => {
    const store = useCatalogStore()
    await store.loadSources()
    await store.toggle(store.rows.find((r) => r.key === 's1')!)
    sources = [...OLD, ...NEW]
    const refresh = store.loadSources()
    // the user expands s2 and collapses s1 while the refresh is still fetching s1's children
    await later(null, 2)
    const s2 = store.rows.find((r) => r.key === 's2')!
    const opening = store.toggle(s2)
    store.toggle(store.rows.find((r) => r.key === 's1')!)
    await Promise.all([refresh, opening])
    await settle()
    const keys = keysOf(store)
    expect(new Set(keys).size).toBe(keys.length)
    expect(keys.slice(-4)).toEqual(['f/roms/zz', 's2', 'a200', 's1'])
    expect(store.rows.find((r) => r.key === 's2')?.expanded).toBe(true)
    expect(store.rows.find((r) => r.key === 's1')?.expanded).toBe(false)
    expect(keys).not.toContain('a100')
    expect(keys).toContain('a200')
  })

  it('a folded folder group stays folded across refreshes, and a source in it can still be revealed', async () => {
    const store = useCatalogStore()
    sources = [...OLD, ...NEW]
    await store.loadSources()
    await store.toggle(store.rows.find((r) => r.key === 'f/roms/aa')!)
    expect(keysOf(store)).toEqual(['f/roms/aa', 'f/roms/zz', 's2', 's1'])
    await store.loadSources()
    expect(keysOf(store)).toEqual(['f/roms/aa', 'f/roms/zz', 's2', 's1'])
    await store.revealAsset(ASSETS.find((a) => a.id === 1012)!)
    expect(store.selected?.key).toBe('a1012')
    expect(keysOf(store).slice(0, 4)).toEqual(['f/roms/aa', 's10', 's11', 's12'])
  })
})
