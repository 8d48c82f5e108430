/**
 * The N64 reference evaluator against every vector of materials.md §5.1 (words, inputs and
 * expected values copied from the spec's table; texels decoded from RGBA16 as the spec states).
 */
import { describe, expect, it } from 'vitest'
import { evaluateN64Pixel, type Rgba } from '../../../../src-shared/materials/n64-reference'
import { decodeTexture } from '../../../../src-shared/formats/n64/texture'
import type { N64Program } from '../../../../src-shared/scene/material-program'

/** One RGBA16 texel (5-bit channels, alpha 1) decoded by the project's texel decoder. */
function rgba16(r: number, g: number, b: number): Rgba {
  const w = ((r >> 3) << 11) | ((g >> 3) << 6) | ((b >> 3) << 1) | 1
  const px = decodeTexture({ fmt: 0, siz: 2, width: 1, height: 1, data: new Uint8Array([w >> 8, w & 0xff]) })
  return [px[0]!, px[1]!, px[2]!, px[3]!]
}
const T0 = rgba16(200, 120, 48)
const T1 = rgba16(40, 168, 224)

function program(w0: number, w1: number, otherModeL: number, cycles: 1 | 2, set: Partial<N64Program> = {}): N64Program {
  return {
    combine: [w0 & 0xffffff, w1 >>> 0], cycles, otherModeH: cycles === 2 ? 0x00102000 : 0x2000, otherModeL, geometryMode: 0,
    prim: [255, 255, 255, 255], primLodFrac: 0, primMinLevel: 0, env: [0, 0, 0, 0], blend: [0, 0, 0, 0], fog: [0, 0, 0, 0],
    textures: [0, null], uvTransforms: [[1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0]], filter: 'bilinear3', ...set,
  }
}

describe('N64 reference evaluator (materials.md §5.1)', () => {
  it('decodes the RGBA16 test texels as the spec says', () => {
    expect(T0).toEqual([206, 123, 49, 255])
    expect(T1).toEqual([41, 173, 231, 255])
  })

  it('N1 TEXEL0×SHADE', () => {
    const r = evaluateN64Pixel(program(0xfc121824, 0xff33ffff, 0x0f0a2230, 1), { texel0: T0, shade: [180, 210, 90, 255] })
    expect(r.rgb).toEqual([145, 101, 17])
    expect(r.kept).toBe(true)
  })

  it('N2 TEXEL0×PRIM ignores the shade', () => {
    const r = evaluateN64Pixel(program(0xfc119623, 0xff2fffff, 0x0f0a2230, 1, { prim: [230, 100, 160, 255] }), { texel0: T0, shade: [120, 200, 255, 255] })
    expect(r.rgb).toEqual([186, 48, 31])
  })

  it('N3 (PRIM−ENV)×TEXEL0+ENV, alpha 1', () => {
    const r = evaluateN64Pixel(program(0xfc30fe61, 0x55fefd7e, 0x0f0a2230, 1, { prim: [250, 40, 40, 255], env: [20, 60, 220, 255] }), { texel0: T0, shade: [200, 200, 200, 255] })
    expect(r.rgb).toEqual([206, 50, 185])
    expect(r.alpha).toBe(255)
  })

  it('N4 2-cycle TEXEL0→TEXEL1 by PRIM_LOD_FRAC, then ×SHADE', () => {
    const r = evaluateN64Pixel(program(0xfc272c04, 0x1f1093ff, 0x0f0a2230, 2, { primLodFrac: 96 }), { texel0: T0, texel1: T1, shade: [230, 230, 160, 255] })
    expect(r.rgb).toEqual([130, 128, 74])
  })

  it('N5 2-cycle fade to ENV by ENV alpha; alpha TEXEL0×SHADE', () => {
    const r = evaluateN64Pixel(program(0xfc1218ac, 0xf0fffe38, 0x0f0a2230, 2, { env: [40, 220, 200, 100] }), { texel0: T0, shade: [200, 160, 255, 255] })
    expect(r.rgb).toEqual([114, 133, 108])
  })

  it('N6 flat PRIM ignores texture and shade', () => {
    const r = evaluateN64Pixel(program(0xfcffffff, 0xfffdf6fb, 0x0f0a2230, 1, { prim: [70, 190, 110, 255] }), { texel0: T0, shade: [255, 60, 60, 255] })
    expect(r.rgb).toEqual([70, 190, 110])
  })

  it('N7 translucent: alpha PRIM blended over the quad behind (ZB_XLU_SURF)', () => {
    const mem: Rgba = [(206 * 40) / 255, (123 * 80) / 255, 49, 255] // T0×(40,80,255) = (32.3, 38.6, 49)
    const r = evaluateN64Pixel(program(0xfc127e24, 0xfffff7fb, 0x00504a50, 1, { prim: [90, 90, 250, 128] }), { texel0: T0, shade: [255, 255, 255, 255], mem })
    expect(r.rgb).toEqual([119, 81, 49])
  })

  it('N8 threshold alpha compare keeps prim a 48 ≥ blend a 16', () => {
    const r = evaluateN64Pixel(program(0xfc121624, 0xff2fffff, 0x0f0a0231, 1, { prim: [255, 255, 255, 48], blend: [0, 0, 0, 16] }), { texel0: T0, shade: [150, 255, 200, 255] })
    expect(r.kept).toBe(true)
    expect(r.rgb).toEqual([121, 123, 38])
  })

  it('N9 2-cycle threshold compares cycle 0 alpha: prim a 8 < blend a 64 drops the pixel', () => {
    const mem: Rgba = [206, (123 * 160) / 255, (49 * 40) / 255, 255] // T0×(255,160,40)
    const r = evaluateN64Pixel(program(0xfc121603, 0xfffffff8, 0x0f0a0231, 2, { prim: [255, 255, 255, 8], blend: [0, 0, 0, 64] }), { texel0: T0, shade: [255, 255, 255, 255], mem })
    expect(r.kept).toBe(false)
    expect(r.rgb).toEqual([206, 77, 8])
  })
})

/** Builds 1-cycle combine words (both halves equal) from §2.2's field table. */
function words(a: number, b: number, c: number, d: number, aa = 7, ab = 7, ac = 7, ad = 6): [number, number] {
  const w0 = (a << 20) | (c << 15) | (aa << 12) | (ac << 9) | (a << 5) | c
  const w1 = (b << 28) | (b << 24) | (aa << 21) | (ac << 18) | (d << 15) | (ab << 12) | (ad << 9) | (d << 6) | (ab << 3) | ad
  return [w0, w1 >>> 0]
}

describe('N64 reference evaluator: the spec\'s extra hand vectors', () => {
  it('the words builder reproduces G_CC_PRIMITIVE and G_CC_SHADE (§2.2)', () => {
    // PRIMITIVE: colour 0,0,0,PRIM; alpha 0,0,0,PRIM. Unused slots use the all-ones "0" codes.
    expect(words(15, 15, 31, 3, 7, 7, 7, 3)).toEqual([0xffffff, 0xfffdf6fb])
    expect(words(15, 15, 31, 4, 7, 7, 7, 4)).toEqual([0xffffff, 0xfffe793c])
  })

  it('(1−TEXEL0)×PRIM+0', () => {
    const [w0, w1] = words(6, 1, 3, 7)
    expect(evaluateN64Pixel(program(w0, w1, 0x0f0a2230, 1, { prim: [255, 128, 0, 255] }), { texel0: T0 }).rgb).toEqual([49, 66, 0])
  })

  it('(SHADE−ENV)×TEXEL0_A+ENV with T0.a 255 and 0', () => {
    const [w0, w1] = words(4, 5, 8, 5)
    const p = program(w0, w1, 0x0f0a2230, 1, { env: [100, 100, 100, 255] })
    expect(evaluateN64Pixel(p, { texel0: [206, 123, 49, 255], shade: [10, 200, 90, 255] }).rgb).toEqual([10, 200, 90])
    expect(evaluateN64Pixel(p, { texel0: [206, 123, 49, 0], shade: [10, 200, 90, 255] }).rgb).toEqual([100, 100, 100])
  })

  it('(TEXEL0−0)×SHADE+ENV clamps at 255', () => {
    const [w0, w1] = words(1, 15, 4, 5)
    const r = evaluateN64Pixel(program(w0, w1, 0x0f0a2230, 1, { env: [100, 150, 220, 255] }), { texel0: T0, shade: [255, 255, 255, 255] })
    expect(r.rgb).toEqual([255, 255, 255])
  })
})

describe('N64 reference evaluator: render modes (§2.4–§2.5)', () => {
  const modulate = (L: number, set: Partial<N64Program> = {}) => program(0xfc121824, 0xff33ffff, L, 1, set)
  it('TEX_EDGE (CVG_X_ALPHA + ALPHA_CVG_SEL) drops texels below alpha 0.5', () => {
    const L = 0x0f0a3000 | 0x0078 // AA_ZB_TEX_EDGE-like: both coverage bits, no FORCE_BL
    expect(evaluateN64Pixel(modulate(L), { texel0: [200, 100, 50, 100], mem: [1, 2, 3, 255] }).rgb).toEqual([1, 2, 3])
    expect(evaluateN64Pixel(modulate(L), { texel0: [200, 100, 50, 200] }).rgb).toEqual([200, 100, 50])
  })

  it('G_RM_FOG_SHADE_A in cycle 0 mixes toward the fog colour by shade alpha', () => {
    // cycle 0: CLR_FOG(3)·A_SHADE(2) + CLR_IN(0)·1MA(0); cycle 1: G_RM_OPA_SURF-like CLR_IN·0 + CLR_IN·1 with FORCE_BL.
    const L = (3 << 30) | (2 << 26) | (0 << 22) | (0 << 18) | (0 << 28) | (3 << 24) | (0 << 20) | (2 << 16) | 0x4000
    const p = program(0xfc121824, 0xff33ffff, L >>> 0, 2, { fog: [0, 0, 255, 255] })
    // cycle 1 of the combiner: MODULATERGBA's cycle 1 is TEXEL0×SHADE again (same words twice).
    const r = evaluateN64Pixel(p, { texel0: [200, 100, 50, 255], shade: [255, 255, 255, 64] })
    // mix((200,100,50), (0,0,255), 64/255): 200·191/255 = 149.8, 100·191/255 = 74.9, 50·191/255 + 255·64/255 = 37.45 + 64 = 101.45
    expect(r.rgb).toEqual([150, 75, 101])
  })
})
