/**
 * The REFERENCE mapping neutral scene → glTF, for tests and the bench only (never shipped).
 *
 * This is the exporter Modbench used before issue 15 (src-shared/export/gltf.ts `sceneToDocument`
 * + gltf-variants.ts at dec8ee2): it builds a @gltf-transform/core `Document` and lets
 * `WebIO.writeBinary` (with KHR_materials_unlit and KHR_materials_variants) write the container.
 * The production writer is now hand-written for speed; glTF-Transform, an independent
 * implementation of the container, the accessor layout and the extensions, is its oracle:
 * `tests/unit/src-shared/export/gltf-oracle.test.ts` reads both outputs back and requires the
 * same document, and `bench/stadium.ts` prints both speeds side by side.
 *
 * Keep the mapping as it was: when the production mapping changes on purpose (a new extras field,
 * another repair), change it here the same way, in the same commit, so the two stay comparable.
 * The helpers named by the task that set the oracle up (`jsonSafe`, `cleanSkinAttributes`,
 * `texturePng`) are imported from production, not copied; the small repairs (`normalizedNormals`,
 * `clamp01`, `normQuat`, `jsonFloats`) keep their own copies on purpose, so that the oracle shares
 * no more code with the writer under test than that. The conventions and the extras schema are documented in
 * src-shared/export/gltf.ts.
 */
import { Document, WebIO, type Material as GMaterial, type Mesh as GMesh, type Node as GNode, type Scene as GScene, type Texture as GTexture, type TextureInfo } from '@gltf-transform/core'
import { KHRMaterialsUnlit, KHRMaterialsVariants } from '@gltf-transform/extensions'
import { cleanSkinAttributes, texturePng } from '../../src-shared/export/gltf'
import { gltfMaterialScene } from '../../src-shared/export/gltf-material'
import type { Material, Primitive, Scene, WrapMode } from '../../src-shared/scene/types'
import { validateScene } from '../../src-shared/scene/validate'
import { extrasOf, jsonFloats, normQuat, writeAnimation, writeVariants, type AccessorMaker } from './gltf-document-animation'

export interface OracleOptions {
  /** `asset.generator`; default "Modbench". */
  generator?: string
  /** Skip `validateScene` (only for callers that validated already). */
  skipValidation?: boolean
  /** PNG bytes per neutral texture (`texturePng`), when the caller encoded them already. */
  texturePngs?: readonly Uint8Array[]
}

const WRAP: Record<WrapMode, 10497 | 33071 | 33648> = { repeat: 10497, clamp: 33071, mirror: 33648 }
const NEAREST = 9728
const LINEAR = 9729
const LINEAR_MIPMAP_LINEAR = 9987

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

function clamp01(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length)
  for (let i = 0; i < a.length; i++) out[i] = Math.min(1, Math.max(0, a[i]))
  return out
}

/** The glTF-Transform document for a neutral scene (validated first unless told otherwise). */
export function sceneToDocument(scene: Scene, opts: OracleOptions = {}): Document {
  if (!opts.skipValidation) validateScene(scene)
  // Material programs → glTF materials, baked textures and COLOR_0 (materials.md §8): production's
  // pass, shared like texturePng (its own tests check it: gltf-material.test.ts).
  scene = gltfMaterialScene(scene)
  const doc = new Document()
  doc.getRoot().getAsset().generator = opts.generator ?? 'Modbench'
  const buffer = doc.createBuffer('data')
  const acc: AccessorMaker = (name, type, array) => doc.createAccessor(name).setType(type).setArray(array).setBuffer(buffer)

  // Images, one per neutral texture, in order.
  const gTextures: GTexture[] = scene.textures.map((t, i) => doc.createTexture(t.name).setImage(opts.texturePngs?.[i] ?? texturePng(t)).setMimeType('image/png').setURI(`${t.name}.png`))
  const gMaterials = writeMaterials(doc, scene, gTextures)
  const gMeshes = writeMeshes(doc, scene, gMaterials, acc)
  const { gNodes, gScene } = writeNodes(doc, scene, gMeshes)

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
  gScene.setExtras(extrasOf({ modbench: sceneExtras(scene) }))
  // A buffer with nothing in it is invalid glTF (no byteLength): drop it when the scene has no data.
  if (doc.getRoot().listAccessors().length === 0 && gTextures.length === 0) buffer.dispose()
  return doc
}

/** The scene as a .glb file, written by glTF-Transform (the old `exportGlb`). */
export async function oracleGlb(scene: Scene, opts: OracleOptions = {}): Promise<Uint8Array> {
  const doc = sceneToDocument(scene, opts)
  const io = new WebIO().registerExtensions([KHRMaterialsUnlit, KHRMaterialsVariants])
  return await io.writeBinary(doc)
}

function writeMaterials(doc: Document, scene: Scene, gTextures: GTexture[]): GMaterial[] {
  const unlitExt = scene.materials.some((m) => m.unlit) ? doc.createExtension(KHRMaterialsUnlit) : null
  return scene.materials.map((m: Material) => {
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
    if (m.extras || Object.keys(mb).length) g.setExtras(extrasOf({ ...(m.extras ?? {}), ...(Object.keys(mb).length ? { modbench: { ...(m.extras?.modbench as object | undefined), ...mb } } : {}) }))
    return g
  })
}

function writeMeshes(doc: Document, scene: Scene, gMaterials: GMaterial[], acc: AccessorMaker): GMesh[] {
  // Material variants (KHR_materials_variants), one glTF variant per neutral variant, in order.
  const variantExt = scene.variants?.length ? doc.createExtension(KHRMaterialsVariants) : null
  const gVariants = variantExt ? scene.variants!.map((v) => variantExt.createVariant(v.name)) : []
  return scene.meshes.map((mesh, mi) => {
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
        const { joints, weights, joints1, weights1 } = cleanSkinAttributes(p.joints, p.weights, p.joints1, p.weights1)
        gp.setAttribute('JOINTS_0', acc(`${tag}/JOINTS_0`, 'VEC4', joints))
        gp.setAttribute('WEIGHTS_0', acc(`${tag}/WEIGHTS_0`, 'VEC4', weights))
        if (joints1 && weights1) {
          gp.setAttribute('JOINTS_1', acc(`${tag}/JOINTS_1`, 'VEC4', joints1))
          gp.setAttribute('WEIGHTS_1', acc(`${tag}/WEIGHTS_1`, 'VEC4', weights1))
        }
      }
      gm.addPrimitive(gp)
      if (variantExt) writeVariants(variantExt, gVariants, gp, p.material, scene, gMaterials)
    })
    return gm
  })
}

/** Nodes (same order), hierarchy, scene roots, the added roots glTF demands. */
function writeNodes(doc: Document, scene: Scene, gMeshes: GMesh[]): { gNodes: GNode[]; gScene: GScene } {
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
  return { gNodes, gScene }
}

/** Scene-level extras: curves and actor metadata. */
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
