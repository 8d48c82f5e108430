/**
 * The skeleton of an RE Engine mesh (spec re-motlist §15.5).
 *
 * Block at skeletonOffset: u32 boneCount · u32 remapCount · u64 0 · u64 boneInfoOffset ·
 * u64 localMatricesOffset · u64 worldMatricesOffset · u64 inverseBindOffset · u16 remap[remapCount]
 * at +0x30. Bone info (16 bytes): u16 index · i16 parent · i16 nextSibling · i16 firstChild ·
 * i16 symmetry · u8 useSecondaryWeight · 5 × 0. Bone order is not topological (the root can be the
 * last bone). Matrices: 16 f32, row-vector (DirectX) storage, floats 12–14 the translation; the
 * column-major (glTF) matrix is the stored one transposed, i.e. the same 16 floats read as columns.
 */
import type { Reader } from '../../binary'
import type { Quat, Vec3 } from './euler'
import { boneHash } from './hash'
import type { MotBone } from './bone-header'
import { offsetAt, readNameIndexList, type MeshHeader } from './mesh-header'

export const MESH_BONE_INFO_SIZE = 16
/** Far beyond any real skeleton (a few hundred bones); stops absurd counts early. */
export const MAX_MESH_BONES = 4096

/** A mesh bone: the motion bone's fields (name, §6 hash, parent, local reference pose) and the mesh's own. */
export interface MeshBone extends Omit<MotBone, 'storedIndex'> {
  /** Local reference scale (translation and rotation: decomposed from the local matrix too). */
  scale: Vec3
  /** The stored local, world and inverse-bind matrices, column-major (glTF order). */
  local: Float32Array
  world: Float32Array
  inverseBind: Float32Array
  /** Symmetry partner, −1 for none (itself counts as none). */
  symmetry: number
}

export interface MeshSkeleton {
  offset: number
  bones: MeshBone[]
  /** Offset of the inverse-bind matrix array (bone i at + i × 64). */
  inverseBindOffset: number
  /** Weight slot value j → bone index. */
  remap: number[]
}

/**
 * TRS of a column-major 4×4 (stored row-vector matrix read as is): translation = m[12..14],
 * scale = the lengths of the first three 4-float groups, rotation = the normalised 3×3 as a
 * quaternion (Shepperd's method on the column-major basis). A negative determinant flips x scale.
 */
export function decomposeMatrix(m: ArrayLike<number>): { translation: Vec3; rotation: Quat; scale: Vec3 } {
  const col = (k: number): Vec3 => [m[k * 4]!, m[k * 4 + 1]!, m[k * 4 + 2]!]
  const c0 = col(0)
  const c1 = col(1)
  const c2 = col(2)
  let sx = Math.hypot(...c0)
  const sy = Math.hypot(...c1)
  const sz = Math.hypot(...c2)
  const det = c0[0] * (c1[1] * c2[2] - c1[2] * c2[1]) - c1[0] * (c0[1] * c2[2] - c0[2] * c2[1]) + c2[0] * (c0[1] * c1[2] - c0[2] * c1[1])
  if (det < 0) sx = -sx
  const n = (c: Vec3, s: number): Vec3 => (s === 0 ? [0, 0, 0] : [c[0] / s, c[1] / s, c[2] / s])
  const [a, b, c] = [n(c0, sx), n(c1, sy), n(c2, sz)]
  // rotation matrix R[row][col]: column k = axis k
  const r00 = a[0], r10 = a[1], r20 = a[2]
  const r01 = b[0], r11 = b[1], r21 = b[2]
  const r02 = c[0], r12 = c[1], r22 = c[2]
  const tr = r00 + r11 + r22
  let q: Quat
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2
    q = [(r21 - r12) / s, (r02 - r20) / s, (r10 - r01) / s, s / 4]
  } else if (r00 > r11 && r00 > r22) {
    const s = Math.sqrt(1 + r00 - r11 - r22) * 2
    q = [s / 4, (r01 + r10) / s, (r02 + r20) / s, (r21 - r12) / s]
  } else if (r11 > r22) {
    const s = Math.sqrt(1 + r11 - r00 - r22) * 2
    q = [(r01 + r10) / s, s / 4, (r12 + r21) / s, (r02 - r20) / s]
  } else {
    const s = Math.sqrt(1 + r22 - r00 - r11) * 2
    q = [(r02 + r20) / s, (r12 + r21) / s, s / 4, (r10 - r01) / s]
  }
  const len = Math.hypot(...q) || 1
  q = q.map((v) => v / len) as Quat
  if (q[3] < 0) q = [-q[0], -q[1], -q[2], -q[3]]
  return { translation: [m[12]!, m[13]!, m[14]!], rotation: q, scale: [sx, sy, sz] }
}

function readMatrix(r: Reader, o: number, field: string): Float32Array {
  r.check(o, 64, field)
  const out = new Float32Array(16)
  for (let k = 0; k < 16; k++) out[k] = r.f32At(o + k * 4, field)
  return out
}

function matrixArray(r: Reader, base: number, count: number, field: string): number {
  if (base === 0) throw r.error(`${field} is 0 in a skeleton of ${count} bones`, 0, field)
  r.count(count, 64, field, base)
  return base
}

/** Reads the skeleton (null when skeletonOffset is 0). */
export function readMeshSkeleton(r0: Reader, h: MeshHeader, names: readonly string[]): MeshSkeleton | null {
  const r = r0.at(0, 'MeshSkeleton')
  const o = h.skeletonOffset
  if (o === 0) return null
  const s = 'MeshSkeleton'
  const count = r.u32At(o, `${s}.boneCount`)
  if (count > MAX_MESH_BONES) throw r.error(`${s}.boneCount ${count} is beyond ${MAX_MESH_BONES}`, o, s)
  const remapCount = r.u32At(o + 4, `${s}.remapCount`)
  if (remapCount > MAX_MESH_BONES) throw r.error(`${s}.remapCount ${remapCount} is beyond ${MAX_MESH_BONES}`, o + 4, s)
  r.count(remapCount, 2, `${s}.remapCount`, o + 0x30)
  const remap: number[] = []
  for (let j = 0; j < remapCount; j++) {
    const b = r.u16At(o + 0x30 + j * 2, `${s}.remap[${j}]`)
    if (b >= count) throw r.error(`${s}.remap[${j}] = ${b} names no bone (${count} bones)`, o + 0x30 + j * 2, s)
    remap.push(b)
  }
  if (count === 0) return { offset: o, bones: [], remap, inverseBindOffset: 0 }
  const info = offsetAt(r, o + 0x10, `${s}.boneInfoOffset`)
  const local = matrixArray(r, offsetAt(r, o + 0x18, `${s}.localMatricesOffset`), count, `${s}.localMatricesOffset`)
  const world = matrixArray(r, offsetAt(r, o + 0x20, `${s}.worldMatricesOffset`), count, `${s}.worldMatricesOffset`)
  const inverse = matrixArray(r, offsetAt(r, o + 0x28, `${s}.inverseBindOffset`), count, `${s}.inverseBindOffset`)
  r.count(count, MESH_BONE_INFO_SIZE, `${s}.boneInfoOffset`, info)
  const boneNames = readNameIndexList(r, h.boneNameIndexOffset, count, names, 'MeshBoneNames')
  const bones: MeshBone[] = []
  for (let i = 0; i < count; i++) {
    const at = info + i * MESH_BONE_INFO_SIZE
    const parent = r.i16At(at + 2, `MeshBone[${i}].parent`)
    if (parent < -1 || parent >= count || parent === i) throw r.error(`MeshBone[${i}].parent ${parent} is not another bone of the ${count}`, at + 2, `MeshBone[${i}]`)
    const sym = r.i16At(at + 8, `MeshBone[${i}].symmetry`)
    const localM = readMatrix(r, local + i * 64, `MeshBone[${i}].localMatrix`)
    const trs = decomposeMatrix(localM)
    if (![...trs.translation, ...trs.rotation, ...trs.scale].every(Number.isFinite)) {
      throw r.error(`MeshBone[${i}] "${boneNames[i]}": the local matrix holds NaN or infinity`, local + i * 64, `MeshBone[${i}].localMatrix`)
    }
    bones.push({
      index: i,
      name: boneNames[i]!,
      hash: boneHash(boneNames[i]!),
      parent,
      ...trs,
      local: localM,
      world: readMatrix(r, world + i * 64, `MeshBone[${i}].worldMatrix`),
      inverseBind: readMatrix(r, inverse + i * 64, `MeshBone[${i}].inverseBindMatrix`),
      symmetry: sym >= 0 && sym < count && sym !== i ? sym : -1,
    })
  }
  for (const b of bones) {
    let p = b.parent
    for (let steps = 0; p >= 0; steps++) {
      if (steps > count) throw r.error(`MeshBone[${b.index}] "${b.name}": the parent chain has a cycle`, info + b.index * MESH_BONE_INFO_SIZE + 2, `MeshBone[${b.index}]`)
      p = bones[p]!.parent
    }
  }
  return { offset: o, bones, remap, inverseBindOffset: inverse }
}
