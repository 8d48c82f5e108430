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
 * Skins follow Babylon's glTF loader (loaders/glTF/2.0/glTFLoader: _loadBones/_updateBoneMatrices):
 * one bone per joint and per node between a joint and the skeleton root, each linked to its
 * TransformNode; bind matrices from the inverse binds; the skinned mesh placed under the skeleton
 * root's parent (glTF ignores the skinned mesh node's own transform).
 *
 * Performance: nodes that no clip moves or hides are "static"; their primitives are baked to world
 * space and merged into one mesh per material (and attribute layout), so a large stage costs one
 * draw per material.
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import { TransformNode } from '@babylonjs/core/Meshes/transformNode.js'
import { Mesh } from '@babylonjs/core/Meshes/mesh.js'
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData.js'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js'
import { RawTexture } from '@babylonjs/core/Materials/Textures/rawTexture.js'
import { Texture } from '@babylonjs/core/Materials/Textures/texture.js'
import { Material as BMaterial } from '@babylonjs/core/Materials/material.js'
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { Color3 } from '@babylonjs/core/Maths/math.color.js'
import { Skeleton } from '@babylonjs/core/Bones/skeleton.js'
import { Bone } from '@babylonjs/core/Bones/bone.js'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js'
import type { Material, Primitive, Scene, Texture as NTexture, WrapMode } from '@shared/scene/types'
import { worldMatrices } from '@shared/scene/math'
import { makeProgramMaterial, type ProgramMaterial } from './materials/program-material'

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

function primitiveVertexData(p: Primitive): VertexData {
  const vd = new VertexData()
  vd.positions = p.positions
  vd.indices = p.indices
  if (p.normals) vd.normals = p.normals
  if (p.uvs) vd.uvs = p.uvs
  if (p.colors) vd.colors = p.colors
  return vd
}

/** Bakes primitives (with their node world matrices) into one vertex set. */
function mergePrimitives(parts: { p: Primitive; world: Float64Array }[]): VertexData {
  let nv = 0
  let ni = 0
  for (const { p } of parts) {
    nv += p.positions.length / 3
    ni += p.indices.length
  }
  const first = parts[0].p
  const positions = new Float32Array(nv * 3)
  const normals = first.normals ? new Float32Array(nv * 3) : null
  const uvs = first.uvs ? new Float32Array(nv * 2) : null
  const colors = first.colors ? new Float32Array(nv * 4) : null
  const indices = new Uint32Array(ni)
  let vo = 0
  let io = 0
  const lines = first.mode === 'lines'
  for (const { p, world: m } of parts) {
    const n = p.positions.length / 3
    // Normal matrix: inverse transpose of the upper 3×3 (cofactors; the scale cancels when normalised).
    const a = m[0], b = m[1], c = m[2], d = m[4], e = m[5], f = m[6], g = m[8], h = m[9], k = m[10]
    const nm = [e * k - f * h, f * g - d * k, d * h - e * g, c * h - b * k, a * k - c * g, b * g - a * h, b * f - c * e, c * d - a * f, a * e - b * d]
    const det = a * nm[0] + b * nm[1] + c * nm[2]
    for (let v = 0; v < n; v++) {
      const x = p.positions[v * 3], y = p.positions[v * 3 + 1], z = p.positions[v * 3 + 2]
      positions[(vo + v) * 3] = m[0] * x + m[4] * y + m[8] * z + m[12]
      positions[(vo + v) * 3 + 1] = m[1] * x + m[5] * y + m[9] * z + m[13]
      positions[(vo + v) * 3 + 2] = m[2] * x + m[6] * y + m[10] * z + m[14]
      if (normals && p.normals) {
        const nx = p.normals[v * 3], ny = p.normals[v * 3 + 1], nz = p.normals[v * 3 + 2]
        const ox = nm[0] * nx + nm[3] * ny + nm[6] * nz
        const oy = nm[1] * nx + nm[4] * ny + nm[7] * nz
        const oz = nm[2] * nx + nm[5] * ny + nm[8] * nz
        const l = Math.hypot(ox, oy, oz) || 1
        const s = det < 0 ? -1 / l : 1 / l
        normals[(vo + v) * 3] = ox * s
        normals[(vo + v) * 3 + 1] = oy * s
        normals[(vo + v) * 3 + 2] = oz * s
      }
    }
    if (uvs && p.uvs) uvs.set(p.uvs, vo * 2)
    if (colors && p.colors) colors.set(p.colors, vo * 4)
    // A mirroring matrix turns counter-clockwise triangles clockwise: swap two corners back.
    const flip = det < 0 && !lines
    for (let i = 0; i < p.indices.length; i += lines ? 2 : 3) {
      if (lines) {
        indices[io + i] = p.indices[i] + vo
        indices[io + i + 1] = p.indices[i + 1] + vo
      } else {
        indices[io + i] = p.indices[i] + vo
        indices[io + i + 1] = p.indices[flip ? i + 2 : i + 1] + vo
        indices[io + i + 2] = p.indices[flip ? i + 1 : i + 2] + vo
      }
    }
    vo += n
    io += p.indices.length
  }
  const vd = new VertexData()
  vd.positions = positions
  vd.indices = indices
  if (normals) vd.normals = normals
  if (uvs) vd.uvs = uvs
  if (colors) vd.colors = colors
  return vd
}

function setupMesh(mesh: Mesh, p: { colors?: Float32Array; mode?: string }, mat: BuiltMaterial): void {
  if (p.mode === 'lines') {
    // Line primitives draw with a line-list copy of the material (debug geometry: not animated).
    mat.linesMaterial ??= mat.material.clone(`${mat.material.name}/lines`)
    mat.linesMaterial.fillMode = BMaterial.LineListDrawMode
    mat.linesMaterial.disableLighting = true
    mesh.material = mat.linesMaterial
  } else mesh.material = mat.material
  if (p.colors) {
    mesh.useVertexColors = true
    let alpha = false
    for (let i = 3; i < p.colors.length; i += 4) {
      if (p.colors[i] < 1) {
        alpha = true
        break
      }
    }
    mesh.hasVertexAlpha = alpha && mat.neutral.alphaMode === 'BLEND'
  }
}

/** Babylon objects for a neutral scene, under one root TransformNode. */
export function buildScene(bscene: BScene, scene: Scene, opts: BuildOptions = {}): BuiltScene {
  const mergeStatic = opts.mergeStatic ?? true
  const disposables: { dispose(): void }[] = []
  const root = new TransformNode(`${scene.name}`, bscene)
  disposables.push(root)

  // Materials and textures.
  const hasUvTrack = new Set<number>()
  for (const a of scene.animations) for (const u of a.uvTracks ?? []) hasUvTrack.add(u.material)
  const shared = new Map<number, Texture>()
  const privateTex = new Map<string, Texture>()
  const textureFor = (m: number, t: number): Texture => {
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
  const materials: BuiltMaterial[] = scene.materials.map((m, i) => {
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
      privateTextures: hasUvTrack.has(i),
      program,
    }
  })

  // Nodes.
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

  const dynamic = dynamicNodes(scene)
  const world = worldMatrices(scene.nodes)
  const meshes: Mesh[] = []
  const staticMeshes: Mesh[] = []
  let triangles = 0
  let vertices = 0

  // Skeletons (Babylon glTF loader recipe).
  const skeletons = scene.skins.map((skin, si) => {
    const sk = new Skeleton(skin.name || `skin${si}`, `skeleton${si}`, bscene)
    disposables.push(sk)
    const rootNode = skin.skeleton ?? commonAncestor(scene, skin.joints)
    const bones = new Map<number, Bone>()
    const boneFor = (ni: number): Bone => {
      let b = bones.get(ni)
      if (b) return b
      const n = scene.nodes[ni]
      const parentBone = ni !== rootNode && n.parent >= 0 ? boneFor(n.parent) : null
      const local = Matrix.Compose(new Vector3(...n.scale), new Quaternion(...n.rotation), new Vector3(...n.translation))
      b = new Bone(n.name || `joint${ni}`, sk, parentBone, local, null, null, skin.joints.indexOf(ni))
      bones.set(ni, b)
      return b
    }
    for (const j of skin.joints) boneFor(j)
    for (const [ni, b] of bones) b.linkTransformNode(nodes[ni])
    for (const b of sk.bones) {
      const base = Matrix.Identity()
      const k = b.getIndex()
      if (k >= 0) {
        Matrix.FromArrayToRef(skin.inverseBindMatrices, k * 16, base)
        base.invertToRef(base)
      }
      const parent = b.getParent()
      if (parent) base.multiplyToRef(parent.getAbsoluteInverseBindMatrix(), base)
      b.updateMatrix(base, false, false)
      b._updateAbsoluteBindMatrices(undefined, false)
    }
    return { sk, meshParent: rootNode >= 0 && scene.nodes[rootNode].parent >= 0 ? nodes[scene.nodes[rootNode].parent] : root }
  })

  // Geometry: static primitives merged per material across nodes (baked to world space); the
  // primitives of one moving or skinned node merged per material within that node.
  const layoutKey = (p: Primitive, skinned: boolean) =>
    `${p.material}|${p.mode ?? 'triangles'}|${p.normals ? 'n' : ''}${p.uvs ? 'u' : ''}${p.colors ? 'c' : ''}${skinned && p.joints ? 'j' : ''}`
  const identity = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
  const makeMesh = (name: string, parts: { p: Primitive; world: Float64Array }[]): Mesh => {
    const first = parts[0].p
    const m = new Mesh(name, bscene)
    disposables.push(m)
    const vd = parts.length === 1 && parts[0].world === identity ? primitiveVertexData(first) : mergePrimitives(parts)
    if (!vd.normals && first.mode !== 'lines' && !scene.materials[first.material]?.unlit) {
      const normals: number[] = []
      VertexData.ComputeNormals(vd.positions!, vd.indices!, normals, { useRightHandedSystem: true })
      vd.normals = normals
    }
    vd.applyToMesh(m, false)
    setupMesh(m, first, materials[first.material])
    meshes.push(m)
    return m
  }
  const staticGroups = new Map<string, { p: Primitive; world: Float64Array }[]>()
  scene.nodes.forEach((n, ni) => {
    if (n.mesh === undefined) return
    const mesh = scene.meshes[n.mesh]
    const skinned = n.skin !== undefined
    const own = new Map<string, { p: Primitive; world: Float64Array }[]>()
    for (const p of mesh.primitives) {
      vertices += p.positions.length / 3
      if (p.mode !== 'lines') triangles += p.indices.length / 3
      const isStatic = mergeStatic && !skinned && !dynamic[ni]
      const groups = isStatic ? staticGroups : own
      const key = layoutKey(p, skinned)
      const list = groups.get(key) ?? []
      list.push({ p, world: isStatic ? world.subarray(ni * 16, ni * 16 + 16) : identity })
      groups.set(key, list)
    }
    for (const [key, parts] of own) {
      const m = makeMesh(`${n.name || `node${ni}`}/${mesh.name}/${key}`, parts)
      m.metadata = { modbench: { node: ni, material: parts[0].p.material } satisfies MeshInfo }
      if (skinned) {
        // Influences 5–8 (joints1/weights1) go to Babylon's "extra" buffers, drawn with 8 influencers.
        const eight = parts.some(({ p }) => p.joints1 && p.weights1)
        const j = new Float32Array(m.getTotalVertices() * 4)
        const w = new Float32Array(m.getTotalVertices() * 4)
        const j1 = new Float32Array(eight ? j.length : 0)
        const w1 = new Float32Array(eight ? w.length : 0)
        let o = 0
        for (const { p } of parts) {
          if (p.joints && p.weights) {
            j.set(p.joints, o)
            w.set(p.weights, o)
          }
          if (eight && p.joints1 && p.weights1) {
            j1.set(p.joints1, o)
            w1.set(p.weights1, o)
          }
          o += p.positions.length / 3 * 4
        }
        m.setVerticesData(VertexBuffer.MatricesIndicesKind, j, false, 4)
        m.setVerticesData(VertexBuffer.MatricesWeightsKind, w, false, 4)
        if (eight) {
          m.setVerticesData(VertexBuffer.MatricesIndicesExtraKind, j1, false, 4)
          m.setVerticesData(VertexBuffer.MatricesWeightsExtraKind, w1, false, 4)
        }
        const s = skeletons[n.skin!]
        m.skeleton = s.sk
        m.numBoneInfluencers = eight ? 8 : 4
        m.parent = s.meshParent
        // Skinned vertices move beyond the rest box; keep them from being culled.
        m.alwaysSelectAsActiveMesh = true
      } else m.parent = nodes[ni]
    }
  })
  let staticMerged = 0
  for (const [key, parts] of staticGroups) {
    const first = parts[0].p
    const m = makeMesh(`static/${scene.materials[first.material]?.name ?? first.material}/${key}`, parts)
    m.metadata = { modbench: { node: -1, material: first.material } satisfies MeshInfo }
    m.parent = root
    m.freezeWorldMatrix()
    staticMeshes.push(m)
    staticMerged += parts.length
  }

  return {
    neutral: scene,
    root,
    nodes,
    meshes,
    staticMeshes,
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

/** Nearest common ancestor of the joints (−1 when they share none). */
export function commonAncestor(scene: Scene, joints: number[]): number {
  const chain = (i: number) => {
    const out: number[] = []
    for (let k = i, guard = 0; k >= 0 && guard <= scene.nodes.length; k = scene.nodes[k].parent, guard++) out.unshift(k)
    return out
  }
  if (!joints.length) return -1
  let common = chain(joints[0])
  for (const j of joints.slice(1)) {
    const c = chain(j)
    let n = 0
    while (n < common.length && n < c.length && common[n] === c[n]) n++
    common = common.slice(0, n)
  }
  return common.length ? common[common.length - 1] : -1
}
