/**
 * Neutral scene → glTF 2.0 binary (.glb). The glTF JSON is built here and the data placed by
 * `glb.ts` (our own writer; @gltf-transform/core reads glTF elsewhere and is the tests' oracle for
 * this writer, tests/oracles/gltf-document.ts). Pure: no fs, no DOM; textures are encoded to PNG
 * by png.ts (with the codec the process registered).
 *
 * Conventions. The neutral scene already uses glTF's conventions (right-handed, Y up, column-major
 * matrices, quaternions [x, y, z, w], seconds, UV v growing downwards from the image's top row,
 * CUBICSPLINE keys as in-tangent/value/out-tangent), so positions and transforms go through
 * unchanged and units stay game units (no metre scaling; a glTF viewer shows them 1 unit = 1 m).
 * This file is the one place that adapts data to what glTF demands:
 * - normals are renormalised (a zero normal becomes +Y), colours clamped to 0..1;
 * - materials are written as metallic 0, roughness 1 (our sources are not PBR: plain diffuse);
 * - a primitive without UVs under a textured material gets all-zero TEXCOORD_0;
 * - weights are renormalised to sum 1, joint slots with zero weight point at joint 0 and duplicate
 *   joints of one vertex are merged, as the glTF validator requires; a primitive with a second
 *   set (`joints1`/`weights1`, influences 5–8) gets JOINTS_1/WEIGHTS_1, the sum and the merging
 *   taken over both sets;
 * - indices are written as uint16 when the vertex count allows, uint32 otherwise;
 * - rotation keys are renormalised;
 * - nodes, meshes, materials, skins and images keep the neutral scene's order and indices, so the
 *   indices stored in `extras` below are valid glTF indices;
 * - a clip with no node channel gets one placeholder STEP channel (glTF requires at least one),
 *   flagged in its extras;
 * - when a skin's joints share no root node (glTF requires one), an identity node
 *   `modbench_skin_root` (extras `{modbench: {addedCommonRoot: true}}`) is appended after all
 *   neutral nodes and the top-level nodes holding those joints are put under it.
 *
 * ## Extras schema (everything below lives under the key `modbench`, version 1)
 * - `scenes[0].extras.modbench = { version: 1, name, curves: Curve[], actor?: <scene.extras> }`
 *   with `Curve = { name, points: number[] (xyz…), closed: boolean, node: number (glTF node index
 *   or −1 for world space), color?: [r,g,b], extras? }`.
 * - `animations[i].extras.modbench = { version: 1, duration, frameRate, loop, placeholderChannel?,
 *   loopStart?, integerFrames? (the clip's loop point in seconds and whole-frame playback, see Animation),
 *   textureSwaps?: [{ material, times: number[], images: number[], period?, loopStart?, hold?, start?, frameRate? }]
 *   (period/loopStart/hold/start: the track's own counter in seconds, frameRate: it counts whole
 *   frames; see TextureSwapTrack),
 *   visibility?: [{ node, times: number[], visible: (0|1)[] }],
 *   uvTracks?: [{ material, times: number[], values: number[] (offU, offV, scaleU, scaleV per key;
 *   uv' = uv·scale + offset) }],
 *   colorTracks?: [{ material, times: number[], values: number[] (RGBA per key, replaces the
 *   material's base colour factor) }], extras? }`.
 *   Texture-swap keys name glTF **image** indices (the neutral texture indices); every neutral
 *   texture is written as an image, named after it, even when no material uses it at rest.
 *   Times are seconds; texture swaps and visibility are step, UV and colour tracks linear.
 * - `materials[i].extras = { ...material.extras, modbench: { vertexColors?, unlit?, material?, approximate? } }`:
 *   `material` is the material's program (materials.md §7; texture indices are image indices),
 *   `approximate` marks a baked base colour that does not reproduce it exactly (gltf-material.ts).
 * - `nodes[i].extras = node.extras` unchanged, except for a node holding a skinned mesh that has a
 *   parent or a local transform (glTF ignores both and the validator warns): when it has no
 *   children and is neither a joint nor a curve anchor it is written at the root with an identity
 *   transform and `extras.modbench.skinnedMeshRest = { parent, translation, rotation, scale }`
 *   keeps the neutral values.
 * - JSON leaves out what glTF defaults (identity transforms, OPAQUE, single-sided, white base
 *   colour, roughness 1, empty names, lists and extras), as glTF-Transform's writer does;
 * - a neutral scene without nodes gets one identity node `modbench_root` (extras
 *   `{modbench: {addedRoot: true}}`), since a glTF scene cannot list no nodes; a scene without
 *   any data is written without a buffer.
 */
import type { Material, Primitive, Scene, Texture, WrapMode } from '../scene/types'
import { validateScene } from '../scene/validate'
import { GlbWriter } from './glb'
import { clamp01, cleanSkinAttributes, extrasOf, jsonFloats, normalizedNormals, normQuat, texturePng } from './gltf-data'
import { writeAnimation } from './gltf-animation'
import { primitiveVariants } from './gltf-variants'
import { gltfMaterialScene } from './gltf-material'

export { cleanSkinAttributes, jsonSafe, texturePng } from './gltf-data'

export interface GltfExportOptions {
  /** `asset.generator`; default "Modbench". */
  generator?: string
  /** Skip `validateScene` (only for callers that validated already). */
  skipValidation?: boolean
  /** PNG bytes per neutral texture (`texturePng`), when the caller encodes them anyway (an export writing PNG files too). */
  texturePngs?: readonly Uint8Array[]
}

type Json = Record<string, unknown>

const WRAP: Record<WrapMode, 10497 | 33071 | 33648> = { repeat: 10497, clamp: 33071, mirror: 33648 }
const NEAREST = 9728
const LINEAR = 9729
const LINEAR_MIPMAP_LINEAR = 9987

/** `{ name }` when the name is not empty (glTF leaves empty names out). */
const named = (name: string): Json => (name ? { name } : {})
const withExtras = (def: Json, extras: Record<string, unknown> | undefined): Json => {
  if (extras && Object.keys(extras).length) def.extras = extras
  return def
}

/** The scene as a .glb file. */
export async function exportGlb(scene: Scene, opts: GltfExportOptions = {}): Promise<Uint8Array> {
  return sceneToGlb(scene, opts)
}

/** The scene as a .glb file, synchronously (validated first unless told otherwise). */
export function sceneToGlb(scene: Scene, opts: GltfExportOptions = {}): Uint8Array {
  if (!opts.skipValidation) validateScene(scene)
  scene = gltfMaterialScene(scene)
  const w = new GlbWriter()
  const json: Json = { asset: { generator: opts.generator ?? 'Modbench', version: '2.0' } }
  const used: string[] = []
  const { images, samplers, textures, materials } = writeMaterials(scene, w, opts)
  if (scene.materials.some((m) => m.unlit)) used.push('KHR_materials_unlit')
  const meshes = scene.meshes.map((mesh, mi) => ({
    ...named(mesh.name),
    primitives: mesh.primitives.map((p, pi) => writePrimitive(scene, w, p, `${mesh.name || `mesh${mi}`}/${pi}`)),
  }))
  if (scene.variants?.length) {
    used.push('KHR_materials_variants')
    json.extensions = { KHR_materials_variants: { variants: scene.variants.map((v) => named(v.name)) } }
  }
  const { nodes, roots } = writeNodes(scene)
  const skins = scene.skins.map((s) => {
    const def: Json = { ...named(s.name), inverseBindMatrices: w.accessor(`${s.name}/inverseBindMatrices`, 'MAT4', s.inverseBindMatrices, 'ibm') }
    if (s.skeleton !== undefined) def.skeleton = s.skeleton
    def.joints = [...s.joints]
    return def
  })
  const animations = scene.animations.map((a, ai) => writeAnimation(w, scene, a, ai))
  const sceneDef = withExtras({ ...named(scene.name) }, extrasOf({ modbench: sceneExtras(scene) }))
  sceneDef.nodes = roots
  Object.assign(json, nonEmpty({ images, samplers, textures, materials, meshes, nodes, skins, animations }))
  json.scenes = [sceneDef]
  json.scene = 0
  if (used.length) json.extensionsUsed = used
  return w.finish(json)
}

function nonEmpty(lists: Record<string, unknown>): Json {
  const out: Json = {}
  for (const [k, v] of Object.entries(lists)) if (Array.isArray(v) && v.length) out[k] = v
  return out
}

/** Images (one per neutral texture, in order), samplers and textures (deduplicated, in first use order) and materials. */
function writeMaterials(scene: Scene, w: GlbWriter, opts: GltfExportOptions): { images: Json[]; samplers: Json[]; textures: Json[]; materials: Json[] } {
  const images = scene.textures.map((t, i) => ({ ...named(t.name), mimeType: 'image/png', bufferView: w.imageView(opts.texturePngs?.[i] ?? texturePng(t)) }))
  const samplers: Json[] = []
  const textures: Json[] = []
  const samplerIndex = new Map<string, number>()
  const textureIndex = new Map<string, number>()
  const textureOf = (ti: number): number => {
    const t: Texture = scene.textures[ti]!
    const filter = t.filter === 'nearest' ? { magFilter: NEAREST, minFilter: NEAREST } : { magFilter: LINEAR, minFilter: LINEAR_MIPMAP_LINEAR }
    const sampler = { ...filter, wrapS: WRAP[t.wrapS], wrapT: WRAP[t.wrapT] }
    const sk = `${sampler.magFilter},${sampler.minFilter},${sampler.wrapS},${sampler.wrapT}`
    let si = samplerIndex.get(sk)
    if (si === undefined) samplerIndex.set(sk, (si = samplers.push(sampler) - 1))
    const tk = `${ti},${si}`
    let index = textureIndex.get(tk)
    if (index === undefined) textureIndex.set(tk, (index = textures.push({ source: ti, sampler: si }) - 1))
    return index
  }
  const materials = scene.materials.map((m: Material) => {
    const def: Json = { ...named(m.name) }
    const mb: Record<string, unknown> = {}
    if (m.vertexColors) mb.vertexColors = true
    if (m.unlit) mb.unlit = true
    if (m.extras || Object.keys(mb).length) withExtras(def, extrasOf({ ...(m.extras ?? {}), ...(Object.keys(mb).length ? { modbench: { ...(m.extras?.modbench as object | undefined), ...mb } } : {}) }))
    if (m.alphaMode !== 'OPAQUE') def.alphaMode = m.alphaMode
    if (m.alphaMode === 'MASK') def.alphaCutoff = m.alphaCutoff ?? 0.5
    if (m.doubleSided) def.doubleSided = true
    const pbr: Json = {}
    const [r, g, b, a] = m.baseColor
    if (r !== 1 || g !== 1 || b !== 1 || a !== 1) pbr.baseColorFactor = [r, g, b, a]
    pbr.metallicFactor = 0
    if (m.texture !== undefined) pbr.baseColorTexture = { index: textureOf(m.texture) }
    def.pbrMetallicRoughness = pbr
    if (m.unlit) def.extensions = { KHR_materials_unlit: {} }
    return def
  })
  return { images, samplers, textures, materials }
}

function writePrimitive(scene: Scene, w: GlbWriter, p: Primitive, tag: string): Json {
  const nv = p.positions.length / 3
  const attributes: Record<string, number> = { POSITION: w.accessor(`${tag}/POSITION`, 'VEC3', p.positions, 'vertex', true) }
  if (p.normals) attributes.NORMAL = w.accessor(`${tag}/NORMAL`, 'VEC3', normalizedNormals(p.normals), 'vertex')
  if (p.uvs) attributes.TEXCOORD_0 = w.accessor(`${tag}/TEXCOORD_0`, 'VEC2', p.uvs, 'vertex')
  else if (scene.materials[p.material]!.texture !== undefined) {
    // glTF needs TEXCOORD_0 under a textured material: all zeros (the top-left texel), as a viewer would do without.
    attributes.TEXCOORD_0 = w.accessor(`${tag}/TEXCOORD_0`, 'VEC2', new Float32Array(nv * 2), 'vertex')
  }
  if (p.colors) attributes.COLOR_0 = w.accessor(`${tag}/COLOR_0`, 'VEC4', clamp01(p.colors), 'vertex')
  if (p.joints && p.weights) {
    const { joints, weights, joints1, weights1 } = cleanSkinAttributes(p.joints, p.weights, p.joints1, p.weights1)
    attributes.JOINTS_0 = w.accessor(`${tag}/JOINTS_0`, 'VEC4', joints, 'vertex')
    attributes.WEIGHTS_0 = w.accessor(`${tag}/WEIGHTS_0`, 'VEC4', weights, 'vertex')
    if (joints1 && weights1) {
      attributes.JOINTS_1 = w.accessor(`${tag}/JOINTS_1`, 'VEC4', joints1, 'vertex')
      attributes.WEIGHTS_1 = w.accessor(`${tag}/WEIGHTS_1`, 'VEC4', weights1, 'vertex')
    }
  }
  const def: Json = { attributes, mode: p.mode === 'lines' ? 1 : 4, material: p.material }
  def.indices = w.accessor(`${tag}/indices`, 'SCALAR', nv <= 0xfffe ? Uint16Array.from(p.indices) : p.indices, 'index')
  if (scene.variants?.length) def.extensions = { KHR_materials_variants: { mappings: primitiveVariants(scene, p.material) } }
  return def
}

/** Nodes (neutral order, then the added ones), their children, and the scene's root list. */
function writeNodes(scene: Scene): { nodes: Json[]; roots: number[] } {
  const movable = movableSkinnedNodes(scene)
  const children: number[][] = scene.nodes.map(() => [])
  let roots: number[] = []
  const nodes: Json[] = scene.nodes.map((n, i) => {
    const def: Json = { ...named(n.name) }
    let extras = n.extras ? extrasOf(n.extras) : undefined
    if (movable.has(i)) {
      // glTF ignores the transform of a node holding a skinned mesh, and the validator warns when
      // it has a parent or a local transform: put it at the root with an identity transform and
      // keep what it had in extras (nothing else depends on it: no children, not a joint).
      const rest = { parent: n.parent, translation: [...n.translation], rotation: [...n.rotation], scale: [...n.scale] }
      extras = extrasOf({ ...(n.extras ?? {}), modbench: { skinnedMeshRest: rest } })
      roots.push(i)
    } else {
      const [tx, ty, tz] = n.translation
      const [rx, ry, rz, rw] = normQuat(n.rotation)
      const [sx, sy, sz] = n.scale
      if (tx !== 0 || ty !== 0 || tz !== 0) def.translation = [tx, ty, tz]
      if (rx !== 0 || ry !== 0 || rz !== 0 || rw !== 1) def.rotation = [rx, ry, rz, rw]
      if (sx !== 1 || sy !== 1 || sz !== 1) def.scale = [sx, sy, sz]
      if (n.parent >= 0) children[n.parent]!.push(i)
      else roots.push(i)
    }
    withExtras(def, extras)
    if (n.mesh !== undefined) def.mesh = n.mesh
    if (n.skin !== undefined) def.skin = n.skin
    return def
  })
  nodes.forEach((def, i) => {
    if (children[i]!.length) def.children = children[i]
  })
  if (scene.nodes.length === 0) {
    // glTF forbids a scene with an empty node list (a curve-only or empty neutral scene).
    nodes.push({ name: 'modbench_root', extras: { modbench: { addedRoot: true } } })
    roots.push(0)
  }
  // glTF requires a skin's joints to share a root node; the neutral model does not (its viewport
  // copes). When they do not, the top-level nodes holding them go under one added identity node,
  // appended after every neutral node so that all indices stay the same.
  const wrap = jointTopsToWrap(scene)
  if (wrap.length) {
    nodes.push({ name: 'modbench_skin_root', extras: { modbench: { addedCommonRoot: true } }, children: wrap })
    roots = [...roots.filter((r) => !wrap.includes(r)), nodes.length - 1]
  }
  return { nodes, roots }
}

/** Top-level nodes holding the joints of a skin whose joints share no root (sorted), or none. */
function jointTopsToWrap(scene: Scene): number[] {
  const topOf = (i: number) => {
    for (let guard = 0; scene.nodes[i]!.parent >= 0 && guard < scene.nodes.length; guard++) i = scene.nodes[i]!.parent
    return i
  }
  const wrap = new Set<number>()
  for (const s of scene.skins) {
    if (s.skeleton !== undefined) continue
    const tops = new Set(s.joints.map(topOf))
    if (tops.size > 1) for (const t of tops) wrap.add(t)
  }
  return [...wrap].sort((a, b) => a - b)
}

/** `scenes[0].extras.modbench`: curves and actor metadata. */
function sceneExtras(scene: Scene): Record<string, unknown> {
  const out: Record<string, unknown> = {
    version: 1,
    name: scene.name,
    curves: scene.curves.map((c) => ({
      name: c.name,
      points: jsonFloats(c.points),
      closed: c.closed ?? false,
      node: c.node ?? -1,
      ...(c.color ? { color: [...c.color] } : {}),
      ...(c.extras ? { extras: c.extras } : {}),
    })),
  }
  if (scene.extras) out.actor = scene.extras
  return out
}

/**
 * Nodes holding a skinned mesh that can go to the glTF root with an identity transform without
 * changing anything: they have a parent or a local transform (which glTF ignores for skinned
 * meshes), no children, and are not joints or curve anchors.
 */
function movableSkinnedNodes(scene: Scene): Set<number> {
  const out = new Set<number>()
  if (!scene.nodes.some((n) => n.skin !== undefined)) return out
  const pinned = new Set<number>()
  for (const n of scene.nodes) if (n.parent >= 0) pinned.add(n.parent)
  for (const s of scene.skins) for (const j of s.joints) pinned.add(j)
  for (const c of scene.curves) if (c.node !== undefined) pinned.add(c.node)
  scene.nodes.forEach((n, i) => {
    if (n.skin === undefined || pinned.has(i)) return
    const [x, y, z, w] = n.rotation
    const identity =
      n.translation.every((v) => v === 0) && n.scale.every((v) => v === 1) && x === 0 && y === 0 && z === 0 && Math.abs(w) === 1
    if (n.parent >= 0 || !identity) out.add(i)
  })
  return out
}
