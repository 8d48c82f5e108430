/**
 * CPU reference evaluator of the N64 RDP colour combiner, alpha compare and blender for one pixel
 * (materials.md §2, §4.1), written from the spec's tables. It is the oracle the viewport's pixel
 * tests compare against, so it shares no code with the shader generator (nor with gbi.ts's
 * decoder): the bit fields below are read straight from §2.2.
 *
 * Float model (§2.1, §4.1): values 0..255, per cycle `clamp((A − B)·C/255 + D, 0, 255)`, cycle 1
 * sees cycle 0's unrounded output as COMBINED, rounding (half up) only at the very end.
 */
import type { N64Program } from '../scene/material-program'

/** An RGBA value, components 0..255 (floats allowed). */
export type Rgba = [number, number, number, number]

/** Per-pixel inputs that do not come from the program. */
export interface N64Pixel {
  texel0?: Rgba
  texel1?: Rgba
  /** Interpolated vertex colour / lighting result; white when absent (§2.3 G_SHADE clear). */
  shade?: Rgba
  /** The framebuffer pixel behind (CLR_MEM, A_MEM); black, alpha 255 when absent. */
  mem?: Rgba
  /** LOD_FRACTION (0 unless mip LOD is on, §2.3). */
  lodFraction?: number
  /** NOISE (exporters use 0.5, §2.3). */
  noise?: number
}

export interface N64PixelResult {
  /** Cycle 0's combiner output and (2-cycle) cycle 1's, unrounded. */
  cycle0: Rgba
  combined: Rgba
  /** False when alpha compare or coverage drops the pixel (then `rgb` is the pixel behind). */
  kept: boolean
  /** The framebuffer result after the blender, rounded half up. */
  rgb: [number, number, number]
  /** The combined alpha, rounded. */
  alpha: number
}

interface Cycle { a: number; b: number; c: number; d: number; aa: number; ab: number; ac: number; ad: number }

/** §2.2 bit fields of `G_SETCOMBINE` (w0 without its opcode byte). */
function cycles(w0: number, w1: number): [Cycle, Cycle] {
  const f = (w: number, lo: number, bits: number) => (w >>> lo) & ((1 << bits) - 1)
  return [
    { a: f(w0, 20, 4), b: f(w1, 28, 4), c: f(w0, 15, 5), d: f(w1, 15, 3), aa: f(w0, 12, 3), ab: f(w1, 12, 3), ac: f(w0, 9, 3), ad: f(w1, 9, 3) },
    { a: f(w0, 5, 4), b: f(w1, 24, 4), c: f(w0, 0, 5), d: f(w1, 6, 3), aa: f(w1, 21, 3), ab: f(w1, 3, 3), ac: f(w1, 18, 3), ad: f(w1, 0, 3) },
  ]
}

interface Sources { combined: Rgba; t0: Rgba; t1: Rgba; prim: Rgba; shade: Rgba; env: Rgba; lod: number; primLod: number; noise: number }

const ZERO3: [number, number, number] = [0, 0, 0]
const ONE3: [number, number, number] = [255, 255, 255]
const rgb = (c: Rgba): [number, number, number] => [c[0], c[1], c[2]]
const splat = (v: number): [number, number, number] => [v, v, v]

/** Colour inputs 0–5, shared by the A, B, C and D slots. */
function common(s: Sources, v: number): [number, number, number] | undefined {
  return [rgb(s.combined), rgb(s.t0), rgb(s.t1), rgb(s.prim), rgb(s.shade), rgb(s.env)][v]
}

/** Colour input `v` of slot `slot` (§2.2 table; K4/K5, CENTER/SCALE are 0 for models). */
function colourInput(s: Sources, slot: 'a' | 'b' | 'c' | 'd', v: number): [number, number, number] {
  const c = common(s, v)
  if (c) return c
  if (slot === 'a') return v === 6 ? ONE3 : v === 7 ? splat(s.noise) : ZERO3
  if (slot === 'b') return ZERO3 // 6 CENTER, 7 K4, 8–15 0
  if (slot === 'd') return v === 6 ? ONE3 : ZERO3
  const alphaC = [0, s.combined[3], s.t0[3], s.t1[3], s.prim[3], s.shade[3], s.env[3], s.lod, s.primLod, 0][v - 6]
  return splat(alphaC ?? 0) // 6 SCALE, 7 COMBINED_ALPHA, 8–12 alphas, 13 LOD, 14 PRIM_LOD_FRAC, 15 K5, 16–31 0
}

/** Alpha input `v`: A/B/D 0–5 the sources' alphas, 6 one, 7 zero; C: 0 LOD_FRACTION, 6 PRIM_LOD_FRAC, 7 zero. */
function alphaInput(s: Sources, slot: 'abd' | 'c', v: number): number {
  const alphas = [s.combined[3], s.t0[3], s.t1[3], s.prim[3], s.shade[3], s.env[3]]
  if (slot === 'c') return v === 0 ? s.lod : v === 6 ? s.primLod : v === 7 ? 0 : alphas[v]!
  return v === 6 ? 255 : v === 7 ? 0 : alphas[v]!
}

const clamp255 = (x: number) => Math.min(255, Math.max(0, x))

function runCycle(cy: Cycle, s: Sources): Rgba {
  const A = colourInput(s, 'a', cy.a), B = colourInput(s, 'b', cy.b), C = colourInput(s, 'c', cy.c), D = colourInput(s, 'd', cy.d)
  const out = [0, 1, 2].map((k) => clamp255(((A[k]! - B[k]!) * C[k]!) / 255 + D[k]!))
  const a = clamp255(((alphaInput(s, 'abd', cy.aa) - alphaInput(s, 'abd', cy.ab)) * alphaInput(s, 'c', cy.ac)) / 255 + alphaInput(s, 'abd', cy.ad))
  return [out[0]!, out[1]!, out[2]!, a]
}

/** Alpha compare and coverage (§2.4): is the pixel written? `a0` = cycle 0's alpha, `a` = the final one. */
function keeps(L: number, twoCycle: boolean, a0: number, a: number, blendAlpha: number): boolean {
  const cvgSel = (L & (1 << 13)) !== 0
  const cvgXAlpha = (L & (1 << 12)) !== 0
  // The `*_TEX_EDGE` cut-out: coverage × alpha drops the pixel where it reaches 0 — alpha test at 0.5 [?].
  if (cvgSel && cvgXAlpha && a < 127.5) return false
  const mode = L & 3
  if (mode === 0 || mode === 2) return true
  const combinedA = twoCycle ? a0 : a
  const cmp = cvgSel ? (cvgXAlpha ? combinedA : 255) : combinedA
  return mode === 1 ? cmp >= blendAlpha : cmp >= 127.5 // 3 dither: rendered as threshold 0.5 (§2.4)
}

/** One blender cycle's P·A + M·B (§2.5); selectors at the given bit positions of otherModeL. */
function blendCycle(L: number, shifts: [number, number, number, number], clrIn: number[], aIn: number, p: N64Program, px: N64Pixel): number[] {
  const mem = px.mem ?? [0, 0, 0, 255]
  const colour = (sel: number): number[] => [clrIn, rgb(mem), rgb(p.blend), rgb(p.fog)][sel]!
  const shadeA = (px.shade ?? [255, 255, 255, 255])[3]
  const A = [aIn, p.fog[3], shadeA, 0][(L >>> shifts[1]) & 3]! / 255
  const Bsel = (L >>> shifts[3]) & 3
  const B = Bsel === 0 ? 1 - A : Bsel === 1 ? mem[3] / 255 : Bsel === 2 ? 1 : 0
  const P = colour((L >>> shifts[0]) & 3), M = colour((L >>> shifts[2]) & 3)
  return [0, 1, 2].map((k) => clamp255(P[k]! * A + M[k]! * B))
}

const CYCLE0_SHIFTS: [number, number, number, number] = [30, 26, 22, 18]
const CYCLE1_SHIFTS: [number, number, number, number] = [28, 24, 20, 16]

/** The blender (§2.5): with FORCE_BL clear the pixel is the last cycle's P (no AA edges on flat quads). */
function blender(p: N64Program, px: N64Pixel, combined: Rgba): number[] {
  const L = p.otherModeL
  const force = (L & (1 << 14)) !== 0
  const pSel = (shifts: [number, number, number, number], clrIn: number[]) => [clrIn, rgb(px.mem ?? [0, 0, 0, 255]), rgb(p.blend), rgb(p.fog)][(L >>> shifts[0]) & 3]!
  let clrIn: number[] = rgb(combined)
  if (p.cycles === 2) {
    clrIn = blendCycle(L, CYCLE0_SHIFTS, clrIn, combined[3], p, px)
    return force ? blendCycle(L, CYCLE1_SHIFTS, clrIn, combined[3], p, px) : pSel(CYCLE1_SHIFTS, clrIn)
  }
  return force ? blendCycle(L, CYCLE0_SHIFTS, clrIn, combined[3], p, px) : pSel(CYCLE0_SHIFTS, clrIn)
}

const roundHalfUp = (x: number) => Math.floor(x + 0.5)

/** Evaluates one pixel of an N64 program (materials.md §4.1). */
export function evaluateN64Pixel(p: N64Program, px: N64Pixel): N64PixelResult {
  const [c0, c1] = cycles(p.combine[0], p.combine[1])
  const white: Rgba = [255, 255, 255, 255]
  const s: Sources = {
    combined: [0, 0, 0, 0], t0: px.texel0 ?? white, t1: px.texel1 ?? white, prim: p.prim, shade: px.shade ?? white, env: p.env,
    lod: px.lodFraction ?? 0, primLod: p.primLodFrac, noise: px.noise ?? 127.5,
  }
  const cycle0 = runCycle(c0, s)
  const combined = p.cycles === 2 ? runCycle(c1, { ...s, combined: cycle0 }) : cycle0
  const kept = keeps(p.otherModeL, p.cycles === 2, cycle0[3], combined[3], p.blend[3])
  const mem = px.mem ?? [0, 0, 0, 255]
  const out = kept ? blender(p, px, combined) : rgb(mem)
  return { cycle0, combined, kept, rgb: [roundHalfUp(out[0]!), roundHalfUp(out[1]!), roundHalfUp(out[2]!)], alpha: roundHalfUp(combined[3]) }
}
