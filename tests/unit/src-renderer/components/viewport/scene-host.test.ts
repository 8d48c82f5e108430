// @vitest-environment happy-dom
/**
 * The scene-view host: the canvas (and so its WebGL engine, kept per canvas by viewport.ts) goes
 * from a view that closes to the next one that opens; the view's test id names it; show() counts
 * scenes and frames a new one again once the view has laid out (the refocus rule).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp, defineComponent, h, nextTick, type App } from 'vue'
import { createPinia } from 'pinia'
import type { Scene } from '../../../../../src-shared/scene/types'

const made: { canvas: HTMLCanvasElement; frames: number; disposed: boolean }[] = []
vi.mock('../../../../../src-renderer/viewport/viewport', () => ({
  createViewport: (canvas: HTMLCanvasElement) => {
    const rec = { canvas, frames: 0, disposed: false }
    made.push(rec)
    return {
      player: null, built: null, toggles: {}, fly: { multiplier: 1 }, cameraMode: 'orbit',
      setScene: vi.fn(), setToggle: vi.fn(), resize: vi.fn(), stats: () => null,
      frame: () => void rec.frames++,
      dispose: () => void (rec.disposed = true),
      onPlayer: () => () => {}, onPick: () => () => {}, onScene: () => () => {}, onCamera: () => () => {},
    }
  },
}))
vi.mock('../../../../../src-renderer/bridge', () => ({ errorMessage: String, bridge: { transport: 'ipc', invoke: vi.fn(), on: () => () => {} } }))

const { default: SceneHost } = await import('../../../../../src-renderer/components/viewport/SceneHost.vue')
const { useSceneHost } = await import('../../../../../src-renderer/components/viewport/use-scene-host')

let app: App | null = null
let host: ReturnType<typeof useSceneHost> | null = null

function mount(testid: string): void {
  const View = defineComponent({
    setup() {
      host = useSceneHost()
      return () => h(SceneHost, { host: host!, canvasTestid: testid, 'data-testid': 'view' })
    },
  })
  document.body.innerHTML = '<div id="app"></div>'
  app = createApp(View)
  app.use(createPinia())
  app.mount('#app')
}

afterEach(() => {
  app?.unmount()
  app = null
  made.length = 0
})

const scene = { name: 's', nodes: [], meshes: [], materials: [], textures: [], skins: [], curves: [], animations: [] } as Scene

describe('SceneHost', () => {
  it('hands its canvas to the next view (one engine), named by each view', () => {
    mount('first-canvas')
    const c = document.querySelector('[data-testid="first-canvas"]')
    expect(c).toBe(made[0]!.canvas)
    app!.unmount()
    expect(made[0]!.disposed).toBe(true)
    mount('second-canvas')
    expect(made[1]!.canvas).toBe(made[0]!.canvas)
    expect(document.querySelector('[data-testid="second-canvas"]')).toBe(made[1]!.canvas)
    expect(document.querySelector('[data-testid="first-canvas"]')).toBeNull()
  })

  it('counts the scenes shown and frames a new one again after layout, unless told not to', async () => {
    mount('c')
    const root = document.querySelector('[data-testid="view"]')!
    expect(host!.show(scene)).toBe(true)
    await nextTick()
    await nextTick()
    expect(made[0]!.frames).toBe(1)
    expect(root.getAttribute('data-shown')).toBe('1')
    host!.show(scene, { reframe: false })
    await nextTick()
    await nextTick()
    expect(made[0]!.frames).toBe(1)
    expect(root.getAttribute('data-shown')).toBe('2')
  })
})
