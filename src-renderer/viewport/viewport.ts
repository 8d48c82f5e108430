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
import { Scene as BScene } from '@babylonjs/core/scene.js'
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js'
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js'
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight.js'
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js'
import type { Scene } from '@shared/scene/types'
import { boundsCenter, boundsRadius, nodeBounds, sceneBounds, type Bounds } from '@shared/scene/bounds'
import { samplePose } from '@shared/scene/sample'
import { buildScene, type BuildOptions, type BuiltMaterial, type BuiltScene } from './build'
import { PointerEventTypes } from '@babylonjs/core/Events/pointerEvents.js'
import { makeBoundsBox, makeCurves, makeGrid, SkeletonOverlay } from './helpers'
import { AnimationPlayer, type PlayerState } from './player'
import { defaultToggles, type CameraMode, type CameraView, type PickInfo, type Viewport, type ViewportOptions, type ViewportToggles } from './types'
import { FlyController } from './fly-controller'
import { flyFromLookAt } from './fly'
import { builtStats, makeMarkers, openingView, pickedBounds, poseBounds, type SceneStats } from './explore'
import { pickAt } from './picking'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js'
import { applyGameMaterial, assignMeshMaterials } from './materials/game'
import './shaders' // Babylon's line and standard shaders, bundled (no fetch after the scene is built)

// (User Timing, read by `npm run bench views`: Babylon and the viewport's code are evaluated)
performance.mark('mb:viewport-code')

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

/** Applies a built material's state (texture, colour, UV) and the toggles to its Babylon material. */
export function applyMaterial(bm: BuiltMaterial, toggles: ViewportToggles, built: BuiltScene): void {
  const m = bm.material
  const cull = toggles.backfaceCulling && !bm.neutral.doubleSided
  if (m.backFaceCulling !== cull) m.backFaceCulling = cull
  const tex = toggles.textures && bm.texture !== undefined ? built.textureFor(bm.index, bm.texture) : null
  if (m.diffuseTexture !== tex) m.diffuseTexture = tex
  if (tex) {
    tex.uOffset = bm.uv[0]
    tex.vOffset = bm.uv[1]
    tex.uScale = bm.uv[2]
    tex.vScale = bm.uv[3]
  }
  const [r, g, b, a] = bm.color
  m.alpha = bm.neutral.alphaMode === 'OPAQUE' ? 1 : a
  const unlit = !!bm.neutral.unlit || !toggles.lighting
  m.disableLighting = unlit
  if (unlit) {
    m.emissiveColor.set(r, g, b)
    m.diffuseColor.set(r, g, b)
  } else {
    m.emissiveColor.set(0, 0, 0)
    m.diffuseColor.set(r, g, b)
  }
  if (bm.linesMaterial) {
    bm.linesMaterial.emissiveColor.set(r, g, b)
  }
  if (toggles.gameMaterials) applyGameMaterial(bm, toggles, built)
}

function unionBounds(a: Bounds | null, b: Bounds | null): Bounds | null {
  if (!a || !b) return a ?? b
  return {
    min: [Math.min(a.min[0], b.min[0]), Math.min(a.min[1], b.min[1]), Math.min(a.min[2], b.min[2])],
    max: [Math.max(a.max[0], b.max[0]), Math.max(a.max[1], b.max[1]), Math.max(a.max[2], b.max[2])],
  }
}

export function createViewportOn(engine: AbstractEngine, opts: ViewportOptions & { canvas?: HTMLCanvasElement } = {}): Viewport {
  const scene = new BScene(engine)
  scene.useRightHandedSystem = true
  const bg = opts.background ?? [0.11, 0.12, 0.14]
  scene.clearColor = new Color4(bg[0], bg[1], bg[2], 1)
  scene.ambientColor = new Color3(0.25, 0.25, 0.27)

  const camera = new ArcRotateCamera('viewport/camera', Math.PI / 4, Math.PI / 3, 10, Vector3.Zero(), scene)
  camera.wheelDeltaPercentage = 0.01
  camera.pinchDeltaPercentage = 0.01
  // Arrow keys step frames in the panel; the camera keeps mouse/touch/wheel only.
  camera.inputs.removeByType('ArcRotateCameraKeyboardMoveInput')
  if (opts.canvas) camera.attachControl(opts.canvas, true)
  const hemi = new HemisphericLight('viewport/sky', new Vector3(0.2, 1, 0.3), scene)
  hemi.intensity = 0.65
  hemi.groundColor = new Color3(0.25, 0.25, 0.3)
  const sun = new DirectionalLight('viewport/sun', new Vector3(-0.4, -1, -0.6), scene)
  sun.intensity = 0.6

  const toggles: ViewportToggles = { ...defaultToggles, ...(opts.toggles ?? {}) }
  let built: BuiltScene | null = null
  let player: AnimationPlayer | null = null
  let bounds: Bounds | null = null
  let grid: LinesMesh | null = null
  let boundsBox: LinesMesh | null = null
  let curves: LinesMesh[] = []
  let skeleton: SkeletonOverlay | null = null
  let playerOff: (() => void) | null = null
  const playerListeners = new Set<(s: PlayerState) => void>()
  const pickListeners = new Set<(p: PickInfo | null) => void>()
  const pick = (x: number, y: number): PickInfo | null => (built ? pickAt(scene, built, x, y) : null)
  scene.onPointerObservable.add((e) => {
    if (e.type !== PointerEventTypes.POINTERTAP) return
    const p = pick(scene.pointerX, scene.pointerY)
    highlight(p)
    for (const l of pickListeners) l(p)
  })
  const sceneListeners = new Set<(b: BuiltScene | null) => void>()
  const frameListeners = new Set<(dt: number) => void>()
  const runLoop = opts.runLoop ?? !!opts.canvas
  const fly = new FlyController(scene, opts.canvas)
  let mode: CameraMode = 'orbit'
  let markers: LinesMesh | null = null
  let highlightBox: LinesMesh | null = null
  let highlighted: PickInfo | null = null
  const cameraListeners = new Set<(v: CameraView) => void>()
  let lastView = ''
  const getView = (): CameraView => {
    if (mode === 'fly') return { eye: [...fly.state.position], target: fly.ahead(Math.max(camera.radius, 1e-3)) }
    const e = camera.position, t = camera.target
    return { eye: [e.x, e.y, e.z], target: [t.x, t.y, t.z] }
  }
  const highlight = (p: PickInfo | null) => {
    highlightBox?.dispose()
    highlightBox = null
    highlighted = p
    const b = p && built ? pickedBounds(built, p.node, p.mesh ?? null, p.subtree) : null
    if (!b) return
    highlightBox = makeBoundsBox(scene, b)
    highlightBox.name = 'viewport/highlight'
    highlightBox.color.set(0.2, 1, 1)
  }
  const renderFrame = (dt: number) => {
    player?.tick(dt)
    fly.tick(dt)
    for (const l of frameListeners) l(dt)
    scene.render()
    if (cameraListeners.size) {
      const v = getView()
      const key = [...v.eye, ...v.target].map((x) => x.toFixed(4)).join(',')
      if (key !== lastView) {
        lastView = key
        for (const l of cameraListeners) l(v)
      }
    }
  }

  const applyMaterials = () => {
    if (!built) return
    for (const bm of built.materials) applyMaterial(bm, toggles, built)
  }
  const applyToggles = () => {
    scene.forceWireframe = toggles.wireframe
    if (grid) grid.setEnabled(toggles.grid)
    if (boundsBox) boundsBox.setEnabled(toggles.bounds)
    if (markers) markers.setEnabled(toggles.markers)
    if (built) for (const m of built.meshes) m.useVertexColors = toggles.vertexColors && m.isVerticesDataPresent(VertexBuffer.ColorKind)
    if (built) assignMeshMaterials(built, toggles.gameMaterials)
    for (const c of curves) c.setEnabled(toggles.curves)
    if (skeleton?.mesh) {
      skeleton.mesh.setEnabled(toggles.skeleton)
      if (toggles.skeleton) skeleton.update()
    }
    hemi.setEnabled(toggles.lighting)
    sun.setEnabled(toggles.lighting)
    applyMaterials()
  }

  const clear = () => {
    playerOff?.()
    playerOff = null
    player = null
    skeleton?.dispose()
    skeleton = null
    for (const c of curves) c.dispose()
    curves = []
    boundsBox?.dispose()
    boundsBox = null
    markers?.dispose()
    markers = null
    highlight(null)
    grid?.dispose()
    grid = null
    built?.dispose()
    built = null
    bounds = null
  }

  const frame = () => {
    const b = (built ? poseBounds(built.neutral, player) : null) ?? bounds ?? { min: [-1, -1, -1], max: [1, 1, 1] }
    const r = Math.max(boundsRadius(b), 1e-3)
    camera.setTarget(new Vector3(...boundsCenter(b)))
    // Fit the bounding sphere in the narrower of the two fields of view (a tall, narrow canvas
    // would otherwise cut the model at its sides).
    const vfov = camera.fov || 0.8
    engine.resize() // the canvas may have been laid out since the last resize event
    const w = engine.getRenderWidth(), h = engine.getRenderHeight()
    const aspect = w > 0 && h > 0 ? w / h : 1
    const fov = Math.min(vfov, 2 * Math.atan(Math.tan(vfov / 2) * aspect))
    camera.radius = (r / Math.sin(fov / 2)) * 1.1
    camera.alpha = Math.PI / 4
    camera.beta = Math.PI / 3
    camera.minZ = r * 0.01
    camera.maxZ = r * 100
    camera.lowerRadiusLimit = r * 0.05
    camera.upperRadiusLimit = r * 50
    camera.panningSensibility = 1000 / r
    if (mode === 'fly') syncFly()
  }
  const syncFly = () => {
    const e = camera.position, t = camera.target
    fly.setState(flyFromLookAt([e.x, e.y, e.z], [t.x, t.y, t.z]))
  }
  const setCameraMode = (m: CameraMode) => {
    if (m === mode) return
    if (m === 'fly') {
      syncFly()
      fly.camera.fov = camera.fov
      scene.activeCamera = fly.camera
    } else {
      const t = fly.ahead(Math.max(camera.radius, 1e-3))
      camera.setTarget(new Vector3(...t))
      camera.setPosition(new Vector3(...fly.state.position))
      scene.activeCamera = camera
    }
    mode = m
    fly.active = m === 'fly'
  }

  const vp: Viewport = {
    engine,
    scene,
    camera,
    get built() {
      return built
    },
    get player() {
      return player
    },
    get toggles() {
      return toggles
    },
    get bounds() {
      return bounds
    },
    setScene(neutral, buildOpts) {
      clear()
      if (neutral) {
        built = buildScene(scene, neutral, buildOpts)
        player = new AnimationPlayer(built, applyMaterials)
        // Frame what the first shown frame needs: the rest pose and the start of the first clip.
        const anim = player.animation
        // A scene without geometry (a bare skeleton) frames its nodes.
        bounds = unionBounds(sceneBounds(neutral), anim ? sceneBounds(neutral, samplePose(neutral, anim, 0)) : null) ?? nodeBounds(neutral)
        const r = bounds ? Math.max(boundsRadius(bounds), 1e-3) : 1
        grid = makeGrid(scene, r)
        if (bounds) boundsBox = makeBoundsBox(scene, bounds)
        markers = makeMarkers(scene, neutral, r * 0.03)
        fly.fit(r)
        curves = makeCurves(scene, built)
        skeleton = new SkeletonOverlay(scene, built, r)
        player.apply()
        playerOff = player.onChange((s) => {
          if (skeleton && toggles.skeleton) skeleton.update()
          for (const l of playerListeners) l(s)
        })
        frame()
        const cam = openingView(neutral)
        if (cam) vp.setView(cam)
      }
      applyToggles()
      if (player) for (const l of playerListeners) l(player.state())
      for (const l of sceneListeners) l(built)
      // Every material's program is started now (isReady makes the effects), not by the first
      // frame: their preparation ends before it, so the first frame draws the whole scene.
      if (neutral) scene.isReady(false)
    },
    setToggle(name, value) {
      toggles[name] = value
      applyToggles()
    },
    frame,
    fly,
    get cameraMode() {
      return mode
    },
    setCameraMode,
    getView,
    setView(v) {
      if (mode === 'fly') fly.setState(flyFromLookAt(v.eye, v.target))
      else {
        camera.setTarget(new Vector3(...v.target))
        camera.setPosition(new Vector3(...v.eye))
      }
    },
    onCamera(l) {
      cameraListeners.add(l)
      return () => cameraListeners.delete(l)
    },
    highlight,
    get highlighted() {
      return highlighted
    },
    stats() {
      return built ? builtStats(built, toggles.textures) : null
    },
    screenshot() {
      return new Promise<string>((resolve, reject) => {
        // toBlob encodes off the main thread (toDataURL would block the frame); the drawing
        // buffer is preserved, so it still holds this frame when the encoder reads it.
        scene.onAfterRenderObservable.addOnce(() => {
          const c = engine.getRenderingCanvas() as HTMLCanvasElement | null
          if (!c) return reject(new Error('no canvas to capture'))
          c.toBlob((b) => {
            if (!b) return reject(new Error('the view could not be captured'))
            const r = new FileReader()
            r.onload = () => resolve(String(r.result))
            r.onerror = () => reject(r.error ?? new Error('the view could not be captured'))
            r.readAsDataURL(b)
          }, 'image/png')
        })
        if (!runLoop) renderFrame(0)
      })
    },
    step: renderFrame,
    onFrame(l) {
      frameListeners.add(l)
      return () => frameListeners.delete(l)
    },
    poseChanged() {
      if (skeleton && toggles.skeleton) skeleton.update()
    },
    onPlayer(l) {
      playerListeners.add(l)
      return () => playerListeners.delete(l)
    },
    pick,
    onPick(l) {
      pickListeners.add(l)
      return () => pickListeners.delete(l)
    },
    onScene(l) {
      sceneListeners.add(l)
      return () => sceneListeners.delete(l)
    },
    resize() {
      engine.resize()
    },
    dispose() {
      engine.stopRenderLoop()
      frameListeners.clear()
      cameraListeners.clear()
      clear()
      fly.dispose()
      scene.dispose()
    },
  }

  applyToggles()
  if (runLoop) {
    engine.runRenderLoop(() => renderFrame(engine.getDeltaTime() / 1000))
  }
  return vp
}
