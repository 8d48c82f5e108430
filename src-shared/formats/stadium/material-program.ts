/**
 * Stadium material programs (materials.md §2.9, pokemon-stadium.md §7.2–§7.3): the combiner
 * preset's equations as `G_SETCOMBINE` words (built from the spec's table, not copied from the
 * game's `D_8006F1B4`), the render layer's render mode as othermode L, 2-cycle bilinear, the
 * triangle's geometry mode; the instance fade (PRIM_LOD_FRAC) at its normal 255.
 */
import type { N64Program } from '../../scene/material-program'
import { encodeCombine, stateProgram, type CombineSelectors } from '../n64/program'
import type { MaterialState } from './model-graph'

// §2.2 selector numbers.
const COMBINED = 0, TEXEL0 = 1, PRIM = 3, SHADE = 4
const ZERO_A = 15, ZERO_B = 15, ZERO_C = 31, ZERO_D = 7 // colour slots' "0"
const ALPHA_ZERO = 7, TEXEL0_ALPHA_C = 8, PRIM_LOD_FRAC_AC = 6

/** The preset's two combiner cycles (§7.2): cycle 0 the base term, cycle 1 × SHADE (presets 0–4) and alpha × PRIM_LOD_FRAC. */
export function presetCycles(preset: number): [CombineSelectors, CombineSelectors] {
  const p = ((preset % 15) + 15) % 15
  const base = p % 5
  const group = Math.floor(p / 5)
  const X = group === 2 ? SHADE : PRIM // presets 10–14: SHADE takes PRIM's place
  const colour: Pick<CombineSelectors, 'a' | 'b' | 'c' | 'd'> =
    base === 0 ? { a: ZERO_A, b: ZERO_B, c: ZERO_C, d: X }
      : base === 2 ? { a: TEXEL0, b: X, c: TEXEL0_ALPHA_C, d: X } // lerp(X → TEXEL0 by TEXEL0.a)
        : { a: TEXEL0, b: ZERO_B, c: X, d: ZERO_D }
  const alpha: Pick<CombineSelectors, 'aa' | 'ab' | 'ac' | 'ad'> =
    base === 1 ? { aa: ALPHA_ZERO, ab: ALPHA_ZERO, ac: ALPHA_ZERO, ad: TEXEL0 }
      : base === 2 ? { aa: ALPHA_ZERO, ab: ALPHA_ZERO, ac: ALPHA_ZERO, ad: ALPHA_ZERO }
        : base === 4 ? { aa: TEXEL0, ab: ALPHA_ZERO, ac: X, ad: ALPHA_ZERO }
          : { aa: ALPHA_ZERO, ab: ALPHA_ZERO, ac: ALPHA_ZERO, ad: X } // 0 and 3
  const shadeColour = group === 0 ? { a: COMBINED, b: ZERO_B, c: SHADE, d: ZERO_D } : { a: ZERO_A, b: ZERO_B, c: ZERO_C, d: COMBINED }
  const fade = { aa: COMBINED, ab: ALPHA_ZERO, ac: PRIM_LOD_FRAC_AC, ad: ALPHA_ZERO }
  return [{ ...colour, ...alpha }, { ...shadeColour, ...fade }]
}

/** gbi.h render-mode flag bits and blender words (materials.md §2.4–§2.5). */
const AA_EN = 0x8, Z_CMP = 0x10, Z_UPD = 0x20, IM_RD = 0x40, CLR_ON_CVG = 0x80, CVG_DST_WRAP = 0x100
const ZMODE_XLU = 0x800, ZMODE_DEC = 0xc00, CVG_X_ALPHA = 0x1000, ALPHA_CVG_SEL = 0x2000, FORCE_BL = 0x4000
/** Cycle 0 of a 2-cycle mode: G_RM_PASS (CLR_IN·0 + CLR_IN·1). */
const PASS_C1 = (3 << 26) | (2 << 18)
/** Cycle 1 blenders: CLR_IN·A_IN + CLR_MEM·A_MEM (opaque), CLR_IN·A_IN + CLR_MEM·1MA (translucent). */
const OPA_C2 = (1 << 20) | (1 << 16)
const XLU_C2 = 1 << 20

/**
 * Othermode L of a render layer (§7.3's decoded buckets as the `G_RM_AA_ZB_*2` modes they match,
 * after `G_RM_PASS`): 1, 3 opaque surface; 2 opaque decal; 4 and unknown layers texture edge;
 * 5, 7 translucent surface; 6 translucent decal; 8 translucent with z-update.
 */
export function layerOtherModeL(layer: number): number {
  const l = layer & 0x0f
  const opa = AA_EN | Z_CMP | IM_RD | ALPHA_CVG_SEL
  const xlu = AA_EN | Z_CMP | IM_RD | CVG_DST_WRAP | CLR_ON_CVG | FORCE_BL
  let mode: number
  if (l === 1 || l === 3) mode = opa | Z_UPD | OPA_C2
  else if (l === 2) mode = opa | CVG_DST_WRAP | ZMODE_DEC | OPA_C2
  else if (l === 5 || l === 7) mode = xlu | ZMODE_XLU | XLU_C2
  else if (l === 6) mode = xlu | ZMODE_DEC | XLU_C2
  else if (l === 8) mode = xlu | Z_UPD | ZMODE_XLU | XLU_C2
  else mode = opa | Z_UPD | CVG_X_ALPHA | OPA_C2
  return (PASS_C1 | mode) >>> 0
}

/** 2-cycle (G_CYC_2CYCLE), bilinear (G_TF_BILERP). */
const OTHER_MODE_H = (1 << 20) | (2 << 12)

/** The program of a Stadium material drawn on `layer` with `geometryMode`; `texture` is TEXEL0's scene index. */
export function stadiumProgram(ms: MaterialState | null, layer: number, geometryMode: number, texture: number | null): N64Program {
  const preset = ms?.preset ?? 0
  const prim = !ms ? [255, 255, 255, 255] : preset % 15 === 1 ? [255, 255, 255, 255] : ms.prim
  return stateProgram({
    combine: encodeCombine(...presetCycles(preset)), otherModeH: OTHER_MODE_H, otherModeL: layerOtherModeL(layer), geometryMode,
    prim, primLodFrac: 255,
  }, [texture, null])
}
