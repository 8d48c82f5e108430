// @vitest-environment happy-dom
/** useViewport(): create on mount, resize with the host, per-frame hook, dispose on unmount. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApp, defineComponent, h, ref, type App } from 'vue'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { createViewportOn, type Viewport } from '../../../../src-renderer/viewport/viewport'
import { useViewport, type UseViewportOptions, type ViewportHost } from '../../../../src-renderer/viewport/use-viewport'

/** A ResizeObserver stand-in: records what it observes and lets the test fire size changes. */
class FakeResizeObserver {
  static all: FakeResizeObserver[] = []
  targets: Element[] = []
  disconnected = false
  constructor(private cb: ResizeObserverCallback) {
    FakeResizeObserver.all.push(this)
  }
  observe(el: Element): void {
    this.targets.push(el)
  }
  unobserve(): void {}
  disconnect(): void {
    this.disconnected = true
    this.targets = []
  }
  fire(): void {
    if (!this.disconnected) this.cb([], this as unknown as ResizeObserver)
  }
}

let app: App | null = null
let engines: NullEngine[] = []

function mountHost(opts: Omit<UseViewportOptions, 'host'> & { withHost?: boolean }): { host: ViewportHost; el: { canvas: HTMLCanvasElement | null; host: HTMLElement | null } } {
  let got: ViewportHost | null = null
  const el: { canvas: HTMLCanvasElement | null; host: HTMLElement | null } = { canvas: null, host: null }
  const C = defineComponent({
    setup() {
      const canvas = ref<HTMLCanvasElement | null>(null)
      const host = ref<HTMLElement | null>(null)
      got = useViewport(canvas, { ...opts, ...(opts.withHost ? { host } : {}) })
      return () => h('div', { ref: host, class: 'host' }, [h('div', { class: 'inner' }, [h('canvas', { ref: canvas })])])
    },
    mounted() {
      el.canvas = document.querySelector('canvas')
      el.host = document.querySelector('.host')
    },
  })
  app = createApp(C)
  app.mount('#app')
  return { host: got!, el }
}

const nullViewport = (seen: HTMLCanvasElement[]) => (c: HTMLCanvasElement) => {
  seen.push(c)
  const e = new NullEngine()
  engines.push(e)
  return createViewportOn(e)
}

describe('useViewport', () => {
  beforeEach(() => {
    document.body.innerHTML = '<div id="app"></div>'
    FakeResizeObserver.all = []
    vi.stubGlobal('ResizeObserver', FakeResizeObserver)
  })
  afterEach(() => {
    app?.unmount()
    app = null
    for (const e of engines) e.dispose()
    engines = []
    vi.unstubAllGlobals()
  })

  it('creates the viewport on mount on the component’s canvas and hands it to onReady', () => {
    const seen: HTMLCanvasElement[] = []
    const ready: Viewport[] = []
    const { host, el } = mountHost({ create: nullViewport(seen), onReady: (v) => ready.push(v) })
    expect(seen).toEqual([el.canvas])
    expect(host.vp.value).not.toBeNull()
    expect(ready).toEqual([host.vp.value])
    expect(host.error.value).toBeNull()
  })

  it('resizes the engine when its host element changes size (default host: the canvas’s parent)', () => {
    const { host, el } = mountHost({ create: nullViewport([]) })
    const obs = FakeResizeObserver.all
    expect(obs).toHaveLength(1)
    expect(obs[0]!.targets).toEqual([el.canvas!.parentElement])
    const resize = vi.spyOn(host.vp.value!.engine, 'resize')
    obs[0]!.fire()
    obs[0]!.fire()
    expect(resize).toHaveBeenCalledTimes(2)
  })

  it('observes the host it is given', () => {
    const { el } = mountHost({ create: nullViewport([]), withHost: true })
    expect(FakeResizeObserver.all[0]!.targets).toEqual([el.host])
  })

  it('runs onFrame in the viewport’s frame loop with the frame’s seconds', () => {
    const frames: number[] = []
    const { host } = mountHost({ create: nullViewport([]), onFrame: (dt, v) => frames.push(v === host.vp.value ? dt : -1) })
    host.vp.value!.step(0.25)
    host.vp.value!.step(1 / 30)
    expect(frames).toEqual([0.25, 1 / 30])
  })

  it('disposes the viewport on unmount: scene gone, observer disconnected, frame hook dropped', () => {
    const frames: number[] = []
    const disposed: Viewport[] = []
    const { host } = mountHost({ create: nullViewport([]), onFrame: (dt) => frames.push(dt), onDispose: (v) => disposed.push(v) })
    const v = host.vp.value!
    const obs = FakeResizeObserver.all[0]!
    const resize = vi.spyOn(v.engine, 'resize')
    app!.unmount()
    app = null
    expect(host.vp.value).toBeNull()
    expect(disposed).toEqual([v])
    expect(v.scene.isDisposed).toBe(true)
    expect(obs.disconnected).toBe(true)
    obs.fire()
    expect(resize).not.toHaveBeenCalled()
    expect(frames).toEqual([])
  })

  it('reports a viewport that cannot be made instead of throwing', () => {
    const ready = vi.fn()
    const { host } = mountHost({
      create: () => {
        throw new Error('WebGL not supported')
      },
      onReady: ready,
    })
    expect(host.vp.value).toBeNull()
    expect(host.error.value).toBe('3D view unavailable: WebGL not supported')
    expect(ready).not.toHaveBeenCalled()
    expect(FakeResizeObserver.all).toHaveLength(0)
  })
})
