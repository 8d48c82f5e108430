/** The shapes `buildScene` (build.ts) hands out: kept apart so the build stages can share them. */
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js'
import type { Mesh } from '@babylonjs/core/Meshes/mesh.js'
import type { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js'
import type { Texture } from '@babylonjs/core/Materials/Textures/texture.js'
import type { Skeleton } from '@babylonjs/core/Bones/skeleton.js'
import type { Material, Scene } from '@shared/scene/types'
import type { ProgramMaterial } from './materials/program-material'

export interface BuildOptions {
  /** Merge static geometry per material (default true). */
  mergeStatic?: boolean
}

export interface BuiltMaterial {
  neutral: Material
  index: number
  material: StandardMaterial
  /** Texture shown at rest (neutral index) and now (changed by texture-swap tracks). */
  restTexture: number | undefined
  texture: number | undefined
  /** Base colour now (changed by colour tracks). */
  color: [number, number, number, number]
  /** [offU, offV, scaleU, scaleV] now (changed by UV tracks). */
  uv: [number, number, number, number]
  /** Whether this material gets its own texture objects (it has a UV track). */
  privateTextures: boolean
  /** Copy drawn as a line list, made when a 'lines' primitive uses this material. */
  linesMaterial?: StandardMaterial
  /** The game's pixel pipeline (materials.md §7) as a shader, when the neutral material has a program. */
  program?: ProgramMaterial
}

/** What a Babylon mesh of the scene stands for (in `mesh.metadata.modbench`); node −1: merged static geometry. */
export interface MeshInfo {
  node: number
  material: number
}

export interface BuiltScene {
  neutral: Scene
  root: TransformNode
  /** One TransformNode per neutral node. */
  nodes: TransformNode[]
  /** Every mesh made from neutral geometry. */
  meshes: Mesh[]
  /** Meshes made for static geometry (merged). */
  staticMeshes: Mesh[]
  /** Nodes some clip moves or hides (and their descendants). */
  dynamic: boolean[]
  materials: BuiltMaterial[]
  skeletons: Skeleton[]
  /** Babylon texture of neutral texture `t` for material `m` (created on demand). */
  textureFor(m: number, t: number): Texture
  stats: { drawMeshes: number; staticMerged: number; triangles: number; vertices: number }
  dispose(): void
}

/** Whatever a build stage creates goes here; `BuiltScene.dispose` disposes it in reverse order. */
export type Disposables = { dispose(): void }[]
