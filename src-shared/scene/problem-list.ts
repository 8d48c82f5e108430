/**
 * The problem list the scene checks (validate.ts) fill: a capped list plus the small shape checks
 * every part of the scene uses (fixed-size vectors, indices, Float32Array attributes).
 */

export interface SceneProblem {
  /** Where, e.g. `nodes[3].parent` or `meshes[0].primitives[1].weights`. */
  path: string
  message: string
}

export type Bad = (path: string, message: string) => void

export interface ProblemList {
  readonly out: SceneProblem[]
  /** Records a problem unless the list is full. */
  bad: Bad
  full(): boolean
  /** `len` finite numbers in an array or typed array. */
  vec(path: string, v: unknown, len: number): boolean
  /** An integer index in 0..count−1. */
  index(path: string, v: unknown, count: number, what: string): boolean
  /** A Float32Array of finite numbers, `per` per item (and `count` items when given). */
  floatArray(path: string, v: unknown, per: number, count?: number): v is Float32Array
}

export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v)
/** Index of the first non-finite element, −1 when all are finite. */
export const finiteAll = (a: ArrayLike<number>): number => {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return i
  return -1
}

export function problemList(limit: number): ProblemList {
  const out: SceneProblem[] = []
  const bad = (path: string, message: string) => {
    if (out.length < limit) out.push({ path, message })
  }
  return {
    out,
    bad,
    full: () => out.length >= limit,
    vec(path, v, len) {
      if (!Array.isArray(v) && !ArrayBuffer.isView(v)) return bad(path, `must be ${len} numbers`), false
      const a = v as ArrayLike<number>
      if (a.length !== len) return bad(path, `must be ${len} numbers, got ${a.length}`), false
      const i = finiteAll(a)
      if (i >= 0) return bad(path, `component ${i} is not a finite number (${a[i]})`), false
      return true
    },
    index(path, v, count, what) {
      if (!isInt(v) || v < 0 || v >= count) return bad(path, `${what} index ${String(v)} out of range (0..${count - 1}, ${count} ${what}${count === 1 ? '' : 's'})`), false
      return true
    },
    floatArray(path, v, per, count): v is Float32Array {
      if (!(v instanceof Float32Array)) return bad(path, `must be a Float32Array, got ${v?.constructor?.name ?? typeof v}`), false
      if (v.length % per !== 0) return bad(path, `length ${v.length} is not a multiple of ${per}`), false
      if (count !== undefined && v.length !== count * per) return bad(path, `has ${v.length / per} items, expected ${count} (one per vertex/key)`), false
      const i = finiteAll(v)
      if (i >= 0) return bad(path, `element ${i} is not a finite number (${v[i]})`), false
      return true
    },
  }
}
