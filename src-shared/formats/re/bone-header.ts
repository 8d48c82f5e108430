/**
 * The bone header block of a mot (spec §4.2): the skeleton with its reference local pose.
 *
 * Block: u64 firstBoneOffset (= block + 0x10 in practice), u64 boneHeaderCount, then
 * BoneHeader[count] of 80 (0x50) bytes, then the UTF-16 bone names.
 *
 * BoneHeader: 0x00 u64 nameOffset · 0x08 u64 parentOffs (0 = root) · 0x10 u64 first child ·
 * 0x18 u64 next sibling ([S]; RevilLib calls it "last child") · 0x20 f32[3] + pad translation ·
 * 0x30 f32[4] rotation x y z w · 0x40 i32 index · 0x44 u32 boneHash · 0x48 u64 0.
 * Readers rebuild the tree from parentOffs only; writers fill first-child/next-sibling
 * (REE-Lib's convention). All offsets are mot-relative.
 */
import type { Reader, Writer, Reservation } from '../../binary'
import type { Quat, Vec3 } from './euler'
import { boneHash } from './hash'

export const BONE_HEADER_SIZE = 0x50
/** Refuse skeletons beyond this (real ones have a few hundred bones). */
export const MAX_BONES = 65535

export interface MotBone {
  /** Position in the list (0..count−1). */
  index: number
  name: string
  hash: number
  /** Index of the parent bone, −1 for a root. */
  parent: number
  /** Reference local translation (metres). */
  translation: Vec3
  /** Reference local rotation x, y, z, w. */
  rotation: Quat
  /** The `index` field as stored. */
  storedIndex: number
}

export interface BoneBlock {
  /** mot-relative offset of the block. */
  offset: number
  firstBoneOffset: number
  bones: MotBone[]
}

function u64n(r: Reader, o: number, field: string): number {
  const v = r.u64At(o, field)
  if (v > BigInt(r.length)) throw r.error(`${field}: offset ${v} is beyond the data`, o)
  return Number(v)
}

export function readBoneBlock(r: Reader, off: number): BoneBlock {
  const firstBoneOffset = u64n(r, off + 0x00, 'BoneHeaders.firstBoneOffset')
  const countBig = r.u64At(off + 0x08, 'BoneHeaders.boneHeaderCount')
  if (countBig > BigInt(MAX_BONES)) throw r.error(`BoneHeaders.boneHeaderCount ${countBig} is absurd`, off + 8)
  const count = Number(countBig)
  const bones: MotBone[] = []
  if (count === 0) return { offset: off, firstBoneOffset, bones }
  r.count(count, BONE_HEADER_SIZE, 'BoneHeaders.boneHeaderCount', firstBoneOffset)
  for (let i = 0; i < count; i++) {
    const o = firstBoneOffset + i * BONE_HEADER_SIZE
    const s = `BoneHeader[${i}]`
    const nameOffset = u64n(r, o + 0x00, `${s}.nameOffset`)
    const parentOffs = u64n(r, o + 0x08, `${s}.parentOffs`)
    let parent = -1
    if (parentOffs !== 0) {
      const rel = parentOffs - firstBoneOffset
      if (rel < 0 || rel % BONE_HEADER_SIZE !== 0 || rel / BONE_HEADER_SIZE >= count) {
        throw r.error(`${s}.parentOffs 0x${parentOffs.toString(16)} does not point at a bone header of this block`, o + 0x08)
      }
      parent = rel / BONE_HEADER_SIZE
      if (parent === i) throw r.error(`${s} is its own parent`, o + 0x08)
    }
    const name = r.utf16zAt(nameOffset, `${s}.name`, 1024)
    bones.push({
      index: i,
      name,
      hash: r.u32At(o + 0x44, `${s}.boneHash`),
      parent,
      translation: [r.f32At(o + 0x20, `${s}.translation`), r.f32At(o + 0x24, `${s}.translation`), r.f32At(o + 0x28, `${s}.translation`)],
      rotation: [r.f32At(o + 0x30, `${s}.quaternion`), r.f32At(o + 0x34, `${s}.quaternion`), r.f32At(o + 0x38, `${s}.quaternion`), r.f32At(o + 0x3c, `${s}.quaternion`)],
      storedIndex: r.i32At(o + 0x40, `${s}.index`),
    })
  }
  // A parent chain longer than the bone count is a cycle.
  for (const b of bones) {
    let p = b.parent
    for (let steps = 0; p >= 0; steps++) {
      if (steps > count) throw r.error(`BoneHeader[${b.index}] (${b.name}): the parent chain has a cycle`, firstBoneOffset + b.index * BONE_HEADER_SIZE + 8)
      p = bones[p]!.parent
    }
  }
  return { offset: off, firstBoneOffset, bones }
}

/** A bone to write: the hash is recomputed from the name unless given. */
export interface BoneDraft {
  name: string
  parent: number
  translation: Vec3
  rotation: Quat
  hash?: number
}

/** A read skeleton as bones to write again (names, parents, reference pose and hashes kept). */
export function boneDrafts(bones: readonly MotBone[]): BoneDraft[] {
  return bones.map((b) => ({ name: b.name, parent: b.parent, translation: [...b.translation], rotation: [...b.rotation], hash: b.hash }))
}

/** Writes the block at the writer's position (call after align16). */
export function writeBoneBlock(w: Writer, bones: BoneDraft[]): void {
  const block = w.pos
  const first = block + 0x10
  w.u64(BigInt(first))
  w.u64(BigInt(bones.length))
  const headerAt = (i: number) => first + i * BONE_HEADER_SIZE
  const firstChild = new Array<number>(bones.length).fill(-1)
  const nextSibling = new Array<number>(bones.length).fill(-1)
  const lastChild = new Map<number, number>()
  bones.forEach((b, i) => {
    const prev = lastChild.get(b.parent)
    if (prev === undefined) {
      if (b.parent >= 0) firstChild[b.parent] = i
    } else {
      nextSibling[prev] = i
    }
    lastChild.set(b.parent, i)
  })
  const names: Reservation[] = []
  bones.forEach((b, i) => {
    names.push(w.reserveU64(`BoneHeader[${i}].nameOffset`))
    w.u64(BigInt(b.parent >= 0 ? headerAt(b.parent) : 0))
    w.u64(BigInt(firstChild[i]! >= 0 ? headerAt(firstChild[i]!) : 0))
    w.u64(BigInt(nextSibling[i]! >= 0 ? headerAt(nextSibling[i]!) : 0))
    w.f32(b.translation[0]).f32(b.translation[1]).f32(b.translation[2]).f32(0)
    w.f32(b.rotation[0]).f32(b.rotation[1]).f32(b.rotation[2]).f32(b.rotation[3])
    w.i32(i)
    w.u32(b.hash ?? boneHash(b.name))
    w.u64(0n)
  })
  bones.forEach((b, i) => {
    w.patchHere(names[i]!)
    writeUtf16z(w, b.name)
  })
}

/** UTF-16LE string and its 2-byte NUL. */
export function writeUtf16z(w: Writer, s: string): void {
  for (let i = 0; i < s.length; i++) w.u16(s.charCodeAt(i))
  w.u16(0)
}
