// @vitest-environment happy-dom
/** The GF model view: motions grouped by file with labels (broken marked), LOD / shiny toggles, pending replacements sent along. */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp, h, nextTick } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow } from '../../../../../src-shared/api'
import type { Scene } from '../../../../../src-shared/scene/types'
import { findModelAsset, groupMotions } from '../../../../../src-renderer/components/gf/model-view'

const calls: { channel: string; req: any }[] = []
const shown: Scene[] = []
const sceneListeners = new Set<() => void>()
const state = { clip: 0, frame: 0, playing: false, speed: 1, frameCount: 20, time: 0, loop: true }
const player = {
  setClip: vi.fn((i: number) => { state.clip = i }), setFrame: vi.fn((f: number) => { state.frame = f }), pause: vi.fn(), play: vi.fn(() => { state.playing = true }), toggle: vi.fn(),
  setSpeed: vi.fn(), get frameCount() { return state.frameCount }, state: () => ({ ...state }),
}
vi.mock('../../../../../src-renderer/viewport/viewport', () => ({
  defaultToggles: { textures: true, lighting: true, wireframe: false, skeleton: false, bounds: false, curves: true, grid: true },
  createViewport: () => ({
    player, setScene: vi.fn((s: Scene) => (shown.push(s), sceneListeners.forEach((l) => l()))), setToggle: vi.fn(), frame: vi.fn(), resize: vi.fn(), dispose: vi.fn(), onPlayer: () => () => {},
    // what the shared render panel and time bar ask of any viewport
    get built() { return shown.length ? { neutral: shown.at(-1) } : null },
    toggles: { textures: true }, fly: { multiplier: 1 }, cameraMode: 'orbit', stats: () => null, onPick: () => () => {}, onScene: (l: () => void) => (sceneListeners.add(l), () => sceneListeners.delete(l)), onCamera: () => () => {},
  }),
}))
const prim = (material: number) => ({ positions: new Float32Array(9), indices: new Uint32Array([0, 1, 2]), material })
const scene = (lod: string): Scene => ({
  name: 'set', nodes: [], meshes: [{ name: lod, primitives: [prim(0)] }], materials: [], textures: [], skins: [], curves: [],
  animations: [{ name: '4.bin/0', duration: 20 / 30, frameRate: 30, channels: [] }, { name: '6.bin/0', duration: 8 / 30, frameRate: 30, channels: [] }],
  variants: [{ name: 'normal', replace: [] }, { name: 'shiny', replace: [[0, 1]] }],
})
const MOTIONS = [
  { file: '4.bin', entry: 0, label: 'Idle', frames: 20, animation: 0 },
  { file: '4.bin', entry: 2, label: 'Transform', error: '4.bin: entry 2 GFMotion at 0x10: bad' },
  { file: '6.bin', entry: 0, label: 'Idle', frames: 8, animation: 1 },
]
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  bridge: {
    transport: 'http',
    on: () => () => {},
    pick: async () => '/out/pm0999.glb',
    invoke: async (channel: string, req: any) => {
      calls.push({ channel, req })
      if (channel === 'catalog:children') return req.parent === null ? [{ id: 2, sourceId: 1, parent: null, kind: 'gf-file', name: '0.bin', locator: {}, metadata: {}, childCount: 2 }] : [{ id: 8, sourceId: 1, parent: 2, kind: 'gf-model', name: 'low', locator: { file: '0.bin', entry: 1 }, metadata: {}, childCount: 0 }]
      if (channel === 'gf:exportGlb') return { out: req.out, bytes: 10, replaced: req.replacements.length, warnings: 0 }
      if (channel === 'gf:model') return { scene: scene(req.lod), lod: req.lod, models: [{ entry: 0, lod: 'high' }, { entry: 1, lod: 'low' }], motions: MOTIONS, warnings: [] }
      throw new Error(`unexpected ${channel}`)
    },
  },
}))
vi.mock('../../../../../src-renderer/stores/catalog', () => ({ useCatalogStore: () => ({ sources: [{ id: 1, path: '/sets/pm0999' }], selectAsset: vi.fn() }) }))

const { default: View } = await import('../../../../../src-renderer/components/gf/ModelView.vue')
const { useGfPendingStore } = await import('../../../../../src-renderer/components/gf/pending')

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 0))
    await nextTick()
  }
}

describe('GF model view helpers', () => {
  it('groups motions by file in order, with entry numbers and slot labels', () => {
    const g = groupMotions(MOTIONS)
    expect(g.map((x) => [x.file, x.title, x.motions.map((m) => m.text)])).toEqual([
      ['4.bin', '4.bin · Fight (battle)', ['00 Idle', '02 Transform']],
      ['6.bin', '6.bin · Movement (field)', ['00 Idle']],
    ])
  })
  it('finds the high-poly model asset of a set', async () => {
    const rows: Record<string, AssetRow[]> = {
      root: [{ id: 1, sourceId: 7, parent: null, kind: 'gf-file', name: '0.bin', locator: {}, metadata: {}, childCount: 3 }],
      1: [
        { id: 3, sourceId: 7, parent: 1, kind: 'gf-model', name: 'PM_LowPoly', locator: { entry: 1 }, metadata: {}, childCount: 0 },
        { id: 2, sourceId: 7, parent: 1, kind: 'gf-model', name: 'PM_HighPoly', locator: { entry: 0 }, metadata: {}, childCount: 0 },
      ],
    }
    expect((await findModelAsset(async (r) => rows[r.parent === null ? 'root' : r.parent] ?? [], 7))!.id).toBe(2)
    expect((await findModelAsset(async (r) => rows[r.parent === null ? 'root' : r.parent] ?? [], 7, 1))!.id).toBe(3)
    expect(await findModelAsset(async (r) => rows[r.parent === null ? 'root' : r.parent] ?? [], 7, 2)).toBeNull()
    expect(await findModelAsset(async () => [], 7)).toBeNull()
  })
})

describe('ModelView', () => {
  beforeEach(() => {
    calls.length = 0
    shown.length = 0
    document.body.innerHTML = '<div id="app"></div>'
  })
  it('opens a motion asset on its clip; LOD, shiny and pending replacements reload or re-show', async () => {
    setActivePinia(createPinia())
    const asset: AssetRow = { id: 5, sourceId: 1, parent: 2, kind: 'gf-motion', name: '6.bin/0 Idle', locator: { file: '6.bin', entry: 0 }, metadata: {}, childCount: 0 }
    const app = createApp({ render: () => h(View, { asset, source: null }) })
    app.mount('#app')
    await settle()
    const q = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement
    expect(calls[0]).toEqual({ channel: 'gf:model', req: { set: '/sets/pm0999', lod: 'high', replacements: [] } })
    expect(player.setClip).toHaveBeenLastCalledWith(1)
    expect(q('gf-motion-4.bin-2').classList.contains('broken')).toBe(true)
    expect((q('gf-motion-4.bin-2') as HTMLButtonElement).disabled).toBe(true)
    expect(q('gf-motion-4.bin-2').title).toMatch(/GFMotion at 0x10/)
    ;(q('gf-motion-4.bin-0') as HTMLButtonElement).click()
    expect(player.setClip).toHaveBeenLastCalledWith(0)
    expect(player.play).toHaveBeenCalled()
    // shiny: the same scene shown with the variant's materials, no reload
    ;(q('gf-variant-shiny') as HTMLButtonElement).click()
    await settle()
    expect(calls.length).toBe(1)
    expect(shown.at(-1)!.meshes[0]!.primitives[0]!.material).toBe(1)
    // low LOD reloads
    ;(q('gf-lod-low') as HTMLButtonElement).click()
    await settle()
    expect(calls.find((c) => c.channel === 'gf:model' && c.req.lod === 'low')).toBeTruthy()
    expect(q('gf-model-view').dataset.lod).toBe('low')
    // the render panel and time bar are the shared ones
    expect(q('gf-toggle-wireframe')).toBeTruthy()
    expect(q('anim-panel')).toBeTruthy()
    // Export .glb writes the set's model in the LOD shown (gf:exportGlb), with the stored textures here
    ;(q('export-glb') as HTMLButtonElement).click()
    await settle()
    expect(calls.filter((c) => c.channel === 'gf:exportGlb').map((c) => [c.req.set, c.req.lod, c.req.out])).toEqual([['/sets/pm0999', 'low', '/out/pm0999.glb']])
    expect(q('export-result').textContent).toBe('Wrote /out/pm0999.glb (10 bytes) with the stored textures')
    // a pending replacement in the texture grid reloads the model with it
    useGfPendingStore().add({ set: '/sets/pm0999', file: '1.bin', entry: 0, name: 'Body', png: new Uint8Array([1, 2, 3]), psnr: 40, resized: false })
    await settle()
    expect(calls.filter((c) => c.channel === 'gf:model').at(-1)!.req.replacements).toEqual([{ file: '1.bin', entry: 0, png: new Uint8Array([1, 2, 3]) }])
    expect(q('gf-model-pending').textContent).toContain('1 pending texture shown')
    app.unmount()
  })
})
