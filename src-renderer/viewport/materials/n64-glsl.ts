/**
 * N64 RDP program → GLSL fragment shader and render state (materials.md §2). Reads only the
 * neutral `N64Program` (combine words, othermodes, geometry mode), never display lists.
 *
 * The code depends on the combine words, the cycle count, the alpha-compare / coverage / blender
 * bits of otherModeL, the geometry-mode bits that change SHADE (lighting, fog) and texgen, all in
 * `programShaderKey`. Colours, textures and UV transforms are uniforms.
 *
 * Maths as §4.1: per cycle `clamp((A − B)·C + D)` with inputs as fractions of 255 (the float
 * reference; the hardware's ≤ 2 LSB rounding differences are not reproduced).
 */
import type { N64Program } from '@shared/scene/material-program'

/** F3DEX2 geometry-mode bits the shader depends on (gbi.h). */
export const GEO = { FOG: 0x10000, LIGHTING: 0x20000 } as const
/** otherModeL bits (gbi.h; materials.md §2.4). */
const OML = { AC_MASK: 0x3, Z_UPD: 1 << 5, ZMODE_SHIFT: 10, CVG_X_ALPHA: 1 << 12, ALPHA_CVG_SEL: 1 << 13, FORCE_BL: 1 << 14 } as const

export interface CombineCycle {
  a: number; b: number; c: number; d: number
  aa: number; ab: number; ac: number; ad: number
}

/** The two cycles of `G_SETCOMBINE` (§2.2 table; w0 without its opcode byte). */
export function combineCycles(w0: number, w1: number): [CombineCycle, CombineCycle] {
  return [
    { a: (w0 >>> 20) & 0xf, c: (w0 >>> 15) & 0x1f, aa: (w0 >>> 12) & 7, ac: (w0 >>> 9) & 7, b: (w1 >>> 28) & 0xf, d: (w1 >>> 15) & 7, ab: (w1 >>> 12) & 7, ad: (w1 >>> 9) & 7 },
    { a: (w0 >>> 5) & 0xf, c: w0 & 0x1f, aa: (w1 >>> 21) & 7, ac: (w1 >>> 18) & 7, b: (w1 >>> 24) & 0xf, d: (w1 >>> 6) & 7, ab: (w1 >>> 3) & 7, ad: w1 & 7 },
  ]
}

// Colour inputs (§2.2). `cmb` is COMBINED (0 in cycle 0), t0/t1 the texels, shade, uPrim, uEnv.
const COMMON_RGB = ['cmb.rgb', 't0.rgb', 't1.rgb', 'uPrim.rgb', 'shade.rgb', 'uEnv.rgb']
const Z3 = 'vec3(0.0)'
function colorA(v: number): string {
  return v < 6 ? COMMON_RGB[v] : v === 6 ? 'vec3(1.0)' : v === 7 ? 'vec3(noise())' : Z3
}
function colorB(v: number): string {
  // 6 CENTER and 7 K4 are chroma-key / YUV constants: 0 for models (§2.3).
  return v < 6 ? COMMON_RGB[v] : Z3
}
const C_EXTRA = ['vec3(cmb.a)', 'vec3(t0.a)', 'vec3(t1.a)', 'vec3(uPrim.a)', 'vec3(shade.a)', 'vec3(uEnv.a)', 'vec3(0.0)', 'vec3(uPrimLodFrac)']
function colorC(v: number): string {
  // 6 SCALE → 0; 7 COMBINED_ALPHA … 14 PRIM_LOD_FRAC; 13 LOD_FRACTION → 0 (no mip LOD); 15 K5, 16–31 → 0.
  if (v < 6) return COMMON_RGB[v]
  if (v >= 7 && v <= 14) return C_EXTRA[v - 7]
  return Z3
}
function colorD(v: number): string {
  return v < 6 ? COMMON_RGB[v] : v === 6 ? 'vec3(1.0)' : Z3
}
const ALPHA_ABD = ['cmb.a', 't0.a', 't1.a', 'uPrim.a', 'shade.a', 'uEnv.a', '1.0', '0.0']
const ALPHA_C = ['0.0', 't0.a', 't1.a', 'uPrim.a', 'shade.a', 'uEnv.a', 'uPrimLodFrac', '0.0']

/** GLSL of one cycle: `cmb` becomes the cycle's output (clamped). */
export function cycleGlsl(c: CombineCycle): string {
  const rgb = `clamp((${colorA(c.a)} - ${colorB(c.b)}) * ${colorC(c.c)} + ${colorD(c.d)}, 0.0, 1.0)`
  const a = `clamp((${ALPHA_ABD[c.aa]} - ${ALPHA_ABD[c.ab]}) * ${ALPHA_C[c.ac]} + ${ALPHA_ABD[c.ad]}, 0.0, 1.0)`
  return `cmb = vec4(${rgb}, ${a});`
}

/** How the blender's final cycle is drawn on the GPU (§2.5). */
export type N64Blend = 'opaque' | 'alpha' | 'add'

export interface N64RenderState {
  blend: N64Blend
  /** Depth writes (Z_UPD; translucent draws never write). */
  depthWrite: boolean
  /** ZMODE decal: polygon offset toward the camera. */
  decal: boolean
}

interface BlendCycle { p: number; a: number; m: number; b: number }
function blendCycles(oml: number): [BlendCycle, BlendCycle] {
  const f = (s: number) => (oml >>> s) & 3
  return [{ p: f(30), a: f(26), m: f(22), b: f(18) }, { p: f(28), a: f(24), m: f(20), b: f(16) }]
}

const BL_COLOR = ['cmb.rgb', 'vec3(0.0)' /* CLR_MEM: the GPU blend */, 'uBlend.rgb', 'uFog.rgb']
const BL_A = ['cmb.a', 'uFog.a', 'shade.a', '0.0']

/** B input: 0 1MA, 1 A_MEM (the framebuffer's coverage, full inside a surface: 1), 2 ONE, 3 ZERO. */
function blB(c: BlendCycle): string {
  return c.b === 0 ? `(1.0 - ${BL_A[c.a]})` : c.b === 3 ? '0.0' : '1.0'
}

/** GLSL of a blender cycle that stays inside the shader (no CLR_MEM): `cmb.rgb = P·A + M·B`. */
function blendInShader(c: BlendCycle): string {
  return `cmb.rgb = clamp(${BL_COLOR[c.p]} * ${BL_A[c.a]} + ${BL_COLOR[c.m]} * ${blB(c)}, 0.0, 1.0);`
}

/**
 * The blender (§2.5): in 2-cycle mode cycle 0 always runs (fog, pass); the last cycle runs only
 * with FORCE_BL (otherwise the pixel is CLR_IN). A last cycle reading CLR_MEM becomes GPU
 * blending (src = the other colour, the shader's output alpha its weight); one without stays in
 * the shader. CLR_MEM in cycle 0 of a 2-cycle mode is not reproduced (pass) [?].
 */
function blenderGlsl(p: N64Program): { code: string; blend: N64Blend } {
  const [c0, c1] = blendCycles(p.otherModeL)
  const lines: string[] = []
  const usesMem = (c: BlendCycle) => c.p === 1 || c.m === 1
  if (p.cycles === 2 && !usesMem(c0)) lines.push(blendInShader(c0))
  const last = p.cycles === 2 ? c1 : c0
  let blend: N64Blend = 'opaque'
  if (p.otherModeL & OML.FORCE_BL) {
    if (!usesMem(last)) lines.push(blendInShader(last))
    else if (last.m === 1 && last.p !== 1) {
      // P·A + MEM·B: 1MA → alpha blend; ONE → additive; A_MEM → alpha blend [?]; ZERO → P·A, opaque.
      if (last.b === 3) lines.push(`cmb.rgb = ${BL_COLOR[last.p]} * ${BL_A[last.a]};`)
      else {
        lines.push(`cmb.rgb = ${BL_COLOR[last.p]}; outA = ${BL_A[last.a]};`)
        blend = last.b === 2 ? 'add' : 'alpha'
      }
    } else if (last.p === 1 && last.m !== 1 && last.b === 0) {
      // MEM·A + M·(1 − A): the same alpha blend with the roles swapped.
      lines.push(`outA = 1.0 - ${BL_A[last.a]}; cmb.rgb = ${BL_COLOR[last.m]};`)
      blend = 'alpha'
    }
  }
  return { code: lines.join('\n  '), blend }
}

/** Alpha compare (§2.4): the GLSL that discards, given the compared alpha `acmp`. */
function alphaCompareGlsl(p: N64Program): string {
  const oml = p.otherModeL
  const ac = oml & OML.AC_MASK
  const cvgSel = !!(oml & OML.ALPHA_CVG_SEL)
  const cvgXAlpha = !!(oml & OML.CVG_X_ALPHA)
  const out: string[] = []
  // The compared value: the combined alpha (cycle 0's in 2-cycle mode), or the coverage (1) with ALPHA_CVG_SEL, × alpha with CVG_X_ALPHA.
  const acmp = cvgSel ? (cvgXAlpha ? 'acmp' : '1.0') : 'acmp'
  if (ac === 1) out.push(`if (${acmp} < uBlend.a) discard;`)
  else if (ac === 3) out.push(`if (${acmp} < 0.5) discard;`) // dither: threshold 0.5 [I]
  // *_TEX_EDGE cut-outs: coverage × alpha drops the pixel where it reaches 0 — alpha test at 0.5 [N][I].
  if (cvgSel && cvgXAlpha) out.push('if (acmp < 0.5) discard;')
  return out.join('\n  ')
}

export function n64RenderState(p: N64Program): N64RenderState {
  const { blend } = blenderGlsl(p)
  const zmode = (p.otherModeL >>> OML.ZMODE_SHIFT) & 3
  return { blend, depthWrite: blend === 'opaque' && !!(p.otherModeL & OML.Z_UPD), decal: zmode === 3 }
}

/** Fragment shader of an N64 program (uniform names shared with program-material.ts). */
export function n64Fragment(p: N64Program): string {
  const [c0, c1] = combineCycles(p.combine[0], p.combine[1])
  const { code: blender } = blenderGlsl(p)
  return `precision highp float;
varying vec2 vUV0;
varying vec2 vUV1;
varying vec4 vShade;
uniform sampler2D tex0;
uniform sampler2D tex1;
uniform vec4 uTexOn;
uniform vec4 uPrim;
uniform vec4 uEnv;
uniform vec4 uBlend;
uniform vec4 uFog;
uniform float uPrimLodFrac;
uniform float uOpaque;
uniform float uNoiseSeed;
float noise() { return fract(sin(dot(gl_FragCoord.xy + uNoiseSeed, vec2(12.9898, 78.233))) * 43758.5453); }
void main(void) {
  vec4 t0 = mix(vec4(1.0), texture2D(tex0, vUV0), uTexOn.x);
  vec4 t1 = mix(vec4(1.0), texture2D(tex1, vUV1), uTexOn.y);
  vec4 shade = vShade;
  vec4 cmb = vec4(0.0);
  ${cycleGlsl(c0)}
  float acmp = cmb.a;
  ${p.cycles === 2 ? cycleGlsl(c1) : ''}
  ${p.cycles === 1 ? 'acmp = cmb.a;' : ''}
  ${alphaCompareGlsl(p)}
  float outA = cmb.a;
  ${blender}
  gl_FragColor = vec4(cmb.rgb, mix(outA, 1.0, uOpaque));
}
`
}
