/** The viewport's public shapes: toggles, camera modes, picks, the imperative `Viewport` API. */
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js'
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera.js'
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js'
import type { Scene } from '@shared/scene/types'
import type { Bounds } from '@shared/scene/bounds'
import type { BuildOptions, BuiltScene } from './build'
import type { AnimationPlayer, PlayerState } from './player'
import type { FlyController } from './fly-controller'

export interface ViewportToggles {
  textures: boolean
  lighting: boolean
  wireframe: boolean
  skeleton: boolean
  bounds: boolean
  curves: boolean
  grid: boolean
  /** Per-vertex colours (off: the material colour and texture alone). */
  vertexColors: boolean
  /** Cull back faces of single-sided materials (off: every face drawn). */
  backfaceCulling: boolean
  /** Gizmos at marker / empty nodes (spawns, attachment points). */
  markers: boolean
  /** Draw materials that carry a game program (N64 combiner, PICA TexEnv) as the console does (off: simple texture × colour). */
  gameMaterials: boolean
}

export const defaultToggles: ViewportToggles = {
  textures: true, lighting: true, wireframe: false, skeleton: false, bounds: false, curves: true, grid: true, vertexColors: true, backfaceCulling: true, markers: true, gameMaterials: true,
}

/** Orbit (around a target), fly (free WASD camera). A view's own rides (rail) drive the orbit camera. */
export type CameraMode = 'orbit' | 'fly'

/** Where the active camera is and what it looks at (permalinks). */
export interface CameraView {
  eye: [number, number, number]
  target: [number, number, number]
}

export interface Viewport {
  readonly engine: AbstractEngine
  readonly scene: BScene
  readonly camera: ArcRotateCamera
  /** The Babylon objects of the current neutral scene, or null. */
  readonly built: BuiltScene | null
  readonly player: AnimationPlayer | null
  readonly toggles: Readonly<ViewportToggles>
  /** Rest-pose bounds of the current scene. */
  readonly bounds: Bounds | null
  setScene(scene: Scene | null, opts?: BuildOptions): void
  setToggle<K extends keyof ViewportToggles>(name: K, value: ViewportToggles[K]): void
  /** Points the camera at the whole scene as posed now (the current clip frame, not the rest pose). */
  frame(): void
  /** The free-fly camera (active in 'fly' mode). */
  readonly fly: FlyController
  readonly cameraMode: CameraMode
  /** Switches camera; the new one starts where the old one was, looking the same way. */
  setCameraMode(mode: CameraMode): void
  /** The active camera's place, and a way to put it there (permalinks). */
  getView(): CameraView
  setView(v: CameraView): void
  /** Called (at most once a frame) after the active camera moved. */
  onCamera(listener: (v: CameraView) => void): () => void
  /** Highlights what a pick hit (a box around its meshes), or clears it with null. */
  highlight(info: PickInfo | null): void
  readonly highlighted: PickInfo | null
  /** What is drawn now: triangles, draw calls, textures. */
  stats(): SceneStats | null
  /** The next rendered frame as a PNG data URL. */
  screenshot(): Promise<string>
  /** Advances playback by dt seconds and renders one frame (tests drive the clock with this). */
  step(dt: number): void
  /** Player changes (clip, time, play state), e.g. for a timeline UI. */
  onPlayer(listener: (s: PlayerState) => void): () => void
  /** Called every frame before it renders (render loop and `step`), with the frame's seconds. */
  onFrame(listener: (dt: number) => void): () => void
  /**
   * Nodes were moved from outside the player (an editor posing `built.nodes`): refreshes what
   * follows the pose (skeleton overlay) and tells the player listeners.
   */
  poseChanged(): void
  /** Called after each setScene. */
  onScene(listener: (built: BuiltScene | null) => void): () => void
  /** What is under canvas pixel (x, y): node and material of the scene, or null. */
  pick(x: number, y: number): PickInfo | null
  /** Called when the user clicks (taps) the canvas, with what is under the pointer. */
  onPick(listener: (info: PickInfo | null) => void): () => void
  resize(): void
  dispose(): void
}

export interface PickInfo {
  /** Neutral node index, or −1 for merged static geometry. */
  node: number
  nodeName: string | null
  material: number
  materialName: string | null
  /** World-space point hit. */
  point: [number, number, number]
  /** The Babylon mesh hit (for the highlight). */
  mesh?: AbstractMesh
  /** Highlight the node and everything below it (a room with its objects), not only the node's own meshes. */
  subtree?: boolean
}

export interface ViewportOptions {
  /** Start Babylon's render loop (default true with a canvas, false without). */
  runLoop?: boolean
  toggles?: Partial<ViewportToggles>
  background?: [number, number, number]
}

export interface SceneStats {
  /** Triangles of the meshes drawn now (hidden nodes' meshes excluded). */
  triangles: number
  /** Meshes drawn now: one draw call each (one material per mesh). */
  drawCalls: number
  /** Distinct textures bound now (0 with textures off). */
  textures: number
  /** Textures the scene has. */
  sceneTextures: number
}
