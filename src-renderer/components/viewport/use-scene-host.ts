/**
 * `useSceneHost()`: what every scene view shares, behind SceneHost.vue — the viewport on the
 * host's canvas (useViewport), the view's loading and error state, and the one way a view hands
 * the host a scene (`show`) or asks the scene channel for one (`open`). The view keeps what is
 * its own (its side panel, its data, what its keys and Frame do).
 *
 *   const host = useSceneHost({ options: { toggles: { skeleton: true } } })
 *   onMounted(() => host.load(async () => { await host.open(asset.id) }))
 *   <SceneHost :host="host" canvas-testid="my-canvas">…side panel…</SceneHost>
 */
import { nextTick, ref, shallowRef, type Ref, type ShallowRef } from 'vue'
import type { Scene } from '@shared/scene/types'
import { errorMessage } from '../../bridge'
import type { BuildOptions } from '../../viewport/build'
import type { Viewport } from '../../viewport/types'
import type { ViewKeyActions } from '../../viewport/view-keys'
import { useViewport, type UseViewportOptions, type ViewportHost } from '../../viewport/use-viewport'
import { requestCall, requestScene, type SceneId } from '../../viewport/scene-channel'

export interface SceneHostOptions extends Omit<UseViewportOptions, 'host' | 'create'> {
  /** What Frame (the button and F) does (default: the viewport frames the scene as posed now). */
  frame?: () => void
  /** The view's own key actions over the defaults (view-keys.ts); false: the host takes no keys. */
  keys?: (() => ViewKeyActions) | false
}

export interface ShowOptions {
  build?: BuildOptions
  /**
   * The refocus rule: a new scene is framed again once the view has laid out around it (a side
   * panel filled with the scene's data narrows the canvas). False: the view places the camera.
   */
  reframe?: boolean
}

export interface SceneHost extends ViewportHost {
  /** The canvas the host gives the viewport (SceneHost.vue sets it before the view mounts). */
  canvas: Ref<HTMLCanvasElement | null>
  /** The view's own failure (a scene that did not load), shown over the canvas. */
  loadError: Ref<string | null>
  loading: Ref<boolean>
  /** The scene shown now (null: none). */
  scene: ShallowRef<Scene | null>
  /** Counts scenes shown, so tests can wait for the one they asked for. */
  shown: Ref<number>
  /** performance.now() when the newest scene's first frame was drawn (null until then): the bench reads it. */
  firstFrameMs: Ref<number | null>
  options: SceneHostOptions
  /** Shows a scene (null clears); false when there is no viewport or the scene could not be built. */
  show(scene: Scene | null, o?: ShowOptions): boolean
  /** The scene of a catalog id through the scene channel (an early answer when the shell asked already). */
  open(id: SceneId): Promise<Scene>
  /** A view's own first call through the scene channel (the early answer when the shell asked already). */
  call: typeof requestCall
  /**
   * Runs a view's load: loading on, error cleared; a failure becomes the error and clears the
   * view. Only the newest load touches the state (`current()` tells a load it is still the newest).
   */
  load(fn: (current: () => boolean) => Promise<void>, onError?: () => void): Promise<void>
  /** The Frame action (the view's, else the viewport's). */
  frame(): void
}

export function useSceneHost(o: SceneHostOptions = {}): SceneHost {
  const canvas = ref<HTMLCanvasElement | null>(null)
  const { vp, error } = useViewport(canvas, o)
  const loadError = ref<string | null>(null)
  const loading = ref(false)
  const shown = ref(0)
  const shownScene = shallowRef<Scene | null>(null)
  const firstFrameMs = ref<number | null>(null)
  let seq = 0

  function markFirstFrame(v: Viewport, n: number): void {
    firstFrameMs.value = null
    // Babylon skips meshes whose shaders are not ready: the first frame that starts with the scene
    // ready is the first that shows it. Checked each frame (executeWhenReady polls every 100 ms).
    const scene = v.scene as Viewport['scene'] | undefined
    if (!scene?.onBeforeRenderObservable) return
    const before = scene.onBeforeRenderObservable.add(() => {
      if (shown.value !== n) return void scene.onBeforeRenderObservable.remove(before)
      if (!scene.isReady(false)) return
      scene.onBeforeRenderObservable.remove(before)
      // (User Timing, read by `npm run bench views`: every material's program is compiled)
      performance.mark('mb:scene-ready')
      scene.onAfterRenderObservable.addOnce(() => {
        if (shown.value === n) firstFrameMs.value = performance.now()
      })
    })
  }

  function frame(): void {
    if (o.frame) o.frame()
    else vp.value?.frame()
  }

  function show(scene: Scene | null, so: ShowOptions = {}): boolean {
    const v = vp.value
    if (!v) return false
    const t0 = performance.now()
    try {
      v.setScene(scene, so.build)
      // (User Timing, read by `npm run bench views`: where the time to a first frame goes)
      if (scene) performance.measure('mb:scene-build', { start: t0 })
    } catch (e) {
      loadError.value = errorMessage(e)
      v.setScene(null)
      shownScene.value = null
      return false
    }
    shownScene.value = scene
    const n = ++shown.value
    if (!scene) return true
    markFirstFrame(v, n)
    // (a scene that names its opening camera keeps it)
    if (so.reframe !== false && !scene.extras?.camera) {
      void nextTick(() => {
        if (vp.value !== v || shown.value !== n) return
        v.resize()
        frame()
      })
    }
    return true
  }

  async function load(fn: (current: () => boolean) => Promise<void>, onError?: () => void): Promise<void> {
    const mine = ++seq
    const current = () => mine === seq
    loading.value = true
    loadError.value = null
    try {
      await fn(current)
    } catch (e) {
      if (!current()) return
      loadError.value = errorMessage(e)
      onError?.()
      vp.value?.setScene(null)
      shownScene.value = null
    } finally {
      if (current()) loading.value = false
    }
  }

  return { canvas, vp, error, loadError, loading, scene: shownScene, shown, firstFrameMs, options: o, show, open: requestScene, call: requestCall, load, frame }
}
