/** The PICA TexEnv reference evaluator against every vector of materials.md §5.2. */
import { describe, expect, it } from 'vitest'
import { evaluatePicaFragment } from '../../../../src-shared/materials/pica-reference'
import type { PicaProgram, PicaStage } from '../../../../src-shared/scene/material-program'

// Sources (§3): 0 primary, 1 frag primary, 3 texture 0, 4 texture 1, 13 previous buffer, 14 constant, 15 previous.
const PRIMARY = 0, FRAG = 1, TEX0 = 3, TEX1 = 4, BUFFER = 13, CONST = 14, PREV = 15
// Combiners: 0 replace, 1 modulate, 2 add, 4 interpolate, 5 subtract. Colour operand 2 = aaa.
const pass: PicaStage = { src: [PREV, 0, 0, PREV, 0, 0], op: [0, 0, 0, 0, 0, 0], mode: [0, 0], scale: [0, 0], constant: [0, 0, 0, 0] }
const stage = (s: Partial<PicaStage>): PicaStage => ({ ...pass, ...s })
const program = (stages: PicaStage[], set: Partial<PicaProgram> = {}): PicaProgram => ({
  stages: [...stages, ...Array<PicaStage>(6 - stages.length).fill(pass)], bufferColor: [0, 0, 0, 0], bufferUpdate: 0,
  textures: [0, 1], uvTransforms: [[1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 0, 0]], ...set,
})

describe('PICA reference evaluator (materials.md §5.2)', () => {
  it('P1 Modulate(Texture0, Primary) in colour and alpha', () => {
    const p = program([stage({ src: [TEX0, PRIMARY, 0, TEX0, PRIMARY, 0], mode: [1, 1] })])
    const r = evaluatePicaFragment(p, { primary: [128, 255, 64, 200], textures: [[200, 100, 50, 255]] })
    expect(r.rgba).toEqual([100, 100, 13, 200])
  })

  it('P2 Interpolate(Texture0, Constant, Texture1 aaa)', () => {
    const p = program([stage({ src: [TEX0, CONST, TEX1, PREV, 0, 0], op: [0, 0, 2, 0, 0, 0], mode: [4, 0], constant: [0, 128, 255, 255] })])
    const r = evaluatePicaFragment(p, { textures: [[200, 100, 50, 255], [0, 0, 0, 64]] })
    expect(r.rgba.slice(0, 3)).toEqual([50, 121, 204])
  })

  it('P3 Modulate(Texture0, FragPrimary)×2, then Add(Previous, Constant)', () => {
    const p = program([
      stage({ src: [TEX0, FRAG, 0, TEX0, 0, 0], mode: [1, 0], scale: [1, 0] }),
      stage({ src: [PREV, CONST, 0, PREV, 0, 0], mode: [2, 0], constant: [30, 30, 30, 255] }),
    ])
    const r = evaluatePicaFragment(p, { fragPrimary: [100, 100, 200, 255], textures: [[200, 100, 50, 255]] })
    expect(r.stages[0]!.slice(0, 3).map((x) => Math.floor(x * 255 + 0.5))).toEqual([157, 78, 78])
    expect(r.rgba.slice(0, 3)).toEqual([187, 108, 108])
  })

  it('P4 the buffer update lags one stage', () => {
    const p = program([
      stage({ src: [TEX0, 0, 0, TEX0, 0, 0], mode: [0, 0] }),
      stage({ src: [PREV, BUFFER, 0, PREV, 0, 0], mode: [2, 0] }),
      stage({ src: [PREV, BUFFER, 0, PREV, 0, 0], mode: [5, 0] }),
    ], { bufferColor: [10, 20, 30, 255], bufferUpdate: 1 << 8 })
    const r = evaluatePicaFragment(p, { textures: [[200, 100, 50, 255]] })
    expect(r.stages[1]!.slice(0, 3).map((x) => Math.round(x * 255))).toEqual([210, 120, 80])
    expect(r.rgba.slice(0, 3)).toEqual([10, 20, 30])
  })
})

describe('PICA reference evaluator: the other combiners and the alpha test', () => {
  const one = (s: Partial<PicaStage>, set: Partial<PicaProgram> = {}) => program([stage(s)], set)
  const T: [number, number, number, number] = [204, 102, 51, 255] // 0.8, 0.4, 0.2, 1
  it('AddSigned, MultAdd, AddMult and Dot3 (biased ×4 form)', () => {
    const k: [number, number, number, number] = [153, 153, 153, 255] // 0.6
    // AddSigned of 8-bit inputs always lands on a half (n + m − 127.5): compare the unrounded stage output.
    const signed = evaluatePicaFragment(one({ src: [TEX0, CONST, 0, TEX0, 0, 0], mode: [3, 0], constant: k }), { textures: [T] }).stages[0]!
    ;[229.5, 127.5, 76.5].forEach((v, i) => expect(signed[i]! * 255).toBeCloseTo(v, 6))
    expect(evaluatePicaFragment(one({ src: [TEX0, CONST, CONST, TEX0, 0, 0], mode: [8, 0], constant: k }), { textures: [T] }).rgba.slice(0, 3)).toEqual([255, 214, 184]) // min(.48+.6,1), .84, .72
    expect(evaluatePicaFragment(one({ src: [TEX0, CONST, CONST, TEX0, 0, 0], mode: [9, 0], constant: k }), { textures: [T] }).rgba.slice(0, 3)).toEqual([153, 153, 122]) // 1·.6, 1·.6, .8·.6
    // Dot3_RGBA of T with itself: 4·((.8−.5)² + (.4−.5)² + (.2−.5)²) = 4·0.19 = 0.76 → 193.8 → 194 in all four channels
    expect(evaluatePicaFragment(one({ src: [TEX0, TEX0, 0, TEX0, 0, 0], mode: [7, 0] }), { textures: [T] }).rgba).toEqual([194, 194, 194, 194])
  })
  it('alpha test ≥ ref', () => {
    const p = (ref: number) => one({ src: [TEX0, 0, 0, TEX0, 0, 0] }, { alphaTest: { func: 7, ref } })
    expect(evaluatePicaFragment(p(128), { textures: [[0, 0, 0, 128]] }).kept).toBe(true)
    expect(evaluatePicaFragment(p(129), { textures: [[0, 0, 0, 128]] }).kept).toBe(false)
  })
})
