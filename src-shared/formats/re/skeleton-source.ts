/**
 * A skeleton from another file (CLI.md `--skeleton SKEL`, spec re-motlist §15.10): a `.mesh.*`
 * (its bones; the mesh itself too, for the glb), a `.fbxskel.*` (fbxskel.ts) or a mot/motlist
 * that carries bone headers. It
 * gives the names, parents and reference pose of bones a motion file has no headers for; clips
 * find their bone by the §6 name hash.
 *
 * Merging (`withSkeleton`): the motion file's own bone headers stay as they are; every SKEL bone
 * whose hash the file's list lacks is appended, its parent found by hash in the merged list. A
 * file without bone headers thus takes SKEL's bones in SKEL's order.
 */
import { FormatError, hex } from '../../binary'
import type { MotBone } from './bone-header'
import { isFbxSkel, readFbxSkel } from './fbxskel'
import { MESH_MAGIC } from './mesh-header'
import { meshSkeletonBones, readMesh, type ReMesh } from './mesh'
import { readMotionFile, skeletonOf, sniffMotionFile, type MotionFile } from './motion-file'

export type SkeletonSource = { kind: 'mesh'; bones: MotBone[]; mesh: ReMesh } | { kind: 'fbxskel'; bones: MotBone[] } | { kind: 'motion'; bones: MotBone[] }

/** Reads SKEL by its magic: "MESH" at 0, "skln" at 4 (.fbxskel), or a motlist/mot with bone headers. */
export function readSkeletonSource(bytes: Uint8Array, file?: string): SkeletonSource {
  const magic = bytes.byteLength >= 4 ? new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) : -1
  if (magic === MESH_MAGIC) {
    const mesh = readMesh(bytes, file)
    const bones = meshSkeletonBones(mesh)
    if (!bones.length) throw new FormatError('the mesh has no skeleton (skeletonOffset is 0 or it holds no bones)', { file, structure: 'MeshHeader.skeletonOffset', offset: mesh.layout.name === 'C' ? 0x68 : 0x30 })
    return { kind: 'mesh', bones, mesh }
  }
  if (isFbxSkel(bytes)) {
    const bones = readFbxSkel(bytes, file).bones.map((b): MotBone => ({ index: b.index, name: b.name, hash: b.hash, parent: b.parent, translation: b.translation, rotation: b.rotation, storedIndex: b.storedIndex }))
    return { kind: 'fbxskel', bones }
  }
  if (sniffMotionFile(bytes)) {
    const bones = skeletonOf(readMotionFile(bytes, file))
    if (!bones || !bones.length) throw new FormatError('the file has no bone headers, so it cannot give a skeleton; give the character\'s .mesh.*', { file, structure: 'BoneHeaders', offset: 0 })
    return { kind: 'motion', bones }
  }
  throw new FormatError(`not a skeleton file: neither "MESH" at 0x0 (${magic < 0 ? 'too short' : hex(magic)}) nor an .fbxskel or motlist/mot magic at 0x4`, { file, structure: 'header', offset: 0 })
}

export interface MergedSkeleton {
  bones: MotBone[]
  /** Merged index of each SKEL bone. */
  sourceIndex: number[]
  /** How many bones came from SKEL (0 when the file's own headers held them all). */
  added: number
}

/** The file's bones plus SKEL's bones it lacks (see the file head). */
export function mergeSkeletons(own: readonly MotBone[] | null, extra: readonly MotBone[]): MergedSkeleton {
  const bones: MotBone[] = (own ?? []).map((b) => ({ ...b }))
  const byHash = new Map<number, number>()
  bones.forEach((b, i) => byHash.has(b.hash) || byHash.set(b.hash, i))
  const sourceIndex = extra.map((b) => {
    const at = byHash.get(b.hash)
    if (at !== undefined) return at
    const i = bones.length
    bones.push({ ...b, index: i, parent: -1, storedIndex: i })
    byHash.set(b.hash, i)
    return i
  })
  // parents of appended bones: the merged index of their SKEL parent
  extra.forEach((b, k) => {
    const i = sourceIndex[k]!
    if (i < (own?.length ?? 0)) return
    const p = b.parent >= 0 ? sourceIndex[b.parent]! : -1
    bones[i]!.parent = p === i ? -1 : p
  })
  return { bones, sourceIndex, added: bones.length - (own?.length ?? 0) }
}

/** The motion file's bones merged with SKEL's (`null` SKEL: the file's own, or null). */
export function skeletonWith(file: MotionFile, source: SkeletonSource | null): MergedSkeleton | null {
  const own = skeletonOf(file)
  if (!source) return own && own.length ? { bones: own, sourceIndex: [], added: 0 } : null
  return mergeSkeletons(own, source.bones)
}
