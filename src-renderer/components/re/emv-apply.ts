/**
 * An EMV Poser pose onto a template skeleton (pure): joints matched by name, else by the name's
 * bone hash; `_LocalEulerAngle` through the one shared Euler conversion. A pose file holds a
 * whole pose: bones it does not list take the reference rotation (as in the saved motlist), so
 * switching poses never mixes two of them.
 */
import type { ReSkeleton } from '@shared/api/re'
import type { EmvPose } from '@shared/formats/re/emv-pose'
import { eulerToQuat, type EulerOrder } from '@shared/formats/re/euler'
import { boneHash } from '@shared/formats/re/hash'

export function boneIndexOf(sk: ReSkeleton, name: string): number {
  const i = sk.names.indexOf(name)
  return i >= 0 ? i : sk.hashes.indexOf(boneHash(name))
}

export function emvPoseRotations(p: EmvPose, sk: ReSkeleton, order: EulerOrder): { rotations: Float64Array; count: number; unknown: string[] } {
  const rotations = sk.rotations.slice()
  const unknown: string[] = []
  let count = 0
  for (const j of p.joints) {
    if (!j.euler) continue
    const i = boneIndexOf(sk, j.name)
    if (i < 0) {
      unknown.push(j.name)
      continue
    }
    rotations.set(eulerToQuat(j.euler, order), i * 4)
    count++
  }
  return { rotations, count, unknown }
}
