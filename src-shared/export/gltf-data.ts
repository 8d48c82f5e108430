/**
 * Data adaptations the glTF exporter makes (see the list in gltf.ts): numbers for JSON extras,
 * PNG bytes of textures, renormalised normals and quaternions, clamped colours, clean skin
 * attributes. Pure: no fs, no DOM.
 */
import { encodeRgbaPng } from './png'
import type { Texture } from '../scene/types'

/** Numbers for JSON extras: float32 values printed with enough digits to read back exactly. */
export function jsonFloats(a: ArrayLike<number>): number[] {
  const out = new Array<number>(a.length)
  for (let i = 0; i < a.length; i++) {
    const f = Math.fround(a[i])
    // a whole number below 10^6 is its own shortest form (toPrecision(6) prints it exactly; −0 as 0)
    if (Number.isInteger(f) && Math.abs(f) < 1e6) {
      out[i] = f === 0 ? 0 : f
      continue
    }
    // The shortest decimal that reads back as the same float32, else 9 digits.
    let v: number | undefined
    for (let p = 6; p < 9 && v === undefined; p++) {
      const c = Number(f.toPrecision(p))
      if (Math.fround(c) === f) v = c
    }
    out[i] = v ?? Number(f.toPrecision(9))
  }
  return out
}

/**
 * Extras as plain JSON: typed arrays become number lists, non-finite numbers null, functions and
 * undefined dropped, nesting cut at 32 levels (extras are metadata, not data). Extras that are
 * plain JSON already (most are) are returned as they are, not copied.
 */
export function jsonSafe(v: unknown, depth = 0): unknown {
  return isPlainJson(v, depth) ? v : converted(v, depth)
}

/** Whether `converted(v, depth)` would equal `v`: only null, strings, booleans, finite numbers, arrays and plain objects of them, nested under 32 levels. */
function isPlainJson(v: unknown, depth: number): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true
  if (typeof v === 'number') return Number.isFinite(v)
  if (typeof v !== 'object' || depth >= 32) return false
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v) || !isPlainJson(v[i], depth + 1)) return false
    return true
  }
  const proto = Object.getPrototypeOf(v) as unknown
  if (proto !== Object.prototype && proto !== null) return false
  for (const k in v) if (!isPlainJson((v as Record<string, unknown>)[k], depth + 1)) return false
  return true
}

function converted(v: unknown, depth: number): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'bigint') return Number(v)
  if (depth >= 32 || typeof v !== 'object') return undefined
  if (ArrayBuffer.isView(v)) return v instanceof DataView ? undefined : Array.from(v as unknown as ArrayLike<number>, (x) => converted(x, depth + 1))
  if (Array.isArray(v)) return v.map((x) => converted(x, depth + 1) ?? null)
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const j = converted(x, depth + 1)
    if (j !== undefined) out[k] = j
  }
  return out
}

export const extrasOf = (v: Record<string, unknown>) => jsonSafe(v) as Record<string, unknown>

/** PNG bytes of an RGBA8 texture (top row first, as PNG stores it), with this thread's PNG codec (png.ts). */
export function texturePng(t: Texture): Uint8Array {
  return encodeRgbaPng(t.rgba, t.width, t.height)
}

export function normalizedNormals(n: Float32Array): Float32Array {
  const out = new Float32Array(n.length)
  for (let i = 0; i < n.length; i += 3) {
    const l = Math.hypot(n[i], n[i + 1], n[i + 2])
    if (l > 1e-12) {
      out[i] = n[i] / l
      out[i + 1] = n[i + 1] / l
      out[i + 2] = n[i + 2] / l
    } else out[i + 1] = 1
  }
  return out
}

/**
 * Joints/weights as glTF wants them: merged duplicates, zero-weight slots on joint 0, sum 1 (over
 * both sets when the second, JOINTS_1/WEIGHTS_1, is given: glTF 2.0 §3.7.3.3 sums every set, and
 * a joint may appear only once across the sets). Slots keep their order, first set first.
 */
export function cleanSkinAttributes(joints: Uint16Array, weights: Float32Array, joints1?: Uint16Array, weights1?: Float32Array): { joints: Uint16Array; weights: Float32Array; joints1?: Uint16Array; weights1?: Float32Array } {
  const two = joints1 !== undefined && weights1 !== undefined
  const per = two ? 8 : 4
  const out = [new Uint16Array(joints.length), new Float32Array(weights.length), new Uint16Array(two ? joints.length : 0), new Float32Array(two ? weights.length : 0)] as const
  const js = new Array<number>(per)
  const ws = new Array<number>(per)
  for (let v = 0; v < joints.length; v += 4) {
    js.fill(0)
    ws.fill(0)
    let used = 0
    for (let c = 0; c < per; c++) {
      const wc = c < 4 ? weights[v + c] : weights1![v + c - 4]
      if (!(wc > 0)) continue
      const jc = c < 4 ? joints[v + c] : joints1![v + c - 4]
      const k = js.slice(0, used).indexOf(jc)
      if (k >= 0) ws[k] += wc
      else {
        js[used] = jc
        ws[used] = wc
        used++
      }
    }
    let sum = 0
    for (let c = 0; c < per; c++) sum += ws[c]
    if (!(sum > 0)) {
      ws[0] = 1
      js[0] = 0
      sum = 1
    }
    for (let c = 0; c < per; c++) {
      const set = c < 4 ? 0 : 2
      out[set][v + (c & 3)] = ws[c] > 0 ? js[c] : 0
      out[set + 1][v + (c & 3)] = ws[c] / sum
    }
  }
  return two ? { joints: out[0], weights: out[1], joints1: out[2], weights1: out[3] } : { joints: out[0], weights: out[1] }
}

export function clamp01(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length)
  for (let i = 0; i < a.length; i++) out[i] = Math.min(1, Math.max(0, a[i]))
  return out
}

export function normQuat(q: ArrayLike<number>): [number, number, number, number] {
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l]
}

