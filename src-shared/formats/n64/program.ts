/**
 * The neutral material program (scene/material-program.ts, materials.md §7) of an N64 draw: the
 * RDP state the F3DEX2 interpreter recorded on a draw call (Snap), or a game's preset combine
 * words and render mode (Stadium), with the texture slots' scene indices and tile UV transforms.
 */
import type { N64Program, RGBA8, UVMatrix } from '../../scene/material-program'
import { shiftFactor, type DrawState, type TextureRef } from './f3dex2'
import { GeometryMode, OtherModeH } from './gbi'

const IDENTITY: UVMatrix = [1, 0, 0, 1, 0, 0]
const rgba8 = (c: readonly number[]): RGBA8 => [c[0]! & 0xff, c[1]! & 0xff, c[2]! & 0xff, c[3]! & 0xff]

/** Cycle count from othermode H CYCLETYPE (copy / fill count as 1-cycle, materials.md §2.1). */
export function cyclesOf(otherModeH: number): 1 | 2 {
  return ((otherModeH >>> OtherModeH.CYCLETYPE) & 3) === 1 ? 2 : 1
}

/** Texture filter from othermode H TEXTFILT (§2.6): 2 bilinear (3-point), 3 average, else point. */
export function filterOf(otherModeH: number): N64Program['filter'] {
  const f = (otherModeH >>> OtherModeH.TEXTFILT) & 3
  return f === 2 ? 'bilinear3' : f === 3 ? 'average' : 'point'
}

/** Texture-coordinate generation (§2.7): only with G_LIGHTING, as the RSP needs the normal. */
export function texgenOf(geometryMode: number): N64Program['texgen'] {
  if (!(geometryMode & GeometryMode.TEXTURE_GEN) || !(geometryMode & GeometryMode.LIGHTING)) return undefined
  return geometryMode & GeometryMode.TEXTURE_GEN_LINEAR ? 'linear' : 'sphere'
}

/**
 * The UV matrix that takes coordinates made for tile `from` (computeUV's normalised u, v) to
 * those of tile `to` under the same texture state: both tiles see the same S, T, so
 * u_to = u_from·(w_from·sf_to)/(w_to·sf_from) + (uls_from/4·sf_to/sf_from − uls_to/4)/w_to (pokemon-snap.md §5.6).
 */
export function tileUVMatrix(from: Pick<TextureRef, 'tile' | 'width' | 'height'>, to: Pick<TextureRef, 'tile' | 'width' | 'height'>): UVMatrix {
  const axis = (wf: number, wt: number, sf: number, st: number, of: number, ot: number): [number, number] => [
    (wf * st) / (wt * sf),
    ((of / 4) * (st / sf) - ot / 4) / wt,
  ]
  const [su, ou] = axis(from.width, to.width, shiftFactor(from.tile.shifts), shiftFactor(to.tile.shifts), from.tile.uls, to.tile.uls)
  const [sv, ov] = axis(from.height, to.height, shiftFactor(from.tile.shiftt), shiftFactor(to.tile.shiftt), from.tile.ult, to.tile.ult)
  return [su, 0, 0, sv, ou, ov]
}

/** Fields of a program that a draw's recorded state does not give directly. */
export interface ProgramTextures {
  /** Scene texture indices of TEXEL0 / TEXEL1. */
  textures: [number | null, number | null]
  /** TEXEL1's refs, for its UV transform relative to TEXEL0's UVs (identity when absent). */
  refs?: [TextureRef | null, TextureRef | null]
}

/** The program of a draw call's recorded RDP state. */
export function drawProgram(s: DrawState, tex: ProgramTextures): N64Program {
  const [r0, r1] = tex.refs ?? [null, null]
  const uv1 = r0 && r1 && tex.textures[1] !== null ? tileUVMatrix(r0, r1) : IDENTITY
  return stateProgram({
    combine: [s.combineHi & 0xffffff, s.combineLo >>> 0], otherModeH: s.otherModeH, otherModeL: s.otherModeL, geometryMode: s.geometryMode,
    prim: s.primColor, primLodFrac: s.primLodFrac, primMinLevel: s.primMinLevel, env: s.envColor, blend: s.blendColor, fog: s.fogColor,
  }, tex.textures, [[...IDENTITY], uv1])
}

export interface RdpWords {
  combine: [number, number]
  otherModeH: number
  otherModeL: number
  geometryMode: number
  prim: readonly number[]
  primLodFrac: number
  primMinLevel?: number
  env?: readonly number[]
  blend?: readonly number[]
  fog?: readonly number[]
}

/** A program from raw RDP words (decoded fields derived), e.g. a game's preset table. */
export function stateProgram(w: RdpWords, textures: [number | null, number | null], uvTransforms: [UVMatrix, UVMatrix] = [[...IDENTITY], [...IDENTITY]]): N64Program {
  const texgen = texgenOf(w.geometryMode)
  return {
    combine: [w.combine[0] & 0xffffff, w.combine[1] >>> 0], cycles: cyclesOf(w.otherModeH),
    otherModeH: w.otherModeH >>> 0, otherModeL: w.otherModeL >>> 0, geometryMode: w.geometryMode >>> 0,
    prim: rgba8(w.prim), primLodFrac: w.primLodFrac & 0xff, primMinLevel: (w.primMinLevel ?? 0) & 0x1f,
    env: rgba8(w.env ?? [0, 0, 0, 0]), blend: rgba8(w.blend ?? [0, 0, 0, 0]), fog: rgba8(w.fog ?? [0, 0, 0, 0]),
    textures, uvTransforms, filter: filterOf(w.otherModeH), ...(texgen ? { texgen } : {}),
  }
}

/** A key equal for two programs exactly when they draw alike (material merging, shader caches). */
export function n64ProgramKey(p: N64Program): string {
  return JSON.stringify([p.combine, p.otherModeH, p.otherModeL, p.geometryMode, p.prim, p.primLodFrac, p.primMinLevel, p.env, p.blend, p.fog, p.textures, p.uvTransforms])
}

/** One combiner cycle's selectors (colour a, b, c, d; alpha aa, ab, ac, ad) as §2.2 numbers them. */
export interface CombineSelectors { a: number; b: number; c: number; d: number; aa: number; ab: number; ac: number; ad: number }

/** Encodes two cycles into `G_SETCOMBINE` w0 (low 24 bits) and w1 (materials.md §2.2 field table). */
export function encodeCombine(c0: CombineSelectors, c1: CombineSelectors): [number, number] {
  const w0 = ((c0.a & 15) << 20) | ((c0.c & 31) << 15) | ((c0.aa & 7) << 12) | ((c0.ac & 7) << 9) | ((c1.a & 15) << 5) | (c1.c & 31)
  const w1 = ((c0.b & 15) << 28) | ((c1.b & 15) << 24) | ((c1.aa & 7) << 21) | ((c1.ac & 7) << 18) | ((c0.d & 7) << 15) | ((c0.ab & 7) << 12) | ((c0.ad & 7) << 9) | ((c1.d & 7) << 6) | ((c1.ab & 7) << 3) | (c1.ad & 7)
  return [w0, w1 >>> 0]
}
