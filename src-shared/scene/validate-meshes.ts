/** Mesh and primitive checks of a neutral scene (see validate.ts for the rules). */
import { type ProblemList } from './problem-list'
import type { Primitive, Scene } from './types'

/** Per mesh: [used by a node without a skin, used by a node with a skin]. */
export type MeshSkinUse = Map<number, boolean[]>

export function checkMeshes(scene: Scene, c: ProblemList, meshSkinUse: MeshSkinUse): void {
  // Smallest joint count among the skins each mesh is used with:
  const meshJointLimit = new Map<number, number>()
  for (const n of scene.nodes) {
    if (n.mesh !== undefined && n.skin !== undefined && Array.isArray(scene.skins[n.skin]?.joints)) {
      meshJointLimit.set(n.mesh, Math.min(meshJointLimit.get(n.mesh) ?? Infinity, scene.skins[n.skin].joints.length))
    }
  }
  scene.meshes.forEach((mesh, mi) => {
    const use = meshSkinUse.get(mi) ?? [false, false]
    const jointLimit = meshJointLimit.get(mi) ?? Infinity
    if (!Array.isArray(mesh.primitives) || mesh.primitives.length === 0) return c.bad(`meshes[${mi}].primitives`, 'a mesh needs at least one primitive')
    mesh.primitives.forEach((pr, pi) => {
      if (c.full()) return
      checkPrimitive(scene, c, pr, `meshes[${mi}].primitives[${pi}]`, mi, use, jointLimit)
    })
  })
}

function checkPrimitive(scene: Scene, c: ProblemList, pr: Primitive, p: string, mi: number, use: boolean[], jointLimit: number): void {
  const bad = c.bad
  if (!c.floatArray(`${p}.positions`, pr.positions, 3)) return
  const nv = pr.positions.length / 3
  if (nv === 0) return bad(`${p}.positions`, 'no vertices')
  if (pr.normals !== undefined) c.floatArray(`${p}.normals`, pr.normals, 3, nv)
  if (pr.uvs !== undefined) c.floatArray(`${p}.uvs`, pr.uvs, 2, nv)
  if (pr.colors !== undefined) c.floatArray(`${p}.colors`, pr.colors, 4, nv)
  c.index(`${p}.material`, pr.material, scene.materials.length, 'material')
  const mode = pr.mode ?? 'triangles'
  if (mode !== 'triangles' && mode !== 'lines') bad(`${p}.mode`, `unknown mode ${String(mode)}`)
  if (!(pr.indices instanceof Uint32Array)) bad(`${p}.indices`, 'must be a Uint32Array')
  else checkIndices(c, pr.indices, p, mode === 'lines' ? 2 : 3, nv)
  const hasJ = pr.joints !== undefined
  const hasW = pr.weights !== undefined
  if (hasJ !== hasW) bad(`${p}.${hasJ ? 'weights' : 'joints'}`, 'joints and weights go together')
  if ((pr.joints1 !== undefined || pr.weights1 !== undefined) && !(hasJ && hasW && pr.joints1 !== undefined && pr.weights1 !== undefined)) {
    bad(`${p}.joints1`, 'joints1 and weights1 go together, and only beside joints and weights')
  } else if (hasJ && hasW) skinAttributes(pr, nv, p, jointLimit, c)
  if (hasJ && hasW) {
    if (use[0]) bad(`${p}.joints`, `mesh ${mi} has joints but a node uses it without a skin`)
  } else if (use[1]) {
    bad(`${p}`, `mesh ${mi} is used with a skin but this primitive has no joints/weights`)
  }
}

function checkIndices(c: ProblemList, indices: Uint32Array, p: string, per: number, nv: number): void {
  if (indices.length === 0 || indices.length % per !== 0) c.bad(`${p}.indices`, `length ${indices.length} is not a positive multiple of ${per}`)
  for (let k = 0; k < indices.length; k++) {
    if (indices[k] >= nv) {
      c.bad(`${p}.indices[${k}]`, `vertex index ${indices[k]} out of range (${nv} vertices)`)
      break
    }
  }
}

/** Joints/weights (and the optional second set) of one primitive: shape, ≥ 0, joint range, sum 1 over both sets. */
function skinAttributes(pr: Primitive, nv: number, p: string, jointLimit: number, c: ProblemList): void {
  const bad = c.bad
  const sets: [Uint16Array, Float32Array, string][] = []
  for (const [j, w, suffix] of [[pr.joints, pr.weights, ''], [pr.joints1, pr.weights1, '1']] as const) {
    if (j === undefined || w === undefined) continue
    if (!(j instanceof Uint16Array)) return bad(`${p}.joints${suffix}`, 'must be a Uint16Array')
    if (j.length !== nv * 4) return bad(`${p}.joints${suffix}`, `has ${j.length / 4} items, expected ${nv} (4 per vertex)`)
    if (!c.floatArray(`${p}.weights${suffix}`, w, 4, nv)) return
    sets.push([j, w, suffix])
  }
  for (let v = 0; v < nv; v++) {
    let sum = 0
    for (const [j, w, suffix] of sets) {
      for (let k = 0; k < 4; k++) {
        const wc = w[v * 4 + k]
        if (wc < 0) return bad(`${p}.weights${suffix}`, `vertex ${v} has a negative weight ${wc}`)
        sum += wc
        if (wc > 0 && j[v * 4 + k] >= jointLimit) return bad(`${p}.joints${suffix}`, `vertex ${v} uses joint ${j[v * 4 + k]} but the skin has ${jointLimit} joints`)
      }
    }
    if (Math.abs(sum - 1) > 0.01) return bad(`${p}.weights${sets.length > 1 ? ' + weights1' : ''}`, `vertex ${v}'s weights sum to ${sum.toFixed(4)}, not 1`)
  }
}
