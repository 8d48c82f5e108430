/**
 * F3DEX2 GBI constants and small decoders (standard `gbi.h` encodings; pokemon-snap.md §5.2,
 * §5.7). Shared by Snap and Stadium.
 */

export const G = {
  NOOP: 0x00, VTX: 0x01, MODIFYVTX: 0x02, CULLDL: 0x03, BRANCH_Z: 0x04, TRI1: 0x05, TRI2: 0x06, QUAD: 0x07,
  SPECIAL_3: 0xd3, SPECIAL_2: 0xd4, SPECIAL_1: 0xd5, DMA_IO: 0xd6,
  TEXTURE: 0xd7, POPMTX: 0xd8, GEOMETRYMODE: 0xd9, MTX: 0xda, MOVEWORD: 0xdb, MOVEMEM: 0xdc, LOAD_UCODE: 0xdd,
  DL: 0xde, ENDDL: 0xdf, SPNOOP: 0xe0, RDPHALF_1: 0xe1, SETOTHERMODE_L: 0xe2, SETOTHERMODE_H: 0xe3,
  TEXRECT: 0xe4, TEXRECTFLIP: 0xe5, RDPLOADSYNC: 0xe6, RDPPIPESYNC: 0xe7, RDPTILESYNC: 0xe8, RDPFULLSYNC: 0xe9,
  SETKEYGB: 0xea, SETKEYR: 0xeb, SETCONVERT: 0xec, SETSCISSOR: 0xed, SETPRIMDEPTH: 0xee, RDPSETOTHERMODE: 0xef,
  LOADTLUT: 0xf0, RDPHALF_2: 0xf1, SETTILESIZE: 0xf2, LOADBLOCK: 0xf3, LOADTILE: 0xf4, SETTILE: 0xf5,
  FILLRECT: 0xf6, SETFILLCOLOR: 0xf7, SETFOGCOLOR: 0xf8, SETBLENDCOLOR: 0xf9, SETPRIMCOLOR: 0xfa,
  SETENVCOLOR: 0xfb, SETCOMBINE: 0xfc, SETTIMG: 0xfd, SETZIMG: 0xfe, SETCIMG: 0xff,
} as const

/** F3DEX2 geometry-mode bits. */
export const GeometryMode = {
  ZBUFFER: 0x1, SHADE: 0x4, CULL_FRONT: 0x200, CULL_BACK: 0x400, CULL_BOTH: 0x600, FOG: 0x10000, LIGHTING: 0x20000,
  TEXTURE_GEN: 0x40000, TEXTURE_GEN_LINEAR: 0x80000, LOD: 0x100000, SHADING_SMOOTH: 0x200000, CLIPPING: 0x800000,
} as const

/** G_MOVEWORD indices. */
export const MW = { MATRIX: 0x00, NUMLIGHT: 0x02, CLIP: 0x04, SEGMENT: 0x06, FOG: 0x08, LIGHTCOL: 0x0a, FORCEMTX: 0x0c, PERSPNORM: 0x0e } as const

/** Othermode H shifts. */
export const OtherModeH = { ALPHADITHER: 4, RGBDITHER: 6, COMBKEY: 8, TEXTCONV: 9, TEXTFILT: 12, TEXTLUT: 14, TEXTLOD: 16, TEXTDETAIL: 17, TEXTPERSP: 19, CYCLETYPE: 20, COLORDITHER: 22, PIPELINE: 23 } as const

/** Othermode L bits (render mode lives in bits 3..31). */
export const OtherModeL = {
  ALPHACOMPARE_MASK: 0x3, ZSRCSEL: 0x4, AA_EN: 1 << 3, Z_CMP: 1 << 4, Z_UPD: 1 << 5, IM_RD: 1 << 6, CLR_ON_CVG: 1 << 7,
  ZMODE_SHIFT: 10, CVG_X_ALPHA: 1 << 12, ALPHA_CVG_SEL: 1 << 13, FORCE_BL: 1 << 14,
} as const

export interface CombineCycle {
  /** Colour (A − B) × C + D inputs. */
  a: number; b: number; c: number; d: number
  /** Alpha (A − B) × C + D inputs. */
  aa: number; ab: number; ac: number; ad: number
}

/** Decodes G_SETCOMBINE into its two cycles (pokemon-snap.md §5.7). `hi` = w0 & 0xFFFFFF. */
export function decodeCombine(hi: number, lo: number): [CombineCycle, CombineCycle] {
  return [
    {
      a: (hi >>> 20) & 0xf, c: (hi >>> 15) & 0x1f, aa: (hi >>> 12) & 0x7, ac: (hi >>> 9) & 0x7,
      b: (lo >>> 28) & 0xf, d: (lo >>> 15) & 0x7, ab: (lo >>> 12) & 0x7, ad: (lo >>> 9) & 0x7,
    },
    {
      a: (hi >>> 5) & 0xf, c: hi & 0x1f, aa: (lo >>> 21) & 0x7, ac: (lo >>> 18) & 0x7,
      b: (lo >>> 24) & 0xf, d: (lo >>> 6) & 0x7, ab: (lo >>> 3) & 0x7, ad: lo & 0x7,
    },
  ]
}

/** Colour input ids shared by the A/B/C/D slots (C has more; see §5.7). */
export const CC = { COMBINED: 0, TEXEL0: 1, TEXEL1: 2, PRIM: 3, SHADE: 4, ENV: 5 } as const
/** C-slot alpha inputs TEXEL0_A / TEXEL1_A. */
export const CC_C = { TEXEL0_A: 8, TEXEL1_A: 9, PRIM_A: 10, SHADE_A: 11, ENV_A: 12 } as const

function cycleUses(c: CombineCycle, colorId: number, alphaAsC?: number): boolean {
  const col = c.a === colorId || c.b === colorId || c.c === colorId || (c.d === colorId && c.d <= 5) || (alphaAsC !== undefined && c.c === alphaAsC)
  // alpha slots: A/B/D share ids 1..5 with colour; C alpha: 1 TEXEL0, 2 TEXEL1, 3 PRIM, 4 SHADE, 5 ENV.
  const alp = c.aa === colorId || c.ab === colorId || c.ac === colorId || c.ad === colorId
  return col || alp
}

/** True when the combiner reads an input (TEXEL0 = 1, TEXEL1 = 2, PRIM 3, SHADE 4, ENV 5) in the cycles in use. */
export function combinerUses(hi: number, lo: number, input: 1 | 2 | 3 | 4 | 5, twoCycle: boolean): boolean {
  const [c0, c1] = decodeCombine(hi, lo)
  const asC = input === 1 ? CC_C.TEXEL0_A : input === 2 ? CC_C.TEXEL1_A : input === 3 ? CC_C.PRIM_A : input === 4 ? CC_C.SHADE_A : CC_C.ENV_A
  return cycleUses(c0, input, asC) || (twoCycle && cycleUses(c1, input, asC))
}
