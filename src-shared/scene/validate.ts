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
import { isInt, problemList, type ProblemList, type SceneProblem } from './problem-list'
import type { Scene, Skin } from './types'
import { checkAnimation } from './validate-animations'
import { checkMeshes, type MeshSkinUse } from './validate-meshes'

export type { SceneProblem } from './problem-list'

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

/** Lists every problem found (up to `limit`); an empty list means the scene is consistent. */
export function sceneProblems(scene: Scene, limit = 100): SceneProblem[] {
  if (scene === null || typeof scene !== 'object') return [{ path: 'scene', message: `not a scene object (got ${scene === null ? 'null' : typeof scene})` }]
  const c = problemList(limit)
  const out = c.out
  for (const key of ['nodes', 'meshes', 'materials', 'textures', 'skins', 'animations', 'curves'] as const) {
    if (!Array.isArray(scene[key])) c.bad(key, `must be an array, got ${typeof scene[key]}`)
  }
  if (out.length) return out
  const meshSkinUse = checkNodes(scene, c)
  if (c.full()) return out
  scene.skins.forEach((s, i) => checkSkin(scene, c, s, `skins[${i}]`))
  if (c.full()) return out
  checkTextures(scene, c)
  checkMaterials(scene, c)
  if (c.full()) return out
  checkMeshes(scene, c, meshSkinUse)
  if (c.full()) return out
  scene.animations.forEach((a, ai) => checkAnimation(a, `animations[${ai}]`, scene, c))
  if (c.full()) return out
  checkVariants(scene, c)
  checkCurves(scene, c)
  return out
}

/** Node names, parent order, TRS, mesh/skin indices; returns how each mesh is used (with/without a skin). */
function checkNodes(scene: Scene, c: ProblemList): MeshSkinUse {
  const { bad, vec, index } = c
  const nNodes = scene.nodes.length
  const meshSkinUse: MeshSkinUse = new Map() // mesh → [used without skin, used with skin]
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
    if (n.mesh !== undefined && index(`${p}.mesh`, n.mesh, scene.meshes.length, 'mesh')) {
      const use = meshSkinUse.get(n.mesh) ?? [false, false]
      use[n.skin !== undefined ? 1 : 0] = true
      meshSkinUse.set(n.mesh, use)
    }
    if (n.skin !== undefined) {
      if (index(`${p}.skin`, n.skin, scene.skins.length, 'skin') && n.mesh === undefined) bad(`${p}.skin`, 'a node with a skin must have a mesh')
    }
  })
  return meshSkinUse
}

/** Joints (distinct nodes), inverse bind matrices (affine), skeleton root (an ancestor of every joint). */
function checkSkin(scene: Scene, c: ProblemList, s: Skin, p: string): void {
  const { bad, index } = c
  const nNodes = scene.nodes.length
  if (!Array.isArray(s.joints) || s.joints.length === 0) return bad(`${p}.joints`, 'a skin needs at least one joint')
  const seen = new Set<number>()
  s.joints.forEach((j, k) => {
    if (index(`${p}.joints[${k}]`, j, nNodes, 'node')) {
      if (seen.has(j)) bad(`${p}.joints[${k}]`, `node ${j} is listed twice`)
      seen.add(j)
    }
  })
  if (c.floatArray(`${p}.inverseBindMatrices`, s.inverseBindMatrices, 16, s.joints.length)) {
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
}

function checkTextures(scene: Scene, c: ProblemList): void {
  const bad = c.bad
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
}

function checkMaterials(scene: Scene, c: ProblemList): void {
  const bad = c.bad
  const nTextures = scene.textures.length
  scene.materials.forEach((m, i) => {
    const p = `materials[${i}]`
    if (c.vec(`${p}.baseColor`, m.baseColor, 4) && m.baseColor.some((v) => v < 0 || v > 1)) bad(`${p}.baseColor`, 'components must be within 0..1')
    if (m.texture !== undefined) c.index(`${p}.texture`, m.texture, nTextures, 'texture')
    if (!['OPAQUE', 'MASK', 'BLEND'].includes(m.alphaMode)) bad(`${p}.alphaMode`, `unknown alpha mode ${String(m.alphaMode)}`)
    if (m.alphaCutoff !== undefined && (!Number.isFinite(m.alphaCutoff) || m.alphaCutoff < 0)) bad(`${p}.alphaCutoff`, `must be a number ≥ 0, got ${m.alphaCutoff}`)
    if (typeof m.doubleSided !== 'boolean') bad(`${p}.doubleSided`, 'must be true or false')
    if (m.program !== undefined) checkMaterialProgram(bad, `${p}.program`, m.program, nTextures)
  })
}

/** Material variants (KHR_materials_variants): names unique, substitutions name materials. */
function checkVariants(scene: Scene, c: ProblemList): void {
  if (scene.variants === undefined) return
  if (!Array.isArray(scene.variants)) return c.bad('variants', 'must be an array')
  const nMaterials = scene.materials.length
  const names = new Set<string>()
  scene.variants.forEach((v, i) => {
    if (typeof v.name !== 'string' || names.has(v.name)) c.bad(`variants[${i}].name`, `must be a unique string, got ${JSON.stringify(v.name)}`)
    names.add(v.name)
    if (!Array.isArray(v.replace)) return c.bad(`variants[${i}].replace`, 'must be an array of [material, replacement] pairs')
    v.replace.forEach((pair, k) => {
      c.index(`variants[${i}].replace[${k}][0]`, pair?.[0], nMaterials, 'material')
      c.index(`variants[${i}].replace[${k}][1]`, pair?.[1], nMaterials, 'material')
    })
  })
}

function checkCurves(scene: Scene, c: ProblemList): void {
  scene.curves.forEach((cv, i) => {
    const p = `curves[${i}]`
    if (c.floatArray(`${p}.points`, cv.points, 3) && cv.points.length < 6) c.bad(`${p}.points`, 'a curve needs at least two points')
    if (cv.node !== undefined && cv.node !== -1) c.index(`${p}.node`, cv.node, scene.nodes.length, 'node')
    if (cv.color !== undefined) c.vec(`${p}.color`, cv.color, 3)
  })
}

/** Throws a `SceneError` naming the first problem (and counting the others) unless the scene is consistent. */
export function validateScene(scene: Scene): Scene {
  const problems = sceneProblems(scene)
  if (problems.length) throw new SceneError(scene?.name ?? '?', problems)
  return scene
}
