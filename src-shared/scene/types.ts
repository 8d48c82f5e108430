/**
 * The neutral scene: what every source (Snap, Stadium, GF, RE) becomes, what the viewport shows
 * and what the glTF exporter writes. glTF's vocabulary, plus what our sources have and glTF
 * lacks (texture-swap streams, visibility/UV/colour tracks, curves, actor metadata).
 *
 * Conventions: right-handed, Y up, game units; quaternions [x, y, z, w]; matrices column-major
 * (glTF order); animation times in seconds. Plain data only (typed arrays, numbers, strings), so
 * a scene can cross the API as binary and be validated by `validateScene`.
 */

import type { MaterialProgram } from './material-program'

export type Vec3 = [number, number, number]
export type Quat = [number, number, number, number]
export type Mat4 = Float32Array | number[] // 16 numbers, column-major

export interface SceneNode {
  name: string
  /** Index of the parent node, or -1 for a root. Parents come before children. */
  parent: number
  translation: Vec3
  rotation: Quat
  scale: Vec3
  /** Index into `scene.meshes` drawn at this node, if any. */
  mesh?: number
  /**
   * Index into `scene.skins` used by this node's mesh. glTF semantics: a skinned vertex is
   * Σ weight · jointWorld · inverseBind · position, so the transform of the node holding a skinned
   * mesh is ignored; keep such nodes at the root (parent −1) with an identity transform.
   */
  skin?: number
  /** Free-form metadata (room index, bone flags, …) shown in the inspector. */
  extras?: Record<string, unknown>
}

export interface Primitive {
  /** Float32 xyz per vertex. */
  positions: Float32Array
  normals?: Float32Array
  /** Float32 uv per vertex (glTF convention: v grows downwards from the image's top row). */
  uvs?: Float32Array
  /** RGBA per vertex, 0..1 floats. */
  colors?: Float32Array
  /** Four joint indices (into the skin's `joints`) per vertex. */
  joints?: Uint16Array
  /** Four weights per vertex, summing to 1 (with `weights1` when that is present). */
  weights?: Float32Array
  /**
   * Optional influences 5–8 (glTF's JOINTS_1/WEIGHTS_1; RE Engine meshes store 8): four more
   * joints and weights per vertex, only beside `joints`/`weights`. The eight weights of a vertex
   * sum to 1 together. Absent on every source that has at most 4.
   */
  joints1?: Uint16Array
  weights1?: Float32Array
  /** Triangle list. */
  indices: Uint32Array
  /** Index into `scene.materials`. */
  material: number
  /** 'triangles' (default) or 'lines' (for debug geometry). */
  mode?: 'triangles' | 'lines'
}

export interface Mesh {
  name: string
  primitives: Primitive[]
}

export type WrapMode = 'repeat' | 'clamp' | 'mirror'
export type AlphaMode = 'OPAQUE' | 'MASK' | 'BLEND'

export interface Material {
  name: string
  baseColor: [number, number, number, number]
  /** Index into `scene.textures`. */
  texture?: number
  alphaMode: AlphaMode
  alphaCutoff?: number
  doubleSided: boolean
  /** Use vertex colours as lighting/shading (N64 shade), not only as tint. */
  vertexColors?: boolean
  /** Unlit (KHR_materials_unlit): N64 geometry that is pre-lit by vertex colours. */
  unlit?: boolean
  /**
   * The game's pixel pipeline (N64 combiner/blender or PICA TexEnv, materials.md §7); the fields
   * above stay as the simple fallback and the glTF approximation.
   */
  program?: MaterialProgram
  extras?: Record<string, unknown>
}

export interface Texture {
  name: string
  width: number
  height: number
  /** RGBA8, top row first. */
  rgba: Uint8Array
  wrapS: WrapMode
  wrapT: WrapMode
  /** 'nearest' keeps pixel art crisp; 'linear' otherwise. */
  filter?: 'nearest' | 'linear'
}

export interface Skin {
  name: string
  /** Node indices of the joints. */
  joints: number[]
  /** 16 floats per joint, column-major. */
  inverseBindMatrices: Float32Array
  /** Optional skeleton root node. */
  skeleton?: number
}

export type Interpolation = 'STEP' | 'LINEAR' | 'CUBICSPLINE'

export interface Channel {
  node: number
  path: 'translation' | 'rotation' | 'scale'
  /** Seconds, increasing. */
  times: Float32Array
  /** 3 or 4 floats per key (×3 for CUBICSPLINE: in-tangent, value, out-tangent). */
  values: Float32Array
  interpolation: Interpolation
}

/** A material's texture replaced over time (Stadium eyes, Snap material animation). */
export interface TextureSwapTrack {
  material: number
  times: Float32Array
  /** Index into `scene.textures` per key (step interpolation). */
  textures: Uint32Array
  /**
   * The track's own counter (Stadium's eye animations run independently of the skeletal clip,
   * spec pokemon-stadium.md §13.3): when set, the track reads the player's clock (seconds since
   * the clip was started, not wrapped by the clip's loop), starting at `start`, and repeats with
   * this period in seconds, continuing from `loopStart` after each pass (or holding its last key
   * when `hold`). Absent: the track follows the clip's time. See `swapTrackTime` in sample.ts.
   */
  period?: number
  loopStart?: number
  hold?: boolean
  /** Where the counter stands when the clip starts (seconds; default 0). */
  start?: number
  /**
   * The counter advances in whole frames at this rate (a game's frame counter): frame k of the
   * clock is `start + k`, past the end it wraps to `loopStart` (or holds the last frame).
   */
  frameRate?: number
}

/** A node shown or hidden over time (step). */
export interface VisibilityTrack {
  node: number
  times: Float32Array
  visible: Uint8Array
}

/**
 * UV offset/scale of a material over time (linear): 4 floats per key [offU, offV, scaleU, scaleV];
 * the texture is sampled at uv' = uv · scale + offset (neutral UV convention, see Primitive.uvs).
 */
export interface UVTrack {
  material: number
  times: Float32Array
  values: Float32Array
}

/** Material colour over time (linear): 4 floats RGBA per key, replacing the material's `baseColor`. */
export interface ColorTrack {
  material: number
  times: Float32Array
  values: Float32Array
}

export interface Animation {
  name: string
  /** Seconds. */
  duration: number
  /** Frames per second of the source, for the frame scrubber. */
  frameRate: number
  channels: Channel[]
  textureSwaps?: TextureSwapTrack[]
  visibility?: VisibilityTrack[]
  uvTracks?: UVTrack[]
  colorTracks?: ColorTrack[]
  loop?: boolean
  /** Seconds: a looping clip continues from here after its end (default 0, the start). */
  loopStart?: number
  /**
   * Played as whole frames at `frameRate`, like a game's frame counter: each frame shows for
   * 1/frameRate s, so the last frame (at `duration`) is shown too and one pass lasts
   * duration + 1/frameRate. Absent: continuous time, a pass lasts `duration`. See `clipTime`.
   */
  integerFrames?: boolean
  /**
   * Keys a format's contract puts at the top of the glTF animation's `extras.modbench`, beside the
   * writer's own (which win on a clash): RE's `{motlist, index, motionId, name, frameCount,
   * frameRate}` (CLI.md `re export`).
   */
  contractExtras?: Record<string, unknown>
  extras?: Record<string, unknown>
}

/** A polyline or spline in world space (Snap main track, object paths). */
export interface Curve {
  name: string
  /** Float32 xyz points, already sampled in world space (or in the parent node's space). */
  points: Float32Array
  closed?: boolean
  /** Node the points are relative to, or -1 / undefined for world space. */
  node?: number
  color?: [number, number, number]
  extras?: Record<string, unknown>
}

/**
 * A named set of material substitutions (glTF KHR_materials_variants), e.g. a shiny colouring:
 * in this variant, primitives whose material is `replace[k][0]` are drawn with `replace[k][1]`;
 * materials not listed keep themselves. The scene's default look is the primitives' own materials.
 */
export interface MaterialVariant {
  name: string
  replace: [number, number][]
}

export interface Scene {
  name: string
  nodes: SceneNode[]
  meshes: Mesh[]
  materials: Material[]
  textures: Texture[]
  skins: Skin[]
  animations: Animation[]
  curves: Curve[]
  /** Alternative material sets (KHR_materials_variants). */
  variants?: MaterialVariant[]
  /**
   * Actor metadata, spawn lists, attachment points, source info … Keys the viewport reads:
   * `selectedAnimation` (number): the clip to show first (a scene opened from an animation asset);
   * `camera` ({ eye: Vec3, target: Vec3 }): the view to open with instead of the framed one.
   */
  extras?: Record<string, unknown>
}

export function emptyScene(name: string): Scene {
  return { name, nodes: [], meshes: [], materials: [], textures: [], skins: [], animations: [], curves: [] }
}
