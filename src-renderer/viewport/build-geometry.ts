/**
 * Neutral primitives → Babylon meshes. Static primitives (nodes no clip moves or hides) are merged
 * per material and attribute layout across nodes, baked to world space; the primitives of one moving
 * or skinned node are merged per layout within that node.
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js'
import { Mesh } from '@babylonjs/core/Meshes/mesh.js'
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData.js'
import { Material as BMaterial } from '@babylonjs/core/Materials/material.js'
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js'
import type { Primitive, Scene } from '@shared/scene/types'
import { worldMatrices } from '@shared/scene/math'
import type { BuiltMaterial, Disposables, MeshInfo } from './build-types'
import type { BuiltSkeleton } from './build-skeletons'

/** A primitive and the world matrix it is baked with (`IDENTITY`: kept in its node's space). */
interface Part {
  p: Primitive
  world: Float64Array
}

/** What the geometry stage needs from the stages before it. */
export interface GeometryInput {
  bscene: BScene
  scene: Scene
  disposables: Disposables
  root: TransformNode
  nodes: TransformNode[]
  materials: BuiltMaterial[]
  skeletons: BuiltSkeleton[]
  dynamic: boolean[]
  mergeStatic: boolean
}

export interface BuiltGeometry {
  meshes: Mesh[]
  staticMeshes: Mesh[]
  /** Primitives merged into the static meshes. */
  staticMerged: number
  triangles: number
  vertices: number
}

const IDENTITY = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

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
function mergePrimitives(parts: Part[]): VertexData {
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
    appendIndices(indices, io, p.indices, vo, lines, det < 0 && !lines)
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

/** `src` shifted by `vo` into `dst` at `io`; `flip` swaps each triangle's last two corners. */
function appendIndices(dst: Uint32Array, io: number, src: Uint32Array, vo: number, lines: boolean, flip: boolean): void {
  for (let i = 0; i < src.length; i += lines ? 2 : 3) {
    if (lines) {
      dst[io + i] = src[i] + vo
      dst[io + i + 1] = src[i + 1] + vo
    } else {
      dst[io + i] = src[i] + vo
      dst[io + i + 1] = src[flip ? i + 2 : i + 1] + vo
      dst[io + i + 2] = src[flip ? i + 1 : i + 2] + vo
    }
  }
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

const layoutKey = (p: Primitive, skinned: boolean) =>
  `${p.material}|${p.mode ?? 'triangles'}|${p.normals ? 'n' : ''}${p.uvs ? 'u' : ''}${p.colors ? 'c' : ''}${skinned && p.joints ? 'j' : ''}`

/** Every mesh of the scene: each moving or skinned node's own meshes in node order, then the merged static ones. */
export function buildGeometry(g: GeometryInput): BuiltGeometry {
  const world = worldMatrices(g.scene.nodes)
  const out: BuiltGeometry = { meshes: [], staticMeshes: [], staticMerged: 0, triangles: 0, vertices: 0 }
  const staticGroups = new Map<string, Part[]>()
  g.scene.nodes.forEach((n, ni) => {
    if (n.mesh === undefined) return
    const own = groupPrimitives(g, out, ni, world, staticGroups)
    for (const [key, parts] of own) makeNodeMesh(g, out, ni, key, parts)
  })
  for (const [key, parts] of staticGroups) {
    const first = parts[0].p
    const m = makeMesh(g, out, `static/${g.scene.materials[first.material]?.name ?? first.material}/${key}`, parts)
    m.metadata = { modbench: { node: -1, material: first.material } satisfies MeshInfo }
    m.parent = g.root
    m.freezeWorldMatrix()
    out.staticMeshes.push(m)
    out.staticMerged += parts.length
  }
  return out
}

/** Sorts node `ni`'s primitives into `staticGroups` (baked to world space) or the node's own groups (returned), counting them. */
function groupPrimitives(g: GeometryInput, out: BuiltGeometry, ni: number, world: Float64Array, staticGroups: Map<string, Part[]>): Map<string, Part[]> {
  const n = g.scene.nodes[ni]
  const skinned = n.skin !== undefined
  const own = new Map<string, Part[]>()
  for (const p of g.scene.meshes[n.mesh!].primitives) {
    out.vertices += p.positions.length / 3
    if (p.mode !== 'lines') out.triangles += p.indices.length / 3
    const isStatic = g.mergeStatic && !skinned && !g.dynamic[ni]
    const groups = isStatic ? staticGroups : own
    const key = layoutKey(p, skinned)
    const list = groups.get(key) ?? []
    list.push({ p, world: isStatic ? world.subarray(ni * 16, ni * 16 + 16) : IDENTITY })
    groups.set(key, list)
  }
  return own
}

/** One mesh of node `ni`'s own geometry, under the node (or, skinned, under its skeleton's mesh parent). */
function makeNodeMesh(g: GeometryInput, out: BuiltGeometry, ni: number, key: string, parts: Part[]): void {
  const n = g.scene.nodes[ni]
  const m = makeMesh(g, out, `${n.name || `node${ni}`}/${g.scene.meshes[n.mesh!].name}/${key}`, parts)
  m.metadata = { modbench: { node: ni, material: parts[0].p.material } satisfies MeshInfo }
  if (n.skin !== undefined) {
    skinMesh(m, parts, g.skeletons[n.skin])
  } else m.parent = g.nodes[ni]
}

/** A mesh of the parts (one kept as is, several baked together), normals computed when missing. */
function makeMesh(g: GeometryInput, out: BuiltGeometry, name: string, parts: Part[]): Mesh {
  const first = parts[0].p
  const m = new Mesh(name, g.bscene)
  g.disposables.push(m)
  const vd = parts.length === 1 && parts[0].world === IDENTITY ? primitiveVertexData(first) : mergePrimitives(parts)
  if (!vd.normals && first.mode !== 'lines' && !g.scene.materials[first.material]?.unlit) {
    const normals: number[] = []
    VertexData.ComputeNormals(vd.positions!, vd.indices!, normals, { useRightHandedSystem: true })
    vd.normals = normals
  }
  vd.applyToMesh(m, false)
  setupMesh(m, first, g.materials[first.material])
  out.meshes.push(m)
  return m
}

/** Joint indices and weights of the parts onto the mesh, bound to the skeleton. */
function skinMesh(m: Mesh, parts: Part[], s: BuiltSkeleton): void {
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
  m.skeleton = s.sk
  m.numBoneInfluencers = eight ? 8 : 4
  m.parent = s.meshParent
  // Skinned vertices move beyond the rest box; keep them from being culled.
  m.alwaysSelectAsActiveMesh = true
}
