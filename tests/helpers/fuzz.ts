/**
 * Deterministic, bounded fuzzing helpers: a seeded PRNG, a read tracer that learns where a
 * reader's fields are (so mutations hit structure fields, not texel data), structure-aware
 * mutations, and the CLI case check shared by the tests/integration/fuzz-*.test.ts files.
 *
 * The committed tests run a fixed seed and case count. For a longer campaign:
 *   FUZZ_SEED=7 FUZZ_SCALE=10 npx vitest run tests/integration/fuzz-snap.test.ts --testTimeout=1200000
 * FUZZ_TRACE=1 prints ok/error tallies (=2 also every case label before it runs, to find a hang),
 * FUZZ_SLOW=<ms> reports cases slower than that, FUZZ_NULLS=1 reports null inside JSON arrays.
 */
import { existsSync, readFileSync, promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { expect } from 'vitest'
import { Reader } from '../../src-shared/binary/reader'
import { FormatError } from '../../src-shared/binary/errors'
import { cli } from './cli'

/** mulberry32: small, fast, deterministic. */
export class Rng {
  private s: number
  constructor(seed: number) {
    this.s = seed >>> 0
  }
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)]!
  }
}

export interface Field {
  off: number
  size: number
}

/**
 * Runs `fn` with `Reader.prototype.check` wrapped, and returns, per named input, the fields read
 * from it (offset + size, deduplicated). An input is recognised by its buffer's content (the
 * code under test may read its own copy of the file).
 */
export async function traceReads(inputs: Record<string, Uint8Array>, fn: () => unknown): Promise<Record<string, Field[]>> {
  const seen = new Map<ArrayBufferLike, Set<number>>()
  const proto = Reader.prototype as unknown as { check(this: Reader, o: number, n: number, f?: string): void }
  const orig = proto.check
  proto.check = function (this: Reader, o: number, n: number, f?: string) {
    if (Number.isInteger(o) && o >= 0 && (n === 1 || n === 2 || n === 4 || n === 8)) {
      let s = seen.get(this.bytes.buffer)
      if (!s) seen.set(this.bytes.buffer, (s = new Set()))
      s.add((this.bytes.byteOffset + o) * 16 + n)
    }
    return orig.call(this, o, n, f)
  }
  try {
    await fn()
  } finally {
    proto.check = orig
  }
  const out: Record<string, Field[]> = {}
  for (const name of Object.keys(inputs)) out[name] = []
  for (const [buf, s] of seen) {
    const whole = new Uint8Array(buf)
    for (const [name, bytes] of Object.entries(inputs)) {
      if (whole.length !== bytes.length || !equal(whole, bytes)) continue
      const list = out[name]!
      for (const k of s) list.push({ off: Math.floor(k / 16), size: k % 16 })
    }
  }
  for (const l of Object.values(out)) {
    l.sort((a, b) => a.off - b.off || a.size - b.size)
    // keep one entry per (offset, size) when several views read the same field
    for (let i = l.length - 1; i > 0; i--) if (l[i]!.off === l[i - 1]!.off && l[i]!.size === l[i - 1]!.size) l.splice(i, 1)
  }
  return out
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Aligned words that are not zero (where a synthetic image keeps its structures). */
export function nonZeroWords(b: Uint8Array, limit = 1 << 20): Field[] {
  const out: Field[] = []
  for (let i = 0; i + 4 <= b.length && i < limit; i += 4) if (b[i] | b[i + 1]! | b[i + 2]! | b[i + 3]!) out.push({ off: i, size: 4 })
  return out
}

export interface Mutation {
  label: string
  bytes: Uint8Array
}

export interface MutateOptions {
  little?: boolean
  /** Offsets never touched (e.g. a magic that only makes every case a trivial "not this format"). */
  keep?: (off: number) => boolean
  /** A second pool (e.g. non-zero words the tracer cannot see: display lists, vertices) used for a quarter of the edits. */
  extra?: Field[]
}

function put(b: Uint8Array, off: number, size: number, v: number, little: boolean): void {
  for (let i = 0; i < size && off + i < b.length; i++) {
    const shift = little ? i * 8 : (size - 1 - i) * 8
    b[off + i] = Math.floor(v / 2 ** shift) & 0xff
  }
}
function get(b: Uint8Array, off: number, size: number, little: boolean): number {
  let v = 0
  for (let i = 0; i < size && off + i < b.length; i++) v += b[off + i]! * 2 ** (little ? i * 8 : (size - 1 - i) * 8)
  return v
}

/**
 * One structure-aware mutation of `base` (never modified): field set to an extreme value, an
 * offset pointing at itself or backwards, a count multiplied, random bit flips in read bytes,
 * truncation at a field boundary, or several of these at once.
 */
export function mutate(base: Uint8Array, fields: Field[], rng: Rng, opts: MutateOptions = {}): Mutation {
  const little = opts.little ?? false
  const usable = fields.filter((f) => f.off < base.length && !(opts.keep?.(f.off) ?? false))
  const pool = usable.length ? usable : [{ off: Math.min(base.length - 1, rng.int(base.length)), size: 1 }]
  const kind = rng.int(20)
  if (kind < 2) {
    // truncation at a structure boundary (the start or the end of a field)
    const f = rng.pick(pool)
    const at = Math.max(0, Math.min(base.length - 1, rng.int(2) ? f.off : f.off + f.size))
    return { label: `truncate at 0x${at.toString(16)}`, bytes: base.slice(0, at) }
  }
  const b = base.slice()
  const n = kind >= 17 ? 2 + rng.int(4) : 1
  const labels: string[] = []
  const extra = opts.extra?.filter((f) => f.off < base.length)
  for (let k = 0; k < n; k++) labels.push(mutateOne(b, extra?.length && rng.int(4) === 0 ? extra : pool, rng, little))
  return { label: labels.join(' + '), bytes: b }
}

function mutateOne(b: Uint8Array, pool: Field[], rng: Rng, little: boolean): string {
  const f = rng.pick(pool)
  const size = f.size === 8 ? 4 : f.size
  const off = f.off
  const v = get(b, off, size, little)
  const max = 2 ** (8 * size) - 1
  const choice = rng.int(11)
  let nv: number
  let what: string
  switch (choice) {
    case 0: nv = max; what = 'max'; break
    case 1: nv = Math.floor(max / 2); what = 'max/2'; break
    case 2: nv = 0; what = '0'; break
    case 3: nv = v * (2 + rng.int(15)); what = 'count×'; break
    case 4: nv = v + 1; what = '+1'; break
    case 5: nv = v - 4 * (1 + rng.int(16)); what = 'backwards'; break
    case 6: nv = size === 4 ? ((v & 0xff000000) >>> 0) + (off & 0xffffff) : off; what = 'self'; break
    case 7: nv = (size === 4 ? (v & 0xff000000) >>> 0 : 0) + rng.int(size === 4 ? 0x1000000 : max + 1); what = 'random'; break
    case 8: nv = v ^ (1 << rng.int(8 * size)); what = 'bitflip'; break
    case 9: nv = 2 ** (8 * size - 1); what = 'high bit'; break
    default: {
      // random bytes over the field and its neighbours
      const len = 1 + rng.int(16)
      for (let i = 0; i < len && off + i < b.length; i++) b[off + i] = rng.int(256)
      return `0x${off.toString(16)}: ${len} random bytes`
    }
  }
  nv = ((nv % (max + 1)) + (max + 1)) % (max + 1)
  put(b, off, size, nv, little)
  return `0x${off.toString(16)}/${size} ${what} 0x${v.toString(16)}→0x${nv.toString(16)}`
}

/** True for errors that are the reader's own (FormatError, incl. LimitError). */
export function isFormatError(e: unknown): e is FormatError {
  return e instanceof FormatError
}

/**
 * Calls a reader entry point; it must return or throw a FormatError. A crash (TypeError,
 * RangeError, stack overflow) fails with the case label.
 */
export function expectReaderOk(label: string, fn: () => unknown, file?: string): 'ok' | 'error' {
  const t0 = performance.now()
  try {
    fn()
    return 'ok'
  } catch (e) {
    if (!(e instanceof FormatError)) throw new Error(`${label}: crashed with ${(e as Error)?.stack ?? e}`)
    if (file !== undefined && !e.message.includes(file)) throw new Error(`${label}: the error does not name ${file}: ${e.stack}`)
    return 'error'
  } finally {
    const ms = performance.now() - t0
    if (process.env.FUZZ_SLOW && ms > Number(process.env.FUZZ_SLOW)) process.stderr.write(`[fuzz] slow (${Math.round(ms)} ms): ${label}\n`)
  }
}

/** Messages of crashes that a CLI turned into a plain exit 1. */
export const CRASH = /TypeError|RangeError|ReferenceError|SyntaxError|Maximum call stack|Cannot read propert|is not a function|is not iterable|Invalid array length|Invalid typed array length|Array buffer allocation|out of memory/

export interface CliCaseResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs one CLI case. Exit must be 0 or 1; on 1 the message names `names` (one of them) and is
 * not a JS engine error, and `outputs` do not exist.
 */
export async function expectCliCase(label: string, argv: string[], names: string[], outputs: string[] = [], unchanged: [string, Uint8Array][] = []): Promise<CliCaseResult> {
  if (process.env.FUZZ_TRACE === '2') process.stderr.write(`[fuzz] ${label}\n`)
  let r: CliCaseResult
  const debug = process.env.MODBENCH_DEBUG
  process.env.MODBENCH_DEBUG = '1' // the CLI then prints the stack: its first line shows the error class
  const t0 = performance.now()
  try {
    r = await cli(argv)
    const ms = performance.now() - t0
    if (process.env.FUZZ_SLOW && ms > Number(process.env.FUZZ_SLOW)) process.stderr.write(`[fuzz] slow (${Math.round(ms)} ms): ${label}\n`)
  } catch (e) {
    throw new Error(`${label}: runCli threw ${(e as Error)?.stack ?? e}`)
  } finally {
    if (debug === undefined) delete process.env.MODBENCH_DEBUG
    else process.env.MODBENCH_DEBUG = debug
  }
  const ctx = `${label}\nargv: ${argv.join(' ')}\nexit ${r.code}\nstderr: ${r.stderr.slice(0, 2000)}`
  expect([0, 1], ctx).toContain(r.code)
  if (r.code === 1) {
    const lines = r.stderr.split('\n')
    const at = lines.findIndex((l) => / error: /.test(l))
    const err = at < 0 ? '' : lines[at]!
    const errorClass = lines[at + 1] ?? '' // first line of the stack (MODBENCH_DEBUG)
    expect(err.length > 0 && names.some((n) => err.includes(n)), `${ctx}\nthe error must name one of ${names.join(', ')}`).toBe(true)
    expect(CRASH.test(errorClass) || CRASH.test(err), `${ctx}\nthe error looks like a crash, not a FormatError`).toBe(false)
    for (const o of outputs) expect(existsSync(o), `${ctx}\n${o} must not exist after a failure`).toBe(false)
  }
  // a crash swallowed into a warning (stderr) or an entry's "error" key (stdout) is still a crash
  const hidden = [...r.stderr.split('\n'), ...r.stdout.split('\n')].find((l) => CRASH.test(l) && !/^\s+at /.test(l))
  expect(hidden, `${ctx}\na crash hidden in the output: ${hidden}`).toBeUndefined()
  // no command ever modifies its input files
  for (const [p, bytes] of unchanged) expect(Buffer.compare(readFileSync(p), bytes) === 0, `${ctx}\n${p} was modified`).toBe(true)
  if (r.code === 0 && argv.includes('--json')) {
    let doc: unknown
    expect(() => (doc = JSON.parse(r.stdout)), `${ctx}\nstdout must be one JSON document`).not.toThrow()
    if (process.env.FUZZ_NULLS && /[[,]\s*null\s*[,\]]/.test(r.stdout)) process.stderr.write(`[fuzz] null in output: ${label}\n${r.stdout.slice(0, 300)}\n`)
    void doc
  }
  return r
}

export async function writeCase(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const p = path.join(dir, name)
  await fsp.writeFile(p, bytes)
  return p
}

/** The least share of a campaign's cases that must end in each outcome (0.05 = 5 %). */
export interface Shares {
  ok: number
  error: number
}

/**
 * Counts outcomes, for a summary line and a check that the fuzzing reached both outcomes.
 * Counting cases proves nothing (every case ends in one of the two); what a campaign must show
 * is that its mutations were neither all rejected at the first check (the reader's deeper code
 * never ran) nor all accepted (the mutations missed the structures). `expectShares` asserts that.
 */
export class Tally {
  ok = 0
  error = 0
  add(code: number | 'ok' | 'error'): void {
    if (code === 0 || code === 'ok') this.ok++
    else this.error++
  }
  get total(): number {
    return this.ok + this.error
  }
  toString(): string {
    return `${this.ok} ok, ${this.error} errors`
  }
  /**
   * Each outcome reached at least its share of the cases (0.05 = 5 %; pick per campaign from
   * what its mutations really do, with room for other seeds). FUZZ_TRACE=1 prints the tally.
   */
  expectShares(campaign: string, min: Shares): void {
    if (process.env.FUZZ_TRACE) console.log(`${campaign}: ${this}`)
    const n = this.total
    expect(n, `${campaign}: no cases ran`).toBeGreaterThan(0)
    const share = (k: number) => `${((100 * k) / n).toFixed(1)} %`
    expect(this.ok / n, `${campaign}: ${this}: ok in ${share(this.ok)} of cases, want ≥ ${min.ok * 100} %`).toBeGreaterThanOrEqual(min.ok)
    expect(this.error / n, `${campaign}: ${this}: errors in ${share(this.error)} of cases, want ≥ ${min.error * 100} %`).toBeGreaterThanOrEqual(min.error)
  }
}

/** Developer knobs (the committed tests run with neither): another seed, more cases. */
export const SEED = Number(process.env.FUZZ_SEED ?? 0) >>> 0
export function cases(n: number): number {
  return Math.max(1, Math.round(n * Number(process.env.FUZZ_SCALE ?? 1)))
}

/**
 * The fixed sweep of a traced file (no seed): `base` cut at every traced field boundary, then every
 * 1-, 2- and 4-byte field set to its extremes (all ones, the sign bit alone, zero), one at a time,
 * little-endian. Yields each case's bytes and a label naming the file, the offset and the value.
 */
export function* sweepCases(name: string, base: Uint8Array, fields: readonly Field[]): Generator<{ label: string; bytes: Uint8Array }> {
  const cuts = new Set<number>()
  for (const f of fields) cuts.add(f.off).add(f.off + f.size)
  for (const at of [...cuts].filter((c) => c < base.length)) yield { label: `${name} truncated at 0x${at.toString(16)}`, bytes: base.slice(0, at) }
  for (const f of fields) {
    if (f.size !== 4 && f.size !== 2 && f.size !== 1) continue
    for (const v of f.size === 4 ? [0xffffffff, 0x7fffffff, 0] : f.size === 2 ? [0xffff, 0x8000, 0] : [0xff, 0x80, 0]) {
      const bytes = base.slice()
      for (let k = 0; k < f.size; k++) bytes[f.off + k] = (v >>> (8 * k)) & 0xff
      yield { label: `${name}: 0x${f.off.toString(16)}/${f.size} = 0x${v.toString(16)}`, bytes }
    }
  }
}
