// @vitest-environment happy-dom
/**
 * The renderer's side of the domain manifests: every editor kind of a shared manifest has a view
 * in its renderer manifest (and nothing else has one); a fake domain registered in the lists shows
 * in the tree rows with its manifest's icons, opens its view, and keys its view instance.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow, SourceRow } from '../../../src-shared/api'
import { registerSharedDomain, sharedDomains, unregisterSharedDomain } from '../../../src-shared/domains'
import { fakeDomain } from '../../fixtures/domains/fake/shared'
import { FakeRootView, fakeRenderer } from '../../fixtures/domains/fake/renderer'

const SRC: SourceRow = { id: 7, path: '/mods/two.fake', size: 78, mtime: 0, hash: 'h', kind: 'fake-file' as SourceRow['kind'], status: 'indexed', error: null, indexedAt: 0 }
const ROOT: AssetRow = { id: 70, sourceId: 7, parent: null, kind: 'fake-root' as AssetRow['kind'], name: 'Fake root', locator: {}, metadata: {}, childCount: 1 }
const MESH: AssetRow = { id: 71, sourceId: 7, parent: 70, kind: 'fake-mesh' as AssetRow['kind'], name: 'Fake mesh', locator: {}, metadata: { triangles: 2 }, childCount: 0 }

vi.mock('../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => (e instanceof Error ? e.message : String(e)),
  errorCode: () => undefined,
  bridge: {
    transport: 'http',
    on: () => () => {},
    invoke: async (channel: string, req: Record<string, unknown>) => {
      if (channel === 'catalog:sources') return [SRC]
      if (channel === 'catalog:children') return [ROOT, MESH].filter((a) => a.parent === req.parent)
      throw new Error(`unexpected ${channel}`)
    },
  },
}))

const { rendererDomains, registerRendererDomain, rowIcon, viewFor, viewKeyOf } = await import('../../../src-renderer/domains')
const { useCatalogStore } = await import('../../../src-renderer/stores/catalog')

describe('renderer manifests', () => {
  it('give every editor kind of each shared manifest a view, and only those', () => {
    const byId = new Map(rendererDomains().map((r) => [r.shared.id, r]))
    for (const d of sharedDomains()) {
      const editorKinds = [...Object.entries(d.sourceKinds), ...Object.entries(d.assetKinds)].filter(([, k]) => k.editor).map(([name]) => name)
      const views = Object.keys(byId.get(d.id)?.views ?? {})
      expect(new Set(views), d.id).toEqual(new Set(editorKinds))
    }
  })

  it('keep one view instance for a Snap stage’s parts and a Stadium model’s animations', () => {
    const a = (kind: AssetRow['kind'], locator: Record<string, unknown>): AssetRow => ({ id: 1, sourceId: 3, parent: null, kind, name: '', locator, metadata: {}, childCount: 0 })
    expect(viewKeyOf(a('snap-room', { stage: 'beach', group: 'path', index: 0 }))).toBe(viewKeyOf(a('snap-track', { stage: 'beach' })))
    expect(viewKeyOf(a('snap-room', { stage: 'beach' }))).not.toBe(viewKeyOf(a('snap-room', { stage: 'tunnel' })))
    expect(viewKeyOf(a('stadium-animation', { file: 4, animation: 2 }))).toBe(viewKeyOf(a('stadium-model', { file: 4 })))
    expect(viewKeyOf(a('gf-texture', { file: '1.bin', entry: 0 }))).toBeNull()
    expect(viewFor('snap-room')).toBe(viewFor('snap-stage'))
    expect(viewFor('snap-spawn')).toBeNull()
  })
})

describe('a fake domain in the lists', () => {
  let off: () => void
  beforeAll(() => {
    registerSharedDomain(fakeDomain)
    off = registerRendererDomain(fakeRenderer)
  })
  afterAll(() => {
    off()
    unregisterSharedDomain('fake')
  })

  it('shows in the tree rows with its manifest’s icons', async () => {
    setActivePinia(createPinia())
    const store = useCatalogStore()
    await store.loadSources()
    await store.toggle(store.rows[1]!)
    await store.toggle(store.rows[2]!)
    expect(store.rows.map((r) => [r.name, r.depth, rowIcon(r.type, r.kind)])).toEqual([
      ['mods', 0, '▭'],
      ['two.fake', 1, 'F'],
      ['Fake root', 2, 'R'],
      ['Fake mesh', 3, 'M'],
    ])
  })

  it('opens its view for its editor kind and keys the view by its manifest', () => {
    expect(viewFor('fake-root' as AssetRow['kind'])).toBe(FakeRootView)
    expect(viewFor('fake-mesh' as AssetRow['kind'])).toBeNull()
    expect(viewKeyOf(ROOT)).toBe('fake:7')
  })

  it('is gone once removed', () => {
    off()
    unregisterSharedDomain('fake')
    expect(viewFor('fake-root' as AssetRow['kind'])).toBeNull()
    expect(rowIcon('source', 'fake-file')).toBe('▣')
    registerSharedDomain(fakeDomain)
    off = registerRendererDomain(fakeRenderer)
  })
})
