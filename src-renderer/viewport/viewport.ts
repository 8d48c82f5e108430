/**
 * The 3D viewport: a Babylon engine and scene showing one neutral scene, with an orbit camera,
 * lights, grid, toggles (textures, lighting, wireframe, skeleton, bounds, curves, grid) and an
 * animation player. An imperative API, so any editor can embed it:
 *
 *   const vp = createViewport(canvas)
 *   vp.setScene(scene)          // neutral Scene (or null)
 *   vp.setToggle('wireframe', true)
 *   vp.player?.play()
 *
 * `createViewportOn(engine)` does the same on an existing engine (NullEngine in tests/bench).
 */
import { Engine } from '@babylonjs/core/Engines/engine.js'
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js'
import type { Viewport, ViewportOptions } from './types'
import { builtStats } from './explore'
import { createStage, type ViewState } from './stage'
import { frameScene, getView, setCameraMode, setView } from './camera'
import { applyToggles, clearContent, highlight, listenForPicks, pick, setSceneContent } from './content'
import { renderFrame, screenshot } from './frames'
import './shaders' // Babylon's line and standard shaders, bundled (no fetch after the scene is built)

// (User Timing, read by `npm run bench views`: Babylon and the viewport's code are evaluated)
performance.mark('mb:viewport-code')

export { applyMaterial } from './content'
export { defaultToggles, type CameraMode, type CameraView, type PickInfo, type Viewport, type ViewportOptions, type ViewportToggles } from './types'

/**
 * One WebGL engine per canvas, kept when its viewport is disposed: the scene-view host hands its
 * canvas on to the next view (use-scene-host.ts), which then reuses the engine with its compiled
 * effects (shader programs are cached per engine, so a second view of the same kinds of materials
 * compiles nothing). Babylon compiles through KHR_parallel_shader_compile whenever the driver
 * offers it (`ThinEngine` caps; never disabled here), so programs link off the main thread.
 */
const engines = new WeakMap<HTMLCanvasElement, Engine>()

/** Creates (or reuses) the WebGL engine of the canvas (preserveDrawingBuffer for pixel readback) and a viewport. */
export function createViewport(canvas: HTMLCanvasElement, opts: ViewportOptions = {}): Viewport {
  let engine = engines.get(canvas)
  if (!engine || engine.isDisposed) {
    engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: true, antialias: true, premultipliedAlpha: false })
    engines.set(canvas, engine)
  }
  return createViewportOn(engine, { ...opts, canvas })
}

/** Lets go of a canvas's engine for good (a canvas no view will take again). */
export function disposeCanvasEngine(canvas: HTMLCanvasElement): void {
  engines.get(canvas)?.dispose()
  engines.delete(canvas)
}

/** The viewport's state, read live (getters: the current scene, player, toggles, camera mode, highlight). */
function stateApi(st: ViewState) {
  return {
    engine: st.engine,
    scene: st.scene,
    camera: st.camera,
    fly: st.fly,
    get built() {
      return st.built
    },
    get player() {
      return st.player
    },
    get toggles() {
      return st.toggles
    },
    get bounds() {
      return st.bounds
    },
    get cameraMode() {
      return st.mode
    },
    get highlighted() {
      return st.highlighted
    },
  }
}

/** What the viewport shows: the scene, the toggles, the camera, picking, frames. */
function controlApi(st: ViewState) {
  return {
    setScene: (neutral, buildOpts) => setSceneContent(st, neutral, buildOpts),
    setToggle(name, value) {
      st.toggles[name] = value
      applyToggles(st)
    },
    frame: () => frameScene(st),
    setCameraMode: (m) => setCameraMode(st, m),
    getView: () => getView(st),
    setView: (v) => setView(st, v),
    highlight: (p) => highlight(st, p),
    pick: (x, y) => pick(st, x, y),
    stats: () => (st.built ? builtStats(st.built, st.toggles.textures) : null),
    screenshot: () => screenshot(st),
    step: (dt) => renderFrame(st, dt),
    poseChanged() {
      if (st.skeleton && st.toggles.skeleton) st.skeleton.update()
    },
    resize() {
      st.engine.resize()
    },
    dispose() {
      st.engine.stopRenderLoop()
      st.listeners.frame.clear()
      st.listeners.camera.clear()
      clearContent(st)
      st.fly.dispose()
      st.scene.dispose()
    },
  } satisfies Partial<Viewport>
}

/** `on…(listener)`: adds it, and answers the function that removes it. */
function listenerApi(st: ViewState) {
  const { listeners } = st
  const on = <T>(set: Set<T>) => (l: T) => {
    set.add(l)
    return () => set.delete(l)
  }
  return { onCamera: on(listeners.camera), onFrame: on(listeners.frame), onPlayer: on(listeners.player), onPick: on(listeners.pick), onScene: on(listeners.scene) }
}

export function createViewportOn(engine: AbstractEngine, opts: ViewportOptions & { canvas?: HTMLCanvasElement } = {}): Viewport {
  const st = createStage(engine, opts)
  listenForPicks(st)
  // One object with the parts' own properties (their getters kept, not read once as a spread would).
  const vp: Viewport = Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(stateApi(st)), ...Object.getOwnPropertyDescriptors(controlApi(st)), ...Object.getOwnPropertyDescriptors(listenerApi(st)) },
  ) as ReturnType<typeof stateApi> & ReturnType<typeof controlApi> & ReturnType<typeof listenerApi>
  applyToggles(st)
  if (st.runLoop) {
    engine.runRenderLoop(() => renderFrame(st, engine.getDeltaTime() / 1000))
  }
  return vp
}
