/** Stadium material programs: the preset equations (pokemon-stadium.md §7.2) through the reference evaluator. */
import { describe, expect, it } from 'vitest'
import { layerOtherModeL, presetCycles, stadiumProgram } from '../../../../../src-shared/formats/stadium/material-program'
import { encodeCombine } from '../../../../../src-shared/formats/n64/program'
import { evaluateN64Pixel, type Rgba } from '../../../../../src-shared/materials/n64-reference'
import { openStadiumRom, loadModel } from '../../../../../src-shared/formats/stadium/model'
import { buildStadiumScene } from '../../../../../src-shared/formats/stadium/scene'
import { buildStadiumRom } from '../../../../fixtures/stadium/rom-builder'
import { richModel } from '../../../../fixtures/stadium/models'
import type { MaterialState } from '../../../../../src-shared/formats/stadium/model-graph'

const LIT = 0x20000
const mat = (preset: number, prim: [number, number, number, number]): MaterialState => ({ at: 0, preset, texAnimChannel: -1, dl: -1, textureIndex: 0, paletteIndex: -1, prim })
const T: Rgba = [200, 100, 50, 128]
const SHADE: Rgba = [128, 255, 64, 204]
const run = (preset: number, prim: [number, number, number, number], layer = 1) => {
  const r = evaluateN64Pixel(stadiumProgram(mat(preset, prim), layer, LIT, 0), { texel0: T, shade: SHADE, mem: [0, 0, 0, 255] })
  return [...r.rgb, r.alpha]
}

describe('Stadium presets as N64 programs', () => {
  it('preset 0: PRIM × SHADE, alpha PRIM.a', () => {
    // 100·128/255 = 50.2, 200·255/255 = 200, 40·64/255 = 10.04; alpha 77 × fade 255/255
    expect(run(0, [100, 200, 40, 77])).toEqual([50, 200, 10, 77])
  })
  it('preset 1: TEXEL0 × SHADE (prim forced white), alpha TEXEL0.a', () => {
    expect(run(1, [10, 20, 30, 40])).toEqual([100, 100, 13, 128])
  })
  it('preset 2: lerp(PRIM → TEXEL0 by TEXEL0.a) × SHADE; alpha 0 (the opaque layer keeps the pixel)', () => {
    // (200−0)·128/255 + 0 = 100.39 → ×128/255 = 50.39; (100−255)·128/255+255 = 177.2 → ×1 = 177.2; (50−0)·128/255 = 25.1 → ×64/255 = 6.3
    expect(run(2, [0, 255, 0, 255])).toEqual([50, 177, 6, 0])
  })
  it('preset 4: TEXEL0 × PRIM × SHADE, alpha TEXEL0.a × PRIM.a', () => {
    // 200·255/255·128/255 = 100.4; 100·0 = 0; 50·(255/255)·64/255 = 12.5 → 13; alpha 128·51/255 = 25.6 → 26
    expect(run(4, [255, 0, 255, 51])).toEqual([100, 0, 13, 26])
  })
  it('preset 6 (unlit 1): TEXEL0 × PRIM (only preset 1 forces prim white), no shade', () => {
    // 100·128/255 = 50.2
    expect(run(6, [255, 128, 255, 0])).toEqual([200, 50, 50, 128])
  })
  it('preset 14: TEXEL0 × SHADE, alpha TEXEL0.a × SHADE.a, no second shade', () => {
    // alpha 128·204/255 = 102.4
    expect(run(14, [0, 0, 0, 0])).toEqual([100, 100, 13, 102])
  })
  it('preset 3 cycle 1 alpha is COMBINED × PRIM_LOD_FRAC (the fade)', () => {
    const [, c1] = presetCycles(3)
    expect([c1.aa, c1.ab, c1.ac, c1.ad]).toEqual([0, 7, 6, 7])
    expect(encodeCombine(...presetCycles(3))[0] & 0x1f).toBe(4) // cycle 1 colour C = SHADE
  })
  it('layers: 1 opaque (no FORCE_BL), 5 translucent blend over the pixel behind, 4 texture edge', () => {
    expect(layerOtherModeL(1) & 0x4000).toBe(0)
    expect(layerOtherModeL(1) >>> 16).toBe(0x0c19) // G_RM_PASS | G_RM_AA_ZB_OPA_SURF2 (the Snap opaque word, §2.9)
    expect(layerOtherModeL(5) & 0xffff).toBe(0x49d8) // G_RM_AA_ZB_XLU_SURF2 flags
    // preset 3 on layer 5: PRIM.a 128 blends TEXEL0 × PRIM × SHADE over mem (10, 20, 30)
    const r = evaluateN64Pixel(stadiumProgram(mat(3, [255, 255, 255, 128]), 5, 0, 0), { texel0: [200, 100, 50, 255], shade: [255, 255, 255, 255], mem: [10, 20, 30, 255] })
    // 200·128/255 + 10·127/255 = 100.39 + 4.98 = 105.4; 50.2 + 9.96 = 60.2; 25.1 + 14.9 = 40.0
    expect(r.rgb).toEqual([105, 60, 40])
    expect(layerOtherModeL(4) & 0x3000).toBe(0x3000)
    expect(evaluateN64Pixel(stadiumProgram(mat(1, [0, 0, 0, 0]), 4, 0, 0), { texel0: [9, 9, 9, 0], mem: [1, 2, 3, 255] }).kept).toBe(false)
  })
})

describe('Stadium scene materials carry programs', () => {
  it('every material of the fixture model has an n64 program whose texture is the material\'s', () => {
    const scene = buildStadiumScene(loadModel(openStadiumRom(buildStadiumRom({ files: [{ model: richModel(1) }] }), 'fixture.z64'), 0))
    expect(scene.materials.length).toBeGreaterThan(0)
    for (const m of scene.materials) {
      expect(m.program?.kind).toBe('n64')
      if (m.program?.kind === 'n64') expect(m.program.n64.textures[0]).toBe(m.texture ?? null)
    }
  })
})
