/**
 * A small runtime schema for the API contract's request types: each transport (browser mode's
 * HTTP server, the Electron IPC handlers) checks a request before any service sees it, so a body
 * of the wrong types is refused naming the field instead of failing deep inside as a TypeError.
 * A schema carries its TypeScript type (`Infer`); `requests.ts` proves at compile time that each
 * channel's schema is exactly its `Req<C>`.
 */

export interface Schema<T> {
  /** Phantom: the type the schema accepts (never set at run time). */
  readonly _type?: T
  /** What it accepts, in words ("a text"), for messages. */
  readonly want: string
  /** Marks a schema built by `opt` (its object key may be absent). */
  readonly optional?: true
  /** null when `v` fits, else what is wrong (the field path is added by the caller). */
  check(v: unknown, at: string): string | null
}

export type Infer<S> = S extends Schema<infer T> ? T : never

/** A request that does not fit its channel's schema: `field` is the path of the first wrong value. */
export class BadRequest extends Error {
  readonly code = 'bad-request'
  constructor(
    readonly channel: string,
    readonly field: string,
    detail: string,
  ) {
    super(`${channel}: ${detail}`)
    this.name = 'BadRequest'
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (ArrayBuffer.isView(v)) return `a ${Object.prototype.toString.call(v).slice(8, -1)}`
  if (typeof v === 'string') return `the text ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`
  return typeof v === 'object' ? 'an object' : typeof v
}

const name = (at: string) => (at ? `\`${at}\`` : 'the request')
const leaf = <T>(want: string, ok: (v: unknown) => boolean): Schema<T> => ({
  want,
  check: (v, at) => (ok(v) ? null : `${name(at)} must be ${want}, not ${describe(v)}`),
})

export const str = leaf<string>('a text', (v) => typeof v === 'string')
/** A file-system path: non-empty text without NUL (Node's fs refuses those with a raw TypeError). */
export const pathStr = leaf<string>('a path (non-empty text without NUL)', (v) => typeof v === 'string' && v.length > 0 && !v.includes('\0'))
/** Text without NUL, possibly empty (a path typed in a browser, where empty means "the start"). */
export const text = leaf<string>('text without NUL', (v) => typeof v === 'string' && !v.includes('\0'))
export const num = leaf<number>('a finite number', (v) => typeof v === 'number' && Number.isFinite(v))
/** A whole number ≥ 0 (ids, indices, counts). */
export const index = leaf<number>('a whole number ≥ 0', (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)
export const bool = leaf<boolean>('true or false', (v) => typeof v === 'boolean')
export const bytes = leaf<Uint8Array>('bytes (a Uint8Array)', (v) => v instanceof Uint8Array)
export const f64s = leaf<Float64Array>('a Float64Array', (v) => v instanceof Float64Array)

export function lit<const L extends readonly (string | number)[]>(...values: L): Schema<L[number]> {
  return leaf(`one of ${values.map((x) => JSON.stringify(x)).join(', ')}`, (v) => values.includes(v as L[number]))
}

export function opt<T>(s: Schema<T>): Schema<T | undefined> & { optional: true } {
  return { want: s.want, optional: true, check: (v, at) => (v === undefined ? null : s.check(v, at)) }
}

export function nullable<T>(s: Schema<T>): Schema<T | null> {
  return { want: `${s.want} or null`, check: (v, at) => (v === null ? null : s.check(v, at)) }
}

export function either<A, B>(a: Schema<A>, b: Schema<B>): Schema<A | B> {
  const want = `${a.want} or ${b.want}`
  return { want, check: (v, at) => (a.check(v, at) === null || b.check(v, at) === null ? null : `${name(at)} must be ${want}, not ${describe(v)}`) }
}

export function list<T>(s: Schema<T>, max = 1 << 20): Schema<T[]> {
  return {
    want: 'a list',
    check(v, at) {
      if (!Array.isArray(v)) return `${name(at)} must be a list, not ${describe(v)}`
      if (v.length > max) return `${name(at)} has ${v.length} items, more than ${max}`
      for (let i = 0; i < v.length; i++) {
        const e = s.check(v[i], `${at}[${i}]`)
        if (e) return e
      }
      return null
    },
  }
}

type Shape = Record<string, Schema<unknown>>
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { optional: true } ? K : never }[keyof S]
type Flat<T> = { [K in keyof T]: T[K] }
export type ObjectOf<S extends Shape> = Flat<{ [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }>

/** A plain object with these keys (other keys are let through untouched). */
export function obj<S extends Shape>(shape: S): Schema<ObjectOf<S>> {
  return {
    want: 'an object',
    check(v, at) {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || ArrayBuffer.isView(v)) return `${name(at)} must be an object, not ${describe(v)}`
      const o = v as Record<string, unknown>
      for (const [k, s] of Object.entries(shape)) {
        const e = s.check(Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined, at ? `${at}.${k}` : k)
        if (e) return s.optional || Object.prototype.hasOwnProperty.call(o, k) ? e : `${name(at ? `${at}.${k}` : k)} is missing`
      }
      return null
    },
  }
}

/**
 * Returns `v` typed by its schema, or throws `BadRequest` naming the first field that does not fit
 * (`replacements[2].entry must be a whole number ≥ 0, not the text "x"`).
 */
export function checkValue<T>(channel: string, schema: Schema<T>, v: unknown): T {
  const problem = schema.check(v, '')
  if (problem) throw new BadRequest(channel, /^`([^`]*)`/.exec(problem)?.[1] ?? '', problem)
  return v as T
}

/** Type-level equality (both ways assignable), for proving a schema is exactly a contract type. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
/** `Same`, and the same keys (optional ones included, which `Same` alone lets differ). */
export type Exact<A, B> = Same<A, B> extends true ? (string extends keyof B ? true : Same<keyof A, keyof B>) : false
