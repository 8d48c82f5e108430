/**
 * The half-block search of the ETC1 encoder (etc1.ts): for 8 pixels, the base colour, modifier
 * table and per-pixel modifiers with the least squared RGB error, in individual (4-bit) or
 * differential (5-bit, constrained) mode.
 */
import { EXPAND4, EXPAND5 } from './texel-codec'

/** How hard the encoder searches base colours around each sub-block's optimum. */
export type Etc1Effort = 'fast' | 'normal' | 'high'

/** Modifier tables (small, large) by table index 0–7. Index 0 → +small, 1 → +large, 2 → −small, 3 → −large. */
export const ETC1_TABLES: readonly (readonly [number, number])[] = [
  [2, 8], [5, 17], [9, 29], [13, 42], [18, 60], [24, 80], [33, 106], [47, 183],
]
/** Modifier by table·4 + index. */
export const MOD = new Int32Array(32)
for (let t = 0; t < 8; t++) {
  const [s, l] = ETC1_TABLES[t]!
  MOD[t * 4] = s; MOD[t * 4 + 1] = l; MOD[t * 4 + 2] = -s; MOD[t * 4 + 3] = -l
}

/** Result of a half-block search. */
export interface Half {
  q0: number; q1: number; q2: number
  table: number
  idx: Int32Array
  err: number
}

export function newHalf(): Half {
  return { q0: 0, q1: 0, q2: 0, table: 0, idx: new Int32Array(8), err: Infinity }
}

// Scratch of the half-block search (the encoder is synchronous: one set per thread suffices).
const CAND = new Int32Array(3 * 6)
const NC = new Int32Array(3)
const IDX = new Int32Array(8)
/** Per pixel, against the current base: S = Σc (p − e), Q = Σc (p − e)². */
const SUM = new Int32Array(8)
const SQ = new Int32Array(8)
/** The base SUM/SQ were computed for (−1: none; reset whenever the pixels change). */
let sqE0 = -1, sqE1 = -1, sqE2 = -1

/** Fills CAND/NC with the quantised candidates of channel `c` around real value `real`. */
function candidates(c: number, real: number, maxQ: number, lo: ArrayLike<number>, hi: ArrayLike<number>, effort: Etc1Effort): void {
  const v = (real * maxQ) / 255
  const spread = effort === 'high' ? 1 : 0
  const from = effort === 'fast' ? Math.round(v) : Math.floor(v) - spread
  const to = effort === 'fast' ? Math.round(v) : Math.ceil(v) + spread
  let n = 0
  for (let q = from; q <= to; q++) {
    const qq = Math.min(hi[c]!, Math.max(lo[c]!, Math.min(maxQ, Math.max(0, q))))
    let dup = false
    for (let j = 0; j < n; j++) if (CAND[c * 6 + j] === qq) dup = true
    if (!dup) CAND[c * 6 + n++] = qq
  }
  NC[c] = n
}

/**
 * Squared error of the 8 pixels against base (e0, e1, e2) with table `t`, each pixel taking its
 * best modifier (ties to the lower index, in the order +small, +large, −small, −large); indices
 * into IDX. Stops once the sum reaches `limit`. Where no channel can clamp (the base ± the
 * large modifier stays in 0..255), the error of modifier m is Q − 2mS + 3m² from SUM/SQ
 * (computed once per base); otherwise each modifier is evaluated with clamping.
 */
function tableError(px: Int32Array, e0: number, e1: number, e2: number, t: number, limit: number): number {
  const m0 = MOD[t * 4]!, m1 = MOD[t * 4 + 1]!, m2 = MOD[t * 4 + 2]!, m3 = MOD[t * 4 + 3]!
  const mn = e0 < e1 ? (e0 < e2 ? e0 : e2) : e1 < e2 ? e1 : e2
  const mx = e0 > e1 ? (e0 > e2 ? e0 : e2) : e1 > e2 ? e1 : e2
  let sum = 0
  if (mn - m1 >= 0 && mx + m1 <= 255) {
    if (e0 !== sqE0 || e1 !== sqE1 || e2 !== sqE2) {
      sqE0 = e0; sqE1 = e1; sqE2 = e2
      for (let p = 0; p < 8; p++) {
        const d0 = px[p * 3]! - e0, d1 = px[p * 3 + 1]! - e1, d2 = px[p * 3 + 2]! - e2
        SUM[p] = d0 + d1 + d2
        SQ[p] = d0 * d0 + d1 * d1 + d2 * d2
      }
    }
    const c0 = 3 * m0 * m0, c1 = 3 * m1 * m1
    for (let p = 0; p < 8 && sum < limit; p++) {
      const s2 = 2 * SUM[p]!
      // m2 = −m0, m3 = −m1: 3m² is shared by each pair
      const a0 = c0 - m0 * s2, a1 = c1 - m1 * s2, a2 = c0 + m0 * s2, a3 = c1 + m1 * s2
      let be = a0, bk = 0
      if (a1 < be) { be = a1; bk = 1 }
      if (a2 < be) { be = a2; bk = 2 }
      if (a3 < be) { be = a3; bk = 3 }
      IDX[p] = bk
      sum += SQ[p]! + be
    }
    return sum
  }
  for (let p = 0; p < 8 && sum < limit; p++) {
    const pr = px[p * 3]!, pg = px[p * 3 + 1]!, pb = px[p * 3 + 2]!
    let be = Infinity, bk = 0
    for (let k = 0; k < 4; k++) {
      const m = k === 0 ? m0 : k === 1 ? m1 : k === 2 ? m2 : m3
      let vr = e0 + m; vr = vr < 0 ? 0 : vr > 255 ? 255 : vr
      let vg = e1 + m; vg = vg < 0 ? 0 : vg > 255 ? 255 : vg
      let vb = e2 + m; vb = vb < 0 ? 0 : vb > 255 ? 255 : vb
      const e = (pr - vr) * (pr - vr) + (pg - vg) * (pg - vg) + (pb - vb) * (pb - vb)
      if (e < be) { be = e; bk = k }
    }
    IDX[p] = bk
    sum += be
  }
  return sum
}

/**
 * Best base colour (quantised to `bits` per channel, within [lo, hi] per channel), table and
 * per-pixel modifier for 8 pixels `px` (RGB, 24 values). Exhaustive over the 8 tables and the
 * 4 modifiers per pixel; base colours searched around the least-squares optimum of each table
 * (`fast`: the rounded mean only, the same base for every table).
 */
export function searchHalf(px: Int32Array, bits: 4 | 5, lo: ArrayLike<number>, hi: ArrayLike<number>, effort: Etc1Effort, best: Half): Half {
  best.err = Infinity
  const maxQ = (1 << bits) - 1
  const expand = bits === 4 ? EXPAND4 : EXPAND5
  let ar = 0, ag = 0, ab = 0
  for (let p = 0; p < 8; p++) { ar += px[p * 3]!; ag += px[p * 3 + 1]!; ab += px[p * 3 + 2]! }
  ar /= 8; ag /= 8; ab /= 8
  sqE0 = -1 // new pixels: SUM/SQ are stale
  for (let t = 0; t < 8; t++) {
    // Refine the real-valued base for this table: assign each pixel the modifier nearest to its
    // mean offset from the average, then base = mean(pixel − modifier).
    let br = ar, bg = ag, bb = ab
    if (effort !== 'fast' || t === 0) {
      if (effort !== 'fast') {
        let sr = 0, sg = 0, sb = 0
        for (let p = 0; p < 8; p++) {
          const d = (px[p * 3]! - ar + px[p * 3 + 1]! - ag + px[p * 3 + 2]! - ab) / 3
          let bm = 0, be = Infinity
          for (let k = 0; k < 4; k++) {
            const e = Math.abs(d - MOD[t * 4 + k]!)
            if (e < be) { be = e; bm = MOD[t * 4 + k]! }
          }
          sr += px[p * 3]! - bm; sg += px[p * 3 + 1]! - bm; sb += px[p * 3 + 2]! - bm
        }
        br = sr / 8; bg = sg / 8; bb = sb / 8
      }
      candidates(0, br, maxQ, lo, hi, effort)
      candidates(1, bg, maxQ, lo, hi, effort)
      candidates(2, bb, maxQ, lo, hi, effort)
    }
    for (let i0 = 0; i0 < NC[0]!; i0++) {
      const q0 = CAND[i0]!, e0 = expand[q0]!
      for (let i1 = 0; i1 < NC[1]!; i1++) {
        const q1 = CAND[6 + i1]!, e1 = expand[q1]!
        for (let i2 = 0; i2 < NC[2]!; i2++) {
          const q2 = CAND[12 + i2]!, e2 = expand[q2]!
          const sum = tableError(px, e0, e1, e2, t, best.err)
          if (sum < best.err) {
            best.err = sum; best.q0 = q0; best.q1 = q1; best.q2 = q2; best.table = t
            best.idx.set(IDX)
          }
        }
      }
    }
    if (best.err === 0) break
  }
  if (effort === 'fast' && best.err > 0) refineFast(px, maxQ, expand, lo, hi, best)
  return best
}

/**
 * The fast tier's one extra step: with the winning table and modifiers, the least-squares base
 * is mean(pixel − modifier); its rounded value is tried once (kept if better).
 */
function refineFast(px: Int32Array, maxQ: number, expand: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>, best: Half): void {
  const t = best.table
  let sr = 0, sg = 0, sb = 0
  for (let p = 0; p < 8; p++) {
    const m = MOD[t * 4 + best.idx[p]!]!
    sr += px[p * 3]! - m; sg += px[p * 3 + 1]! - m; sb += px[p * 3 + 2]! - m
  }
  const q = (v: number, c: number) => Math.min(hi[c]!, Math.max(lo[c]!, Math.min(maxQ, Math.max(0, Math.round((v / 8) * maxQ / 255)))))
  const q0 = q(sr, 0), q1 = q(sg, 1), q2 = q(sb, 2)
  if (q0 === best.q0 && q1 === best.q1 && q2 === best.q2) return
  const err = tableError(px, expand[q0]!, expand[q1]!, expand[q2]!, t, best.err)
  if (err < best.err) {
    best.err = err; best.q0 = q0; best.q1 = q1; best.q2 = q2
    best.idx.set(IDX)
  }
}

