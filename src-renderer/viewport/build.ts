/**
 * Neutral scene → Babylon.js objects. No format knowledge here: only the neutral model.
 *
 * Conventions: the Babylon scene runs with `useRightHandedSystem = true`, so neutral positions,
 * quaternions and winding (counter-clockwise front faces) go through unchanged. Neutral matrices
 * are column-major with column vectors; Babylon's `Matrix.FromArray` reads the same 16 numbers as
 * its row-vector form, so arrays are passed straight through. Textures are uploaded top row first
 * with `invertY = false`, matching glTF's UV origin at the image's top-left (as Babylon's own glTF
 * loader does).
 *
 * Skins follow Babylon's glTF loader (build-skeletons.ts).
 *
 * Performance: nodes that no clip moves or hides are "static"; their primitives are baked to world
 * space and merged into one mesh per material (and attribute layout), so a large stage costs one
 * draw per material (build-geometry.ts).
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js'
import { RawTexture } from '@babylonjs/core/Materials/Textures/rawTexture.js'
import { Texture } from '@babylonjs/core/Materials/Textures/texture.js'
import { Material as BMaterial } from '@babylonjs/core/Materials/material.js'
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { Color3 } from '@babylonjs/core/Maths/math.color.js'
import type { Material, Scene, Texture as NTexture, WrapMode } from '@shared/scene/types'
import { makeProgramMaterial } from './materials/program-material'
import type { BuildOptions, BuiltMaterial, BuiltScene, Disposables } from './build-types'
import { buildSkeletons } from './build-skeletons'
import { buildGeometry } from './build-geometry'

export type { BuildOptions, BuiltMaterial, BuiltScene, MeshInfo } from './build-types'
export { commonAncestor } from './build-skeletons'

const WRAP: Record<WrapMode, number> = { repeat: Texture.WRAP_ADDRESSMODE, clamp: Texture.CLAMP_ADDRESSMODE, mirror: Texture.MIRROR_ADDRESSMODE }

function makeTexture(t: NTexture, scene: BScene, name: string): Texture {
  const sampling = t.filter === 'nearest' ? Texture.NEAREST_NEAREST_MIPNEAREST : Texture.TRILINEAR_SAMPLINGMODE
  const tex = RawTexture.CreateRGBATexture(t.rgba, t.width, t.height, scene, true, false, sampling)
  tex.name = name
  tex.wrapU = WRAP[t.wrapS]
  tex.wrapV = WRAP[t.wrapT]
  let alpha = false
  for (let i = 3; i < t.rgba.length; i += 4) {
    if (t.rgba[i] !== 255) {
      alpha = true
      break
    }
  }
  tex.hasAlpha = alpha
  return tex
}

/** Which nodes move or hide in some clip: channel/visibility targets and everything below them. */
export function dynamicNodes(scene: Scene): boolean[] {
  const dyn = scene.nodes.map(() => false)
  for (const a of scene.animations) {
    for (const c of a.channels) dyn[c.node] = true
    for (const v of a.visibility ?? []) dyn[v.node] = true
  }
  scene.nodes.forEach((n, i) => {
    if (n.parent >= 0 && dyn[n.parent]) dyn[i] = true
  })
  return dyn
}

/** Babylon objects for a neutral scene, under one root TransformNode. */
export function buildScene(bscene: BScene, scene: Scene, opts: BuildOptions = {}): BuiltScene {
  const mergeStatic = opts.mergeStatic ?? true
  const disposables: Disposables = []
  const root = new TransformNode(`${scene.name}`, bscene)
  disposables.push(root)
  const hasUvTrack = new Set<number>()
  for (const a of scene.animations) for (const u of a.uvTracks ?? []) hasUvTrack.add(u.material)
  const textureFor = textureLookup(bscene, scene, hasUvTrack, disposables)
  const materials = scene.materials.map((m, i) => buildMaterial(bscene, m, i, hasUvTrack.has(i), disposables))
  const nodes = buildNodes(bscene, scene, root, disposables)
  const dynamic = dynamicNodes(scene)
  const skeletons = buildSkeletons(bscene, scene, nodes, root, disposables)
  const geo = buildGeometry({ bscene, scene, disposables, root, nodes, materials, skeletons, dynamic, mergeStatic })
  const { meshes, staticMerged, triangles, vertices } = geo
  return {
    neutral: scene,
    root,
    nodes,
    meshes,
    staticMeshes: geo.staticMeshes,
    dynamic,
    materials,
    skeletons: skeletons.map((s) => s.sk),
    textureFor,
    stats: { drawMeshes: meshes.length, staticMerged, triangles, vertices },
    dispose() {
      for (const m of materials) m.linesMaterial?.dispose()
      for (const d of disposables.reverse()) d.dispose()
    },
  }
}

/**
 * `textureFor` of the built scene: one Babylon texture per neutral texture, except that a material
 * with a UV track gets its own copies (its UV offset/scale lives on the texture objects).
 */
function textureLookup(bscene: BScene, scene: Scene, hasUvTrack: Set<number>, disposables: Disposables): (m: number, t: number) => Texture {
  const shared = new Map<number, Texture>()
  const privateTex = new Map<string, Texture>()
  return (m: number, t: number): Texture => {
    const own = hasUvTrack.has(m)
    const key = `${m}/${t}`
    let tex = own ? privateTex.get(key) : shared.get(t)
    if (!tex) {
      tex = makeTexture(scene.textures[t], bscene, scene.textures[t].name)
      if (own) privateTex.set(key, tex)
      else shared.set(t, tex)
      disposables.push(tex)
    }
    return tex
  }
}

/** The StandardMaterial (and program shader, when the material has a program) for neutral material `i`. */
function buildMaterial(bscene: BScene, m: Material, i: number, privateTextures: boolean, disposables: Disposables): BuiltMaterial {
  const mat = new StandardMaterial(m.name || `material${i}`, bscene)
  disposables.push(mat)
  // Neutral (and glTF) front faces wind counter-clockwise; Babylon's default in a right-handed
  // scene would cull them (its glTF loader sets the same orientation on its meshes).
  mat.sideOrientation = BMaterial.CounterClockWiseSideOrientation
  mat.backFaceCulling = !m.doubleSided
  mat.twoSidedLighting = m.doubleSided
  mat.specularColor = new Color3(0.08, 0.08, 0.08)
  if (m.alphaMode === 'MASK') {
    mat.transparencyMode = BMaterial.MATERIAL_ALPHATEST
    mat.alphaCutOff = m.alphaCutoff ?? 0.5
  } else if (m.alphaMode === 'BLEND') {
    mat.transparencyMode = BMaterial.MATERIAL_ALPHABLEND
    mat.useAlphaFromDiffuseTexture = true
  } else mat.transparencyMode = BMaterial.MATERIAL_OPAQUE
  const program = makeProgramMaterial(bscene, m, mat.name) ?? undefined
  if (program) disposables.push(program.material)
  return {
    neutral: m,
    index: i,
    material: mat,
    restTexture: m.texture,
    texture: m.texture,
    color: [...m.baseColor] as [number, number, number, number],
    uv: [0, 0, 1, 1] as [number, number, number, number],
    privateTextures,
    program,
  }
}

/** One TransformNode per neutral node, roots under `root`. */
function buildNodes(bscene: BScene, scene: Scene, root: TransformNode, disposables: Disposables): TransformNode[] {
  const nodes = scene.nodes.map((n, i) => {
    const tn = new TransformNode(n.name || `node${i}`, bscene)
    tn.position = new Vector3(...n.translation)
    tn.rotationQuaternion = new Quaternion(...n.rotation)
    tn.scaling = new Vector3(...n.scale)
    tn.parent = n.parent >= 0 ? null : root
    disposables.push(tn)
    return tn
  })
  scene.nodes.forEach((n, i) => {
    if (n.parent >= 0) nodes[i].parent = nodes[n.parent]
  })
  return nodes
}
