/**
 * `useViewport(canvas)`: the host lifecycle every view that embeds the 3D viewport shares —
 * create on mount, resize with the host element, a per-frame hook in the viewport's own render
 * loop, dispose on unmount. A view keeps only what is its own (scene loading, overlays, UI).
 *
 *   const canvas = ref<HTMLCanvasElement | null>(null)
 *   const { vp, error } = useViewport(canvas, { onReady: (v) => v.setScene(scene) })
 */
import { onBeforeUnmount, onMounted, ref, shallowRef, watch, type Ref, type ShallowRef } from 'vue'
import { createViewport, type Viewport, type ViewportOptions } from './viewport'

export interface UseViewportOptions {
  /** Element whose size changes resize the engine (default: the canvas's parent element). */
  host?: Ref<HTMLElement | null>
  /** Viewport options (toggles, background); read once, on mount. */
  options?: ViewportOptions
  /** Called once the viewport exists (on mount, before the view's own onMounted hooks). */
  onReady?: (vp: Viewport) => void
  /** Called every frame before it renders, with the frame's seconds (e.g. a rail camera). */
  onFrame?: (dt: number, vp: Viewport) => void
  /** Called before the viewport is disposed (overlays let go of its scene here). */
  onDispose?: (vp: Viewport) => void
  /** Makes the viewport on the canvas (default `createViewport`; tests pass a NullEngine one). */
  create?: (canvas: HTMLCanvasElement, options: ViewportOptions) => Viewport
}

export interface ViewportHost {
  /** The viewport while mounted (null before mount, after unmount, or when WebGL failed). */
  vp: ShallowRef<Viewport | null>
  /** Why the viewport could not be made ("3D view unavailable: …"), or null. */
  error: Ref<string | null>
}

export function useViewport(canvas: Ref<HTMLCanvasElement | null>, o: UseViewportOptions = {}): ViewportHost {
  const vp = shallowRef<Viewport | null>(null)
  const error = ref<string | null>(null)
  let resizeObs: ResizeObserver | null = null
  let offFrame: (() => void) | null = null

  onMounted(() => {
    const c = canvas.value
    if (!c) return
    let v: Viewport
    const t0 = performance.now()
    try {
      v = (o.create ?? createViewport)(c, o.options ?? {})
      performance.measure('mb:viewport-create', { start: t0 })
    } catch (e) {
      error.value = `3D view unavailable: ${e instanceof Error ? e.message : String(e)}`
      return
    }
    vp.value = v
    const onFrame = o.onFrame
    if (onFrame) offFrame = v.onFrame((dt) => onFrame(dt, v))
    const host = o.host?.value ?? c.parentElement
    if (host && typeof ResizeObserver !== 'undefined') {
      resizeObs = new ResizeObserver(() => v.resize())
      resizeObs.observe(host)
    }
    o.onReady?.(v)
  })

  onBeforeUnmount(() => {
    resizeObs?.disconnect()
    resizeObs = null
    offFrame?.()
    offFrame = null
    const v = vp.value
    vp.value = null
    if (v) {
      o.onDispose?.(v)
      v.dispose()
    }
  })

  return { vp, error }
}

/**
 * For a component given a viewport (a panel beside a view's canvas): runs `attach` for the
 * viewport now and whenever it changes; the functions it returns (unsubscribes) run when the
 * viewport changes or the component unmounts.
 */
export function onViewport(get: () => Viewport | null, attach: (v: Viewport) => (() => void)[]): void {
  let offs: (() => void)[] = []
  const release = () => {
    for (const f of offs) f()
    offs = []
  }
  watch(get, (v) => {
    release()
    if (v) offs = attach(v)
  }, { immediate: true })
  onBeforeUnmount(release)
}
