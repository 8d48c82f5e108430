/**
 * Re domain of the API contract (RE Engine motions and EMV Poser poses). Channels are `re:verb`.
 * Per-bone numbers cross as typed arrays (binary), names as string lists in the same order.
 */
import type { EmvPose } from '../formats/re/emv-pose'
import type { EulerOrder } from '../formats/re/euler'
import type { Scene } from '../scene/types'

export interface ReSkeleton {
  names: string[]
  /** Parent index per bone, −1 for roots. */
  parents: Int32Array
  hashes: Uint32Array
  /** Reference local translations (metres), x y z per bone. */
  translations: Float64Array
  /** Reference local rotations, x y z w per bone (unit, w ≥ 0). */
  rotations: Float64Array
}

export interface ReMotionSummary {
  index: number
  id: number | null
  name: string | null
  frameCount: number
  frameRate: number
  tracks: number
}

export interface ReTemplate {
  path: string
  kind: 'motlist' | 'mot'
  version: number
  /** The motlist version a pose saved from this template gets (the output suffix). */
  motlistVersion: number
  name: string
  skeleton: ReSkeleton
  motions: ReMotionSummary[]
  warnings: string[]
}

/** A pose as local rotations for named bones (x y z w per name, same order). */
export interface RePoseRotations {
  name: string
  bones: string[]
  rotations: Float64Array
  /** Optional local translations, x y z per name (same order). */
  translations?: Float64Array
}

export interface ReApi {
  /** Opens a template motlist/mot: skeleton with its reference pose, and its motions. */
  're:openTemplate': { req: { path: string }; res: ReTemplate }
  /** The local pose of a motion at a frame, for every skeleton bone (reference where not animated). */
  're:sampleMotion': { req: { path: string; motion: number; frame: number; skeleton?: string }; res: { rotations: Float64Array; translations: Float64Array; animated: Uint8Array } }
  /**
   * One motion of a motlist/mot as a neutral scene: the file's skeleton (`boneNodes[b]` is the
   * node of bone b, the same layout as the pose editor's skeleton scene) with that motion as its
   * only animation, for the pose editor's timeline (played by the viewport's player).
   */
  're:motionScene': { req: { path: string; motion: number; skeleton?: string }; res: { scene: Scene; boneNodes: number[]; warnings: string[] } }
  /** Reads an EMV Poser pose file (one or many named poses). */
  're:openPose': { req: { path: string }; res: { path: string; poses: EmvPose[] } }
  /**
   * Saves a pose as a game-loadable motlist next to nothing else: skeleton from `template`, the
   * template's version suffix on `out`. Remembers the folder (see `re:lastFolder`).
   */
  're:savePose': {
    req: { template: string; out: string; pose: RePoseRotations; motNumber?: number; frames?: number; usePositions?: boolean; overwrite?: boolean; skeleton?: string }
    res: { path: string; version: number; size: number; posed: number; boneCount: number; unknownBones: string[]; warnings: string[] }
  }
  /** Writes poses as EMV Poser JSON (Euler angles in `order`, default YXZ). */
  're:exportPose': { req: { out: string; poses: RePoseRotations[]; order?: EulerOrder; overwrite?: boolean }; res: { path: string } }
  /** The folder of the last saved pose (or template), for Save As… defaults. */
  're:lastFolder': { req: Record<string, never>; res: { folder: string | null } }
  /** A motlist/mot (one motion, or all) as glTF 2.0 binary at `out` (CLI `re export`). */
  're:exportGlb': { req: { path: string; out: string; motion?: number; overwrite?: boolean; skeleton?: string }; res: { path: string; bytes: number; animations: string[]; warnings: string[] } }
  /**
   * A glTF animation on a template's skeleton (CLI `re import`). Always returns `scene`: the
   * template skeleton with the imported motion as read back from the bytes that would be saved
   * (codec error included), to play before saving. With `out`, also writes the motlist/mot
   * (template suffix) and returns `path`/`size`.
   */
  're:importGltf': {
    req: { template: string; gltf: string; animation?: string; motNumber?: number; out?: string; overwrite?: boolean; skeleton?: string }
    res: ImportedGltf
  }
  /**
   * The character's `.mesh.*` files for a motlist/mot: those in its folder, then the catalog's
   * meshes paired with it by the game's folder naming (src-shared/formats/re/character.ts).
   */
  're:findMesh': { req: { path: string }; res: { meshes: string[] } }
  /**
   * A template's skeleton scene with a mesh's LOD 0 skinned over the bone nodes (one material per
   * material name), as `re export --skeleton` builds it without motions. `skeleton`: the editor's
   * bones (the template's own bone headers, else the mesh's); `boneNodes[b]` the node of bone b.
   */
  're:openMesh': { req: { template: string; mesh: string }; res: { path: string; skeleton: ReSkeleton; scene: Scene; boneNodes: number[]; warnings: string[] } }
  /**
   * Defaults of the mod dialog: the game path last used for a mod of this template (else the
   * template's own path from its `natives/` folder: the game file the mod replaces), or null; and
   * the author of the last mod packed, or null.
   */
  're:modGamePath': { req: { template: string }; res: { gamePath: string | null; author: string | null } }
  /**
   * A file packed as a Fluffy Mod Manager zip at the new path `out` (CLI `re pack-mod`, with its
   * checks). The screenshot is a PNG file (`screenshot`) or PNG bytes (`screenshotPng`, the app's
   * current view). The game path is remembered for `template` when given; the author for the next mod.
   */
  're:packMod': {
    req: { file: string; gamePath: string; name: string; version?: string; author?: string; description?: string; screenshot?: string; screenshotPng?: Uint8Array; out: string; template?: string; overwrite?: boolean }
    res: { path: string; size: number; gamePath: string; entries: string[] }
  }
}

export interface ImportedGltf {
  scene: Scene
  /** Animation names in the glTF. */
  animations: string[]
  animation: string
  frameCount: number
  frameRate: number
  tracks: number
  /** Largest key error the chosen codecs introduced. */
  maxError: number
  unmatchedNodes: string[]
  warnings: string[]
  path?: string
  size?: number
}
