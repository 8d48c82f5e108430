/**
 * Skins → Babylon skeletons, following Babylon's glTF loader (loaders/glTF/2.0/glTFLoader:
 * _loadBones/_updateBoneMatrices): one bone per joint and per node between a joint and the skeleton
 * root, each linked to its TransformNode; bind matrices from the inverse binds; the skinned mesh
 * placed under the skeleton root's parent (glTF ignores the skinned mesh node's own transform).
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import type { TransformNode } from '@babylonjs/core/Meshes/transformNode.js'
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { Skeleton } from '@babylonjs/core/Bones/skeleton.js'
import { Bone } from '@babylonjs/core/Bones/bone.js'
import type { Scene, Skin } from '@shared/scene/types'
import type { Disposables } from './build-types'

/** A Babylon skeleton and the node its skinned meshes hang under. */
export interface BuiltSkeleton {
  sk: Skeleton
  meshParent: TransformNode
}

/** One Babylon skeleton per neutral skin, bones linked to `nodes`. */
export function buildSkeletons(bscene: BScene, scene: Scene, nodes: TransformNode[], root: TransformNode, disposables: Disposables): BuiltSkeleton[] {
  return scene.skins.map((skin, si) => {
    const sk = new Skeleton(skin.name || `skin${si}`, `skeleton${si}`, bscene)
    disposables.push(sk)
    const rootNode = skin.skeleton ?? commonAncestor(scene, skin.joints)
    const bones = new Map<number, Bone>()
    const boneFor = (ni: number): Bone => {
      let b = bones.get(ni)
      if (b) return b
      const n = scene.nodes[ni]
      const parentBone = ni !== rootNode && n.parent >= 0 ? boneFor(n.parent) : null
      const local = Matrix.Compose(new Vector3(...n.scale), new Quaternion(...n.rotation), new Vector3(...n.translation))
      b = new Bone(n.name || `joint${ni}`, sk, parentBone, local, null, null, skin.joints.indexOf(ni))
      bones.set(ni, b)
      return b
    }
    for (const j of skin.joints) boneFor(j)
    for (const [ni, b] of bones) b.linkTransformNode(nodes[ni])
    setBindMatrices(sk, skin)
    return { sk, meshParent: rootNode >= 0 && scene.nodes[rootNode].parent >= 0 ? nodes[scene.nodes[rootNode].parent] : root }
  })
}

/** Each bone's bind pose from the skin's inverse binds (identity for the in-between nodes). */
function setBindMatrices(sk: Skeleton, skin: Skin): void {
  for (const b of sk.bones) {
    const base = Matrix.Identity()
    const k = b.getIndex()
    if (k >= 0) {
      Matrix.FromArrayToRef(skin.inverseBindMatrices, k * 16, base)
      base.invertToRef(base)
    }
    const parent = b.getParent()
    if (parent) base.multiplyToRef(parent.getAbsoluteInverseBindMatrix(), base)
    b.updateMatrix(base, false, false)
    b._updateAbsoluteBindMatrices(undefined, false)
  }
}

/** Nearest common ancestor of the joints (−1 when they share none). */
export function commonAncestor(scene: Scene, joints: number[]): number {
  const chain = (i: number) => {
    const out: number[] = []
    for (let k = i, guard = 0; k >= 0 && guard <= scene.nodes.length; k = scene.nodes[k].parent, guard++) out.unshift(k)
    return out
  }
  if (!joints.length) return -1
  let common = chain(joints[0])
  for (const j of joints.slice(1)) {
    const c = chain(j)
    let n = 0
    while (n < common.length && n < c.length && common[n] === c[n]) n++
    common = common.slice(0, n)
  }
  return common.length ? common[common.length - 1] : -1
}
