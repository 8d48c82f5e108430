/**
 * Neutral scene → glTF 2.0 binary (.glb), with @gltf-transform/core doing the container work.
 * Pure: no fs, no DOM; textures are encoded to PNG with fast-png.
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
 *   joints of one vertex are merged, as the glTF validator requires;
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
 * - `materials[i].extras = { ...material.extras, modbench: { vertexColors?, unlit? } }`.
 * - `nodes[i].extras = node.extras` unchanged, except for a node holding a skinned mesh that has a
 *   parent or a local transform (glTF ignores both and the validator warns): when it has no
 *   children and is neither a joint nor a curve anchor it is written at the root with an identity
 *   transform and `extras.modbench.skinnedMeshRest = { parent, translation, rotation, scale }`
 *   keeps the neutral values.
 * - a neutral scene without nodes gets one identity node `modbench_root` (extras
 *   `{modbench: {addedRoot: true}}`), since a glTF scene cannot list no nodes; a scene without
 *   any data is written without a buffer.
 */
import { Document, WebIO, type Accessor, type Material as GMaterial, type Node as GNode, type Texture as GTexture, type TextureInfo } from '@gltf-transform/core'
import { KHRMaterialsUnlit, KHRMaterialsVariants } from '@gltf-transform/extensions'
import { encode as encodePng } from 'fast-png'
import type { Animation, Material, Primitive, Scene, Texture, WrapMode } from '../scene/types'
import { validateScene } from '../scene/validate'
import { writeVariants } from './gltf-variants'

export interface GltfExportOptions {
  /** `asset.generator`; default "Modbench". */
  generator?: string
  /** Skip `validateScene` (only for callers that validated already). */
  skipValidation?: boolean
  /** PNG bytes per neutral texture (`texturePng`), when the caller encodes them anyway (an export writing PNG files too). */
  texturePngs?: readonly Uint8Array[]
}

const WRAP: Record<WrapMode, 10497 | 33071 | 33648> = { repeat: 10497, clamp: 33071, mirror: 33648 }
const NEAREST = 9728
const LINEAR = 9729
const LINEAR_MIPMAP_LINEAR = 9987

/** Numbers for JSON extras: float32 values printed with enough digits to read back exactly. */
function jsonFloats(a: ArrayLike<number>): number[] {
  const out = new Array<number>(a.length)
  for (let i = 0; i < a.length; i++) {
    const f = Math.fround(a[i])
    let v = Number(f.toPrecision(9))
    // The shortest decimal that reads back as the same float32.
    for (let p = 6; p < 9; p++) {
      const c = Number(f.toPrecision(p))
      if (Math.fround(c) === f) {
        v = c
        break
      }
    }
    out[i] = v
  }
  return out
}

/**
 * Extras as plain JSON: typed arrays become number lists, non-finite numbers null, functions and
 * undefined dropped, nesting cut at 32 levels (extras are metadata, not data).
 */
export function jsonSafe(v: unknown, depth = 0): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'bigint') return Number(v)
  if (depth >= 32 || typeof v !== 'object') return undefined
  if (ArrayBuffer.isView(v)) return v instanceof DataView ? undefined : Array.from(v as unknown as ArrayLike<number>, (x) => jsonSafe(x, depth + 1))
  if (Array.isArray(v)) return v.map((x) => jsonSafe(x, depth + 1) ?? null)
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const j = jsonSafe(x, depth + 1)
    if (j !== undefined) out[k] = j
  }
  return out
}

const extrasOf = (v: Record<string, unknown>) => jsonSafe(v) as Record<string, unknown>

/** PNG bytes of an RGBA8 texture (top row first, as PNG stores it). */
export function texturePng(t: Texture): Uint8Array {
  return encodePng({ width: t.width, height: t.height, data: t.rgba, channels: 4, depth: 8 })
}

function normalizedNormals(n: Float32Array): Float32Array {
  const out = new Float32Array(n.length)
  for (let i = 0; i < n.length; i += 3) {
    const l = Math.hypot(n[i], n[i + 1], n[i + 2])
    if (l > 1e-12) {
      out[i] = n[i] / l
      out[i + 1] = n[i + 1] / l
      out[i + 2] = n[i + 2] / l
    } else out[i + 1] = 1
  }
  return out
}

/** Joints/weights as glTF wants them: merged duplicates, zero-weight slots on joint 0, sum 1. */
export function cleanSkinAttributes(joints: Uint16Array, weights: Float32Array): { joints: Uint16Array; weights: Float32Array } {
  const j = new Uint16Array(joints.length)
  const w = new Float32Array(weights.length)
  for (let v = 0; v < joints.length; v += 4) {
    const js = [0, 0, 0, 0]
    const ws = [0, 0, 0, 0]
    let used = 0
    for (let c = 0; c < 4; c++) {
      const wc = weights[v + c]
      if (!(wc > 0)) continue
      const k = js.slice(0, used).indexOf(joints[v + c])
      if (k >= 0) ws[k] += wc
      else {
        js[used] = joints[v + c]
        ws[used] = wc
        used++
      }
    }
    let sum = ws[0] + ws[1] + ws[2] + ws[3]
    if (!(sum > 0)) {
      ws[0] = 1
      js[0] = 0
      sum = 1
    }
    for (let c = 0; c < 4; c++) {
      j[v + c] = ws[c] > 0 ? js[c] : 0
      w[v + c] = ws[c] / sum
    }
  }
  return { joints: j, weights: w }
}

function clamp01(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length)
  for (let i = 0; i < a.length; i++) out[i] = Math.min(1, Math.max(0, a[i]))
  return out
}

/** Builds the glTF document for a neutral scene (validated first unless told otherwise). */
export function sceneToDocument(scene: Scene, opts: GltfExportOptions = {}): Document {
  if (!opts.skipValidation) validateScene(scene)
  const doc = new Document()
  doc.getRoot().getAsset().generator = opts.generator ?? 'Modbench'
  const buffer = doc.createBuffer('data')
  const acc = (name: string, type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4', array: Float32Array | Uint16Array | Uint32Array): Accessor =>
    doc.createAccessor(name).setType(type).setArray(array).setBuffer(buffer)

  // Images, one per neutral texture, in order.
  const gTextures: GTexture[] = scene.textures.map((t, i) => doc.createTexture(t.name).setImage(opts.texturePngs?.[i] ?? texturePng(t)).setMimeType('image/png').setURI(`${t.name}.png`))

  // Materials.
  const unlitExt = scene.materials.some((m) => m.unlit) ? doc.createExtension(KHRMaterialsUnlit) : null
  const gMaterials: GMaterial[] = scene.materials.map((m: Material) => {
    const g = doc
      .createMaterial(m.name)
      .setBaseColorFactor([...m.baseColor])
      .setAlphaMode(m.alphaMode)
      .setDoubleSided(m.doubleSided)
      .setMetallicFactor(0)
      .setRoughnessFactor(1)
    if (m.alphaMode === 'MASK') g.setAlphaCutoff(m.alphaCutoff ?? 0.5)
    if (m.texture !== undefined) {
      const t = scene.textures[m.texture]
      g.setBaseColorTexture(gTextures[m.texture])
      const info = g.getBaseColorTextureInfo() as TextureInfo
      info.setWrapS(WRAP[t.wrapS]).setWrapT(WRAP[t.wrapT])
      if (t.filter === 'nearest') info.setMagFilter(NEAREST).setMinFilter(NEAREST)
      else info.setMagFilter(LINEAR).setMinFilter(LINEAR_MIPMAP_LINEAR)
    }
    if (m.unlit && unlitExt) g.setExtension('KHR_materials_unlit', unlitExt.createUnlit())
    const mb: Record<string, unknown> = {}
    if (m.vertexColors) mb.vertexColors = true
    if (m.unlit) mb.unlit = true
    if (m.extras || Object.keys(mb).length) g.setExtras(extrasOf({ ...(m.extras ?? {}), ...(Object.keys(mb).length ? { modbench: mb } : {}) }))
    return g
  })

  // Material variants (KHR_materials_variants), one glTF variant per neutral variant, in order.
  const variantExt = scene.variants?.length ? doc.createExtension(KHRMaterialsVariants) : null
  const gVariants = variantExt ? scene.variants!.map((v) => variantExt.createVariant(v.name)) : []

  // Meshes.
  const gMeshes = scene.meshes.map((mesh, mi) => {
    const gm = doc.createMesh(mesh.name)
    mesh.primitives.forEach((p: Primitive, pi) => {
      const tag = `${mesh.name || `mesh${mi}`}/${pi}`
      const nv = p.positions.length / 3
      const gp = doc
        .createPrimitive()
        .setMode(p.mode === 'lines' ? 1 : 4)
        .setMaterial(gMaterials[p.material])
        .setAttribute('POSITION', acc(`${tag}/POSITION`, 'VEC3', p.positions))
        .setIndices(acc(`${tag}/indices`, 'SCALAR', nv <= 0xfffe ? Uint16Array.from(p.indices) : p.indices))
      if (p.normals) gp.setAttribute('NORMAL', acc(`${tag}/NORMAL`, 'VEC3', normalizedNormals(p.normals)))
      if (p.uvs) gp.setAttribute('TEXCOORD_0', acc(`${tag}/TEXCOORD_0`, 'VEC2', p.uvs))
      else if (scene.materials[p.material].texture !== undefined) {
        // glTF needs TEXCOORD_0 under a textured material: all zeros (the top-left texel), as a viewer would do without.
        gp.setAttribute('TEXCOORD_0', acc(`${tag}/TEXCOORD_0`, 'VEC2', new Float32Array(nv * 2)))
      }
      if (p.colors) gp.setAttribute('COLOR_0', acc(`${tag}/COLOR_0`, 'VEC4', clamp01(p.colors)))
      if (p.joints && p.weights) {
        const { joints, weights } = cleanSkinAttributes(p.joints, p.weights)
        gp.setAttribute('JOINTS_0', acc(`${tag}/JOINTS_0`, 'VEC4', joints))
        gp.setAttribute('WEIGHTS_0', acc(`${tag}/WEIGHTS_0`, 'VEC4', weights))
      }
      gm.addPrimitive(gp)
      if (variantExt) writeVariants(variantExt, gVariants, gp, p.material, scene, gMaterials)
    })
    return gm
  })

  // Nodes (same order), hierarchy, scene roots.
  const gNodes: GNode[] = scene.nodes.map((n) => {
    const g = doc.createNode(n.name).setTranslation([...n.translation]).setRotation(normQuat(n.rotation)).setScale([...n.scale])
    if (n.mesh !== undefined) g.setMesh(gMeshes[n.mesh])
    if (n.extras) g.setExtras(extrasOf(n.extras))
    return g
  })
  const gScene = doc.createScene(scene.name)
  const movable = movableSkinnedNodes(scene)
  scene.nodes.forEach((n, i) => {
    if (movable.has(i)) {
      // glTF ignores the transform of a node holding a skinned mesh, and the validator warns when
      // it has a parent or a local transform: put it at the root with an identity transform and
      // keep what it had in extras (nothing else depends on it: no children, not a joint).
      gNodes[i].setTranslation([0, 0, 0]).setRotation([0, 0, 0, 1]).setScale([1, 1, 1])
      const rest = { parent: n.parent, translation: [...n.translation], rotation: [...n.rotation], scale: [...n.scale] }
      gNodes[i].setExtras(extrasOf({ ...(n.extras ?? {}), modbench: { skinnedMeshRest: rest } }))
      gScene.addChild(gNodes[i])
    } else if (n.parent >= 0) gNodes[n.parent].addChild(gNodes[i])
    else gScene.addChild(gNodes[i])
  })
  if (scene.nodes.length === 0) {
    // glTF forbids a scene with an empty node list (a curve-only or empty neutral scene).
    gScene.addChild(doc.createNode('modbench_root').setExtras({ modbench: { addedRoot: true } }))
  }

  // glTF requires a skin's joints to share a root node; the neutral model does not (its viewport
  // copes). When they do not, the top-level nodes holding them go under one added identity node,
  // appended after every neutral node so that all indices stay the same.
  const topOf = (i: number) => {
    for (let guard = 0; scene.nodes[i].parent >= 0 && guard < scene.nodes.length; guard++) i = scene.nodes[i].parent
    return i
  }
  const wrap = new Set<number>()
  for (const s of scene.skins) {
    if (s.skeleton !== undefined) continue
    const tops = new Set(s.joints.map(topOf))
    if (tops.size > 1) for (const t of tops) wrap.add(t)
  }
  if (wrap.size) {
    const root = doc.createNode('modbench_skin_root').setExtras({ modbench: { addedCommonRoot: true } })
    gScene.addChild(root)
    for (const t of [...wrap].sort((a, b) => a - b)) {
      gScene.removeChild(gNodes[t])
      root.addChild(gNodes[t])
    }
  }

  // Skins.
  const gSkins = scene.skins.map((s) => {
    const gs = doc.createSkin(s.name).setInverseBindMatrices(acc(`${s.name}/inverseBindMatrices`, 'MAT4', s.inverseBindMatrices))
    for (const j of s.joints) gs.addJoint(gNodes[j])
    if (s.skeleton !== undefined) gs.setSkeleton(gNodes[s.skeleton])
    return gs
  })
  scene.nodes.forEach((n, i) => {
    if (n.skin !== undefined) gNodes[i].setSkin(gSkins[n.skin])
  })

  // Animations: one per clip.
  scene.animations.forEach((a, ai) => writeAnimation(doc, scene, a, ai, gNodes, acc))

  // Scene-level extras: curves and actor metadata.
  const sceneExtras: Record<string, unknown> = {
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
  if (scene.extras) sceneExtras.actor = scene.extras
  gScene.setExtras(extrasOf({ modbench: sceneExtras }))
  // A buffer with nothing in it is invalid glTF (no byteLength): drop it when the scene has no data.
  if (doc.getRoot().listAccessors().length === 0 && gTextures.length === 0) buffer.dispose()
  return doc
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

function normQuat(q: ArrayLike<number>): [number, number, number, number] {
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l]
}

function writeAnimation(
  doc: Document,
  scene: Scene,
  a: Animation,
  ai: number,
  gNodes: GNode[],
  acc: (name: string, type: 'SCALAR' | 'VEC3' | 'VEC4', array: Float32Array) => Accessor,
): void {
  const ga = doc.createAnimation(a.name)
  const tag = a.name || `animation${ai}`
  // Channels with the same key times share one input accessor (the same array object is found
  // without building its text key: RE motions share one times array over hundreds of channels).
  const inputs = new Map<string, Accessor>()
  const byArray = new Map<Float32Array, Accessor>()
  const input = (times: Float32Array): Accessor => {
    const same = byArray.get(times)
    if (same) return same
    const key = Array.from(times).join(',')
    let x = inputs.get(key)
    if (!x) {
      x = acc(`${tag}/times${inputs.size}`, 'SCALAR', times)
      inputs.set(key, x)
    }
    byArray.set(times, x)
    return x
  }
  const mb: Record<string, unknown> = { version: 1, duration: a.duration, frameRate: a.frameRate, loop: a.loop ?? true, ...(a.loopStart ? { loopStart: a.loopStart } : {}), ...(a.integerFrames ? { integerFrames: true } : {}) }
  a.channels.forEach((ch, ci) => {
    let values = ch.values
    if (ch.path === 'rotation') {
      values = new Float32Array(ch.values)
      const per = ch.interpolation === 'CUBICSPLINE' ? 12 : 4
      const off = ch.interpolation === 'CUBICSPLINE' ? 4 : 0
      for (let k = 0; k < ch.times.length; k++) {
        const b = k * per + off
        const q = normQuat(values.subarray(b, b + 4))
        values.set(q, b)
      }
    }
    const sampler = doc
      .createAnimationSampler()
      .setInput(input(ch.times))
      .setOutput(acc(`${tag}/${ci}/${ch.path}`, ch.path === 'rotation' ? 'VEC4' : 'VEC3', values))
      .setInterpolation(ch.interpolation)
    ga.addSampler(sampler)
    ga.addChannel(doc.createAnimationChannel().setTargetNode(gNodes[ch.node]).setTargetPath(ch.path).setSampler(sampler))
  })
  if (a.channels.length === 0 && scene.nodes.length > 0) {
    // glTF needs a channel: hold node 0's rest scale over the clip (changes nothing).
    const s = scene.nodes[0].scale
    const times = a.duration > 0 ? new Float32Array([0, a.duration]) : new Float32Array([0])
    const values = new Float32Array(times.length * 3)
    for (let k = 0; k < times.length; k++) values.set(s, k * 3)
    const sampler = doc.createAnimationSampler().setInput(input(times)).setOutput(acc(`${tag}/placeholder`, 'VEC3', values)).setInterpolation('STEP')
    ga.addSampler(sampler)
    ga.addChannel(doc.createAnimationChannel().setTargetNode(gNodes[0]).setTargetPath('scale').setSampler(sampler))
    mb.placeholderChannel = true
  }
  if (a.textureSwaps?.length) mb.textureSwaps = a.textureSwaps.map((t) => ({ material: t.material, times: jsonFloats(t.times), images: Array.from(t.textures), ...(t.period !== undefined ? { period: t.period, loopStart: t.loopStart ?? 0, hold: !!t.hold, start: t.start ?? 0, ...(t.frameRate ? { frameRate: t.frameRate } : {}) } : {}) }))
  if (a.visibility?.length) mb.visibility = a.visibility.map((t) => ({ node: t.node, times: jsonFloats(t.times), visible: Array.from(t.visible, (v) => (v ? 1 : 0)) }))
  if (a.uvTracks?.length) mb.uvTracks = a.uvTracks.map((t) => ({ material: t.material, times: jsonFloats(t.times), values: jsonFloats(t.values) }))
  if (a.colorTracks?.length) mb.colorTracks = a.colorTracks.map((t) => ({ material: t.material, times: jsonFloats(t.times), values: jsonFloats(t.values) }))
  if (a.extras) mb.extras = a.extras
  ga.setExtras(extrasOf({ modbench: mb }))
}

/** The scene as a .glb file. */
export async function exportGlb(scene: Scene, opts: GltfExportOptions = {}): Promise<Uint8Array> {
  const doc = sceneToDocument(scene, opts)
  const io = new WebIO().registerExtensions([KHRMaterialsUnlit, KHRMaterialsVariants])
  return await io.writeBinary(doc)
}
