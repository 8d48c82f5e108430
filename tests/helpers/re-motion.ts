/**
 * Comparing RE motions frame by frame (the round-trip tests): the largest difference between
 * motion `a` of `x` and motion `b` of `y` over every frame and every skeleton bone, a bone without
 * a track taken at its reference pose; rotations compared up to sign (q and −q are one rotation).
 * `edit` replaces one bone's expected local rotation at one frame; `skeleton` gives the bones of
 * files without bone headers (a game motlist: the mesh's). Different frame counts give Infinity.
 */
import { motionsOf, sampleMot, type MotBone, type MotionFile, type Quat } from '../../src-shared/formats/re'

export interface RotationEdit {
  bone: string
  frame: number
  rotation: Quat
}

export function motionDifference(x: MotionFile, a: number, y: MotionFile, b: number, edit?: RotationEdit, skeleton?: MotBone[]): number {
  const m = { ...motionsOf(x)[a]! }
  const n = { ...motionsOf(y)[b]! }
  m.skeleton ??= skeleton ?? null
  n.skeleton ??= skeleton ?? null
  if (m.mot!.header.frameCount !== n.mot!.header.frameCount) return Infinity
  let worst = 0
  for (let f = 0; f <= m.mot!.header.frameCount; f++) {
    const p = new Map(sampleMot(m.mot!, m.skeleton, f).map((s) => [s.bone, s]))
    const q = new Map(sampleMot(n.mot!, n.skeleton, f).map((s) => [s.bone, s]))
    for (const bone of m.skeleton!) {
      const rest = { translation: bone.translation, rotation: bone.rotation, scale: [1, 1, 1] }
      const s = p.get(bone.name) ?? rest
      const t = q.get(bone.name) ?? rest
      const r = edit && edit.bone === bone.name && edit.frame === f ? edit.rotation : s.rotation
      const sign = r.reduce((acc, v, k) => acc + v * t.rotation[k]!, 0) < 0 ? -1 : 1
      for (let k = 0; k < 4; k++) worst = Math.max(worst, Math.abs(r[k]! - sign * t.rotation[k]!))
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(s.translation[k]! - t.translation[k]!), Math.abs(s.scale[k]! - t.scale[k]!))
    }
  }
  return worst
}
