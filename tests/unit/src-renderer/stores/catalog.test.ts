// @vitest-environment happy-dom
import { describe, expect, it, vi, beforeEach } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow, SourceRow } from '../../../../src-shared/api'

/**
 * The catalog store against a fake catalog: a search hit is revealed in the tree (its source and
 * every ancestor expanded in order, the hit selected and scrolled to), the welcome page's
 * "first asset of a kind" lookup, and indexing a chosen path selects its source.
 */
const SRC: SourceRow = { id: 1, path: '/roms/snap.z64', size: 10, mtime: 0, hash: 'h', kind: 'snap-rom', status: 'indexed', error: null, indexedAt: 0 }
const OTHER: SourceRow = { ...SRC, id: 2, path: '/mods/set', kind: 'gf-set' }
const asset = (id: number, parent: number | null, kind: AssetRow['kind'], name: string, childCount: number): AssetRow => ({ id, sourceId: 1, parent, kind, name, locator: {}, metadata: {}, childCount })
const ASSETS = [
  asset(10, null, 'snap-game', 'Pokémon Snap', 2),
  asset(20, 10, 'snap-stage', 'Beach', 1),
  asset(21, 10, 'snap-stage', 'Tunnel', 0),
  asset(30, 20, 'snap-room-group', 'Path rooms', 1),
  asset(40, 30, 'snap-room', 'Path room 0', 0),
]
let sources: SourceRow[] = [SRC, OTHER]
/** Top-level assets of source 2 when a test fills it: served a page at a time, by key as main does. */
let big: AssetRow[] = []
function pageOf(list: AssetRow[], req: Record<string, unknown>): AssetRow[] {
  const from = req.after !== undefined ? list.findIndex((a) => a.id === req.after) + 1 : Number(req.offset ?? 0)
  return list.slice(from, from + Number(req.limit ?? 1000))
}
let searchable: AssetRow[] = []
const calls: string[] = []
const handlers = new Map<string, (p: unknown) => void>()

async function invoke(channel: string, req: Record<string, unknown>): Promise<unknown> {
  calls.push(`${channel} ${JSON.stringify(req)}`)
  switch (channel) {
    case 'catalog:sources': return sources
    case 'catalog:children': return req.sourceId === 1 ? ASSETS.filter((a) => a.parent === req.parent) : req.sourceId === 2 ? pageOf(big, req) : []
    case 'catalog:asset': return ASSETS.find((a) => a.id === req.id) ?? null
    case 'catalog:reveal': return revealIn(ASSETS, req)
    case 'catalog:search': return searchable.filter((a) => a.name.toLowerCase().includes(String(req.query).toLowerCase()))
    case 'index:start':
      sources = [...sources, { ...SRC, id: 3, path: '/new/rom.z64' }]
      return { sources: [{ path: '/new/rom.z64', kind: 'n64-rom', status: 'indexed', assets: 0 }], assets: 0 }
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
  sources = [SRC, OTHER]
  searchable = []
  big = []
  calls.length = 0
})

describe('catalog store', () => {
  it('reveals a deep search hit: source and ancestors expanded, the hit selected', async () => {
    const store = useCatalogStore()
    await store.loadSources()
    // grouped by folder (folders by path), each source under its folder
    expect(store.rows.map((r) => r.key)).toEqual(['f/mods', 's2', 'f/roms', 's1'])
    expect(store.rows[0]).toMatchObject({ type: 'folder', name: 'mods', folder: '/mods', expanded: true })
    await store.selectAsset(ASSETS[4]!)
    expect(store.rows.map((r) => `${r.key}@${r.depth}${r.expanded ? '+' : ''}`)).toEqual([
      'f/mods@0+', 's2@1', 'f/roms@0+', 's1@1+', 'a10@2+', 'a20@3+', 'a30@4+', 'a40@5', 'a21@3',
    ])
    expect(store.selected?.key).toBe('a40')
    expect(store.selected?.depth).toBe(5)
    expect(store.revealKey?.key).toBe('a40')
    expect(store.selectedPath).toEqual(['snap.z64', 'Pokémon Snap', 'Beach', 'Path rooms', 'Path room 0'])
    store.clearSelection()
    expect(store.selectedPath).toEqual([])
    // one call brought every level (issue 26): no lookup per ancestor, no children asked
    expect(calls.slice(1)).toEqual(['catalog:reveal {"id":40,"limit":20000}'])
  })

  it('a permalink opened before the sources are listed: one reveal call, then the tree shows the asset without asking more', async () => {
    const store = useCatalogStore()
    const opening = store.openAssetId(30)
    await store.loadSources()
    await opening
    expect(store.selected?.key).toBe('a30')
    expect(store.rows.map((r) => `${r.key}${r.expanded ? '+' : ''}`)).toEqual(['f/mods+', 's2', 'f/roms+', 's1+', 'a10+', 'a20+', 'a30', 'a21'])
    expect(calls.sort()).toEqual(['catalog:reveal {"id":30,"limit":20000}', 'catalog:sources {}'])
    await store.openAssetId(999)
    expect(store.errors.at(-1)).toMatch(/asset 999 is not in the catalog/)
  })

  it('revealing again keeps the tree as it is (nothing collapses)', async () => {
    const store = useCatalogStore()
    await store.loadSources()
    await store.revealAsset(ASSETS[4]!)
    const before = store.rows.map((r) => r.key)
    await store.revealAsset(ASSETS[2]!)
    expect(store.rows.map((r) => r.key)).toEqual(before)
    expect(store.selected?.key).toBe('a21')
  })

  it('openFirst finds the first asset of a kind under a source kind and reveals it', async () => {
    const store = useCatalogStore()
    await store.loadSources()
    expect(await store.openFirst('snap-rom', 'snap-stage')).toBe(true)
    expect(store.selected?.name).toBe('Beach')
    expect(store.rows.find((r) => r.key === 'a10')?.expanded).toBe(true)
    expect(await store.openFirst('stadium-rom', 'stadium-model')).toBe(false)
  })

  it('indexing a chosen path selects its new source when nothing was selected, never moves a selection', async () => {
    const store = useCatalogStore()
    await store.loadSources()
    await store.indexPaths(['/new/rom.z64'])
    expect(store.selected?.key).toBe('s3')
    expect(store.errors).toEqual([])
    store.selectSource(2)
    sources = [SRC, OTHER]
    await store.indexPaths(['/new/rom.z64'])
    expect(store.selected?.key).toBe('s2')
    // a file the user just wrote (a repacked set) is selected when the caller asks
    await store.indexPaths(['/new/rom.z64'], { select: true })
    expect(store.selected?.key).toBe('s3')
  })

  it('a reload (a new store in the same tab) opens the same rows, keeps folded groups folded and selects the same node', async () => {
    const first = useCatalogStore()
    await first.loadSources()
    await first.toggle(first.rows.find((r) => r.key === 's1')!)
    await first.toggle(first.rows.find((r) => r.key === 'a10')!)
    await first.toggle(first.rows.find((r) => r.key === 'f/mods')!)
    first.selectSource(1)
    const shown = first.rows.map((r) => `${r.key}${r.expanded ? '+' : ''}`)
    expect(shown).toEqual(['f/mods', 'f/roms+', 's1+', 'a10+', 'a20', 'a21'])
    setActivePinia(createPinia())
    const again = useCatalogStore()
    await again.loadSources()
    expect(again.rows.map((r) => `${r.key}${r.expanded ? '+' : ''}`)).toEqual(shown)
    expect(again.selected?.key).toBe('s1')
    // the start page (nothing selected) is remembered too
    again.clearSelection()
    setActivePinia(createPinia())
    const third = useCatalogStore()
    await third.loadSources()
    expect(third.selected).toBeNull()
  })

  it('40 sources of one folder form one group sorted by name (numbers as numbers), the path shown', async () => {
    sources = Array.from({ length: 40 }, (_, i) => ({ ...SRC, id: 100 + i, path: `/z/roms/Game ${40 - i}.z64` }))
    sources.push({ ...SRC, id: 99, path: '/a/other.z64' })
    const store = useCatalogStore()
    await store.loadSources()
    const folders = store.rows.filter((r) => r.type === 'folder')
    expect(folders.map((r) => [r.name, r.folder])).toEqual([['a', '/a'], ['roms', '/z/roms']])
    const inRoms = store.rows.slice(store.rows.indexOf(folders[1]!) + 1).map((r) => r.name)
    expect(inRoms).toHaveLength(40)
    expect(inRoms.slice(0, 3)).toEqual(['Game 1.z64', 'Game 2.z64', 'Game 3.z64'])
    expect(inRoms[39]).toBe('Game 40.z64')
  })

  it('a search typed before indexing finished catches up when the catalog changes', async () => {
    vi.useFakeTimers()
    try {
      const store = useCatalogStore()
      await store.search('beach')
      expect(store.results).toEqual([])
      searchable = ASSETS
      handlers.get('catalog:changed')!({ sourceIds: [] })
      await vi.advanceTimersByTimeAsync(150)
      expect(store.results.map((a) => a.name)).toEqual(['Beach'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('"Load more…" asks for the page after the last child shown (by key), not by position', async () => {
    big = Array.from({ length: 20_005 }, (_, i) => ({ ...asset(1000 + i * 3, null, 'gf-texture', `t${i}`, 0), sourceId: 2 }))
    const store = useCatalogStore()
    await store.loadSources()
    await store.toggle(store.rows.find((r) => r.key === 's2')!)
    const more = store.rows.find((r) => r.type === 'more')!
    expect(more.type).toBe('more')
    expect(more.more).toEqual({ parent: null, offset: 20_000, after: big[19_999]!.id })
    await store.loadMore(more)
    expect(JSON.parse(calls.at(-1)!.slice('catalog:children '.length))).toMatchObject({ sourceId: 2, parent: null, after: big[19_999]!.id })
    expect(store.rows.filter((r) => r.sourceId === 2 && r.type === 'asset').map((r) => r.asset!.id)).toEqual(big.map((a) => a.id))
    expect(store.rows.some((r) => r.type === 'more')).toBe(false)
  })
})
