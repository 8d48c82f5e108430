/**
 * The viewport's Babylon stage (scene, orbit camera, lights, free-fly camera) and the state its
 * parts share (viewport.ts assembles the API from camera.ts, content.ts and frames.ts over it).
 */
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js'
import { Scene as BScene } from '@babylonjs/core/scene.js'
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js'
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight.js'
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight.js'
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color.js'
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh.js'
import type { Bounds } from '@shared/scene/bounds'
import type { BuiltScene } from './build'
import type { SkeletonOverlay } from './helpers'
import type { AnimationPlayer, PlayerState } from './player'
import { defaultToggles, type CameraMode, type CameraView, type PickInfo, type ViewportOptions, type ViewportToggles } from './types'
import { FlyController } from './fly-controller'

/** One viewport's Babylon objects, what the current scene added to them, and its listeners. */
export interface ViewState {
  readonly engine: AbstractEngine
  readonly scene: BScene
  readonly camera: ArcRotateCamera
  readonly hemi: HemisphericLight
  readonly sun: DirectionalLight
  readonly fly: FlyController
  readonly toggles: ViewportToggles
  /** Babylon's render loop runs (else frames are drawn by `step`). */
  readonly runLoop: boolean
  mode: CameraMode
  /** The last camera view told to the camera listeners (rounded, joined). */
  lastView: string
  built: BuiltScene | null
  player: AnimationPlayer | null
  bounds: Bounds | null
  grid: LinesMesh | null
  boundsBox: LinesMesh | null
  curves: LinesMesh[]
  skeleton: SkeletonOverlay | null
  playerOff: (() => void) | null
  markers: LinesMesh | null
  highlightBox: LinesMesh | null
  highlighted: PickInfo | null
  readonly listeners: {
    readonly player: Set<(s: PlayerState) => void>
    readonly pick: Set<(p: PickInfo | null) => void>
    readonly scene: Set<(b: BuiltScene | null) => void>
    readonly frame: Set<(dt: number) => void>
    readonly camera: Set<(v: CameraView) => void>
  }
}

/** The orbit camera (mouse/touch/wheel; attached to the canvas when there is one). */
function orbitCamera(scene: BScene, canvas: HTMLCanvasElement | undefined): ArcRotateCamera {
  const camera = new ArcRotateCamera('viewport/camera', Math.PI / 4, Math.PI / 3, 10, Vector3.Zero(), scene)
  camera.wheelDeltaPercentage = 0.01
  camera.pinchDeltaPercentage = 0.01
  // Arrow keys step frames in the panel; the camera keeps mouse/touch/wheel only.
  camera.inputs.removeByType('ArcRotateCameraKeyboardMoveInput')
  if (canvas) camera.attachControl(canvas, true)
  return camera
}

/** A new scene on `engine` with its cameras and lights, and no content yet. */
export function createStage(engine: AbstractEngine, opts: ViewportOptions & { canvas?: HTMLCanvasElement }): ViewState {
  const scene = new BScene(engine)
  scene.useRightHandedSystem = true
  const bg = opts.background ?? [0.11, 0.12, 0.14]
  scene.clearColor = new Color4(bg[0], bg[1], bg[2], 1)
  scene.ambientColor = new Color3(0.25, 0.25, 0.27)
  const camera = orbitCamera(scene, opts.canvas)
  const hemi = new HemisphericLight('viewport/sky', new Vector3(0.2, 1, 0.3), scene)
  hemi.intensity = 0.65
  hemi.groundColor = new Color3(0.25, 0.25, 0.3)
  const sun = new DirectionalLight('viewport/sun', new Vector3(-0.4, -1, -0.6), scene)
  sun.intensity = 0.6
  return {
    engine, scene, camera, hemi, sun,
    fly: new FlyController(scene, opts.canvas),
    toggles: { ...defaultToggles, ...(opts.toggles ?? {}) },
    runLoop: opts.runLoop ?? !!opts.canvas,
    mode: 'orbit',
    lastView: '',
    built: null, player: null, bounds: null, grid: null, boundsBox: null, curves: [], skeleton: null,
    playerOff: null, markers: null, highlightBox: null, highlighted: null,
    listeners: { player: new Set(), pick: new Set(), scene: new Set(), frame: new Set(), camera: new Set() },
  }
}
