import { describe, expect, it } from 'vitest'
import { computeUV, type DrawState, type TileState } from '../../../../../src-shared/formats/n64/f3dex2'
import { cyclesOf, drawProgram, encodeCombine, filterOf, n64ProgramKey, stateProgram, texgenOf, tileUVMatrix } from '../../../../../src-shared/formats/n64/program'

const tile = (set: Partial<TileState>): TileState => ({ fmt: 0, siz: 2, line: 4, tmem: 0, palette: 0, cmt: 0, maskt: 5, shiftt: 0, cms: 0, masks: 5, shifts: 0, uls: 0, ult: 0, lrs: 124, lrt: 124, ...set })

describe('N64 material program from RDP state', () => {
  it('decodes cycle type, filter and texgen (gbi.h encodings)', () => {
    expect(cyclesOf(0x00102000)).toBe(2) // G_CYC_2CYCLE | G_TF_BILERP
    expect(cyclesOf(0x00002000)).toBe(1)
    expect(cyclesOf(0x00300000)).toBe(1) // G_CYC_FILL → 1
    expect(filterOf(0x00102000)).toBe('bilinear3')
    expect(filterOf(0x00003000)).toBe('average')
    expect(filterOf(0)).toBe('point')
    expect(texgenOf(0x40000 | 0x20000)).toBe('sphere')
    expect(texgenOf(0xc0000 | 0x20000)).toBe('linear')
    expect(texgenOf(0x40000)).toBeUndefined() // texgen needs G_LIGHTING
  })

  it('encodes the spec\'s known combine words (materials.md §2.2)', () => {
    // G_CC_MODULATERGBA: TEXEL0 × SHADE in colour and alpha; unused slots 15/15/31/7 (colour), 7 (alpha).
    const mod = { a: 1, b: 15, c: 4, d: 7, aa: 1, ab: 7, ac: 4, ad: 7 }
    expect(encodeCombine(mod, mod)).toEqual([0x121824, 0xff33ffff])
    const prim = { a: 15, b: 15, c: 31, d: 3, aa: 7, ab: 7, ac: 7, ad: 3 }
    expect(encodeCombine(prim, prim)).toEqual([0xffffff, 0xfffdf6fb])
  })

  it('TEXEL1\'s tile UV matrix: a 16×16 tile shifted by 1 and starting 2 texels in', () => {
    const t0 = { tile: tile({}), width: 32, height: 32 }
    const t1 = { tile: tile({ shifts: 1, shiftt: 1, uls: 8, ult: 4 }), width: 16, height: 16 }
    // u1 = (S/2 − 2)/16 with S = 32·u0 → u0 − 0.125; v1 = (T/2 − 1)/16 → v0 − 0.0625
    expect(tileUVMatrix(t0, t1)).toEqual([1, 0, 0, 1, -0.125, -0.0625])
    // and it agrees with computeUV of both tiles at a vertex
    const tex = { on: true, tile: 0, level: 0, sScale: 0.5, tScale: 0.5 }
    const [u0, v0] = computeUV(700, -300, tex, t0)
    const [u1, v1] = computeUV(700, -300, tex, t1)
    const m = tileUVMatrix(t0, t1)
    expect(m[0] * u0 + m[2] * v0 + m[4]).toBeCloseTo(u1, 10)
    expect(m[1] * u0 + m[3] * v0 + m[5]).toBeCloseTo(v1, 10)
  })

  it('drawProgram copies a draw call\'s words and colours, masks w0 to 24 bits', () => {
    const s = {
      geometryMode: 0x220405, otherModeH: 0x00102000, otherModeL: 0x0c192078, combineHi: 0xfc272c04, combineLo: 0x1f1093ff,
      primColor: [1, 2, 3, 4], primLodFrac: 96, primMinLevel: 0, envColor: [5, 6, 7, 8], blendColor: [0, 0, 0, 16], fogColor: [9, 9, 9, 9],
      texture: { on: true, tile: 0, level: 0, sScale: 1, tScale: 1 }, lights: {}, textures: [], tag: null,
    } as DrawState
    const p = drawProgram(s, { textures: [3, 4] })
    expect(p).toEqual({
      combine: [0x272c04, 0x1f1093ff], cycles: 2, otherModeH: 0x00102000, otherModeL: 0x0c192078, geometryMode: 0x220405,
      prim: [1, 2, 3, 4], primLodFrac: 96, primMinLevel: 0, env: [5, 6, 7, 8], blend: [0, 0, 0, 16], fog: [9, 9, 9, 9],
      textures: [3, 4], uvTransforms: [[1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0]], filter: 'bilinear3',
    })
    expect(n64ProgramKey(p)).not.toBe(n64ProgramKey(stateProgram({ ...p, primLodFrac: 97 }, [3, 4])))
  })
})
