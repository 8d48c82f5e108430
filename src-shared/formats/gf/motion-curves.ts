/**
 * GFMotion curves (spec §11.4; SPICA `GFMotKeyFrame.cs`, `Interpolation.cs`): a 3-bit code per
 * field — 0/1/2 no data, 3 constant f32, 4 quantised key list, 5 float key list. Keys are
 * (frame, value, slope) with slopes in value per frame; evaluation is cubic Hermite.
 */
import type { Reader } from '../../binary/reader'
import { finiteF32 } from './gf-strings'

export interface GfKey {
  frame: number
  value: number
  slope: number
}

/** `null` = not animated (the bind/default value applies). */
export type GfCurve = null | { keys: GfKey[] }

/** Reads the curve of one field; `fc` (frame count) selects u8 (≤ 255) or u16 frame numbers. */
export function readCurve(r: Reader, code: number, fc: number, field: string): GfCurve {
  if (code <= 2) return null
  const at = r.pos
  if (code === 3) return { keys: [{ frame: 0, value: finiteF32(r, `${field} constant`), slope: 0 }] }
  if (code !== 4 && code !== 5) throw r.error(`${field}: curve code ${code} is not known (0–5)`, at)
  const count = r.u32(`${field} key count`)
  const frameSize = fc <= 255 ? 1 : 2
  // Each key needs a frame number and at least 4 bytes of value/slope: stops absurd counts early.
  r.count(count, frameSize + 4, `${field} keys`)
  if (count === 0) throw r.error(`${field}: a key list with no keys`, at)
  // Bounds were checked for the whole list above: plain reads from here on.
  const frames: number[] = []
  for (let i = 0; i < count; i++) frames.push(frameSize === 1 ? r.bytes[r.pos + i]! : r.view.getUint16(r.pos + 2 * i, true))
  r.skip(count * frameSize)
  // Padding to 4 relative to the entry start (the reader's view starts at the entry).
  r.skip((4 - (r.pos % 4)) % 4, `${field} padding`)
  const keys: GfKey[] = []
  if (code === 5) {
    r.count(count, 8, `${field} keys`)
    for (let i = 0; i < count; i++) {
      const at = r.pos + 8 * i
      const value = r.view.getFloat32(at, true), slope = r.view.getFloat32(at + 4, true)
      if (!Number.isFinite(value) || !Number.isFinite(slope)) throw r.error(`${field} key ${i}: value ${value} / slope ${slope} is not a finite number`, at)
      keys.push({ frame: frames[i]!, value, slope })
    }
    r.skip(count * 8)
  } else {
    const scaleAt = r.pos
    const vs = finiteF32(r, `${field} value scale`), vo = finiteF32(r, `${field} value offset`)
    const ss = finiteF32(r, `${field} slope scale`), so = finiteF32(r, `${field} slope offset`)
    if (!Number.isFinite(vs + vo) || !Number.isFinite(ss + so)) throw r.error(`${field}: quantisation scale and offset overflow`, scaleAt)
    r.count(count, 4, `${field} keys`)
    for (let i = 0; i < count; i++) {
      const qv = r.view.getUint16(r.pos + 4 * i, true), qs = r.view.getUint16(r.pos + 4 * i + 2, true)
      keys.push({ frame: frames[i]!, value: (qv / 65535) * vs + vo, slope: (qs / 65535) * ss + so })
    }
    r.skip(count * 4)
  }
  for (let i = 1; i < keys.length; i++) {
    if (keys[i]!.frame < keys[i - 1]!.frame) throw r.error(`${field}: key frames not increasing (${keys[i - 1]!.frame} then ${keys[i]!.frame})`, at + 4)
  }
  return { keys }
}

/** Cubic Hermite of two keys at frame f (spec §11.4). */
export function hermite(l: GfKey, rk: GfKey, f: number): number {
  const d = rk.frame - l.frame
  const t = (f - l.frame) / d
  const t2 = t * t, t3 = t2 * t
  const h00 = 2 * t3 - 3 * t2 + 1, h01 = -2 * t3 + 3 * t2, h10 = t3 - 2 * t2 + t, h11 = t3 - t2
  return h00 * l.value + h01 * rk.value + d * (h10 * l.slope + h11 * rk.slope)
}

/** Value of a curve at frame f (before the first / after the last key: hold). */
export function evalCurve(c: NonNullable<GfCurve>, f: number): number {
  const k = c.keys
  if (k.length === 1 || f <= k[0]!.frame) return k[0]!.value
  if (f >= k[k.length - 1]!.frame) return k[k.length - 1]!.value
  let lo = 0, hi = k.length - 1 // invariant: k[lo].frame <= f < k[hi].frame
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (k[mid]!.frame <= f) lo = mid
    else hi = mid
  }
  const l = k[lo]!, rk = k[hi]!
  if (l.frame === f) return l.value
  return hermite(l, rk, f)
}

/** Reads `n` fields whose 3-bit codes are packed in `flags` (field e at bits 3e..3e+2). */
export function readCurves(r: Reader, flags: number, names: readonly string[], fc: number, prefix: string): GfCurve[] {
  return names.map((n, e) => readCurve(r, (flags >>> (3 * e)) & 7, fc, `${prefix} ${n}`))
}
