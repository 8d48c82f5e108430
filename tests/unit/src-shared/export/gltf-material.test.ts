/**
 * Material programs in the glb (materials.md §8): the exact cases as texture × factor × COLOR_0,
 * the rest baked into a base-colour texture (texels checked against the spec's vectors), the
 * program in `extras.modbench.material`, and the Khronos validator at 0 errors.
 */
import { describe, expect, it } from 'vitest'
import { decode as decodePng } from 'fast-png'
import { validateBytes } from 'gltf-validator'
import { exportGlb } from '../../../../src-shared/export/gltf'
import { gltfMaterialScene } from '../../../../src-shared/export/gltf-material'
import { programScene } from '../../../fixtures/scene/program-scenes'
import { splitGlb } from '../../../fixtures/scene/glb-container'

const scene = programScene()

describe('glTF export of material programs', async () => {
  const glb = await exportGlb(scene)
  const { json, bin } = splitGlb(glb)
  const mat = (name: string) => json.materials.find((m: { name: string }) => m.name === name)
  const prim = (name: string) => json.meshes.find((m: { name: string }) => m.name === name).primitives[0]
  const image = (mi: number) => {
    const tex = json.textures[mi].source
    const view = json.bufferViews[json.images[tex].bufferView]
    const png = decodePng(bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength))
    return { index: tex, texel: [...png.data.subarray(0, 4)] }
  }

  it('validates with 0 errors', async () => {
    const report = await validateBytes(glb)
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages.filter((m: { severity: number }) => m.severity === 0))).toBe(0)
  })

  it('N1 TEXEL0×SHADE: texture T0, white factor, COLOR_0 kept; the program in extras', () => {
    const m = mat('N1')
    expect(image(m.pbrMetallicRoughness.baseColorTexture.index).index).toBe(0)
    expect(m.pbrMetallicRoughness.baseColorFactor).toBeUndefined()
    expect(prim('N1').attributes.COLOR_0).toBeDefined()
    expect(m.extras.modbench.material.kind).toBe('n64')
    expect(m.extras.modbench.material.words.setCombine).toEqual(['0xFC121824', '0xFF33FFFF'])
    expect(m.extras.modbench.approximate).toBeUndefined()
  })

  it('N2 TEXEL0×PRIM: texture × PRIM factor, no COLOR_0 (glTF would multiply the shade in)', () => {
    const m = mat('N2')
    expect(m.pbrMetallicRoughness.baseColorFactor).toEqual([230 / 255, 100 / 255, 160 / 255, 1])
    expect(image(m.pbrMetallicRoughness.baseColorTexture.index).index).toBe(0)
    expect(prim('N2').attributes.COLOR_0).toBeUndefined()
  })

  it('N3 (PRIM−ENV)×TEXEL0+ENV: a baked texture of the vector\'s value, exact', () => {
    const m = mat('N3')
    const img = image(m.pbrMetallicRoughness.baseColorTexture.index)
    expect(img.index).toBeGreaterThanOrEqual(scene.textures.length)
    expect(img.texel).toEqual([206, 50, 185, 255])
    expect(m.pbrMetallicRoughness.baseColorFactor).toBeUndefined()
    expect(prim('N3').attributes.COLOR_0).toBeUndefined()
    expect(m.extras.modbench.approximate).toBeUndefined()
  })

  it('N4 lerp(T0, T1, 96) × SHADE: baked lerp (143.9, 141.8, 117.5), SHADE kept as COLOR_0', () => {
    const m = mat('N4')
    expect(image(m.pbrMetallicRoughness.baseColorTexture.index).texel).toEqual([144, 142, 118, 255])
    expect(prim('N4').attributes.COLOR_0).toBeDefined()
  })

  it('N6 PRIM: factor only, no texture, no COLOR_0', () => {
    const m = mat('N6')
    expect(m.pbrMetallicRoughness.baseColorFactor).toEqual([70 / 255, 190 / 255, 110 / 255, 1])
    expect(m.pbrMetallicRoughness.baseColorTexture).toBeUndefined()
    expect(prim('N6').attributes.COLOR_0).toBeUndefined()
  })

  it('N7 translucent: BLEND, alpha factor PRIM.a, COLOR_0 alpha forced to 1', () => {
    const m = mat('N7')
    expect(m.alphaMode).toBe('BLEND')
    expect(m.pbrMetallicRoughness.baseColorFactor).toEqual([1, 1, 1, 128 / 255])
    const g = gltfMaterialScene(scene)
    const colors = g.meshes.find((x) => x.name === 'N7')!.primitives[0]!.colors!
    expect([...colors.subarray(0, 4)]).toEqual([1, 1, 1, 1])
  })

  it('N8 threshold compare: MASK with alphaCutoff = blend alpha 16/255', () => {
    expect(mat('N8').alphaMode).toBe('MASK')
    expect(mat('N8').alphaCutoff).toBeCloseTo(16 / 255, 6)
  })

  it('P1 Modulate(Texture0, Primary): texture × COLOR_0, exact', () => {
    const m = mat('P1')
    expect(image(m.pbrMetallicRoughness.baseColorTexture.index).index).toBe(2)
    expect(prim('P1').attributes.COLOR_0).toBeDefined()
    expect(m.extras.modbench.material.kind).toBe('pica')
  })

  it('P4 buffer stages bake to the vector; P3 reads fragment lighting: baked white-lit, approximate', () => {
    expect(image(mat('P4').pbrMetallicRoughness.baseColorTexture.index).texel.slice(0, 3)).toEqual([10, 20, 30])
    expect(mat('P4').extras.modbench.approximate).toBeUndefined()
    // FragPrimary white: 200·2 → 255, 100·2 = 200, 50·2 = 100; + 30
    expect(image(mat('P3').pbrMetallicRoughness.baseColorTexture.index).texel.slice(0, 3)).toEqual([255, 230, 130])
    expect(mat('P3').extras.modbench.approximate).toBe(true)
  })

  it('texgen cannot be said in glTF: baked or not, the material is approximate', () => {
    const s = programScene()
    const p = s.materials[0]!.program!
    if (p.kind === 'n64') p.n64 = { ...p.n64, geometryMode: 0x60004, texgen: 'sphere' }
    const m = gltfMaterialScene(s).materials[0]!
    expect((m.extras!.modbench as { approximate?: boolean }).approximate).toBe(true)
    expect(m.program).toBeUndefined()
  })

  it('a scene without programs passes through untouched', () => {
    const s = programScene()
    s.materials.forEach((m) => delete m.program)
    expect(gltfMaterialScene(s)).toBe(s)
  })
})
