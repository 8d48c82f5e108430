/**
 * CPU reference evaluator of the PICA200 TexEnv stages for one fragment (materials.md §3, §4.2),
 * written from the spec's tables; the oracle the viewport's pixel tests compare against (it
 * shares no code with the shader generator).
 *
 * Inputs are /255; each stage combines, scales, clamps to 0..1; floats are kept between stages
 * and rounded (half up) at the end. Stage 0's Previous and PreviousBuffer read 0; the buffer
 * starts as the buffer colour for stage 1, and a stage k that updates it is seen from stage k + 2
 * on (the one-stage lag, vector P4) [C: Citra's rasterizer TEV loop].
 */
import type { PicaProgram, PicaStage } from '../scene/material-program'
import type { Rgba } from './n64-reference'

export interface PicaFragment {
  /** Source 0: the vertex colour. */
  primary?: Rgba
  /** Sources 1 and 2: fragment lighting's primary (diffuse + ambient + emission) and secondary (specular). */
  fragPrimary?: Rgba
  fragSecondary?: Rgba
  /** Sources 3–6: texture units 0–3 (3 = procedural, unused). */
  textures?: (Rgba | undefined)[]
}

export interface PicaFragmentResult {
  /** The last stage's output, 0..255, rounded half up. */
  rgba: Rgba
  /** The alpha test's verdict (true when there is none). */
  kept: boolean
  /** Each stage's output, unrounded, 0..1. */
  stages: Rgba[]
}

type V4 = [number, number, number, number]
const ZERO: V4 = [0, 0, 0, 0]
const clamp01 = (x: number) => Math.min(1, Math.max(0, x))

function source(src: number, f: PicaFragment, prev: V4, buffer: V4, constant: V4): V4 {
  const n = (c: Rgba | undefined): V4 => (c ? [c[0] / 255, c[1] / 255, c[2] / 255, c[3] / 255] : ZERO)
  if (src === 0) return n(f.primary ?? [255, 255, 255, 255])
  if (src === 1) return n(f.fragPrimary)
  if (src === 2) return n(f.fragSecondary)
  if (src >= 3 && src <= 6) return n(f.textures?.[src - 3])
  if (src === 13) return buffer
  if (src === 14) return constant
  if (src === 15) return prev
  return ZERO
}

/** Colour operand (§3): 0 rgb, 1 1−rgb, 2 aaa, 3 1−aaa, 4 rrr, 5 1−rrr, 8 ggg, 9 1−ggg, 12 bbb, 13 1−bbb (others: rgb). */
function colourOperand(op: number, c: V4): [number, number, number] {
  const inv = (v: [number, number, number]): [number, number, number] => [1 - v[0], 1 - v[1], 1 - v[2]]
  const s = (x: number): [number, number, number] => [x, x, x]
  switch (op) {
    case 1: return inv([c[0], c[1], c[2]])
    case 2: return s(c[3])
    case 3: return s(1 - c[3])
    case 4: return s(c[0])
    case 5: return s(1 - c[0])
    case 8: return s(c[1])
    case 9: return s(1 - c[1])
    case 12: return s(c[2])
    case 13: return s(1 - c[2])
    default: return [c[0], c[1], c[2]]
  }
}

/** Alpha operand (§3): 0 a, 1 1−a, 2 r, 3 1−r, 4 g, 5 1−g, 6 b, 7 1−b. */
function alphaOperand(op: number, c: V4): number {
  const v = [c[3], c[0], c[1], c[2]][(op >> 1) & 3]!
  return op & 1 ? 1 - v : v
}

/** Combiner `mode` on one channel (dot3 is handled by the caller). */
function combine(mode: number, a: number, b: number, c: number): number {
  switch (mode) {
    case 0: return a
    case 1: return a * b
    case 2: return Math.min(a + b, 1)
    case 3: return clamp01(a + b - 0.5)
    case 4: return a * c + b * (1 - c)
    case 5: return Math.max(a - b, 0)
    case 8: return Math.min(a * b + c, 1)
    case 9: return Math.min(a + b, 1) * c
    default: return a
  }
}

const dot3 = (a: number[], b: number[]) => clamp01(4 * ((a[0]! - 0.5) * (b[0]! - 0.5) + (a[1]! - 0.5) * (b[1]! - 0.5) + (a[2]! - 0.5) * (b[2]! - 0.5)))
const SCALE = [1, 2, 4]

function runStage(st: PicaStage, f: PicaFragment, prev: V4, buffer: V4): V4 {
  const k: V4 = [st.constant[0] / 255, st.constant[1] / 255, st.constant[2] / 255, st.constant[3] / 255]
  const col = [0, 1, 2].map((i) => colourOperand(st.op[i]!, source(st.src[i]!, f, prev, buffer, k)))
  const alp = [3, 4, 5].map((i) => alphaOperand(st.op[i]!, source(st.src[i]!, f, prev, buffer, k)))
  const cs = SCALE[st.scale[0]] ?? 1, as = SCALE[st.scale[1]] ?? 1
  let rgb: number[]
  if (st.mode[0] === 6 || st.mode[0] === 7) rgb = [0, 1, 2].map(() => dot3(col[0]!, col[1]!))
  else rgb = [0, 1, 2].map((ch) => combine(st.mode[0], col[0]![ch]!, col[1]![ch]!, col[2]![ch]!))
  // Dot3_RGBA writes the colour dot product to alpha as well (the alpha combiner is not used).
  const a = st.mode[0] === 7 ? rgb[0]! : st.mode[1] === 6 || st.mode[1] === 7 ? alp[0]! : combine(st.mode[1], alp[0]!, alp[1]!, alp[2]!)
  return [clamp01(rgb[0]! * cs), clamp01(rgb[1]! * cs), clamp01(rgb[2]! * cs), clamp01(a * (st.mode[0] === 7 ? cs : as))]
}

/** Alpha test functions 0–7 (never, always, =, ≠, <, ≤, >, ≥) of the 8-bit alpha against ref. */
function alphaPasses(func: number, a: number, ref: number): boolean {
  return [false, true, a === ref, a !== ref, a < ref, a <= ref, a > ref, a >= ref][func] ?? true
}

/** Evaluates one fragment of a PICA program (materials.md §4.2). */
export function evaluatePicaFragment(p: PicaProgram, f: PicaFragment): PicaFragmentResult {
  let prev: V4 = ZERO
  let buffer: V4 = ZERO
  let next: V4 = [p.bufferColor[0] / 255, p.bufferColor[1] / 255, p.bufferColor[2] / 255, p.bufferColor[3] / 255]
  const stages: Rgba[] = []
  p.stages.forEach((st, i) => {
    prev = runStage(st, f, prev, buffer)
    stages.push(prev)
    buffer = next
    const updColour = i < 4 && (p.bufferUpdate >> (8 + i)) & 1
    const updAlpha = i < 4 && (p.bufferUpdate >> (12 + i)) & 1
    next = [updColour ? prev[0] : next[0], updColour ? prev[1] : next[1], updColour ? prev[2] : next[2], updAlpha ? prev[3] : next[3]]
  })
  const rgba = prev.map((x) => Math.floor(x * 255 + 0.5)) as Rgba
  const kept = p.alphaTest ? alphaPasses(p.alphaTest.func, rgba[3], p.alphaTest.ref) : true
  return { rgba, kept, stages }
}
