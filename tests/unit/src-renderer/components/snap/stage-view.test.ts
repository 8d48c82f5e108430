// @vitest-environment happy-dom
/**
 * The Snap stage view opens its stage's scene without walking the catalog: a room group and the
 * skybox are listed directly under their stage (the detector's parent keys), so their view asks
 * for the parent's scene at once — no `catalog:asset` round trips (it made up to 8 before).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp, h, nextTick } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import type { AssetRow } from '../../../../../src-shared/api'
import type { Scene } from '../../../../../src-shared/scene/types'

const calls: { channel: string; req: Record<string, unknown> }[] = []
const shown: (Scene | null)[] = []
// The viewport needs WebGL: a stand-in with what the host, render panel and time bar ask of it.
vi.mock('../../../../../src-renderer/viewport/viewport', () => ({
  defaultToggles: { textures: true, lighting: true, wireframe: false, skeleton: false, bounds: false, curves: true, grid: true },
  createViewport: () => ({
    player: null, built: null, toggles: { curves: true }, fly: { multiplier: 1 }, cameraMode: 'orbit',
    setScene: (s: Scene | null) => void shown.push(s),
    setToggle: vi.fn(), frame: vi.fn(), resize: vi.fn(), dispose: vi.fn(), highlight: vi.fn(), stats: () => null,
    onFrame: () => () => {}, onPlayer: () => () => {}, onPick: () => () => {}, onScene: () => () => {}, onCamera: () => () => {},
  }),
}))
const STAGE: Scene = { name: 'Beach', nodes: [], meshes: [], materials: [], textures: [], skins: [], curves: [], animations: [], extras: { snap: { stage: 'beach', title: 'Beach' } } }
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  bridge: {
    transport: 'ipc',
    on: () => () => {},
    invoke: async (channel: string, req: Record<string, unknown>) => {
      calls.push({ channel, req })
      if (channel === 'scene:open') return STAGE
      if (channel === 'catalog:asset') return { id: req.id, sourceId: 1, parent: null, kind: 'snap-game', name: 'game', locator: {}, metadata: {}, childCount: 1 }
      throw new Error(`unexpected ${channel}`)
    },
  },
}))

const { default: StageView } = await import('../../../../../src-renderer/components/snap/StageView.vue')

const asset = (id: number, parent: number, kind: string, locator: Record<string, unknown>): AssetRow =>
  ({ id, sourceId: 1, parent, kind, name: kind, locator: { stage: 'beach', ...locator }, metadata: {}, childCount: 0 }) as AssetRow

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 0))
    await nextTick()
  }
}

async function open(a: AssetRow): Promise<void> {
  const app = createApp({ render: () => h(StageView, { asset: a, source: null }) })
  app.use(createPinia())
  app.mount('#app')
  await settle()
  app.unmount()
}

describe('Snap StageView', () => {
  beforeEach(() => {
    calls.length = 0
    shown.length = 0
    document.body.innerHTML = '<div id="app"></div>'
    setActivePinia(createPinia())
  })

  it.each([
    ['snap-room-group', { group: 'path' }],
    ['snap-skybox', { addr: 0x1234 }],
  ])('a %s shows its stage (its parent) with one scene request and no catalog call', async (kind, locator) => {
    await open(asset(17, 5, kind, locator))
    expect(calls).toEqual([{ channel: 'scene:open', req: { id: 5 } }])
    expect(shown).toEqual([STAGE])
  })

  it('a stage, room or track asks for its own scene (the builder reads the locator)', async () => {
    await open(asset(5, 2, 'snap-stage', {}))
    await open(asset(9, 7, 'snap-room', { group: 'path', index: 2 }))
    expect(calls).toEqual([{ channel: 'scene:open', req: { id: 5 } }, { channel: 'scene:open', req: { id: 9 } }])
  })
})
