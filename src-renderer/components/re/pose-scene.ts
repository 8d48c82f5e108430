/**
 * The pose editor's scene: a template's skeleton (as the api sends it: parallel arrays) as the
 * neutral skeleton scene of `re/scene.ts` (the same one `re export` writes), and the map from
 * bone index to scene node.
 */
import type { ReSkeleton } from '@shared/api/re'
import type { MotBone } from '@shared/formats/re/bone-header'
import { skeletonScene, type SkeletonScene } from '@shared/formats/re/scene'

export function templateBones(sk: ReSkeleton): MotBone[] {
  const t = sk.translations, r = sk.rotations
  return sk.names.map((name, i) => ({
    index: i,
    name,
    hash: sk.hashes[i] ?? 0,
    parent: sk.parents[i] ?? -1,
    translation: [t[i * 3]!, t[i * 3 + 1]!, t[i * 3 + 2]!],
    rotation: [r[i * 4]!, r[i * 4 + 1]!, r[i * 4 + 2]!, r[i * 4 + 3]!],
    storedIndex: i,
  }))
}

/** The skeleton of a template as a neutral scene (nodes at the reference pose + a skin). */
export function poseScene(sk: ReSkeleton, name: string): SkeletonScene {
  return skeletonScene(templateBones(sk), name)
}
