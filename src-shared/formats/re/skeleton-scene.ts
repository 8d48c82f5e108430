/**
 * An RE skeleton (bone names, parents, reference local TRS) as a neutral scene: one node per
 * bone and a skin over all of them (inverse binds = inverse rest world matrices), no geometry.
 * The pose editor shows it in the shared viewport. RE skeletons may list a child before its
 * parent; neutral nodes come parents first, so the scene keeps the bone ↔ node maps.
 */
import type { Scene, SceneNode } from '../../scene/types'
import { mat4Identity, mat4Invert, worldMatrices } from '../../scene/math'

export interface SkeletonLike {
  names: readonly string[]
  /** Parent index per bone, −1 (or out of range) for roots. */
  parents: ArrayLike<number>
  /** Local translations, x y z per bone. */
  translations: ArrayLike<number>
  /** Local rotations, x y z w per bone. */
  rotations: ArrayLike<number>
}

export interface SkeletonScene {
  scene: Scene
  /** Scene node of each bone. */
  nodeOfBone: Int32Array
  /** Bone of each scene node. */
  boneOfNode: Int32Array
}

/** Bones parents first (depth first from the roots); a bone in a parent cycle becomes a root. */
function parentsFirst(parents: ArrayLike<number>, n: number): { order: number[]; root: Uint8Array } {
  const kids: number[][] = Array.from({ length: n }, () => [])
  const root = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const p = parents[i]!
    if (p >= 0 && p < n && p !== i) kids[p]!.push(i)
    else root[i] = 1
  }
  const order: number[] = []
  const seen = new Uint8Array(n)
  const walk = (start: number) => {
    const stack = [start]
    while (stack.length) {
      const b = stack.pop()!
      if (seen[b]) continue
      seen[b] = 1
      order.push(b)
      for (let k = kids[b]!.length - 1; k >= 0; k--) stack.push(kids[b]![k]!)
    }
  }
  for (let i = 0; i < n; i++) if (root[i]) walk(i)
  for (let i = 0; i < n; i++) {
    if (seen[i]) continue
    root[i] = 1 // only bones on a cycle are left
    walk(i)
  }
  return { order, root }
}

export function skeletonScene(name: string, sk: SkeletonLike, rotations: ArrayLike<number> = sk.rotations): SkeletonScene {
  const n = sk.names.length
  const { order, root } = parentsFirst(sk.parents, n)
  const nodeOfBone = new Int32Array(n)
  order.forEach((b, i) => (nodeOfBone[b] = i))
  const nodes: SceneNode[] = order.map((b) => {
    const t = sk.translations, r = rotations
    return {
      name: sk.names[b]!,
      parent: root[b] ? -1 : nodeOfBone[sk.parents[b]!]!,
      translation: [t[b * 3]!, t[b * 3 + 1]!, t[b * 3 + 2]!],
      rotation: [r[b * 4]!, r[b * 4 + 1]!, r[b * 4 + 2]!, r[b * 4 + 3]!],
      scale: [1, 1, 1],
      extras: { bone: b },
    }
  })
  const world = worldMatrices(nodes)
  const inverseBindMatrices = new Float32Array(n * 16)
  for (let i = 0; i < n; i++) inverseBindMatrices.set(mat4Invert(world.subarray(i * 16, i * 16 + 16)) ?? mat4Identity(), i * 16)
  const scene: Scene = {
    name,
    nodes,
    meshes: [],
    materials: [],
    textures: [],
    skins: n ? [{ name: `${name}_skeleton`, joints: nodes.map((_, i) => i), inverseBindMatrices }] : [],
    animations: [],
    curves: [],
    extras: { game: 're', bones: n },
  }
  return { scene, nodeOfBone, boneOfNode: Int32Array.from(order) }
}
