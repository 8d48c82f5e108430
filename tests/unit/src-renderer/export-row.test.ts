// @vitest-environment happy-dom
/**
 * The tree's Export… entry: offered per kind by the shared manifests, run through `scene:export`
 * (the same call every view's Export button makes) whether or not a view shows the node — asks
 * where (default outside any input folder), confirms a replace, reports progress and the result,
 * reveals the written file. A fake bridge stands for the main side.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp, h, nextTick } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow, SourceRow } from '../../../src-shared/api'
import { sharedDomains } from '../../../src-shared/domains'

type Call = { channel: string; req: Record<string, unknown> }
const calls: Call[] = []
const picks: Record<string, unknown>[] = []
const revealed: string[] = []
const fake = {
  pickAnswer: '/out/model.glb' as string | null,
  /** Paths that exist: scene:export refuses them unless overwrite. */
  existing: new Set<string>(),
}
const listeners = new Set<(p: { jobId: string; stage: string; fraction: number }) => void>()
const fakeBridge = {
  transport: 'http',
  on: (_ev: string, l: (p: { jobId: string; stage: string; fraction: number }) => void) => {
    listeners.add(l)
    return () => listeners.delete(l)
  },
  pick: async (o: Record<string, unknown>) => {
    picks.push(o)
    return fake.pickAnswer
  },
  reveal: async (p: string) => void revealed.push(p),
  invoke: async (channel: string, req: Record<string, unknown>) => {
    calls.push({ channel, req })
    if (channel !== 'scene:export') throw new Error(`unexpected ${channel}`)
    if (fake.existing.has(req.out as string) && !req.overwrite) throw Object.assign(new Error('exists'), { code: 'exists' })
    for (const stage of ['build', 'encode', 'write'] as const) listeners.forEach((l) => l({ jobId: req.jobId as string, stage, fraction: stage === 'build' ? 0 : stage === 'encode' ? 0.5 : 0.9 }))
    listeners.forEach((l) => l({ jobId: 'someone-else', stage: 'build', fraction: 0.33 }))
    return { id: req.id, kind: 'stadium-model', name: 'Bulbasaur', out: req.out, bytes: 12345, nodes: 1, meshes: 1, materials: 1, textures: 0, skins: 0, animations: 0, curves: 0 }
  },
}
vi.mock('../../../src-renderer/bridge', () => ({
  bridge: fakeBridge,
  errorMessage: (e: unknown) => (e instanceof Error ? e.message : String(e)),
  errorCode: (e: unknown) => (e as { code?: string }).code,
}))

const { assetRow, sourceRow } = await import('../../../src-renderer/stores/catalog-tree')
const { exportRow, exportsDirectly } = await import('../../../src-renderer/export-row')
const { treeActions } = await import('../../../src-renderer/tree-actions')

const asset = (kind: AssetRow['kind'], id = 7, name = '001 Bulbasaur'): AssetRow => ({ id, sourceId: 1, parent: null, kind, name, locator: {}, metadata: {}, childCount: 0 })
const src = (kind: string, path: string): SourceRow => ({ id: 1, path, size: 1, mtime: 0, hash: 'h', kind: kind as SourceRow['kind'], status: 'indexed', error: null, indexedAt: 0 })

beforeEach(() => {
  calls.length = 0
  picks.length = 0
  revealed.length = 0
  fake.pickAnswer = '/out/model.glb'
  fake.existing.clear()
})

describe('Export… in the menu, per kind (manifest-driven)', () => {
  it('every kind that opens a scene offers Export…, and exactly those export directly', () => {
    for (const d of sharedDomains()) {
      for (const [kind, info] of Object.entries(d.assetKinds)) {
        const row = assetRow(asset(kind as AssetRow['kind']), 2)
        const ids = treeActions(row).map((a) => a.id)
        // a scene kind always has the entry (the manifest lists it) …
        if (info.scene) expect(ids, kind).toContain('export')
        expect(exportsDirectly(row), kind).toBe(!!info.scene)
      }
    }
    expect(treeActions(assetRow(asset('stadium-model'), 2)).map((a) => a.label)).toEqual(['Open', 'Export…', 'Re-index', 'Reveal in folder', 'Copy path'])
    // … and kinds without a scene do not (a spawn, a texture, a GF entry, a Snap game)
    for (const k of ['snap-spawn', 'gf-texture', 'gf-entry', 'snap-game', 'stadium-game'] as const) expect(treeActions(assetRow(asset(k), 2)).map((a) => a.id), k).not.toContain('export')
    // RE motions have no scene builder: Export… is offered and handed to the pose editor (re:exportGlb)
    for (const k of ['re-motlist', 're-mot', 're-motion'] as const) {
      expect(treeActions(assetRow(asset(k), 2)).map((a) => a.id), k).toContain('export')
      expect(exportsDirectly(assetRow(asset(k), 2)), k).toBe(false)
    }
    expect(treeActions(sourceRow(src('re-motlist', '/m/a.motlist.85'))).map((a) => a.id)).toContain('export')
    // a source row never exports directly (no asset id)
    expect(exportsDirectly(sourceRow(src('stadium-rom', '/roms/s.z64')))).toBe(false)
  })
})

describe('exportRow', () => {
  it('asks beside the source, calls scene:export with the asset id, reports progress and the result, reveals', async () => {
    const notices: string[] = []
    const r = await exportRow(assetRow(asset('stadium-model'), 2), '/roms/stadium.z64', { notice: (t) => notices.push(t) })
    expect(picks).toEqual([{ kind: 'save-file', title: 'Export 001 Bulbasaur as .glb', defaultPath: '/roms/001_Bulbasaur.glb', filters: [{ name: 'glTF binary', extensions: ['glb'] }] }])
    expect(calls).toHaveLength(1)
    // the file dialog asked before replacing, so the answer is written with overwrite
    expect(calls[0]!.req).toMatchObject({ id: 7, out: '/out/model.glb', overwrite: true })
    expect(r?.bytes).toBe(12345)
    // progress of this job only (the other job's 33 % never shows), then the result
    expect(notices).toEqual(['Exporting 001 Bulbasaur… build 0%', 'Exporting 001 Bulbasaur… encode 50%', 'Exporting 001 Bulbasaur… write 90%', `Exported 001 Bulbasaur to /out/model.glb (${(12345).toLocaleString()} bytes)`])
    expect(revealed).toEqual(['/out/model.glb'])
  })

  it('a GF set (a folder source): the default is beside the folder, never inside it', async () => {
    await exportRow(assetRow(asset('gf-model', 3, 'pm0025_00'), 2), '/dumps/a/pm0025/', { notice: () => {} })
    expect(picks[0]!.defaultPath).toBe('/dumps/a/pm0025_00.glb')
  })

  it('an unconfirmed existing path: asks before replacing; a "no" writes nothing', async () => {
    fake.existing.add('/out/model.glb')
    const asked: string[] = []
    const notices: string[] = []
    const choosePath = async () => ({ path: '/out/model.glb', confirmed: false })
    const no = await exportRow(assetRow(asset('snap-stage'), 2), '/roms/snap.z64', { notice: (t) => notices.push(t), choosePath, confirmReplace: (p) => (asked.push(p), false) })
    expect(no).toBeNull()
    expect(asked).toEqual(['/out/model.glb'])
    expect(calls.map((c) => c.req.overwrite)).toEqual([false])
    expect(notices.at(-1)).toBe('Export of 001 Bulbasaur cancelled')
    expect(revealed).toEqual([])
    calls.length = 0
    const yes = await exportRow(assetRow(asset('snap-stage'), 2), '/roms/snap.z64', { notice: () => {}, choosePath, confirmReplace: () => true })
    expect(yes?.out).toBe('/out/model.glb')
    expect(calls.map((c) => c.req.overwrite)).toEqual([false, true])
  })

  it('cancelled at the path: no call; a row without a scene is refused', async () => {
    fake.pickAnswer = null
    expect(await exportRow(assetRow(asset('gf-model'), 2), '/x', { notice: () => {} })).toBeNull()
    expect(calls).toEqual([])
    await expect(exportRow(assetRow(asset('snap-spawn'), 2), '/x', { notice: () => {} })).rejects.toThrow(/no scene to export/)
  })
})

describe('TreeContextMenu → Export…', () => {
  it('exports a node that is not the one shown (the selection stays), with the status line', async () => {
    document.body.innerHTML = '<div id="app"></div>'
    setActivePinia(createPinia())
    const { useCatalogStore } = await import('../../../src-renderer/stores/catalog')
    const { useNodeActionsStore } = await import('../../../src-renderer/stores/node-actions')
    const { default: Menu } = await import('../../../src-renderer/components/TreeContextMenu.vue')
    const pinia = createPinia()
    setActivePinia(pinia)
    const catalog = useCatalogStore()
    const actions = useNodeActionsStore()
    const shown = assetRow(asset('snap-stage', 1, 'Beach'), 2)
    catalog.selected = shown
    const app = createApp({ render: () => h(Menu) })
    app.use(pinia)
    app.mount('#app')
    actions.openMenu(assetRow({ ...asset('stadium-model', 42, 'Pikachu'), sourcePath: '/roms/stadium.z64' } as AssetRow, 2), 10, 10)
    await nextTick()
    const item = document.querySelector('[data-testid="tree-menu-export"]') as HTMLButtonElement
    expect(item.textContent?.trim()).toBe('Export…')
    item.click()
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0))
    expect(calls.map((c) => [c.channel, c.req.id])).toEqual([['scene:export', 42]])
    expect(picks[0]!.defaultPath).toBe('/roms/Pikachu.glb')
    expect(actions.notice).toBe(`Exported Pikachu to /out/model.glb (${(12345).toLocaleString()} bytes)`)
    expect(catalog.selected?.key).toBe('a1')
    expect(actions.pending).toBeNull()
    expect(actions.menu).toBeNull()
    // an RE motion (no scene builder): selected, and the action posted to its view
    calls.length = 0
    actions.openMenu(assetRow(asset('re-motion', 9, 'idle'), 2), 10, 10)
    await nextTick()
    ;(document.querySelector('[data-testid="tree-menu-export"]') as HTMLButtonElement).click()
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0))
    expect(calls).toEqual([])
    expect(catalog.selected?.key).toBe('a9')
    expect(actions.pending).toEqual({ key: 'a9', action: 'export' })
    app.unmount()
  })
})
