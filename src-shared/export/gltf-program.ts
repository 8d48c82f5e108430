/**
 * What glTF can say of a material program (materials.md §8). The program's colour and alpha are
 * folded symbolically: a result that is a product of at most one TEXEL0, constants (PRIM, ENV,
 * their alphas, PRIM_LOD_FRAC, 1) and at most one SHADE is a *monomial*, exactly
 * `baseColorTexture × baseColorFactor × COLOR_0`; anything else is baked. SHADE is tracked
 * separately: `outer` when it only multiplies the final result (kept as COLOR_0 over a bake),
 * `inner` when it enters otherwise (baked as white, approximate).
 */
import type { N64Program, PicaProgram, PicaStage } from '../scene/material-program'

/** k · TEXEL0? · SHADE? with k per channel (0..1). */
export interface Monomial { k: number[]; t0: boolean; shade: boolean }
export type ShadeUse = 'none' | 'outer' | 'inner'
export interface Folded { mono: Monomial | null; shade: ShadeUse; approximate: boolean }
export interface ProgramLook { colour: Folded; alpha: Folded }

const konst = (k: number[]): Folded => ({ mono: { k, t0: false, shade: false }, shade: 'none', approximate: false })
const isConst = (f: Folded, v?: number) => !!f.mono && !f.mono.t0 && !f.mono.shade && (v === undefined || f.mono.k.every((x) => Math.abs(x - v) < 1e-9))
const OTHER = (approximate = false, shade: ShadeUse = 'none'): Folded => ({ mono: null, shade, approximate })
const TEX: (n: number) => Folded = (n) => ({ mono: { k: Array<number>(n).fill(1), t0: true, shade: false }, shade: 'none', approximate: false })
const SHADE: (n: number) => Folded = (n) => ({ mono: { k: Array<number>(n).fill(1), t0: false, shade: true }, shade: 'outer', approximate: false })

function product(x: Folded, y: Folded): Folded {
  const approximate = x.approximate || y.approximate
  if (isConst(x, 0) || isConst(y, 0)) return konst(x.mono ? x.mono.k.map(() => 0) : y.mono!.k.map(() => 0))
  const shade: ShadeUse = x.shade === 'none' ? y.shade : y.shade === 'none' ? x.shade : 'inner'
  if (x.mono && y.mono && !(x.mono.t0 && y.mono.t0) && !(x.mono.shade && y.mono.shade)) {
    return { mono: { k: x.mono.k.map((v, i) => v * y.mono!.k[i]!), t0: x.mono.t0 || y.mono.t0, shade: x.mono.shade || y.mono.shade }, shade, approximate }
  }
  return { mono: null, shade, approximate }
}

/** (A − B) × C + D folded. */
function combine(A: Folded, B: Folded, C: Folded, D: Folded): Folded {
  const approximate = A.approximate || B.approximate || C.approximate || D.approximate
  if ([A, B, C, D].every((f) => isConst(f))) {
    const k = D.mono!.k.map((d, i) => Math.min(1, Math.max(0, (A.mono!.k[i]! - B.mono!.k[i]!) * C.mono!.k[i]! + d)))
    return { ...konst(k), approximate }
  }
  const aMinusBZero = isConst(B, 0) ? isConst(A, 0) : isConst(A) && isConst(B) && A.mono!.k.every((v, i) => v === B.mono!.k[i])
  if (isConst(C, 0) || aMinusBZero) return { ...D, approximate }
  if (isConst(B, 0) && isConst(D, 0)) return { ...product(A, C), approximate }
  if (isConst(B, 0) && isConst(C, 1) && isConst(D, 0)) return { ...A, approximate }
  const any = [A, B, C, D].some((f) => f.shade !== 'none')
  return OTHER(approximate, any ? 'inner' : 'none')
}

interface N64Ctx { p: N64Program; combined: Folded; combinedA: Folded; lodApprox: boolean }

const rgb255 = (c: readonly number[]) => [c[0]! / 255, c[1]! / 255, c[2]! / 255]
const splat3 = (v: number) => [v, v, v]

/** Colour input `v` of slot `slot` (materials.md §2.2). */
function n64Colour(x: N64Ctx, slot: 'a' | 'b' | 'c' | 'd', v: number): Folded {
  const p = x.p
  switch (v) {
    case 0: return x.combined
    case 1: return TEX(3)
    case 2: return OTHER()
    case 3: return konst(rgb255(p.prim))
    case 4: return SHADE(3)
    case 5: return konst(rgb255(p.env))
  }
  if (slot === 'a') return v === 6 ? konst(splat3(1)) : v === 7 ? OTHER(true) : konst(splat3(0))
  if (slot === 'b') return konst(splat3(0))
  if (slot === 'd') return konst(splat3(v === 6 ? 1 : 0))
  switch (v) {
    case 7: return x.combinedA.mono ? { ...x.combinedA, mono: { ...x.combinedA.mono, k: splat3(x.combinedA.mono.k[0]!) } } : OTHER(x.combinedA.approximate, x.combinedA.shade === 'none' ? 'none' : 'inner')
    case 8: case 9: return OTHER()
    case 10: return konst(splat3(p.prim[3] / 255))
    case 11: return OTHER(false, 'inner')
    case 12: return konst(splat3(p.env[3] / 255))
    case 13: return { ...konst(splat3(0)), approximate: x.lodApprox }
    case 14: return konst(splat3(p.primLodFrac / 255))
    default: return konst(splat3(0))
  }
}

function n64Alpha(x: N64Ctx, slot: 'abd' | 'c', v: number): Folded {
  const p = x.p
  if (slot === 'c' && v === 0) return { ...konst([0]), approximate: x.lodApprox }
  if (slot === 'c' && v === 6) return konst([p.primLodFrac / 255])
  switch (v) {
    case 0: return x.combinedA
    case 1: return TEX(1)
    case 2: return OTHER()
    case 3: return konst([p.prim[3] / 255])
    case 4: return SHADE(1)
    case 5: return konst([p.env[3] / 255])
    case 6: return konst([1])
    default: return konst([0])
  }
}

/** Folds an N64 program's combiner (cycle 0, then cycle 1 in 2-cycle mode). */
export function foldN64(p: N64Program): ProgramLook {
  const [w0, w1] = p.combine
  const f = (w: number, lo: number, bits: number) => (w >>> lo) & ((1 << bits) - 1)
  const cycles = [
    [f(w0, 20, 4), f(w1, 28, 4), f(w0, 15, 5), f(w1, 15, 3), f(w0, 12, 3), f(w1, 12, 3), f(w0, 9, 3), f(w1, 9, 3)],
    [f(w0, 5, 4), f(w1, 24, 4), f(w0, 0, 5), f(w1, 6, 3), f(w1, 21, 3), f(w1, 3, 3), f(w1, 18, 3), f(w1, 0, 3)],
  ]
  const lodApprox = ((p.otherModeH >>> 16) & 1) === 1 // G_TL_LOD: LOD_FRACTION is not 0
  const x: N64Ctx = { p, combined: konst(splat3(0)), combinedA: konst([0]), lodApprox }
  for (const cy of cycles.slice(0, p.cycles)) {
    const [a, b, c, d, aa, ab, ac, ad] = cy as [number, number, number, number, number, number, number, number]
    const colour = combine(n64Colour(x, 'a', a), n64Colour(x, 'b', b), n64Colour(x, 'c', c), n64Colour(x, 'd', d))
    const alpha = combine(n64Alpha(x, 'abd', aa), n64Alpha(x, 'abd', ab), n64Alpha(x, 'c', ac), n64Alpha(x, 'abd', ad))
    x.combined = colour
    x.combinedA = alpha
  }
  const extra = p.texgen !== undefined || (p.geometryMode & 0x10000) !== 0 // texgen, fog: not expressible
  return { colour: { ...x.combined, approximate: x.combined.approximate || extra }, alpha: { ...x.combinedA, approximate: x.combinedA.approximate || extra } }
}

const PASS = (s: PicaStage) => s.src[0] === 15 && s.src[3] === 15 && s.op[0] === 0 && s.op[3] === 0 && s.mode[0] === 0 && s.mode[1] === 0 && s.scale[0] === 0 && s.scale[1] === 0

/** A PICA source as a factor: texture 0, primary colour (COLOR_0), a stage constant, fragment primary (glTF's own lighting stands in: 1). */
function picaFactor(src: number, op: number, constant: readonly number[], n: 3 | 1): Folded {
  if (op !== 0) return OTHER()
  if (src === 3) return TEX(n)
  if (src === 0) return SHADE(n)
  if (src === 1) return konst(Array<number>(n).fill(1))
  if (src === 14) return konst(n === 3 ? rgb255(constant) : [constant[3]! / 255])
  return OTHER()
}

/** Folds a PICA program: one effective stage of Replace / Modulate of plain sources is a monomial; the rest is baked. */
export function foldPica(p: PicaProgram): ProgramLook {
  const stages = p.stages.filter((s) => !PASS(s))
  const usesLight = stages.some((s) => s.src.some((x, i) => (x === 1 || x === 2 || x === 0) && usedSlot(s, i)))
  const baked: ProgramLook = { colour: OTHER(usesLight), alpha: OTHER(usesLight) }
  if (stages.length !== 1) return baked
  const s = stages[0]!
  if (s.scale[0] !== 0 || s.scale[1] !== 0) return baked
  const side = (mode: number, first: number, n: 3 | 1): Folded => {
    const A = picaFactor(s.src[first]!, s.op[first]!, s.constant, n)
    if (mode === 0) return A
    if (mode === 1) return product(A, picaFactor(s.src[first + 1]!, s.op[first + 1]!, s.constant, n))
    return OTHER(usesLight)
  }
  return { colour: side(s.mode[0], 0, 3), alpha: side(s.mode[1], 3, 1) }
}

/** Whether source slot `i` (0–2 colour, 3–5 alpha) takes part in its combiner. */
function usedSlot(s: PicaStage, i: number): boolean {
  const mode = s.mode[i < 3 ? 0 : 1]
  const k = i % 3
  return k === 0 || (k === 1 && mode !== 0) || (k === 2 && (mode === 4 || mode === 8 || mode === 9))
}
