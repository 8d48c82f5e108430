/**
 * Robustness of the GF model and motion readers (issue 11): `gf models`, `gf motions` and
 * `gf export` on mutated copies of the bundled sample set (resources/samples/gf-set, whose 0.bin
 * holds the skinned model and 4–7.bin the motions). Fields to mutate are learnt by tracing the
 * reads of the unmodified set through the same commands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { Rng, SEED, Tally, cases, expectCliCase, expectReaderOk, mutate, traceReads, type Field, type Shares } from '../helpers/fuzz'
import { cli, repoRoot } from '../helpers/cli'
import { parseGfSet } from '../../src-shared/formats/gf/gf-set'
import { buildGfScene } from '../../src-shared/formats/gf/scene'
import { setModels, setMotions } from '../../src-shared/formats/gf/set-models'
import { validateScene } from '../../src-shared/scene/validate'

const SET = path.join(repoRoot, 'resources', 'samples', 'gf-set')
const NAMES = Array.from({ length: 9 }, (_, i) => `${i}.bin`)
const TARGETS = ['0.bin', '4.bin', '5.bin', '6.bin', '7.bin']
let dir: string
const base: Record<string, Uint8Array> = {}
let fields: Record<string, Field[]>

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fuzz-gf-model-'))
  for (const n of NAMES) base[n] = new Uint8Array(readFileSync(path.join(SET, n)))
  fields = await traceReads(base, async () => {
    expect((await cli(['gf', 'models', SET, '--json'])).code).toBe(0)
    expect((await cli(['gf', 'motions', SET, '--json'])).code).toBe(0)
    expect((await cli(['gf', 'export', SET, '--out', path.join(dir, 'base.glb')])).code).toBe(0)
  })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function open(name: string, bytes: Uint8Array, label: string): void {
  const files = new Map(NAMES.map((n) => [n, n === name ? bytes : base[n]!]))
  expectReaderOk(label, () => {
    const set = parseGfSet(files, { lenient: true })
    setModels(set)
    setMotions(set)
    // the app's reading: broken motions listed, the scene still valid
    validateScene(buildGfScene(set).scene)
  }, name)
}

describe('GF models and motions on mutated sample sets', () => {
  it('traced the model and motion fields', () => {
    for (const n of TARGETS) expect(fields[n]!.length, n).toBeGreaterThan(10)
  })

  it('every model/motion file truncated at every field boundary and each field set to extremes, through the shared readers', () => {
    let count = 0
    for (const name of TARGETS) {
      const b = base[name]!
      const cuts = new Set<number>()
      for (const f of fields[name]!) cuts.add(f.off).add(f.off + f.size)
      const every = Math.max(1, Math.floor(cuts.size / cases(60)))
      ;[...cuts].filter((c, i) => c < b.length && i % every === 0).forEach((at) => { count++; open(name, b.slice(0, at), `${name} truncated at 0x${at.toString(16)}`) })
      for (const f of fields[name]!.filter((_, i) => i % every === 0)) {
        if (f.size !== 4 && f.size !== 2 && f.size !== 1) continue
        for (const v of f.size === 4 ? [0xffffffff, 0x7fffffff, 0, f.off] : f.size === 2 ? [0xffff, 0, f.off & 0xffff] : [0xff, 0]) {
          const m = b.slice()
          for (let k = 0; k < f.size; k++) m[f.off + k] = (v >>> (8 * k)) & 0xff
          count++
          open(name, m, `${name}: 0x${f.off.toString(16)}/${f.size} = 0x${v.toString(16)}`)
        }
      }
    }
    expect(count).toBeGreaterThan(100)
  })

  // shares: seeds 0–3 gave 61–71 % ok for models and motions, 50–55 % ok for export
  const commands: { name: string; count: number; min: Shares; argv: (set: string, out: string) => string[] }[] = [
    { name: 'models', count: 120, min: { ok: 0.4, error: 0.2 }, argv: (set) => ['gf', 'models', set, '--json'] },
    { name: 'motions', count: 120, min: { ok: 0.4, error: 0.2 }, argv: (set) => ['gf', 'motions', set, '--json'] },
    { name: 'export', count: 80, min: { ok: 0.3, error: 0.3 }, argv: (set, out) => ['gf', 'export', set, '--out', out, '--json'] },
  ]
  for (const c of commands) {
    it(`gf ${c.name}: mutated sets exit 0 or 1 with a named error, no partial output`, async () => {
      const rng = new Rng(0x6d000000 + c.name.length + SEED)
      const tally = new Tally()
      const n = cases(c.count)
      for (let i = 0; i < n; i++) {
        const set = path.join(dir, `${c.name}-${String(i).padStart(3, '0')}`)
        mkdirSync(set)
        const target = rng.int(2) ? '0.bin' : rng.pick(TARGETS)
        let label = ''
        for (const f of NAMES) {
          let bytes = base[f]!
          if (f === target) {
            const m = mutate(bytes, fields[f]!, rng, { little: true })
            bytes = m.bytes
            label = `${f}: ${m.label}`
          }
          writeFileSync(path.join(set, f), bytes)
        }
        const out = path.join(dir, `${c.name}-${i}.glb`)
        const r = await expectCliCase(`gf ${c.name} case ${i}: ${label}`, c.argv(set, out), [target, set], [out], [[path.join(set, target), readFileSync(path.join(set, target))]])
        if (r.code === 0 && c.name === 'export') expect(existsSync(out)).toBe(true)
        tally.add(r.code)
        rmSync(set, { recursive: true, force: true })
        rmSync(out, { force: true })
      }
      tally.expectShares(`gf ${c.name}`, c.min)
    })
  }
})
