/**
 * Sampling a motion at a frame (spec §4.5): linear interpolation between keys (vectors lerp,
 * rotations nlerp on the shorter arc), clamped before the first and after the last key; a track
 * without an index array is one constant key. Track keys replace the bone's local transform;
 * channels a clip lacks fall back to the bone header's reference pose (REE Content Editor's
 * preview, §7.2), scale to 1.
 *
 * Spec ambiguity (§4.5 "component lerp, slerp/nlerp is fine"): we use nlerp, i.e. REE Content
 * Editor's component lerp followed by a normalisation (so samples are unit quaternions). At key
 * frames and at the midpoint between two keys it equals slerp exactly; elsewhere the difference
 * grows with the angle between neighbouring keys (< 1e-7 for keys 2° apart, 1e-5 at 10°, 8e-3 at 90°).
 * Which bones are listed: exactly the motion's clips (the bones it animates), in clip order.
 */
import { quatNlerp, quatNormalize, type Quat, type Vec3 } from './euler'
import type { MotBone } from './bone-header'
import type { BoneClip, Mot } from './mot'
import type { MotTrack } from './track'

export interface BoneSample {
  /** Bone name, or null when the clip's hash matches no bone of the skeleton. */
  bone: string | null
  hash: number
  /** Index in the skeleton (−1 when unmatched). */
  boneIndex: number
  translation: Vec3
  rotation: Quat
  scale: Vec3
}

/** Key interval for `frame`: [i, j, t] with value = lerp(keys[i], keys[j], t). */
export function keySpan(frames: ArrayLike<number> | null, count: number, frame: number): [number, number, number] {
  if (!frames || count <= 1) return [0, 0, 0]
  if (!(frame > frames[0]!)) return [0, 0, 0]
  const last = count - 1
  if (frame >= frames[last]!) return [last, last, 0]
  let lo = 0
  let hi = last
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (frames[mid]! <= frame) lo = mid
    else hi = mid
  }
  const f0 = frames[lo]!
  const f1 = frames[hi]!
  return [lo, hi, f1 > f0 ? (frame - f0) / (f1 - f0) : 0]
}

export function sampleVector(t: MotTrack, frame: number): Vec3 {
  const n = t.values.length / 3
  if (n === 0) return [0, 0, 0]
  const [i, j, u] = keySpan(t.frames, n, frame)
  const v = t.values
  return [0, 1, 2].map((k) => v[i * 3 + k]! + (v[j * 3 + k]! - v[i * 3 + k]!) * u) as Vec3
}

export function sampleRotation(t: MotTrack, frame: number): Quat {
  const n = t.values.length / 4
  if (n === 0) return [0, 0, 0, 1]
  const [i, j, u] = keySpan(t.frames, n, frame)
  const v = t.values
  const a: Quat = [v[i * 4]!, v[i * 4 + 1]!, v[i * 4 + 2]!, v[i * 4 + 3]!]
  if (u === 0 || i === j) return quatNormalize(a)
  const b: Quat = [v[j * 4]!, v[j * 4 + 1]!, v[j * 4 + 2]!, v[j * 4 + 3]!]
  return quatNlerp(a, b, u)
}

/** The skeleton bone a clip animates: by hash first (how consumers match, §6), then by index. */
export function clipBone(clip: BoneClip, skeleton: MotBone[] | null): MotBone | undefined {
  if (!skeleton) return undefined
  const byHash = skeleton.find((b) => b.hash === clip.boneHash)
  if (byHash) return byHash
  const byIndex = skeleton[clip.boneIndex]
  return byIndex && byIndex.hash === clip.boneHash ? byIndex : undefined
}

/** Local TRS of every bone the motion animates, at `frame`. */
export function sampleMot(mot: Mot, skeleton: MotBone[] | null, frame: number): BoneSample[] {
  return mot.clips.map((c) => {
    const b = clipBone(c, skeleton)
    return {
      bone: b?.name ?? null,
      hash: c.boneHash,
      boneIndex: b?.index ?? -1,
      translation: c.translation ? sampleVector(c.translation, frame) : b ? [...b.translation] : [0, 0, 0],
      rotation: c.rotation ? sampleRotation(c.rotation, frame) : b ? quatNormalize(b.rotation) : [0, 0, 0, 1],
      scale: c.scale ? sampleVector(c.scale, frame) : [1, 1, 1],
    }
  })
}
