/**
 * Differential test of the production glb writer (`exportGlb`) against its oracle, the
 * glTF-Transform document builder + WebIO (`tests/oracles/gltf-document.ts`): for scenes from
 * every source and hand-made edge cases, both outputs read back with glTF-Transform must be the
 * same document (Property.equals on every listed property, plus a path walker that names the
 * first difference), the Khronos validator must find no error and no more warnings in ours, and
 * our GLB container is checked by hand against glTF 2.0 §4.4.
 * The negative cases below prove that the comparer catches a difference and names where it is
 * (before the hand-written writer landed, the production writer WAS the oracle).
 */
import { describe, expect, it } from 'vitest'
import { WebIO, type Document } from '@gltf-transform/core'
import { KHRMaterialsUnlit, KHRMaterialsVariants } from '@gltf-transform/extensions'
import { validateBytes } from 'gltf-validator'
import { exportGlb } from '../../../../src-shared/export/gltf'
import { demoScene } from '../../../../src-shared/scene/demo'
import type { Scene } from '../../../../src-shared/scene/types'
import { oracleGlb, sceneToDocument } from '../../../oracles/gltf-document'
import { canonicalExtras, documentDifferences, firstDifference } from '../../../oracles/gltf-compare'
import { glbContainerProblems } from '../../../oracles/glb-container-check'
import { edgeScenes, sourceScenes } from '../../../fixtures/scene/oracle-scenes'
import { joinGlb, splitGlb } from '../../../fixtures/scene/glb-container'

const io = () => new WebIO().registerExtensions([KHRMaterialsUnlit, KHRMaterialsVariants])

async function differences(ours: Uint8Array, theirs: Uint8Array): Promise<string[]> {
  const [a, b] = await Promise.all([io().readBinary(ours), io().readBinary(theirs)])
  return documentDifferences(a, b, ours, theirs)
}

async function read(scene: Scene): Promise<Document> {
  return io().readBinary(await oracleGlb(scene))
}

const sources = sourceScenes()
const edges = edgeScenes()

describe('the scene set covers what the mapping does', () => {
  it('variants, unlit, MASK, texture swaps, UV/colour tracks, visibility, curves, CUBICSPLINE, lines, 8 influences, uint32 indices', () => {
    const all = [...sources, ...edges].map((s) => s.scene)
    const some = (f: (s: Scene) => boolean) => all.filter(f).length
    expect(some((s) => (s.variants?.length ?? 0) > 1)).toBeGreaterThan(0)
    expect(some((s) => s.materials.some((m) => m.unlit))).toBeGreaterThan(3)
    expect(some((s) => s.materials.some((m) => m.alphaMode === 'MASK'))).toBeGreaterThan(3)
    expect(some((s) => s.animations.some((a) => a.textureSwaps?.length))).toBeGreaterThan(3)
    expect(some((s) => s.animations.some((a) => a.uvTracks?.length))).toBeGreaterThan(2)
    expect(some((s) => s.animations.some((a) => a.colorTracks?.length))).toBeGreaterThan(0)
    expect(some((s) => s.animations.some((a) => a.visibility?.length))).toBeGreaterThan(0)
    expect(some((s) => s.curves.length > 0)).toBeGreaterThan(2)
    expect(some((s) => s.animations.some((a) => a.channels.some((c) => c.interpolation === 'CUBICSPLINE' && c.path === 'rotation')))).toBeGreaterThan(0)
    expect(some((s) => s.meshes.some((m) => m.primitives.some((p) => p.mode === 'lines')))).toBeGreaterThan(0)
    expect(some((s) => s.meshes.some((m) => m.primitives.some((p) => p.joints1)))).toBeGreaterThan(0)
    expect(some((s) => s.meshes.some((m) => m.primitives.some((p) => p.positions.length / 3 > 0xfffe)))).toBe(1)
    expect(sources.filter((s) => s.name.startsWith('stadium')).length).toBeGreaterThan(3)
  })
})

describe.each([...sources, ...edges])('production glb = glTF-Transform oracle: $name', ({ scene }) => {
  it('same document read back; validator: no error, no more warnings than the oracle; container per §4.4', async () => {
    const ours = await exportGlb(scene)
    const theirs = await oracleGlb(scene)
    expect(await differences(ours, theirs)).toEqual([])
    const [mine, ref] = await Promise.all([validateBytes(ours, { maxIssues: 50 }), validateBytes(theirs, { maxIssues: 50 })])
    expect(mine.issues.messages.filter((m) => m.severity === 0), JSON.stringify(mine.issues.messages)).toEqual([])
    expect(mine.issues.numErrors).toBe(0)
    expect(mine.issues.numWarnings).toBeLessThanOrEqual(ref.issues.numWarnings)
    expect(glbContainerProblems(ours)).toEqual([])
  })
})

describe('the comparer catches a difference and names its path', () => {
  it('one normal: meshes[2].primitives[0].attributes.NORMAL[52] (vertex 17 of the ground plate, y 1 → 0)', async () => {
    const changed = demoScene()
    changed.meshes[2]!.primitives[0]!.normals!.set([0, 0, 1], 17 * 3) // was (0, 1, 0)
    expect(await differences(await oracleGlb(changed), await oracleGlb(demoScene()))).toEqual(['meshes[2].primitives[0].attributes.NORMAL[52]: 0 vs 1'])
  })

  it('one extras field of a node, and one curve point inside the scene extras', async () => {
    const node = demoScene()
    node.nodes[3]!.extras = { bone: false }
    expect(await differences(await oracleGlb(demoScene()), await oracleGlb(node))).toEqual(['nodes[3].extras.bone: true vs false'])
    const curve = demoScene()
    curve.curves[1]!.points[4] = 0.5 // was 0.02 (as float32, written as its shortest decimal)
    expect(await differences(await oracleGlb(demoScene()), await oracleGlb(curve))).toEqual(['scenes[0].extras.modbench.curves[1].points[4]: 0.02 vs 0.5'])
  })

  it('a reference to another listed property, a texel, a name', async () => {
    const mat = demoScene()
    mat.meshes[3]!.primitives[0]!.material = 2
    expect(await differences(await oracleGlb(demoScene()), await oracleGlb(mat))).toEqual(['meshes[3].primitives[0].material: materials[3] vs materials[2]'])
    const texel = demoScene()
    texel.textures[1]!.rgba[0] ^= 0xff
    const [d] = await differences(await oracleGlb(demoScene()), await oracleGlb(texel))
    expect(d).toMatch(/^textures\[1\]\.image(\[\d+\])?: /)
    const named = demoScene()
    named.animations[1]!.name = 'renamed'
    expect(await differences(await oracleGlb(demoScene()), await oracleGlb(named))).toEqual([`animations[1].name: "${demoScene().animations[1]!.name}" vs "renamed"`])
  })

  it('a KHR_materials_variants mapping (GF shiny: TailMat drawn with BodyMat (shiny))', async () => {
    const gf = sources.find((s) => s.name.startsWith('gf set'))!.scene
    const changed = structuredClone(gf)
    expect(changed.variants![1]!.replace[1]).toEqual([1, 4])
    changed.variants![1]!.replace[1] = [1, 3]
    expect(await differences(await oracleGlb(gf), await oracleGlb(changed))).toEqual(['meshes[0].primitives[1].extensions.KHR_materials_variants.mappings[1].material: materials[4] vs materials[3]'])
  })

  it('list lengths, extensionsUsed, generator', async () => {
    const more = demoScene()
    more.nodes.push({ name: 'extra', parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] })
    const d = await differences(await oracleGlb(demoScene()), await oracleGlb(more))
    expect(d).toContain('nodes: 10 vs 11')
    const noUnlit = demoScene()
    for (const m of noUnlit.materials) delete m.unlit
    expect(await differences(await oracleGlb(demoScene()), await oracleGlb(noUnlit))).toContain('extensionsUsed: ["KHR_materials_unlit"] vs []')
    const gen = await differences(await oracleGlb(demoScene(), { generator: 'other' }), await oracleGlb(demoScene()))
    expect(gen).toEqual(['asset.generator: "other" vs "Modbench"'])
  })

  it('key-time arrays written twice instead of shared are noticed, though every value is equal', async () => {
    const scene = edges.find((s) => s.name.startsWith('clips'))!.scene
    const doc = sceneToDocument(scene)
    const clip = doc.getRoot().listAnimations().find((a) => a.getName() === 'cubic and shared times')!
    const [s0, s1] = clip.listSamplers()
    expect(s0!.getInput()).toBe(s1!.getInput()) // the oracle shares them
    s1!.setInput(s0!.getInput()!.clone())
    const unshared = await io().writeBinary(doc)
    const d = await differences(unshared, await oracleGlb(scene))
    expect(d.some((x) => x.startsWith('accessors: '))).toBe(true)
    expect(d.some((x) => x.startsWith('animation inputs shared'))).toBe(true)
    expect(d.filter((x) => /^(nodes|meshes|animations|scenes)/.test(x))).toEqual([]) // the content is the same
  })

  it('the same index values as uint32 instead of uint16 (the component type)', async () => {
    const scene = demoScene()
    const doc = sceneToDocument(scene)
    const indices = doc.getRoot().listMeshes()[1]!.listPrimitives()[0]!.getIndices()!
    indices.setArray(Uint32Array.from(indices.getArray()!))
    const wide = await io().writeBinary(doc)
    expect(await differences(wide, await oracleGlb(scene))).toEqual(['meshes[1].primitives[0].indices: Uint32Array vs Uint16Array'])
    const [a, b] = await Promise.all([io().readBinary(wide), read(scene)])
    expect(a.getRoot().listMeshes()[1]!.equals(b.getRoot().listMeshes()[1]!)).toBe(false) // glTF-Transform agrees
  })

  it('Property.equals alone (extras canonical) also says the changed documents differ', async () => {
    const changed = demoScene()
    changed.curves[0]!.points[0] = 7
    const [a, b] = await Promise.all([read(demoScene()), read(changed)])
    expect(firstDifference(a, b, 'scenes', 0)).toMatch(/^scenes\[0\]\.extras\.modbench\.curves\[0\]\.points\[0\]: 1\.2 vs 7$/)
    canonicalExtras(a)
    canonicalExtras(b)
    expect(a.getRoot().listScenes()[0]!.equals(b.getRoot().listScenes()[0]!)).toBe(false)
    const [c, e] = await Promise.all([read(demoScene()), read(demoScene())])
    canonicalExtras(c)
    canonicalExtras(e)
    expect(c.getRoot().listScenes()[0]!.equals(e.getRoot().listScenes()[0]!)).toBe(true)
  })
})

describe('the §4.4 container check can fail', () => {
  it('names a JSON chunk padded with zeros, a misaligned bufferView and a wrong total length', async () => {
    const glb = await oracleGlb(demoScene())
    expect(glbContainerProblems(glb)).toEqual([])
    const { json, bin } = splitGlb(glb)
    const text = new TextEncoder().encode(JSON.stringify(json))
    const zeroPadded = joinGlb(json, bin)
    const jl = new DataView(zeroPadded.buffer).getUint32(12, true)
    if (jl === text.length) throw new Error('pick a scene whose JSON needs padding')
    zeroPadded.fill(0, 20 + text.length, 20 + jl)
    expect(glbContainerProblems(zeroPadded)[0]).toMatch(/JSON chunk padded with 0x0, not spaces/)
    const moved = structuredClone(json)
    moved.bufferViews[1].byteOffset += 2
    expect(glbContainerProblems(joinGlb(moved, bin))).toContain(`bufferViews[1].byteOffset ${moved.bufferViews[1].byteOffset} is not a multiple of 4`)
    const short = glb.slice(0, glb.length - 4)
    expect(glbContainerProblems(short)).toContain(`offset 8: total length ${glb.length}, file is ${glb.length - 4}`)
  })
})
