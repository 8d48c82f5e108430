/**
 * Playing an imported glTF animation on the pose editor's skeleton before it is saved: the
 * preview scene of `re:importGltf` (the template skeleton with the motion read back from the
 * bytes that would be saved) sampled at a frame, as the editor's per-bone arrays (bone order of
 * the template, rotations x y z w, translations x y z; bones the motion leaves alone keep their
 * reference values). Format-free: it only reads the neutral scene.
 */
import type { Scene } from '@shared/scene/types'
import { samplePose } from '@shared/scene/sample'

export interface BonePose {
  rotations: Float64Array
  translations: Float64Array
}

/** The pose at `frame` (clamped to the clip) of animation `anim` of `scene`, for bones `names`. */
export function previewPose(scene: Scene, names: readonly string[], reference: BonePose, frame: number, anim = 0): BonePose {
  const a = scene.animations[anim]
  const out: BonePose = { rotations: reference.rotations.slice(), translations: reference.translations.slice() }
  if (!a) return out
  const t = Math.min(Math.max(frame, 0) / a.frameRate, a.duration)
  const pose = samplePose(scene, a, t)
  const animated = new Set(a.channels.map((c) => c.node))
  const nodeOf = new Map(scene.nodes.map((n, i) => [n.name, i]))
  names.forEach((name, b) => {
    const n = nodeOf.get(name)
    if (n === undefined || !animated.has(n)) return
    out.rotations.set(pose[n]!.rotation, b * 4)
    out.translations.set(pose[n]!.translation, b * 3)
  })
  return out
}

/** Frames of the preview's clip (0..frameCount), for the scrubber. */
export function previewFrames(scene: Scene, anim = 0): number {
  const a = scene.animations[anim]
  return a ? Math.round(a.duration * a.frameRate) : 0
}
