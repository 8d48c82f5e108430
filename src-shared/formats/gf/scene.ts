/**
 * A GF set as one neutral skinned scene (spec §6–§12, §15.9): joints are the model's bones (skin
 * joints in bone order, inverse binds from the bind pose), one node per GFMesh holding a skinned
 * mesh with one primitive per sub-mesh, materials with their `1.bin` textures, the `2.bin`
 * textures as the `shiny` material variant, and every motion of `4.bin`–`7.bin` as a clip.
 *
 * Readings (§15.9): no axis or unit conversion; UV = (u′, 1 − v′) with unit 0's transform applied;
 * vertex BoneIndex values are palette slots, remapped to bone (= joint) indices. glTF TRS cannot
 * express segment scale compensation: joints are plain TRS nodes (a child inherits a scaled
 * parent's scale), which equals SPICA's look whenever bone scales are 1.
 */
import { FormatError } from '../../binary/errors'
import type { Mesh, Primitive, Scene, SceneNode } from '../../scene/types'
import { sceneProblems } from '../../scene/validate'
import { allFinite, quatFromEulerExtrinsicXYZ } from '../../scene/math'
import type { GfSet } from './gf-set'
import type { GfModel } from './model'
import type { GfMesh, GfSubMesh } from './mesh'
import { applyUvTransform } from './motion-pose'
import { buildGfMaterials, type TextureOverride } from './scene-materials'
import { attachGfPrograms } from './material-program'
import { motionClip, type MotionTargets } from './scene-motions'
import { pickModel, setModels, setMotions, type GfLod, type GfModelRef, type GfMotionRef } from './set-models'
import { inverseBindMatrices, type GfBone } from './skeleton'

export interface GfSceneOptions {
  lod?: GfLod
  /** Include the motions as clips (default true). */
  motions?: boolean
  /** Throw on the first unreadable motion (the CLI export); otherwise it is listed with its error. */
  strictMotions?: boolean
  /** Pixels to show instead of a stored texture (pending replacements in the app). */
  textureOverride?: TextureOverride
  name?: string
}

export interface GfSceneMotion {
  file: string
  entry: number
  label?: string
  frames?: number
  /** Index of its clip in `scene.animations`. */
  animation?: number
  error?: string
}

export interface GfSceneResult {
  scene: Scene
  model: GfModelRef & { model: GfModel }
  models: GfModelRef[]
  motions: GfSceneMotion[]
  warnings: string[]
}

/** Node order with parents first (bone order when the file already has it), or a FormatError on a loop. */
function boneNodeOrder(bones: readonly GfBone[]): number[] {
  const order: number[] = []
  const state = new Uint8Array(bones.length)
  const visit = (i: number) => {
    if (state[i] === 2) return
    if (state[i] === 1) throw new FormatError(`bone ${i} '${bones[i]!.name}' is its own ancestor (parent loop)`, { structure: 'GFModel bones' })
    state[i] = 1
    if (bones[i]!.parent >= 0) visit(bones[i]!.parent)
    state[i] = 2
    order.push(i)
  }
  for (let i = 0; i < bones.length; i++) visit(i)
  return order
}

function skeletonNodes(bones: readonly GfBone[]): { nodes: SceneNode[]; boneNodes: number[] } {
  const order = boneNodeOrder(bones)
  const boneNodes = new Array<number>(bones.length)
  order.forEach((b, n) => { boneNodes[b] = n })
  const nodes = order.map((b): SceneNode => {
    const bone = bones[b]!
    return { name: bone.name, parent: bone.parent >= 0 ? boneNodes[bone.parent]! : -1, translation: [...bone.translation], rotation: quatFromEulerExtrinsicXYZ(bone.rotation), scale: [...bone.scale], extras: { gfBone: { index: b, flags: bone.flags } } }
  })
  return { nodes, boneNodes }
}

function subMeshPrimitive(s: GfSubMesh, mesh: GfMesh, material: number, uvRest: Parameters<typeof applyUvTransform>[0] | undefined, skinned: boolean, where: string): Primitive {
  const n = s.vertexCount
  const p: Primitive = { positions: s.positions, indices: s.indices, material }
  if (s.normals) p.normals = s.normals
  // A fixed Color is SPICA's "unused input" filler (often zero): glTF would multiply it into the
  // base colour, so only a stored per-vertex colour goes to the scene.
  if (s.colors && s.attributes.some((a) => a.semantic === 'color' && a.format !== 'fixed')) p.colors = s.colors
  const uv = s.uvs[0]
  if (uv) {
    const out = new Float32Array(n * 2)
    for (let v = 0; v < n; v++) {
      const [u2, v2] = uvRest ? applyUvTransform(uvRest, uv[v * 2]!, uv[v * 2 + 1]!) : [uv[v * 2]!, uv[v * 2 + 1]!]
      out[v * 2] = u2
      out[v * 2 + 1] = 1 - v2
    }
    p.uvs = out
  }
  if (!skinned) return p
  const joints = new Uint16Array(n * 4)
  const weights = new Float32Array(n * 4)
  if (s.boneSlots && s.boneWeights) {
    for (let k = 0; k < n * 4; k++) {
      if (!(s.boneWeights[k]! > 0)) continue
      const bone = s.palette[s.boneSlots[k]!]
      if (bone === undefined) throw new FormatError(`mesh '${mesh.name}' sub-mesh '${s.material}': vertex ${k >> 2} uses palette slot ${s.boneSlots[k]}, the palette has ${s.palette.length} entries`, { file: where, structure: `GFMesh '${mesh.name}'`, offset: mesh.offset })
      joints[k] = bone
      weights[k] = s.boneWeights[k]!
    }
  } else {
    // No BoneIndex: the whole sub-mesh follows palette[0] (Ohana), or the first bone when the palette is empty.
    for (let v = 0; v < n; v++) {
      joints[v * 4] = s.palette[0] ?? 0
      weights[v * 4] = 1
    }
  }
  p.joints = joints
  p.weights = weights
  return p
}

function buildMeshes(model: GfModel, matIndex: ReadonlyMap<string, number>, fallback: () => number, where: string): Mesh[] {
  const skinned = model.bones.length > 0
  return model.meshes.map((mesh) => ({
    name: mesh.name,
    primitives: mesh.subMeshes.map((s) => {
      const mi = matIndex.get(s.material)
      const gm = mi !== undefined ? model.materials[mi] : undefined
      return subMeshPrimitive(s, mesh, mi ?? fallback(), gm?.units[0], skinned, where)
    }),
  }))
}

/** Builds the scene of a set; throws FormatError when the chosen model (or, if strict, a motion) is unreadable. */
export function buildGfScene(set: GfSet, opts: GfSceneOptions = {}): GfSceneResult {
  const lod = opts.lod ?? 'high'
  const models = setModels(set)
  const ref = pickModel(models, lod)
  if (!ref) throw new FormatError(`the set has no ${lod}-poly model (0.bin entry ${lod === 'high' ? 0 : 1})${set.missing.includes('0.bin') ? '; 0.bin is missing' : ''}`, { file: '0.bin' })
  if (!ref.model) throw new FormatError(ref.error ?? `${ref.file}: entry ${ref.entry}: unreadable model`)
  const model = ref.model
  const warnings = [...set.warnings, ...model.warnings]
  const mats = buildGfMaterials(set, model.materials, opts.textureOverride)
  warnings.push(...attachGfPrograms(set, model.materials, mats, opts.textureOverride))
  warnings.push(...mats.warnings.map((w) => `0.bin: entry ${ref.entry} GFModel: ${w}`))
  const scene: Scene = { name: opts.name ?? 'gf-set', nodes: [], meshes: [], materials: mats.materials, textures: mats.textures, skins: [], animations: [], curves: [] }
  if (mats.variants) scene.variants = mats.variants
  let fallbackMaterial = -1
  const fallback = () => {
    if (fallbackMaterial < 0) {
      fallbackMaterial = scene.materials.length
      scene.materials.push({ name: '(missing material)', baseColor: [0.8, 0.8, 0.8, 1], alphaMode: 'OPAQUE', doubleSided: false })
    }
    return fallbackMaterial
  }
  const { nodes, boneNodes } = skeletonNodes(model.bones)
  scene.nodes.push(...nodes)
  scene.meshes = buildMeshes(model, mats.byName, fallback, `0.bin`)
  const skinned = model.bones.length > 0
  if (skinned) scene.skins.push({ name: 'skeleton', joints: boneNodes, inverseBindMatrices: inverseBindMatrices(model.bones) })
  const meshNodes = new Map<string, number>()
  model.meshes.forEach((m, i) => {
    if (!meshNodes.has(m.name)) meshNodes.set(m.name, scene.nodes.length)
    scene.nodes.push({ name: m.name, parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: i, ...(skinned ? { skin: 0 } : {}) })
  })
  const motions = opts.motions === false ? [] : addMotions(scene, setMotions(set), { bones: model.bones, boneNodes, meshNodes, gfMaterials: model.materials, materials: materialTargets(mats.byName, mats.shinyOf) }, !!opts.strictMotions, warnings)
  scene.extras = { gf: { lod, file: ref.file, entry: ref.entry, motions } }
  // Readers reject non-finite numbers; what finite data can still overflow (huge scales) is named here.
  const problem = sceneProblems(scene, 1)[0]
  if (problem) throw new FormatError(`the model does not make a valid scene: ${problem.path}: ${problem.message}`, { file: ref.file, structure: `entry ${ref.entry} GFModel`, offset: ref.offset })
  return { scene, model: { ...ref, model }, models, motions, warnings }
}

function materialTargets(byName: ReadonlyMap<string, number>, shinyOf: ReadonlyMap<number, number>): Map<string, number[]> {
  const out = new Map<string, number[]>()
  for (const [name, i] of byName) out.set(name, shinyOf.has(i) ? [i, shinyOf.get(i)!] : [i])
  return out
}

function addMotions(scene: Scene, refs: GfMotionRef[], tg: MotionTargets, strict: boolean, warnings: string[]): GfSceneMotion[] {
  return refs.map((r) => {
    const info: GfSceneMotion = { file: r.file, entry: r.entry, ...(r.label ? { label: r.label } : {}) }
    if (!r.motion) {
      if (strict) throw new FormatError(r.error ?? `${r.file}: entry ${r.entry}: unreadable motion`)
      warnings.push(r.error ?? `${r.file}: entry ${r.entry}: unreadable motion`)
      return { ...info, error: r.error }
    }
    const name = `${r.file}/${r.entry}`
    const clip = motionClip(name, r.motion, tg, (w) => warnings.push(`${r.file}: entry ${r.entry} GFMotion ${w}`))
    if (!clip.channels.every((c) => allFinite(c.values))) {
      // Finite curves over a finite bind pose can still overflow (e.g. a scale of 1e38 squared).
      const error = `${r.file}: entry ${r.entry} GFMotion: its sampled values overflow to a non-finite number`
      if (strict) throw new FormatError(error)
      warnings.push(error)
      return { ...info, error }
    }
    info.frames = r.motion.frameCount
    info.animation = scene.animations.length
    scene.animations.push(clip)
    return info
  })
}
