/** A bone list as the api's parallel arrays (src-shared/api/re.ts `ReSkeleton`). */
import type { ReSkeleton } from '../../../src-shared/api/re'
import { quatCanonical, type MotBone } from '../../../src-shared/formats/re'

export function skeletonArrays(bones: MotBone[]): ReSkeleton {
  const n = bones.length
  const s: ReSkeleton = { names: bones.map((b) => b.name), parents: new Int32Array(n), hashes: new Uint32Array(n), translations: new Float64Array(n * 3), rotations: new Float64Array(n * 4) }
  bones.forEach((b, i) => {
    s.parents[i] = b.parent
    s.hashes[i] = b.hash
    s.translations.set(b.translation, i * 3)
    s.rotations.set(quatCanonical(b.rotation), i * 4)
  })
  return s
}
