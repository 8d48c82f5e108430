/**
 * Robustness of the indexer: `indexPaths` over folders of mutated files (Snap and Stadium ROMs in
 * all byte orders and gzip'd, GF set folders, RE motlists / mots, EMV Poser JSON, broken gzip and
 * junk). Every file ends up indexed or with an error that names it and is not a JS engine error,
 * and every run finishes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { gunzipSync, gzipSync } from 'fflate'
import { Rng, SEED, cases, mutate, traceReads, type Field } from '../helpers/fuzz'
import { repoRoot } from '../helpers/cli'
import { openCatalog } from '../../src-main/catalog/catalog'
import { indexPaths } from '../../src-main/indexer/indexer'

const SAMPLES = path.join(repoRoot, 'resources', 'samples')
const GF = Array.from({ length: 9 }, (_, i) => `${i}.bin`)
const CRASH = /TypeError|RangeError|ReferenceError|SyntaxError: (?!Unexpected|JSON)|Maximum call stack|Cannot read propert|is not a function|is not iterable|Invalid array length|Invalid typed array length|Array buffer allocation|out of memory/

let dir: string
const base: Record<string, Uint8Array> = {}
let fields: Record<string, Field[]>
let poseText: string

const swap = (b: Uint8Array, w: 2 | 4): Uint8Array => {
  const out = b.slice()
  for (let i = 0; i + w <= b.length; i += w) for (let k = 0; k < w; k++) out[i + k] = b[i + w - 1 - k]!
  return out
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fuzz-index-'))
  base.snap = gunzipSync(readFileSync(path.join(SAMPLES, 'snap-sample.z64.gz')))
  base.stadium = gunzipSync(readFileSync(path.join(SAMPLES, 'stadium-sample.z64.gz')))
  base.motlist = new Uint8Array(readFileSync(path.join(SAMPLES, 're', 'sample.motlist.663')))
  base.mot = new Uint8Array(readFileSync(path.join(SAMPLES, 're', 'sample_walk.mot.613')))
  for (const n of GF) base[`gf/${n}`] = new Uint8Array(readFileSync(path.join(SAMPLES, 'gf-set', n)))
  poseText = readFileSync(path.join(SAMPLES, 're', 'sample_wave_pose.json'), 'utf8')
  // learn the fields the detectors read from the unmodified inputs
  const src = path.join(dir, 'base')
  mkdirSync(path.join(src, 'set'), { recursive: true })
  writeFileSync(path.join(src, 'snap.z64'), base.snap)
  writeFileSync(path.join(src, 'stadium.z64'), base.stadium)
  writeFileSync(path.join(src, 'a.motlist.663'), base.motlist)
  writeFileSync(path.join(src, 'b.mot.613'), base.mot)
  for (const n of GF) writeFileSync(path.join(src, 'set', n), base[`gf/${n}`]!)
  const cat = openCatalog(path.join(dir, 'base.sqlite'))
  try {
    fields = await traceReads(base, async () => {
      const res = await indexPaths(cat, [src])
      expect(res.sources.filter((s) => s.status === 'indexed').length).toBe(5)
    })
  } finally {
    cat.close()
  }
  fields.snap = fields.snap!.filter((f) => f.off >= 0x40)
  fields.stadium = fields.stadium!.filter((f) => f.off >= 0x40)
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Writes one round's folder of mutated files; returns the paths a source must appear for. */
function writeRound(root: string, rng: Rng): { expected: string[]; labels: Record<string, string> } {
  const expected: string[] = []
  const labels: Record<string, string> = {}
  const put = (name: string, bytes: Uint8Array, label: string) => {
    const p = path.join(root, name)
    mkdirSync(path.dirname(p), { recursive: true })
    writeFileSync(p, bytes)
    expected.push(p)
    labels[p] = label
  }
  for (const [kind, n] of [['snap', 3], ['stadium', 3]] as const) {
    for (let i = 0; i < n; i++) {
      const m = mutate(base[kind]!, fields[kind]!, rng)
      const form = rng.int(4)
      if (form === 0) put(`${kind}-${i}.v64`, m.bytes.length % 2 ? m.bytes : swap(m.bytes, 2), m.label)
      else if (form === 1) put(`${kind}-${i}.z64.gz`, gzipSync(m.bytes, { level: 1 }), m.label)
      else put(`${kind}-${i}.z64`, m.bytes, m.label)
    }
  }
  for (const [kind, suffix] of [['motlist', '.motlist.663'], ['mot', '.mot.613']] as const) {
    for (let i = 0; i < 6; i++) {
      const m = mutate(base[kind]!, fields[kind]!, rng, { little: true })
      put(`re/${kind}-${i}${suffix}`, m.bytes, m.label)
    }
  }
  for (let s = 0; s < 2; s++) {
    const target = rng.pick(GF)
    const setDir = path.join(root, `set-${s}`)
    for (const n of GF) {
      const m = n === target ? mutate(base[`gf/${n}`]!, fields[`gf/${n}`]!, rng, { little: true }) : { bytes: base[`gf/${n}`]!, label: '' }
      mkdirSync(setDir, { recursive: true })
      writeFileSync(path.join(setDir, n), m.bytes)
      if (n === target) labels[setDir] = `${n}: ${m.label}`
    }
    expected.push(setDir)
  }
  for (let i = 0; i < 4; i++) {
    const t = poseText.split('')
    for (let k = 0; k < 1 + rng.int(6); k++) t[rng.int(t.length)] = rng.pick(['{', '}', '"', ':', ',', 'x', '\u0000', '['])
    const text = i === 0 ? poseText.replace(/vec:[^"]*/g, () => rng.pick(['vec:NaN NaN NaN', 'vec:', 'vec:1e999 1 1', 'vec:1 2 3 4 5'])) : t.join('')
    // a .json that no longer looks like an EMV pose (no `"_Local…": "vec:` near the start) is not ours: not expected
    const looksLikePose = /^\s*\{/.test(text) && /"_Local(EulerAngle|Position|Scale)"\s*:\s*"vec:/.test(text.slice(0, 64 * 1024))
    put(`poses/pose-${i}.json`, new TextEncoder().encode(text), 'pose text')
    if (!looksLikePose) expected.pop()
  }
  // junk and broken archives with our kinds' names
  const junk = new Uint8Array(1 + rng.int(5000)).map(() => rng.int(256))
  put('junk.z64', junk, 'random bytes')
  put('junk.motlist.663', junk.slice(0, 1 + rng.int(junk.length)), 'random bytes')
  const gz = gzipSync(base.motlist!)
  put('broken.motlist.663.gz', gz.slice(0, 10 + rng.int(gz.length - 10)), 'truncated gzip')
  const bomb = gzipSync(new Uint8Array(1 << 20))
  bomb.set([0xff, 0xff, 0xff, 0x7f], bomb.length - 4) // ISIZE lies
  put('lying.z64.gz', bomb, 'gzip with a lying ISIZE')
  return { expected, labels }
}

describe('indexer over folders of mutated files', () => {
  it('every file is indexed or has an error naming it; every run finishes', async () => {
    const rng = new Rng(0x1d000000 + SEED)
    const rounds = cases(12)
    let indexed = 0
    let errors = 0
    for (let round = 0; round < rounds; round++) {
      const root = path.join(dir, `round-${round}`)
      const { expected, labels } = writeRound(root, rng)
      const cat = openCatalog(path.join(dir, `round-${round}.sqlite`))
      try {
        const res = await indexPaths(cat, [root])
        const byPath = new Map(res.sources.map((s) => [s.path, s]))
        for (const p of expected) {
          const s = byPath.get(p)
          const ctx = `round ${round}: ${p} (${labels[p] ?? ''})`
          expect(s, `${ctx}: not in the index result`).toBeDefined()
          expect(['indexed', 'error'], ctx).toContain(s!.status)
          if (s!.status === 'error') {
            errors++
            expect(s!.error ?? '', ctx).toContain(path.basename(p))
            expect(CRASH.test(s!.error ?? ''), `${ctx}: error looks like a crash: ${s!.error}`).toBe(false)
          } else indexed++
          // per-asset errors the detectors keep (a stage that does not parse) must not be crashes either
          const src = cat.sourceByPath(p)
          expect(src, ctx).toBeTruthy()
          for (const a of cat.list({ source: p })) {
            const e = (a.metadata as { error?: unknown } | undefined)?.error
            if (typeof e === 'string') expect(CRASH.test(e), `${ctx}: asset ${a.name}: error looks like a crash: ${e}`).toBe(false)
          }
        }
        expect(cat.integrityCheck()).toBe('ok')
      } finally {
        cat.close()
      }
      rmSync(root, { recursive: true, force: true })
    }
    expect(indexed).toBeGreaterThan(0)
    expect(errors).toBeGreaterThan(0)
  })
})
