/**
 * Robustness: `snap stages`, `snap track`, `snap export` on mutated copies of the bundled Snap
 * sample ROM. Fields to mutate are learnt by tracing the reads of the unmodified sample through
 * the same commands. Each case must exit 0 or 1; a failure names the ROM file and writes no glb.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { gunzipSync } from 'fflate'
import { Rng, SEED, Tally, cases, expectCliCase, mutate, traceReads, writeCase, type Field } from '../helpers/fuzz'
import { cli, repoRoot } from '../helpers/cli'

const SAMPLE = path.join(repoRoot, 'resources', 'samples', 'snap-sample.z64.gz')
let dir: string
let base: Uint8Array
let fields: Field[]

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fuzz-snap-'))
  base = gunzipSync(readFileSync(SAMPLE))
  const rom = await writeCase(dir, 'base.z64', base)
  fields = (
    await traceReads({ rom: base }, async () => {
      expect((await cli(['snap', 'stages', rom, '--json'])).code).toBe(0)
      expect((await cli(['snap', 'track', rom, '--stage', 'beach', '--json'])).code).toBe(0)
      expect((await cli(['snap', 'export', rom, '--stage', 'beach', '--out', path.join(dir, 'base.glb')])).code).toBe(0)
    })
  ).rom!
  // the byte-order magic and the header name only decide "not a Snap ROM"; keep them mostly
  fields = fields.filter((f) => f.off >= 0x40)
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('snap CLI on mutated sample ROMs', () => {
  it('traced the structure fields of the sample', () => {
    expect(fields.length).toBeGreaterThan(100)
  })

  const commands: { name: string; count: number; argv: (rom: string, out: string) => string[] }[] = [
    { name: 'stages', count: 400, argv: (rom) => ['snap', 'stages', rom, '--json'] },
    { name: 'track', count: 400, argv: (rom) => ['snap', 'track', rom, '--stage', 'beach', '--json'] },
    { name: 'export', count: 200, argv: (rom, out) => ['snap', 'export', rom, '--stage', 'beach', '--out', out] },
  ]
  for (const c of commands) {
    it(`snap ${c.name}: ${c.count} mutated ROMs exit 0 or 1 with a named error`, async () => {
      const rng = new Rng(0x5a4e0000 + c.name.length + SEED)
      const tally = new Tally()
      const n = cases(c.count)
      for (let i = 0; i < n; i++) {
        const m = mutate(base, fields, rng)
        const name = `${c.name}-${String(i).padStart(3, '0')}.z64`
        const rom = await writeCase(dir, name, m.bytes)
        const out = path.join(dir, `${c.name}-${i}.glb`)
        const r = await expectCliCase(`snap ${c.name} case ${i}: ${m.label}`, c.argv(rom, out), [name], [out])
        tally.add(r.code)
        rmSync(rom)
        rmSync(out, { force: true })
      }
      if (process.env.FUZZ_TRACE) console.log(`snap ${c.name}: ${tally}`)
      expect(tally.ok + tally.error).toBe(n)
    })
  }
})
