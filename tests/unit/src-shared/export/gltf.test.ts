import { describe, expect, it } from 'vitest'
import { WebIO, type Document } from '@gltf-transform/core'
import { KHRMaterialsUnlit } from '@gltf-transform/extensions'
import { validateBytes } from 'gltf-validator'
import { decode as decodePng } from 'fast-png'
import { cleanSkinAttributes, exportGlb, jsonSafe, texturePng } from '../../../../src-shared/export/gltf'
import { demoScene } from '../../../../src-shared/scene/demo'
import { glbJson } from '../../../helpers/glb'
import { sampleChannel, sampleTimes, sampleWorldMatrices } from '../../../../src-shared/scene/sample'
import { SceneError } from '../../../../src-shared/scene/validate'
import { emptyScene, type Channel, type Scene } from '../../../../src-shared/scene/types'
import { syntheticScene } from '../../../fixtures/scene/synthetic'
import { looseJointScene } from '../../../fixtures/scene/oracle-scenes'

const io = () => new WebIO().registerExtensions([KHRMaterialsUnlit])

async function validGlb(scene: Scene): Promise<{ glb: Uint8Array; doc: Document; json: Record<string, any> }> {
  const glb = await exportGlb(scene)
  const report = await validateBytes(glb, { maxIssues: 50 })
  const errors = report.issues.messages.filter((m) => m.severity === 0)
  expect(errors, JSON.stringify(errors, null, 1)).toEqual([])
  expect(report.issues.numErrors).toBe(0)
  const doc = await io().readBinary(glb)
  const jsonLen = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true)
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLen)))
  return { glb, doc, json }
}

/**
 * Joint world matrices of the read-back file at time t of animation `ai`, computed with
 * gltf-transform's own node math (our sampler evaluates the read-back keys; it is checked against
 * hand-computed values in tests/unit/src-shared/scene/sample.test.ts).
 */
function readBackWorld(doc: Document, ai: number, t: number, nodeIndices: number[]): Float64Array[] {
  const nodes = doc.getRoot().listNodes()
  const anim = doc.getRoot().listAnimations()[ai]
  const rest = nodes.map((n) => ({ t: n.getTranslation(), r: n.getRotation(), s: n.getScale() }))
  try {
    for (const ch of anim.listChannels()) {
      const sampler = ch.getSampler()!
      const neutral: Channel = {
        node: 0,
        path: ch.getTargetPath() as Channel['path'],
        times: sampler.getInput()!.getArray() as Float32Array,
        values: sampler.getOutput()!.getArray() as Float32Array,
        interpolation: sampler.getInterpolation(),
      }
      const v = sampleChannel(neutral, t)
      const node = ch.getTargetNode()!
      if (neutral.path === 'translation') node.setTranslation([v[0], v[1], v[2]])
      else if (neutral.path === 'scale') node.setScale([v[0], v[1], v[2]])
      else node.setRotation([v[0], v[1], v[2], v[3]])
    }
    return nodeIndices.map((i) => Float64Array.from(nodes[i].getWorldMatrix()))
  } finally {
    nodes.forEach((n, i) => n.setTranslation(rest[i].t).setRotation(rest[i].r).setScale(rest[i].s))
  }
}

function expectSameJointWorlds(scene: Scene, doc: Document) {
  const joints = [...new Set(scene.skins.flatMap((s) => s.joints))]
  expect(doc.getRoot().listAnimations().length).toBe(scene.animations.length)
  let compared = 0
  scene.animations.forEach((a, ai) => {
    for (const t of sampleTimes(a, 5)) {
      const ours = sampleWorldMatrices(scene, a, t)
      const theirs = readBackWorld(doc, ai, t, joints)
      joints.forEach((j, k) => {
        for (let e = 0; e < 16; e++) {
          const d = Math.abs(ours[j * 16 + e] - theirs[k][e])
          if (d > 1e-5) throw new Error(`${a.name} t=${t} joint node ${j} element ${e}: ${ours[j * 16 + e]} vs ${theirs[k][e]}`)
          compared++
        }
      })
    }
  })
  expect(compared).toBe(scene.animations.length * 5 * joints.length * 16)
}

describe('glTF export', () => {
  it('demo scene: valid glb, same joint world matrices at five times of every clip', async () => {
    const scene = demoScene()
    const { doc } = await validGlb(scene)
    expectSameJointWorlds(scene, doc)
  })

  it('PNGs the caller encoded already (texturePngs) go in as they are: same glb bytes; other bytes show', async () => {
    const scene = demoScene()
    expect(scene.textures.length).toBeGreaterThan(1)
    const own = await exportGlb(scene)
    const pngs = scene.textures.map(texturePng)
    expect(Buffer.from(await exportGlb(scene, { texturePngs: pngs })).equals(Buffer.from(own))).toBe(true)
    const swapped = await exportGlb(scene, { texturePngs: [pngs[1]!, pngs[0]!, ...pngs.slice(2)] })
    expect(Buffer.from(swapped).equals(Buffer.from(own))).toBe(false)
  })

  it('the read-back check can fail: a moved joint is noticed', async () => {
    const scene = demoScene()
    const glb = await exportGlb(scene)
    const doc = await io().readBinary(glb)
    doc.getRoot().listNodes()[4].setTranslation([0, 1.001, 0])
    expect(() => expectSameJointWorlds(scene, doc)).toThrow(/joint node 4/)
  })

  it('keeps names, order, materials, samplers, skins and documented extras', async () => {
    const scene = demoScene()
    const { doc, json } = await validGlb(scene)
    const root = doc.getRoot()
    expect(root.listNodes().map((n) => n.getName())).toEqual(scene.nodes.map((n) => n.name))
    expect(json.nodes.map((n: { name: string }) => n.name)).toEqual(scene.nodes.map((n) => n.name))
    expect(json.materials.map((m: { name: string }) => m.name)).toEqual(scene.materials.map((m) => m.name))
    expect(json.animations.map((a: { name: string }) => a.name)).toEqual(scene.animations.map((a) => a.name))
    // Every texture becomes an image in order (swap targets included).
    expect(json.images.map((i: { name: string }) => i.name)).toEqual(scene.textures.map((t) => t.name))
    // Materials: alpha modes, cutoff, double-sided, unlit extension, wrap and filter.
    const mats = root.listMaterials()
    expect(mats.map((m) => m.getAlphaMode())).toEqual(scene.materials.map((m) => m.alphaMode))
    expect(mats[2].getAlphaCutoff()).toBe(0.5)
    expect(mats.map((m) => m.getDoubleSided())).toEqual(scene.materials.map((m) => m.doubleSided))
    expect(json.extensionsUsed).toContain('KHR_materials_unlit')
    expect(json.materials[2].extensions.KHR_materials_unlit).toEqual({})
    expect(json.materials[0].extensions).toBeUndefined()
    const groundInfo = mats[2].getBaseColorTextureInfo()!
    expect([groundInfo.getWrapS(), groundInfo.getWrapT(), groundInfo.getMagFilter()]).toEqual([33648, 10497, 9729])
    const stoneInfo = mats[3].getBaseColorTextureInfo()!
    expect([stoneInfo.getWrapS(), stoneInfo.getWrapT(), stoneInfo.getMagFilter()]).toEqual([33071, 33071, 9728])
    // Textures are PNG with the same pixels, top row first.
    const png = decodePng(root.listTextures()[1].getImage()!)
    expect([png.width, png.height, png.channels]).toEqual([64, 64, 4])
    expect(Uint8Array.from(png.data as Uint8Array)).toEqual(scene.textures[1].rgba)
    // Skin.
    const skin = root.listSkins()[0]
    expect(skin.listJoints().map((n) => n.getName())).toEqual(scene.skins[0].joints.map((j) => scene.nodes[j].name))
    expect(Array.from(skin.getInverseBindMatrices()!.getArray()!)).toEqual(Array.from(scene.skins[0].inverseBindMatrices))
    // Interpolations and seconds.
    expect(json.animations[1].samplers.map((s: { interpolation: string }) => s.interpolation)).toEqual(['CUBICSPLINE', 'CUBICSPLINE', 'CUBICSPLINE', 'CUBICSPLINE'])
    const bend = root.listAnimations()[0]
    expect(Array.from(bend.listSamplers()[0].getInput()!.getArray()!)).toEqual([0, 0.5, 1, 1.5, 2])
    // Extras.
    const sx = json.scenes[0].extras.modbench
    expect(sx.version).toBe(1)
    expect(sx.curves.map((c: { name: string }) => c.name)).toEqual(['helix', 'ring'])
    expect(new Float32Array(sx.curves[0].points)).toEqual(scene.curves[0].points)
    expect(sx.curves[1]).toMatchObject({ closed: true, node: 0, color: [1, 0.8, 0.1] })
    expect(sx.actor).toEqual(scene.extras)
    const a0 = json.animations[0].extras.modbench
    expect(a0).toMatchObject({ duration: 2, frameRate: 30, loop: true, textureSwaps: [{ material: 0, times: [0, 1], images: [0, 1] }] })
    expect(a0.colorTracks[0].values).toHaveLength(12)
    const a1 = json.animations[1].extras.modbench
    expect(a1.visibility).toEqual([{ node: 6, times: [0, 1.5, 2.25], visible: [1, 0, 1] }])
    expect(a1.uvTracks[0]).toEqual({ material: 2, times: [0, 3], values: [0, 0, 1, 1, 1, 0, 1, 1] })
    expect(json.materials[2].extras).toEqual({ modbench: { vertexColors: true, unlit: true } })
    expect(json.nodes[2].extras).toEqual({ bone: true })
  })

  it('large synthetic scene: uint32 indices, many bones, static meshes; valid and same joint matrices', async () => {
    const scene = syntheticScene({ triangles: 140_000, bones: 40, sides: 70, statics: 10, materials: 3, keys: 8 })
    expect(scene.meshes[0].primitives[0].positions.length / 3).toBeGreaterThan(65535)
    const { doc, json } = await validGlb(scene)
    const idx = json.meshes[0].primitives[0].indices
    expect(json.accessors[idx].componentType).toBe(5125) // UNSIGNED_INT
    const boxIdx = json.meshes[1].primitives[0].indices
    expect(json.accessors[boxIdx].componentType).toBe(5123) // UNSIGNED_SHORT
    expectSameJointWorlds(scene, doc)
  })

  it('clip without node channels gets a harmless placeholder; lines primitives; no textures', async () => {
    const scene = demoScene()
    scene.animations.push({ name: 'swap only', duration: 1.5, frameRate: 10, channels: [], textureSwaps: [{ material: 0, times: new Float32Array([0, 0.5]), textures: new Uint32Array([1, 0]) }] })
    scene.meshes.push({ name: 'lines', primitives: [{ positions: new Float32Array([0, 0, 0, 1, 1, 1, 2, 0, 0]), indices: new Uint32Array([0, 1, 1, 2]), material: 1, mode: 'lines' }] })
    scene.nodes.push({ name: 'debug lines', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: scene.meshes.length - 1 })
    const { doc, json } = await validGlb(scene)
    const a = json.animations[3]
    expect(a.extras.modbench.placeholderChannel).toBe(true)
    expect(a.channels).toHaveLength(1)
    expect(json.meshes[4].primitives[0].mode).toBe(1)
    expectSameJointWorlds(scene, doc)
  })

  it('repairs what glTF forbids: zero normals, missing UVs, colours > 1, unnormalised weights, duplicate joints', async () => {
    const { joints, weights } = cleanSkinAttributes(new Uint16Array([2, 2, 3, 7, 1, 0, 0, 0]), new Float32Array([0.25, 0.25, 0.25, 0, 0, 0, 0, 0]))
    // Vertex 0: joint 2 twice merges to 0.5, joint 3 0.25 → renormalised 2/3, 1/3; joint 7 had no weight → 0.
    expect(Array.from(joints)).toEqual([2, 3, 0, 0, 0, 0, 0, 0])
    expect(Array.from(weights).map((w) => +w.toFixed(6))).toEqual([0.666667, 0.333333, 0, 0, 1, 0, 0, 0])
    // Two sets (influences 5–8): merging and the sum run over all 8 slots; joint 3 of the second
    // set joins the first set's 3 (0.25 + 0.125), joint 5 takes the next free slot; sum 1.
    const two = cleanSkinAttributes(new Uint16Array([2, 2, 3, 7]), new Float32Array([0.25, 0.25, 0.25, 0]), new Uint16Array([3, 5, 9, 0]), new Float32Array([0.125, 0.125, 0, 0]))
    expect([Array.from(two.joints), Array.from(two.weights), Array.from(two.joints1!), Array.from(two.weights1!)]).toEqual([[2, 3, 5, 0], [0.5, 0.375, 0.125, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    const five = cleanSkinAttributes(new Uint16Array([0, 1, 2, 3]), new Float32Array([0.5, 0.5, 0.5, 0.5]), new Uint16Array([4, 0, 0, 0]), new Float32Array([0.5, 0, 0, 0]))
    expect([Array.from(five.joints), Array.from(five.weights), Array.from(five.joints1!), Array.from(five.weights1!)]).toEqual([[0, 1, 2, 3], [0.2, 0.2, 0.2, 0.2].map(Math.fround), [4, 0, 0, 0], [0.2, 0, 0, 0].map(Math.fround)])
    expect(cleanSkinAttributes(new Uint16Array(4), new Float32Array([1, 0, 0, 0])).joints1).toBeUndefined()
    const scene = demoScene()
    scene.meshes[1].primitives[0].normals!.fill(0, 0, 6)
    delete scene.meshes[3].primitives[0].uvs // textured material, no UVs
    scene.meshes[1].primitives[0].colors = new Float32Array(24 * 4).fill(1.5)
    const { json } = await validGlb(scene)
    expect(json.meshes[3].primitives[0].attributes.TEXCOORD_0).toBeDefined()
  })

  it('joints without a common root get one added node, keeping every neutral index', async () => {
    const scene = looseJointScene()
    const { doc, json } = await validGlb(scene)
    expect(json.nodes.slice(0, scene.nodes.length).map((n: { name: string }) => n.name)).toEqual(scene.nodes.map((n) => n.name))
    expect(json.nodes[scene.nodes.length]).toMatchObject({ name: 'modbench_skin_root', extras: { modbench: { addedCommonRoot: true } } })
    expectSameJointWorlds(scene, doc)
  })

  it('extras become plain JSON (typed arrays as lists, NaN as null)', async () => {
    const scene = demoScene()
    scene.extras = { ...scene.extras, table: new Uint16Array([1, 2, 3]), bad: NaN, nested: { f: new Float32Array([0.5]), skip: undefined } }
    scene.nodes[0].extras = { flags: new Uint8Array([7]) }
    const { json } = await validGlb(scene)
    expect(json.scenes[0].extras.modbench.actor).toMatchObject({ table: [1, 2, 3], bad: null, nested: { f: [0.5] } })
    expect(json.nodes[0].extras).toEqual({ flags: [7] })
  })

  it('an empty or curve-only scene is valid glTF: one added root node, no empty buffer', async () => {
    for (const scene of [emptyScene('nothing'), { ...emptyScene('curve only'), curves: [{ name: 'c', points: new Float32Array([0, 0, 0, 1, 2, 3]) }] }]) {
      const glb = await exportGlb(scene)
      const report = await validateBytes(glb)
      expect(report.issues.numErrors, JSON.stringify(report.issues.messages)).toBe(0)
      expect(report.issues.numWarnings).toBe(0)
      const jsonLen = new DataView(glb.buffer, glb.byteOffset).getUint32(12, true)
      const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLen)))
      expect(json.nodes).toEqual([{ name: 'modbench_root', extras: { modbench: { addedRoot: true } } }])
      expect(json.scenes[0].nodes).toEqual([0])
      expect(json.buffers).toBeUndefined()
      expect(json.scenes[0].extras.modbench.curves).toHaveLength(scene.curves.length)
    }
  })

  it('a skinned-mesh node with a parent or a local transform goes to the root (no validator warning), rest kept in extras', async () => {
    const scene = demoScene()
    scene.nodes[1].parent = 0
    scene.nodes[1].translation = [1, 2, 3]
    scene.nodes[1].scale = [2, 2, 2]
    const glb = await exportGlb(scene)
    const report = await validateBytes(glb)
    expect(report.issues.numErrors).toBe(0)
    expect(report.issues.messages.filter((m) => m.severity <= 1), JSON.stringify(report.issues.messages)).toEqual([])
    const { doc, json } = await validGlb(scene)
    expect(json.scenes[0].nodes).toContain(1)
    expect(json.nodes[0].children).not.toContain(1)
    expect(json.nodes[1].translation).toBeUndefined()
    expect(json.nodes[1].extras.modbench.skinnedMeshRest).toEqual({ parent: 0, translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [2, 2, 2] })
    expectSameJointWorlds(scene, doc)
    // Not moved when it anchors something (a child here): the warning is then the scene's.
    const pinned = demoScene()
    pinned.nodes[1].parent = 0
    pinned.nodes.push({ name: 'child of the skinned node', parent: 1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] })
    const j2 = (await validGlb(pinned)).json
    expect(j2.nodes[0].children).toContain(1)
  })

  it('refuses an inconsistent scene with the validation error', async () => {
    const scene = demoScene()
    scene.nodes[4].parent = 8
    await expect(exportGlb(scene)).rejects.toThrow(SceneError)
  })
})

describe('extras as JSON (jsonSafe)', () => {
  it('returns plain JSON extras as they are (no copy) and converts the rest', () => {
    const plain = { a: 1, b: [true, null, 'x', { c: -2.5 }], d: {} }
    expect(jsonSafe(plain)).toBe(plain)
    const mixed = { t: new Float32Array([0.5, 2]), n: NaN, i: -Infinity, f: () => 1, u: undefined, big: 3n, keep: { k: [1, 2] }, m: new Map([[1, 2]]) }
    expect(jsonSafe(mixed)).toEqual({ t: [0.5, 2], n: null, i: null, big: 3, keep: { k: [1, 2] }, m: {} })
    // an array with a hole or an undefined element: null there, as JSON.stringify prints it
    expect(jsonSafe([1, undefined, 3])).toEqual([1, null, 3])
    expect(JSON.stringify(jsonSafe([1, , 3]))).toBe('[1,null,3]') // eslint-disable-line no-sparse-arrays
    // nesting cut at 32 levels: the object at depth 32 is dropped
    let deep: Record<string, unknown> = { leaf: 1 }
    for (let i = 0; i < 32; i++) deep = { x: deep }
    let got = jsonSafe(deep) as Record<string, unknown>
    for (let i = 0; i < 31; i++) got = got.x as Record<string, unknown>
    expect(got).toEqual({})
  })
})

describe('animation key times', () => {
  it('channels with equal key times share one input accessor, whether or not they share the array; other times get their own', async () => {
    const scene = demoScene()
    const t = (v: number[]) => new Float32Array(v)
    const channel = (node: number, times: Float32Array) => ({ node, path: 'translation' as const, interpolation: 'LINEAR' as const, times, values: new Float32Array(times.length * 3) })
    const shared = t([0, 0.5, 1])
    scene.animations = [{ name: 'clip', duration: 1, frameRate: 30, channels: [channel(0, shared), channel(1, shared), channel(2, t([0, 0.5, 1])), channel(3, t([0, 0.25, 1])), channel(4, t([0, 0.5, 1, 1.5]))] }]
    const json = glbJson(await exportGlb(scene))
    const inputs = json.animations[0].samplers.map((s: { input: number }) => s.input)
    expect(inputs[0]).toBe(inputs[1])
    expect(inputs[2]).toBe(inputs[0])
    expect(new Set(inputs).size).toBe(3)
    expect(inputs.map((i: number) => json.accessors[i].name)).toEqual(['clip/times0', 'clip/times0', 'clip/times0', 'clip/times1', 'clip/times2'])
  })
})
