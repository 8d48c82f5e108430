/**
 * Paths (`InterpData`, 0x18 bytes) and their evaluation (pokemon-snap.md §8,
 * [D: include/sys/interpolation.h, src/1F960.c]).
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'
import type { Vec3 } from './world'

export const PathType = { LINEAR: 0, BEZIER_S3: 1, BSPLINE: 2, CATROM: 3 } as const
export const PATH_TYPE_NAMES = ['linear', 'bezier', 'bspline', 'catrom'] as const

export interface InterpData {
  addr: number
  type: number
  numPoints: number
  tension: number
  points: Vec3[]
  duration: number
  paramPoints: number[]
  /** 5 coefficients per segment, or null. */
  speedFunc: number[][] | null
}

/** vec3 points a path of `type` with `n` knots stores (§8.2). */
export function pathPointCount(type: number, n: number): number {
  switch (type) {
    case PathType.LINEAR: return n
    case PathType.BEZIER_S3: return 3 * (n - 1) + 1
    case PathType.BSPLINE: case PathType.CATROM: return n + 2
    default: return -1
  }
}

export function readInterpData(map: AddressMap, addr: number, field: string): InterpData {
  const r = map.view(addr, 0x18, 'InterpData', field)
  const type = r.u8At(0x00, 'InterpData.type')
  const n = r.i16At(0x02, 'InterpData.numPoints')
  const err = (d: string) => new FormatError(d, { file: map.file, structure: `${field} (InterpData ${hex(addr)})`, offset: r.base })
  const count = pathPointCount(type, n)
  if (count < 0) throw err(`unknown path type ${type}`)
  if (n < 2 || n > 4096) throw err(`numPoints ${n} out of range 2..4096`)
  const ptsAddr = r.u32At(0x08, 'InterpData.points')
  const pr = map.view(ptsAddr, count * 12, 'InterpData.points', `${field}.points`)
  const points: Vec3[] = []
  // NaN or ±Inf in a curve would only come out later as null coordinates in JSON or a broken glb
  const fin = (rr: typeof r, o: number, f: string): number => {
    const v = rr.f32At(o, f)
    if (!Number.isFinite(v)) throw rr.error(`${f}: non-finite value ${v}`, o, `${field} (InterpData ${hex(addr)})`)
    return v
  }
  for (let i = 0; i < count; i++) points.push([fin(pr, i * 12, `points[${i}].x`), fin(pr, i * 12 + 4, `points[${i}].y`), fin(pr, i * 12 + 8, `points[${i}].z`)])
  const ppAddr = r.u32At(0x10, 'InterpData.paramPoints')
  const paramPoints: number[] = []
  if (ppAddr) {
    const pp = map.view(ppAddr, n * 4, 'InterpData.paramPoints', `${field}.paramPoints`)
    for (let i = 0; i < n; i++) paramPoints.push(fin(pp, i * 4, `paramPoints[${i}]`))
  } else {
    for (let i = 0; i < n; i++) paramPoints.push(i / (n - 1))
  }
  const sfAddr = r.u32At(0x14, 'InterpData.speedFunc')
  let speedFunc: number[][] | null = null
  if (sfAddr && type !== PathType.LINEAR) {
    const sf = map.view(sfAddr, (n - 1) * 20, 'InterpData.speedFunc', `${field}.speedFunc`)
    speedFunc = []
    for (let i = 0; i < n - 1; i++) speedFunc.push([0, 1, 2, 3, 4].map((k) => sf.f32At(i * 20 + k * 4)))
  }
  return { addr, type, numPoints: n, tension: fin(r, 0x04, 'InterpData.tension'), points, duration: fin(r, 0x0c, 'InterpData.duration'), paramPoints, speedFunc }
}

/** Uniform cubic B-spline weights at u (§8.3). */
export function bsplineWeights(u: number): [number, number, number, number] {
  const u2 = u * u, u3 = u2 * u
  return [(1 - u) ** 3 / 6, (3 * u3 - 6 * u2 + 4) / 6, (-3 * u3 + 3 * u2 + 3 * u + 1) / 6, u3 / 6]
}

export function cardinalWeights(u: number, a: number): [number, number, number, number] {
  const u2 = u * u, u3 = u2 * u
  return [a * (-u3 + 2 * u2 - u), (2 - a) * u3 + (a - 3) * u2 + 1, (a - 2) * u3 + (3 - 2 * a) * u2 + a * u, a * (u3 - u2)]
}

export function bezierWeights(u: number): [number, number, number, number] {
  const v = 1 - u
  return [v * v * v, 3 * u * v * v, 3 * u * u * v, u * u * u]
}

function combine(q: Vec3[], w: number[]): Vec3 {
  const out: Vec3 = [0, 0, 0]
  for (let k = 0; k < q.length; k++) for (let c = 0; c < 3; c++) out[c] += q[k]![c]! * w[k]!
  return out
}

/** Evaluates one segment of a B-spline over four control points (§14.3). */
export function bsplineSegment(q0: Vec3, q1: Vec3, q2: Vec3, q3: Vec3, u: number): Vec3 {
  return combine([q0, q1, q2, q3], bsplineWeights(u))
}

/** Position of segment `i` at local `u` (no reparameterisation). */
export function segmentPoint(path: Pick<InterpData, 'type' | 'points' | 'tension'>, i: number, u: number): Vec3 {
  const P = path.points
  switch (path.type) {
    case PathType.LINEAR: return combine([P[i]!, P[i + 1]!], [1 - u, u])
    case PathType.BEZIER_S3: return combine([P[3 * i]!, P[3 * i + 1]!, P[3 * i + 2]!, P[3 * i + 3]!], bezierWeights(u))
    case PathType.BSPLINE: return combine([P[i]!, P[i + 1]!, P[i + 2]!, P[i + 3]!], bsplineWeights(u))
    default: return combine([P[i]!, P[i + 1]!, P[i + 2]!, P[i + 3]!], cardinalWeights(u, path.tension))
  }
}

/** Position at global parameter g ∈ [0,1] (Step 2 of §8.3, no arc-length mapping). */
export function curvePoint(path: Pick<InterpData, 'type' | 'points' | 'tension' | 'numPoints'>, g: number): Vec3 {
  const n = path.numPoints
  if (g >= 1) {
    switch (path.type) {
      case PathType.LINEAR: return [...path.points[n - 1]!]
      case PathType.BEZIER_S3: return [...path.points[3 * (n - 1)]!]
      case PathType.BSPLINE: return segmentPoint(path, n - 2, 1)
      default: return [...path.points[n]!]
    }
  }
  const x = Math.max(0, g) * (n - 1)
  const i = Math.floor(x)
  return segmentPoint(path, i, x - i)
}

function simpson(f: (x: number) => number, a: number, b: number): number {
  const n = 8
  const h = (b - a) / n
  let s = f(a) + f(b)
  for (let k = 1; k < n; k++) s += f(a + k * h) * (k & 1 ? 4 : 2)
  return (s * h) / 3
}

/** Arc-length reparameterisation (`get_uniform_param`, Step 1 of §8.3). */
export function uniformParam(path: InterpData, q: number): number {
  const n = path.numPoints
  if (q >= 1) return 1
  if (q <= 0) return 0
  const pp = path.paramPoints
  let j = 0
  while (j < n - 2 && !(pp[j + 1]! >= q)) j++
  const span = pp[j + 1]! - pp[j]!
  let m: number
  const coef = path.speedFunc?.[j]
  if (path.type === PathType.LINEAR || !coef) {
    // NULL speedFunc on a curve: linear mapping (an importer choice, §8.3).
    m = span > 0 ? (q - pp[j]!) / span : 0
  } else {
    const speed = (x: number) => {
      const v = (((coef[0]! * x + coef[1]!) * x + coef[2]!) * x + coef[3]!) * x + coef[4]!
      return v > 0 ? Math.sqrt(v) : 0
    }
    let target = (q - pp[j]!) * path.duration
    let low = 0, high = 1
    for (let it = 0; it < 64; it++) {
      if (Math.abs(low - high) < 1e-5 || Math.abs(target) < 1e-5) break
      const mid = (low + high) / 2
      const len = simpson(speed, low, mid)
      if (len > target) high = mid
      else { low = mid; target -= len }
    }
    m = low
  }
  m = Math.min(1, Math.max(0, m))
  return (j + m) / (n - 1)
}

/** Position along the path at q ∈ [0,1] in raw path units (§8.3). */
export function pathPosition(path: InterpData, q: number): Vec3 {
  return curvePoint(path, uniformParam(path, Math.min(1, Math.max(0, q))))
}

/** Samples a path uniformly in q (`count` points, ends included), optionally scaled (×100 for object paths). */
export function samplePath(path: InterpData, count: number, scale = 1): Vec3[] {
  const out: Vec3[] = []
  for (let k = 0; k < count; k++) {
    const p = pathPosition(path, count === 1 ? 0 : k / (count - 1))
    out.push([p[0] * scale, p[1] * scale, p[2] * scale])
  }
  return out
}

/** Derivative weights with respect to u for the four control points of a segment (§8.4). */
export function tangentWeights(type: number, u: number, a = 0.5): [number, number, number, number] {
  switch (type) {
    case PathType.BEZIER_S3: return [-3 * (1 - u) ** 2, 3 * (1 - 4 * u + 3 * u * u), 3 * (2 * u - 3 * u * u), 3 * u * u]
    case PathType.BSPLINE: return [-0.5 * (1 - u) ** 2, 0.5 * (3 * u * u - 4 * u), 0.5 * (-3 * u * u + 2 * u + 1), 0.5 * u * u]
    case PathType.CATROM: return [a * (-3 * u * u + 4 * u - 1), (2 - a) * 3 * u * u + 2 * (a - 3) * u, (a - 2) * 3 * u * u + 2 * (3 - 2 * a) * u + a, a * (3 * u * u - 2 * u)]
    default: return [-1, 1, 0, 0]
  }
}

/** Tangent (d position / du) of segment `i` at `u`. */
export function segmentTangent(path: Pick<InterpData, 'type' | 'points' | 'tension'>, i: number, u: number): Vec3 {
  const P = path.points
  const q = path.type === PathType.LINEAR ? [P[i]!, P[i + 1]!, P[i + 1]!, P[i + 1]!] : path.type === PathType.BEZIER_S3 ? [P[3 * i]!, P[3 * i + 1]!, P[3 * i + 2]!, P[3 * i + 3]!] : [P[i]!, P[i + 1]!, P[i + 2]!, P[i + 3]!]
  return combine(q, tangentWeights(path.type, u, path.tension))
}
