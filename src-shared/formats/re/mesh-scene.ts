/**
 * A mesh's LOD 0 in a neutral scene, skinned over bone nodes (spec re-motlist §15.10, CLI.md
 * `re export --skeleton FILE.mesh.*`), and the motion scene of a file whose skeleton comes from
 * `--skeleton`.
 *
 * - One primitive per submesh (LOD 0, group order then submesh order), indices in stored order;
 *   one untextured material per material name, coloured by `materialColor(name)`.
 * - A second skin (`<mesh>_skin`) whose joint k is the node of mesh bone k, with the mesh's stored
 *   inverse-bind matrices (§15.10); JOINTS_0 = mesh bone indices through the remap.
 * - Weights: all 8 stored slots are kept, heaviest first and normalised to sum 1: influences 1–4
 *   in the primitive's `joints`/`weights`, 5–8 in `joints1`/`weights1` (glb JOINTS_1/WEIGHTS_1)
 *   for a submesh where some vertex has more than 4 weighted bones (real meshes use 1–2 of the 8,
 *   §15.8, so most submeshes have no second set). A vertex with no weight at all is bound to mesh
 *   bone 0.
 * - TANGENT is not written (the neutral scene has no tangents; glTF viewers derive them).
 */
import { FormatError } from '../../binary'
import type { Material, Primitive, Scene } from '../../scene/types'
import { boneHash } from './hash'
import { meshGeometry, submeshName, type DecodedSubmesh, type ReMesh } from './mesh'
import { motionFileScene, type MotionFileScene, type MotionFileSceneOptions } from './scene'
import { skeletonWith, type SkeletonSource } from './skeleton-source'
import type { MotionFile } from './motion-file'

/** A stable colour per material name (HSV hue from the name's hash), linear RGBA. */
export function materialColor(name: string): [number, number, number, number] {
  const h = (boneHash(name) % 360) / 60
  const s = 0.45
  const v = 0.85
  const c = v * s
  const x = c * (1 - Math.abs((h % 2) - 1))
  const [r, g, b] = h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x]
  const m = v - c
  return [r + m, g + m, b + m, 1]
}

function checkFinite(mesh: ReMesh, a: Float32Array, what: string, sm: DecodedSubmesh): void {
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]!)) throw mesh.reader.error(`${submeshName(0, sm.submesh)}: ${what} of vertex ${Math.floor(i / (what === 'UV' ? 2 : 3))} is NaN or infinite`, sm.submesh.offset, submeshName(0, sm.submesh))
  }
}

/**
 * The influences of `slots` per vertex, heaviest first, normalised over all of them: the first
 * four in `joints`/`weights`, slots 5–8 in `joints1`/`weights1` when some vertex of the submesh
 * has more than 4 weighted bones (else left out, so the glb is what it was with 4).
 */
function influences(sm: DecodedSubmesh, n: number): Pick<Primitive, 'joints' | 'weights' | 'joints1' | 'weights1'> {
  const joints = new Uint16Array(n * 8)
  const weights = new Float32Array(n * 8)
  let more = false
  const slots = sm.slots
  const order = Array.from({ length: slots }, (_, k) => k)
  for (let v = 0; v < n; v++) {
    const w = sm.weights!.subarray(v * slots, v * slots + slots)
    const j = sm.joints!.subarray(v * slots, v * slots + slots)
    order.sort((a, b) => w[b]! - w[a]!)
    let sum = 0
    for (let c = 0; c < Math.min(8, slots); c++) sum += w[order[c]!]!
    if (sum <= 0) {
      weights[v * 8] = 1
      continue
    }
    for (let c = 0; c < Math.min(8, slots); c++) {
      const k = order[c]!
      if (w[k]! <= 0) continue
      if (c >= 4) more = true
      // slot c of the vertex: the first set's c, or the second set's c − 4
      const at = c < 4 ? v * 4 + c : n * 4 + v * 4 + c - 4
      joints[at] = j[k]!
      weights[at] = w[k]! / sum
    }
  }
  const first = { joints: joints.slice(0, n * 4), weights: weights.slice(0, n * 4) }
  return more ? { ...first, joints1: joints.slice(n * 4), weights1: weights.slice(n * 4) } : first
}

/**
 * Adds LOD 0 of `mesh` to `scene`, skinned over the nodes `boneNode[k]` of its bones k. Returns
 * warnings (streaming submeshes, empty submeshes).
 */
export function addMeshToScene(scene: Scene, mesh: ReMesh, boneNode: readonly number[], name: string): string[] {
  const { submeshes, warnings } = meshGeometry(mesh, 0)
  const sk = mesh.skeleton
  const nb = sk?.bones.length ?? 0
  const materialIndex = new Map<string, number>()
  const primitives: Primitive[] = []
  for (const sm of submeshes) {
    const n = sm.positions.length / 3
    const tri = sm.indices.length - (sm.indices.length % 3)
    if (n === 0 || tri === 0) {
      warnings.push(`${submeshName(0, sm.submesh)} has no ${n === 0 ? 'vertices' : 'triangles'}; left out`)
      continue
    }
    checkFinite(mesh, sm.positions, 'position', sm)
    if (sm.uvs) checkFinite(mesh, sm.uvs, 'UV', sm)
    let mat = materialIndex.get(sm.materialName)
    if (mat === undefined) {
      mat = scene.materials.length
      const m: Material = { name: sm.materialName, baseColor: materialColor(sm.materialName), alphaMode: 'OPAQUE', doubleSided: false }
      scene.materials.push(m)
      materialIndex.set(sm.materialName, mat)
    }
    const p: Primitive = { positions: sm.positions, indices: tri === sm.indices.length ? sm.indices : sm.indices.slice(0, tri), material: mat }
    if (sm.normals) p.normals = sm.normals
    if (sm.uvs) p.uvs = sm.uvs
    if (nb) {
      if (sm.joints && sm.weights) {
        Object.assign(p, influences(sm, n))
      } else {
        p.joints = new Uint16Array(n * 4)
        p.weights = new Float32Array(n * 4).map((_, i) => (i % 4 === 0 ? 1 : 0))
      }
    }
    primitives.push(p)
  }
  if (!primitives.length) {
    warnings.push('LOD 0 of the mesh has no drawable submesh; the glb holds no mesh')
    return warnings
  }
  const meshIndex = scene.meshes.length
  scene.meshes.push({ name, primitives })
  const node = { name, parent: -1, translation: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], scale: [1, 1, 1] as [number, number, number], mesh: meshIndex }
  if (nb) {
    const ibm = new Float32Array(nb * 16)
    sk!.bones.forEach((b, k) => {
      const m = b.inverseBind
      const ok = m.every(Number.isFinite) && m[3] === 0 && m[7] === 0 && m[11] === 0 && m[15] === 1
      if (!ok) throw mesh.reader.error(`MeshBone[${k}] "${b.name}": the inverse bind matrix is not an affine matrix of finite numbers`, sk!.inverseBindOffset + k * 64, `MeshBone[${k}].inverseBindMatrix`)
      ibm.set(m, k * 16)
    })
    const joints = sk!.bones.map((_, k) => boneNode[k]!)
    if (new Set(joints).size !== joints.length) throw new FormatError('two mesh bones have the same name hash, so they cannot be two joints of one skin', { file: mesh.reader.file, structure: 'MeshBoneNames', offset: mesh.header.boneNameIndexOffset })
    scene.skins.push({ name: `${name}_skin`, joints, inverseBindMatrices: ibm })
    scene.nodes.push({ ...node, skin: scene.skins.length - 1 })
  } else {
    scene.nodes.push(node)
  }
  return warnings
}

export interface SkeletonSceneOptions extends MotionFileSceneOptions {
  /** Leave the mesh out of the scene (`--no-mesh`). */
  noMesh?: boolean
}

/**
 * The motion scene of `file` over its own bone headers merged with SKEL's bones, plus LOD 0 of
 * the mesh when SKEL is a mesh (unless `noMesh`). Throws naming `--skeleton` when the file has no
 * bone headers and no SKEL was given.
 */
export function motionSceneWithSkeleton(file: MotionFile, source: SkeletonSource | null, opts: SkeletonSceneOptions = {}): MotionFileScene & { mesh: boolean } {
  const merged = skeletonWith(file, source)
  if (!merged || !merged.bones.length) {
    throw new FormatError('the file has no bone headers (game motlists keep the skeleton in the character\'s .mesh); give it with --skeleton FILE.mesh.*', { structure: 'BoneHeaders' })
  }
  const built = motionFileScene(file, { ...opts, skeleton: merged.bones })
  if (source && merged.added && merged.added < merged.bones.length) built.warnings.unshift(`${merged.added} bone(s) the file has no headers for taken from the --skeleton file`)
  let mesh = false
  if (source?.kind === 'mesh' && !opts.noMesh) {
    const before = built.scene.meshes.length
    const name = (source.mesh.reader.file ?? 'mesh').split(/[\\/]/).pop()!.replace(/\.mesh(\.\d+)?$/i, '')
    built.warnings.push(...addMeshToScene(built.scene, source.mesh, merged.sourceIndex.map((i) => built.boneNodes[i]!), name))
    mesh = built.scene.meshes.length > before
  }
  return { ...built, mesh }
}
