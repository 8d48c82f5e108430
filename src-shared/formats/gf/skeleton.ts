/**
 * GFBone (spec §6.3) and the bone matrices of §7.1 (SPICA `GFBone.cs`, `H3DBone.cs`):
 * Local = T · Rz · Ry · Rx · S, q = qz·qy·qx (the kit's `quatFromEulerExtrinsicXYZ`); World(b) = World(parent) · Local(b);
 * inverse bind = inverse(World_bind). Segment scale compensation (§7.1) is offered for posing.
 */
import type { Reader } from '../../binary/reader'
import { mat4FromTRS, mat4Invert, mat4Multiply, quatFromEulerExtrinsicXYZ, type M4 } from '../../scene/math'
import { readByteString, readFloats } from './gf-strings'

export type V3 = [number, number, number]

export interface GfBone {
  name: string
  parentName: string
  /** Index of the parent bone, −1 for a root (unknown parent name: root, with a warning). */
  parent: number
  flags: number
  scale: V3
  /** Euler radians, applied X then Y then Z. */
  rotation: V3
  translation: V3
}

/** Reads one GFBone at the reader's position (39 bytes + both name lengths). */
export function readGfBone(r: Reader, index: number): Omit<GfBone, 'parent'> {
  const f = `GFBone[${index}]`
  const name = readByteString(r, `${f} name`)
  const parentName = readByteString(r, `${f} parent name`)
  const flags = r.u8(`${f} flags`)
  const scale = readFloats(r, 3, `${f} scale`) as V3
  const rotation = readFloats(r, 3, `${f} rotation`) as V3
  const translation = readFloats(r, 3, `${f} translation`) as V3
  return { name, parentName, flags, scale, rotation, translation }
}

/** Resolves parent names to indices (SPICA searches the whole list); unknown names become roots. The bones of `raw` become the result's. */
export function linkBones(raw: Omit<GfBone, 'parent'>[], warn: (w: string) => void): GfBone[] {
  const byName = new Map<string, number>()
  raw.forEach((b, i) => { if (!byName.has(b.name)) byName.set(b.name, i) })
  return raw.map((b, i) => {
    let parent = b.parentName ? byName.get(b.parentName) ?? -1 : -1
    if (b.parentName && parent < 0) warn(`bone ${i} '${b.name}': parent '${b.parentName}' is not a bone of the model; treated as a root`)
    if (parent === i) {
      warn(`bone ${i} '${b.name}' names itself as its parent; treated as a root`)
      parent = -1
    }
    // the read bone gets its parent index (a copy by object spread is a slow path in V8)
    const bone = b as GfBone
    bone.parent = parent
    return bone
  })
}

export function boneLocalMatrix(b: Pick<GfBone, 'translation' | 'rotation' | 'scale'>): M4 {
  return mat4FromTRS(b.translation, quatFromEulerExtrinsicXYZ(b.rotation), b.scale)
}

/**
 * Bone world matrices (16 float64 per bone). Parents may come in any order; a parent loop is cut
 * (the bone whose chain loops is composed as a root). With `ssc`, a child of a scaled parent gets
 * World(parent) · S(1/parentScale) · T(t ∘ parentScale) · R · S (spec §7.1).
 */
export function boneWorldMatrices(bones: readonly Pick<GfBone, 'parent' | 'translation' | 'rotation' | 'scale'>[], ssc = false): Float64Array {
  const out = new Float64Array(bones.length * 16)
  const state = new Uint8Array(bones.length) // 0 todo, 1 in progress, 2 done
  const visit = (i: number): void => {
    if (state[i] === 2) return
    state[i] = 1
    const b = bones[i]!
    const p = b.parent
    const dst = out.subarray(i * 16, i * 16 + 16)
    if (p >= 0 && p < bones.length && state[p] !== 1) {
      visit(p)
      const ps = bones[p]!.scale
      const local = ssc
        ? mat4Multiply(mat4FromTRS([0, 0, 0], [0, 0, 0, 1], [1 / ps[0], 1 / ps[1], 1 / ps[2]]), mat4FromTRS([b.translation[0] * ps[0], b.translation[1] * ps[1], b.translation[2] * ps[2]], quatFromEulerExtrinsicXYZ(b.rotation), b.scale))
        : boneLocalMatrix(b)
      mat4Multiply(out.subarray(p * 16, p * 16 + 16), local, dst)
    } else dst.set(boneLocalMatrix(b))
    state[i] = 2
  }
  for (let i = 0; i < bones.length; i++) visit(i)
  return out
}

/** Inverse bind matrices (16 float32 per bone, column-major) from the bind pose. */
export function inverseBindMatrices(bones: readonly GfBone[]): Float32Array {
  const world = boneWorldMatrices(bones)
  const out = new Float32Array(bones.length * 16)
  for (let i = 0; i < bones.length; i++) {
    const inv = mat4Invert(world.subarray(i * 16, i * 16 + 16))
    if (inv && inv.every(Number.isFinite)) out.set(inv, i * 16)
    else out.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], i * 16)
  }
  return out
}
