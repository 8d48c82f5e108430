import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js'
import { ShaderMaterial } from '@babylonjs/core/Materials/shaderMaterial.js'
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial.js'
import { createViewportOn, type Viewport } from '../../../../src-renderer/viewport/viewport'
import { programStats } from '../../../../src-renderer/viewport/materials/game'
import { programKey } from '../../../../src-renderer/viewport/materials/program-material'
import { combineCycles, n64RenderState } from '../../../../src-renderer/viewport/materials/n64-glsl'
import { materialCardScene } from '../../../../src-shared/scene/material-card'
import { demoScene } from '../../../../src-shared/scene/demo'
import type { MaterialProgram, N64Program } from '../../../../src-shared/scene/material-program'

const n64p = (o: Partial<N64Program>): N64Program => ({
  combine: [0x121824, 0xff33ffff], cycles: 1, otherModeH: 0, otherModeL: 0x0f0a2230, geometryMode: 0, prim: [255, 255, 255, 255], primLodFrac: 0, primMinLevel: 0,
  env: [0, 0, 0, 255], blend: [0, 0, 0, 0], fog: [0, 0, 0, 255], textures: [null, null], uvTransforms: [[1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0]], filter: 'point', ...o,
})
const n64 = (o: Partial<N64Program>): MaterialProgram => ({ kind: 'n64', n64: n64p(o) })

describe('game materials in the viewport (NullEngine)', () => {
  let engine: NullEngine
  let vp: Viewport
  beforeEach(() => {
    engine = new NullEngine()
    vp = createViewportOn(engine)
  })
  afterEach(() => {
    vp.dispose()
    engine.dispose()
  })

  it('the material card: 17 program materials need 15 shaders (the two quads behind share N1’s words)', () => {
    vp.setScene(materialCardScene())
    expect(programStats(vp.built!)).toEqual({ programs: 17, shaders: 15 })
  })

  it('"Game materials" (the default) draws meshes with the program shaders, "Simple" with the standard materials', () => {
    vp.setScene(materialCardScene())
    expect(vp.toggles.gameMaterials).toBe(true)
    const meshes = vp.built!.meshes
    expect(meshes.length).toBe(17)
    expect(meshes.every((m) => m.material instanceof ShaderMaterial)).toBe(true)
    vp.setToggle('gameMaterials', false)
    expect(meshes.every((m) => m.material instanceof StandardMaterial)).toBe(true)
    vp.setToggle('gameMaterials', true)
    expect(meshes.every((m) => m.material instanceof ShaderMaterial)).toBe(true)
    vp.step(0)
  })

  it('a scene without programs keeps its standard materials', () => {
    vp.setScene(demoScene())
    expect(programStats(vp.built!)).toEqual({ programs: 0, shaders: 0 })
    expect(vp.built!.meshes.every((m) => !(m.material instanceof ShaderMaterial))).toBe(true)
  })
})

describe('program keys and decoding', () => {
  it('colours are uniforms: programs that differ only in prim/env share a key; other words do not', () => {
    expect(programKey(n64({ prim: [1, 2, 3, 4] }))).toBe(programKey(n64({ env: [9, 9, 9, 9] })))
    expect(programKey(n64({}))).not.toBe(programKey(n64({ combine: [0xffffff, 0xfffdf6fb] })))
    expect(programKey(n64({}))).not.toBe(programKey(n64({ cycles: 2 })))
    expect(programKey(n64({}))).not.toBe(programKey(n64({ otherModeL: 0x00504a50 })))
  })

  it('decodes G_CC_MODULATERGBA (FC121824 FF33FFFF, materials.md §2.2) as TEXEL0 × SHADE in both cycles', () => {
    const [c0, c1] = combineCycles(0x121824, 0xff33ffff)
    // A = TEXEL0 (1), B = 0 (15 → 0), C = SHADE (4), D = 0 (7); alpha the same (1, 7, 4, 7).
    expect(c0).toEqual({ a: 1, b: 15, c: 4, d: 7, aa: 1, ab: 7, ac: 4, ad: 7 })
    expect(c1).toEqual(c0)
  })

  it('render state from otherModeL (§2.5): ZB_XLU_SURF blends without depth writes; OPA_SURF is opaque; ZMODE 3 is a decal', () => {
    expect(n64RenderState(n64p({ otherModeL: 0x00504a50 }))).toEqual({ blend: 'alpha', depthWrite: false, decal: false })
    expect(n64RenderState(n64p({ otherModeL: 0x0f0a2230 }))).toEqual({ blend: 'opaque', depthWrite: true, decal: false })
    expect(n64RenderState(n64p({ otherModeL: 0x0f0a2230 | (3 << 10) })).decal).toBe(true)
  })
})
