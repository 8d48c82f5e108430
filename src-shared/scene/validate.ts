/**
 * Consistency checks of a neutral scene. Everything downstream (viewport, glTF exporter) relies
 * on these holding, so builders call `validateScene` before handing a scene out.
 *
 * Rules beyond "indices in range and numbers finite" (mostly glTF's, so an exported file is valid):
 * - parents come before children (node i's parent is −1 or < i), which also rules out cycles;
 * - attribute arrays have whole vertices and the same vertex count as `positions`;
 * - skinned vertices have joints and weights together; weights are ≥ 0 and sum to 1 (±0.01),
 *   over `weights` and the optional second set `weights1` together (`joints1`/`weights1` go
 *   together and only beside `joints`/`weights`);
 *   joint indices are below the skin's joint count; a node with a skin has a mesh whose
 *   primitives all carry joints and weights, and a mesh with joints is only used with a skin;
 * - inverse bind matrices are 16 finite numbers per joint with a last row of 0 0 0 1;
 * - rotations are unit quaternions (±0.01);
 * - animation key times are finite, ≥ 0 and strictly increasing; value counts match key counts;
 *   no two channels of one animation target the same node and path.
 *
 * Skinned meshes follow glTF: a skinned vertex is placed by its joints' world matrices and the
 * inverse bind matrices only; the transform of the node holding the mesh is ignored.
 */
import { FormatError } from '../binary/errors'
import { checkMaterialProgram } from './material-program-check'
import type { Animation, Primitive, Scene } from './types'

export interface SceneProblem {
  /** Where, e.g. `nodes[3].parent` or `meshes[0].primitives[1].weights`. */
  path: string
  message: string
}

export class SceneError extends FormatError {
  readonly problems: SceneProblem[]
  constructor(sceneName: string, problems: SceneProblem[]) {
    const first = problems[0]
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''}: ${problems.slice(1, 4).map((p) => `${p.path}: ${p.message}`).join('; ')}${problems.length > 4 ? '; …' : ''})` : ''
    super(`${first.message}${more}`, { file: `scene '${sceneName}'`, structure: first.path })
    this.name = 'SceneError'
    this.problems = problems
  }
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)
const finiteAll = (a: ArrayLike<number>): number => {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return i
  return -1
}

/** Lists every problem found (up to `limit`); an empty list means the scene is consistent. */
export function sceneProblems(scene: Scene, limit = 100): SceneProblem[] {
  const out: SceneProblem[] = []
  const bad = (path: string, message: string) => {
    if (out.length < limit) out.push({ path, message })
  }
  const full = () => out.length >= limit

  if (scene === null || typeof scene !== 'object') return [{ path: 'scene', message: `not a scene object (got ${scene === null ? 'null' : typeof scene})` }]
  for (const key of ['nodes', 'meshes', 'materials', 'textures', 'skins', 'animations', 'curves'] as const) {
    if (!Array.isArray(scene[key])) bad(key, `must be an array, got ${typeof scene[key]}`)
  }
  if (out.length) return out
  const nNodes = scene.nodes.length
  const nMeshes = scene.meshes.length
  const nMaterials = scene.materials.length
  const nTextures = scene.textures.length
  const nSkins = scene.skins.length

  const vec = (path: string, v: unknown, len: number): boolean => {
    if (!Array.isArray(v) && !ArrayBuffer.isView(v)) return bad(path, `must be ${len} numbers`), false
    const a = v as ArrayLike<number>
    if (a.length !== len) return bad(path, `must be ${len} numbers, got ${a.length}`), false
    const i = finiteAll(a)
    if (i >= 0) return bad(path, `component ${i} is not a finite number (${a[i]})`), false
    return true
  }
  const index = (path: string, v: unknown, count: number, what: string): boolean => {
    if (!isInt(v) || v < 0 || v >= count) return bad(path, `${what} index ${String(v)} out of range (0..${count - 1}, ${count} ${what}${count === 1 ? '' : 's'})`), false
    return true
  }
  const floatArray = (path: string, v: unknown, per: number, count?: number): v is Float32Array => {
    if (!(v instanceof Float32Array)) return bad(path, `must be a Float32Array, got ${v?.constructor?.name ?? typeof v}`), false
    if (v.length % per !== 0) return bad(path, `length ${v.length} is not a multiple of ${per}`), false
    if (count !== undefined && v.length !== count * per) return bad(path, `has ${v.length / per} items, expected ${count} (one per vertex/key)`), false
    const i = finiteAll(v)
    if (i >= 0) return bad(path, `element ${i} is not a finite number (${v[i]})`), false
    return true
  }

  // Nodes.
  const meshSkinUse = new Map<number, boolean[]>() // mesh → [used without skin, used with skin]
  scene.nodes.forEach((n, i) => {
    const p = `nodes[${i}]`
    if (typeof n.name !== 'string') bad(`${p}.name`, 'must be a string')
    if (!isInt(n.parent) || n.parent < -1 || n.parent >= i) {
      if (isInt(n.parent) && n.parent >= i && n.parent < nNodes) bad(`${p}.parent`, `parent ${n.parent} comes after its child ${i} (parents must come before children)`)
      else bad(`${p}.parent`, `parent index ${String(n.parent)} out of range (−1 or 0..${i - 1})`)
    }
    vec(`${p}.translation`, n.translation, 3)
    vec(`${p}.scale`, n.scale, 3)
    if (vec(`${p}.rotation`, n.rotation, 4)) {
      const l = Math.hypot(...n.rotation)
      if (Math.abs(l - 1) > 0.01) bad(`${p}.rotation`, `quaternion length ${l.toFixed(4)} is not 1`)
    }
    if (n.mesh !== undefined && index(`${p}.mesh`, n.mesh, nMeshes, 'mesh')) {
      const use = meshSkinUse.get(n.mesh) ?? [false, false]
      use[n.skin !== undefined ? 1 : 0] = true
      meshSkinUse.set(n.mesh, use)
    }
    if (n.skin !== undefined) {
      if (index(`${p}.skin`, n.skin, nSkins, 'skin') && n.mesh === undefined) bad(`${p}.skin`, 'a node with a skin must have a mesh')
    }
  })
  if (full()) return out

  // Skins.
  scene.skins.forEach((s, i) => {
    const p = `skins[${i}]`
    if (!Array.isArray(s.joints) || s.joints.length === 0) return bad(`${p}.joints`, 'a skin needs at least one joint')
    const seen = new Set<number>()
    s.joints.forEach((j, k) => {
      if (index(`${p}.joints[${k}]`, j, nNodes, 'node')) {
        if (seen.has(j)) bad(`${p}.joints[${k}]`, `node ${j} is listed twice`)
        seen.add(j)
      }
    })
    if (floatArray(`${p}.inverseBindMatrices`, s.inverseBindMatrices, 16, s.joints.length)) {
      for (let k = 0; k < s.joints.length; k++) {
        const m = s.inverseBindMatrices.subarray(k * 16, k * 16 + 16)
        if (Math.abs(m[3]) > 1e-5 || Math.abs(m[7]) > 1e-5 || Math.abs(m[11]) > 1e-5 || Math.abs(m[15] - 1) > 1e-5) {
          bad(`${p}.inverseBindMatrices[${k}]`, 'last row must be 0 0 0 1 (an affine matrix)')
          break
        }
      }
    }
    if (s.skeleton !== undefined && index(`${p}.skeleton`, s.skeleton, nNodes, 'node')) {
      // The skeleton root must be an ancestor of (or equal to) every joint.
      for (const j of s.joints) {
        if (!isInt(j) || j < 0 || j >= nNodes) continue
        let k = j
        for (let guard = 0; k !== s.skeleton && k >= 0 && guard <= nNodes; guard++) k = scene.nodes[k].parent
        if (k !== s.skeleton) {
          bad(`${p}.skeleton`, `node ${s.skeleton} is not an ancestor of joint node ${j}`)
          break
        }
      }
    }
  })
  if (full()) return out

  // Textures.
  scene.textures.forEach((t, i) => {
    const p = `textures[${i}]`
    if (!isInt(t.width) || !isInt(t.height) || t.width <= 0 || t.height <= 0 || t.width > 16384 || t.height > 16384) {
      bad(p, `bad size ${t.width}×${t.height}`)
      return
    }
    if (!(t.rgba instanceof Uint8Array)) bad(`${p}.rgba`, 'must be a Uint8Array')
    else if (t.rgba.length !== t.width * t.height * 4) bad(`${p}.rgba`, `has ${t.rgba.length} bytes, expected ${t.width}×${t.height}×4 = ${t.width * t.height * 4}`)
    for (const w of ['wrapS', 'wrapT'] as const) if (!['repeat', 'clamp', 'mirror'].includes(t[w])) bad(`${p}.${w}`, `unknown wrap mode ${String(t[w])}`)
    if (t.filter !== undefined && t.filter !== 'nearest' && t.filter !== 'linear') bad(`${p}.filter`, `unknown filter ${String(t.filter)}`)
  })

  // Materials.
  scene.materials.forEach((m, i) => {
    const p = `materials[${i}]`
    if (vec(`${p}.baseColor`, m.baseColor, 4) && m.baseColor.some((c) => c < 0 || c > 1)) bad(`${p}.baseColor`, 'components must be within 0..1')
    if (m.texture !== undefined) index(`${p}.texture`, m.texture, nTextures, 'texture')
    if (!['OPAQUE', 'MASK', 'BLEND'].includes(m.alphaMode)) bad(`${p}.alphaMode`, `unknown alpha mode ${String(m.alphaMode)}`)
    if (m.alphaCutoff !== undefined && (!Number.isFinite(m.alphaCutoff) || m.alphaCutoff < 0)) bad(`${p}.alphaCutoff`, `must be a number ≥ 0, got ${m.alphaCutoff}`)
    if (typeof m.doubleSided !== 'boolean') bad(`${p}.doubleSided`, 'must be true or false')
    if (m.program !== undefined) checkMaterialProgram(bad, `${p}.program`, m.program, nTextures)
  })
  if (full()) return out

  // Meshes. Smallest joint count among the skins each mesh is used with:
  const meshJointLimit = new Map<number, number>()
  for (const n of scene.nodes) {
    if (n.mesh !== undefined && n.skin !== undefined && Array.isArray(scene.skins[n.skin]?.joints)) {
      meshJointLimit.set(n.mesh, Math.min(meshJointLimit.get(n.mesh) ?? Infinity, scene.skins[n.skin].joints.length))
    }
  }
  scene.meshes.forEach((mesh, mi) => {
    const use = meshSkinUse.get(mi) ?? [false, false]
    const jointLimit = meshJointLimit.get(mi) ?? Infinity
    if (!Array.isArray(mesh.primitives) || mesh.primitives.length === 0) return bad(`meshes[${mi}].primitives`, 'a mesh needs at least one primitive')
    mesh.primitives.forEach((pr, pi) => {
      if (full()) return
      const p = `meshes[${mi}].primitives[${pi}]`
      if (!floatArray(`${p}.positions`, pr.positions, 3)) return
      const nv = pr.positions.length / 3
      if (nv === 0) return bad(`${p}.positions`, 'no vertices')
      if (pr.normals !== undefined) floatArray(`${p}.normals`, pr.normals, 3, nv)
      if (pr.uvs !== undefined) floatArray(`${p}.uvs`, pr.uvs, 2, nv)
      if (pr.colors !== undefined) floatArray(`${p}.colors`, pr.colors, 4, nv)
      index(`${p}.material`, pr.material, nMaterials, 'material')
      const mode = pr.mode ?? 'triangles'
      if (mode !== 'triangles' && mode !== 'lines') bad(`${p}.mode`, `unknown mode ${String(mode)}`)
      if (!(pr.indices instanceof Uint32Array)) bad(`${p}.indices`, 'must be a Uint32Array')
      else {
        const per = mode === 'lines' ? 2 : 3
        if (pr.indices.length === 0 || pr.indices.length % per !== 0) bad(`${p}.indices`, `length ${pr.indices.length} is not a positive multiple of ${per}`)
        for (let k = 0; k < pr.indices.length; k++) {
          if (pr.indices[k] >= nv) {
            bad(`${p}.indices[${k}]`, `vertex index ${pr.indices[k]} out of range (${nv} vertices)`)
            break
          }
        }
      }
      const hasJ = pr.joints !== undefined
      const hasW = pr.weights !== undefined
      if (hasJ !== hasW) bad(`${p}.${hasJ ? 'weights' : 'joints'}`, 'joints and weights go together')
      if ((pr.joints1 !== undefined || pr.weights1 !== undefined) && !(hasJ && hasW && pr.joints1 !== undefined && pr.weights1 !== undefined)) {
        bad(`${p}.joints1`, 'joints1 and weights1 go together, and only beside joints and weights')
      } else if (hasJ && hasW) skinAttributes(pr, nv, p, jointLimit, bad, floatArray)
      if (hasJ && hasW) {
        if (use[0]) bad(`${p}.joints`, `mesh ${mi} has joints but a node uses it without a skin`)
      } else if (use[1]) {
        bad(`${p}`, `mesh ${mi} is used with a skin but this primitive has no joints/weights`)
      }
    })
  })
  if (full()) return out

  // Animations.
  scene.animations.forEach((a, ai) => checkAnimation(a, `animations[${ai}]`, scene, bad))
  if (full()) return out

  // Material variants (KHR_materials_variants): names unique, substitutions name materials.
  if (scene.variants !== undefined) {
    if (!Array.isArray(scene.variants)) bad('variants', 'must be an array')
    else {
      const names = new Set<string>()
      scene.variants.forEach((v, i) => {
        if (typeof v.name !== 'string' || names.has(v.name)) bad(`variants[${i}].name`, `must be a unique string, got ${JSON.stringify(v.name)}`)
        names.add(v.name)
        if (!Array.isArray(v.replace)) return bad(`variants[${i}].replace`, 'must be an array of [material, replacement] pairs')
        v.replace.forEach((pair, k) => {
          index(`variants[${i}].replace[${k}][0]`, pair?.[0], nMaterials, 'material')
          index(`variants[${i}].replace[${k}][1]`, pair?.[1], nMaterials, 'material')
        })
      })
    }
  }

  // Curves.
  scene.curves.forEach((c, i) => {
    const p = `curves[${i}]`
    if (floatArray(`${p}.points`, c.points, 3) && c.points.length < 6) bad(`${p}.points`, 'a curve needs at least two points')
    if (c.node !== undefined && c.node !== -1) index(`${p}.node`, c.node, nNodes, 'node')
    if (c.color !== undefined) vec(`${p}.color`, c.color, 3)
  })
  return out
}

function checkAnimation(a: Animation, p: string, scene: Scene, bad: (path: string, message: string) => void): void {
  if (typeof a.name !== 'string') bad(`${p}.name`, 'must be a string')
  if (!Number.isFinite(a.duration) || a.duration < 0) bad(`${p}.duration`, `must be a finite number ≥ 0, got ${a.duration}`)
  if (!Number.isFinite(a.frameRate) || a.frameRate <= 0) bad(`${p}.frameRate`, `must be a positive number, got ${a.frameRate}`)
  if (a.loopStart !== undefined && !(Number.isFinite(a.loopStart) && a.loopStart >= 0 && a.loopStart <= a.duration)) bad(`${p}.loopStart`, `must be within [0, duration], got ${a.loopStart}`)
  const times = (path: string, t: unknown): number => {
    if (!(t instanceof Float32Array)) return bad(path, 'must be a Float32Array'), -1
    if (t.length === 0) return bad(path, 'needs at least one key'), -1
    for (let k = 0; k < t.length; k++) {
      if (!Number.isFinite(t[k]) || t[k] < 0) return bad(`${path}[${k}]`, `key time ${t[k]} is not a finite number ≥ 0`), -1
      if (k > 0 && !(t[k] > t[k - 1])) return bad(`${path}[${k}]`, `key times must increase (${t[k - 1]} then ${t[k]})`), -1
    }
    return t.length
  }
  const targets = new Set<string>()
  const nNodes = scene.nodes.length
  const nMaterials = scene.materials.length
  const inRange = (path: string, v: unknown, count: number, what: string) => {
    if (!isInt(v) || v < 0 || v >= count) {
      bad(path, `${what} index ${String(v)} out of range (0..${count - 1}, ${count} ${what}${count === 1 ? '' : 's'})`)
      return false
    }
    return true
  }
  ;(a.channels ?? []).forEach((ch, ci) => {
    const cp = `${p}.channels[${ci}]`
    inRange(`${cp}.node`, ch.node, nNodes, 'node')
    if (!['translation', 'rotation', 'scale'].includes(ch.path)) return bad(`${cp}.path`, `unknown path ${String(ch.path)}`)
    if (!['STEP', 'LINEAR', 'CUBICSPLINE'].includes(ch.interpolation)) return bad(`${cp}.interpolation`, `unknown interpolation ${String(ch.interpolation)}`)
    const key = `${ch.node}/${ch.path}`
    if (targets.has(key)) bad(cp, `a second channel for node ${ch.node} ${ch.path}`)
    targets.add(key)
    const keys = times(`${cp}.times`, ch.times)
    if (keys < 0) return
    if (ch.interpolation === 'CUBICSPLINE' && keys < 2) bad(`${cp}.times`, 'CUBICSPLINE needs at least two keys')
    const n = ch.path === 'rotation' ? 4 : 3
    const per = n * (ch.interpolation === 'CUBICSPLINE' ? 3 : 1)
    if (!(ch.values instanceof Float32Array)) return bad(`${cp}.values`, 'must be a Float32Array')
    if (ch.values.length !== keys * per) return bad(`${cp}.values`, `has ${ch.values.length} numbers, expected ${keys} keys × ${per} = ${keys * per}`)
    const f = finiteAll(ch.values)
    if (f >= 0) return bad(`${cp}.values[${f}]`, `not a finite number (${ch.values[f]})`)
    if (ch.path === 'rotation') {
      for (let k = 0; k < keys; k++) {
        const b = k * per + (ch.interpolation === 'CUBICSPLINE' ? 4 : 0)
        const l = Math.hypot(ch.values[b], ch.values[b + 1], ch.values[b + 2], ch.values[b + 3])
        if (Math.abs(l - 1) > 0.01) return bad(`${cp}.values`, `key ${k}: quaternion length ${l.toFixed(4)} is not 1`)
      }
    }
  })
  ;(a.textureSwaps ?? []).forEach((tr, i) => {
    const tp = `${p}.textureSwaps[${i}]`
    inRange(`${tp}.material`, tr.material, nMaterials, 'material')
    const keys = times(`${tp}.times`, tr.times)
    if (keys < 0) return
    if (!(tr.textures instanceof Uint32Array) || tr.textures.length !== keys) return bad(`${tp}.textures`, `must be a Uint32Array of ${keys} texture indices`)
    for (let k = 0; k < keys; k++) if (tr.textures[k] >= scene.textures.length) return bad(`${tp}.textures[${k}]`, `texture index ${tr.textures[k]} out of range (${scene.textures.length} textures)`)
    if (tr.period !== undefined && !(Number.isFinite(tr.period) && tr.period > 0)) return bad(`${tp}.period`, `must be a positive number of seconds, got ${tr.period}`)
    if (tr.loopStart !== undefined && !(Number.isFinite(tr.loopStart) && tr.loopStart >= 0 && tr.loopStart <= (tr.period ?? Infinity))) return bad(`${tp}.loopStart`, `must be within [0, period], got ${tr.loopStart}`)
    if (tr.start !== undefined && !(Number.isFinite(tr.start) && tr.start >= 0)) return bad(`${tp}.start`, `must be a non-negative number of seconds, got ${tr.start}`)
    if (tr.frameRate !== undefined && !(Number.isFinite(tr.frameRate) && tr.frameRate > 0)) return bad(`${tp}.frameRate`, `must be a positive number, got ${tr.frameRate}`)
  })
  ;(a.visibility ?? []).forEach((tr, i) => {
    const tp = `${p}.visibility[${i}]`
    inRange(`${tp}.node`, tr.node, nNodes, 'node')
    const keys = times(`${tp}.times`, tr.times)
    if (keys >= 0 && (!(tr.visible instanceof Uint8Array) || tr.visible.length !== keys)) bad(`${tp}.visible`, `must be a Uint8Array of ${keys} flags`)
  })
  for (const kind of ['uvTracks', 'colorTracks'] as const) {
    ;(a[kind] ?? []).forEach((tr, i) => {
      const tp = `${p}.${kind}[${i}]`
      inRange(`${tp}.material`, tr.material, nMaterials, 'material')
      const keys = times(`${tp}.times`, tr.times)
      if (keys < 0) return
      if (!(tr.values instanceof Float32Array) || tr.values.length !== keys * 4) return bad(`${tp}.values`, `must be a Float32Array of ${keys} keys × 4`)
      const f = finiteAll(tr.values)
      if (f >= 0) bad(`${tp}.values[${f}]`, `not a finite number (${tr.values[f]})`)
    })
  }
}

/** Throws a `SceneError` naming the first problem (and counting the others) unless the scene is consistent. */
export function validateScene(scene: Scene): Scene {
  const problems = sceneProblems(scene)
  if (problems.length) throw new SceneError(scene?.name ?? '?', problems)
  return scene
}

/** Joints/weights (and the optional second set) of one primitive: shape, ≥ 0, joint range, sum 1 over both sets. */
function skinAttributes(pr: Primitive, nv: number, p: string, jointLimit: number, bad: (path: string, message: string) => void, floatArray: (path: string, v: unknown, per: number, count?: number) => boolean): void {
  const sets: [Uint16Array, Float32Array, string][] = []
  for (const [j, w, suffix] of [[pr.joints, pr.weights, ''], [pr.joints1, pr.weights1, '1']] as const) {
    if (j === undefined || w === undefined) continue
    if (!(j instanceof Uint16Array)) return bad(`${p}.joints${suffix}`, 'must be a Uint16Array')
    if (j.length !== nv * 4) return bad(`${p}.joints${suffix}`, `has ${j.length / 4} items, expected ${nv} (4 per vertex)`)
    if (!floatArray(`${p}.weights${suffix}`, w, 4, nv)) return
    sets.push([j, w, suffix])
  }
  for (let v = 0; v < nv; v++) {
    let sum = 0
    for (const [j, w, suffix] of sets) {
      for (let c = 0; c < 4; c++) {
        const wc = w[v * 4 + c]
        if (wc < 0) return bad(`${p}.weights${suffix}`, `vertex ${v} has a negative weight ${wc}`)
        sum += wc
        if (wc > 0 && j[v * 4 + c] >= jointLimit) return bad(`${p}.joints${suffix}`, `vertex ${v} uses joint ${j[v * 4 + c]} but the skin has ${jointLimit} joints`)
      }
    }
    if (Math.abs(sum - 1) > 0.01) return bad(`${p}.weights${sets.length > 1 ? ' + weights1' : ''}`, `vertex ${v}'s weights sum to ${sum.toFixed(4)}, not 1`)
  }
}
