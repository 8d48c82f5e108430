/**
 * A glTF animation mapped onto a target skeleton through world space (CLI.md `re import`).
 *
 * An exporter may re-orient bones: Blender's glTF importer turns every bone so that its Y axis
 * points at a child ("Bone Dir": Temperance by default, or Blender), then writes those axes back
 * as the nodes' rest rotations and every key relative to them. Local keys of such a file are not
 * the target's local rotations, but the pose they show in world space is the same. So for each
 * frame f and each glTF node n matched to target bone b:
 *
 *   D_n(f) = W_n(f) · W_n(rest)⁻¹             how far n has moved from its own rest, in world space
 *   T_b(f) = D_n(f) · T_b(rest)               the target bone, moved the same way
 *   L_b(f) = T_parent(b)(f)⁻¹ · T_b(f)        its local transform under its (posed) target parent
 *
 * W are the glTF world matrices (every ancestor, bone or not, at its rest TRS or its keys) taken
 * in skeleton space: relative to the rest world of the nodes above the topmost bone node (an
 * armature object's own placement is not motion; its keys are). T are the target's (bone-header
 * reference pose, scale 1). A re-orientation C_n (W'_n = W_n · C_n at rest
 * and in every frame) cancels in D_n, and a file with the target's own rest pose gives
 * L_b(f) = its own local keys. L_b is decomposed into T·R·S (`mat4ToTRS`).
 *
 * A path (translation/rotation/scale) the glTF does not animate on n keeps the target's rest
 * value, and T_b(f) is rebuilt from the kept local transform, so children follow what is written
 * (a node whose glTF rest is elsewhere than the target's bone is not dragged by a pivot shift).
 * Target bones without a glTF node rest under their posed parent.
 */
import { mat4FromTRS, mat4Invert, mat4Multiply, mat4ToTRS, mat4Identity, type M4 } from '../../scene/math'
import type { GltfNodeInfo } from '../../export/gltf-read'
import type { MotBone } from './bone-header'

export type PathName = 'translation' | 'rotation' | 'scale'
const WIDTH: Record<PathName, number> = { translation: 3, rotation: 4, scale: 3 }
const PATHS: readonly PathName[] = ['translation', 'rotation', 'scale']

/** Sampled local values of a glTF node's animated paths at frames 0..F (3 or 4 numbers per frame). */
export type NodeSamples = Map<number, Partial<Record<PathName, Float64Array>>>

/** Target-space local values per bone for the paths its node animates, frames 0..F. */
export type BoneTracks = Map<number, Partial<Record<PathName, Float64Array>>>

/** Parents-first order of a forest given by parent indices (−1 = root); cycles are cut. */
export function parentsFirstOrder(parents: readonly number[]): number[] {
  const order: number[] = []
  const state = new Uint8Array(parents.length) // 0 new, 1 on the path, 2 placed
  for (let i = 0; i < parents.length; i++) {
    const chain: number[] = []
    for (let p = i; p >= 0 && p < parents.length && state[p] === 0; p = parents[p]!) {
      state[p] = 1
      chain.push(p)
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      state[chain[k]!] = 2
      order.push(chain[k]!)
    }
  }
  return order
}

/** World matrices (16 per item) of items with local matrices `local(i)`, parents first. */
function worlds(parents: readonly number[], order: readonly number[], local: (i: number, out: M4) => M4): Float64Array {
  const out = new Float64Array(parents.length * 16)
  const m = new Float64Array(16)
  for (const i of order) {
    local(i, m)
    const dst = out.subarray(i * 16, i * 16 + 16)
    const p = parents[i]!
    if (p >= 0) mat4Multiply(out.subarray(p * 16, p * 16 + 16), m, dst)
    else dst.set(m)
  }
  return out
}

const restBoneMatrix = (b: MotBone, out: M4): M4 => mat4FromTRS(b.translation, b.rotation, [1, 1, 1], out)

/**
 * The target-space local tracks of every matched bone whose node the glTF animates (see the file
 * head). `nodeOfBone[b]` is the glTF node of bone b or −1; `samples` holds the sampled channels.
 */
export function mapThroughWorld(nodes: readonly GltfNodeInfo[], bones: readonly MotBone[], nodeOfBone: readonly number[], samples: NodeSamples, frames: number): BoneTracks {
  const nParents = nodes.map((n) => n.parent)
  const nOrder = parentsFirstOrder(nParents)
  const bParents = bones.map((b) => b.parent)
  const bOrder = parentsFirstOrder(bParents)
  const nodeRest = worlds(nParents, nOrder, (i, out) => mat4FromTRS(nodes[i]!.translation, nodes[i]!.rotation, nodes[i]!.scale, out))
  const boneRest = worlds(bParents, bOrder, (i, out) => restBoneMatrix(bones[i]!, out))
  // Skeleton space: the rest world S of the nodes above the topmost bone node (Blender's armature
  // object). R_b = W_n(rest)⁻¹ · S · T_b(rest) and T_b(f) = S⁻¹ · W_n(f) · R_b.
  const matched = new Set(nodeOfBone.filter((n) => n >= 0))
  const spaceInv = new Map<number, M4>()
  const offset = new Map<number, M4>()
  bones.forEach((_, b) => {
    const n = nodeOfBone[b]!
    if (n < 0) return
    let top = n
    for (let p = nodes[n]!.parent, guard = 0; p >= 0 && guard <= nodes.length; p = nodes[p]!.parent, guard++) if (matched.has(p)) top = p
    const sp = nodes[top]!.parent
    const S = sp >= 0 ? nodeRest.subarray(sp * 16, sp * 16 + 16) : mat4Identity()
    spaceInv.set(b, mat4Invert(S) ?? mat4Identity())
    const inv = mat4Invert(nodeRest.subarray(n * 16, n * 16 + 16)) ?? mat4Identity()
    offset.set(b, mat4Multiply(mat4Multiply(inv, S), boneRest.subarray(b * 16, b * 16 + 16)))
  })
  const out: BoneTracks = new Map()
  for (const [b] of offset) {
    const s = samples.get(nodeOfBone[b]!)
    if (!s) continue
    const tracks: Partial<Record<PathName, Float64Array>> = {}
    for (const p of PATHS) if (s[p]) tracks[p] = new Float64Array((frames + 1) * WIDTH[p])
    out.set(b, tracks)
  }
  const boneWorld = new Float64Array(bones.length * 16)
  const m = new Float64Array(16)
  const parentInv = new Float64Array(16)
  for (let f = 0; f <= frames; f++) {
    const world = worlds(nParents, nOrder, (i, o) => {
      const n = nodes[i]!
      const s = samples.get(i)
      const t = s?.translation?.subarray(f * 3, f * 3 + 3) ?? n.translation
      const r = s?.rotation?.subarray(f * 4, f * 4 + 4) ?? n.rotation
      const sc = s?.scale?.subarray(f * 3, f * 3 + 3) ?? n.scale
      return mat4FromTRS(t, r, sc, o)
    })
    for (const b of bOrder) {
      const bone = bones[b]!
      const p = bone.parent
      const pw = p >= 0 ? boneWorld.subarray(p * 16, p * 16 + 16) : mat4Identity(new Float64Array(16))
      const dst = boneWorld.subarray(b * 16, b * 16 + 16)
      const tracks = out.get(b)
      if (!tracks) {
        mat4Multiply(pw, restBoneMatrix(bone, m), dst)
        continue
      }
      const n = nodeOfBone[b]!
      mat4Multiply(spaceInv.get(b)!, mat4Multiply(world.subarray(n * 16, n * 16 + 16), offset.get(b)!, m), m)
      mat4Multiply(mat4Invert(pw, parentInv) ?? mat4Identity(parentInv), m, m)
      const local = mat4ToTRS(m)
      const t = tracks.translation ? local.translation : bone.translation
      const r = tracks.rotation ? local.rotation : bone.rotation
      const sc = tracks.scale ? local.scale : [1, 1, 1]
      tracks.translation?.set(t, f * 3)
      tracks.rotation?.set(r, f * 4)
      tracks.scale?.set(sc, f * 3)
      mat4Multiply(pw, mat4FromTRS(t, r, sc, m), dst)
    }
  }
  return out
}
