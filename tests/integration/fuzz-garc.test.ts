/**
 * Robustness of the GARC reader, LZ11 decoder and `gf garc` commands (spec gf-packages §19) on
 * mutated archives: every case ends in a result or a FormatError naming the archive (exit 1 with
 * file/structure/offset), never a crash or a hang, and a failed command writes nothing and
 * never touches its input. Fields to mutate are learnt by tracing the reads of the unmodified
 * archive; the LZ11 streams (read without Reader) are mutated through their non-zero words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { Rng, SEED, Tally, cases, expectCliCase, expectReaderOk, mutate, nonZeroWords, traceReads, type Field } from '../helpers/fuzz'
import { garcSets, garcStoredBytes, parseGarc } from '../../src-shared/formats/gf/garc'
import { repackGarc } from '../../src-shared/formats/gf/garc-write'
import { garcSetMember } from '../../src-shared/formats/gf/garc-set'
import { decodeLz11 } from '../../src-shared/formats/gf/lz11'
import { buildModelArchive, simpleLz11 } from '../fixtures/gf/build-garc'

let dir: string
let base: Uint8Array
let fields: Field[]
const FILE = 'fuzz.garc'

/** Everything the shared code does with an archive: tables, every set member, a no-op repack. */
function readAll(bytes: Uint8Array): void {
  const g = parseGarc(bytes, { file: FILE })
  for (const s of garcSets(g)) for (let k = 0; k < 9; k++) {
    const e = g.entries[s.first + k]!
    garcSetMember(garcStoredBytes(bytes, g, e.index), e, s.set, FILE)
  }
  expect(Buffer.compare(repackGarc(bytes, g, new Map()), bytes)).toBe(0)
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fuzz-garc-'))
  base = buildModelArchive(6, { alignment: 16 }).bytes
  fields = (await traceReads({ a: base }, () => parseGarc(base, { file: FILE }))).a!
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('GARC reader on mutated archives', () => {
  it('traced the header and table fields', () => {
    expect(fields.length).toBeGreaterThan(39 * 4)
  })
  it('mutations of the tables and the data (entries, LZ11 streams): a result or a FormatError naming the file', () => {
    const rng = new Rng(0x6a000000 + SEED)
    const tally = new Tally()
    const extra = nonZeroWords(base)
    for (let i = 0; i < cases(1500); i++) {
      const m = mutate(base, fields, rng, { little: true, extra })
      tally.add(expectReaderOk(`case ${i}: ${m.label}`, () => readAll(m.bytes), FILE))
    }
    // seed 0: about 20 % of the cases still read (data mutations), the rest are errors
    tally.expectShares('garc reader', { ok: 0.05, error: 0.3 })
  })
  it('LZ11 streams with flipped bytes and cut ends decode or fail with a FormatError, in bounded time', () => {
    const rng = new Rng(0x1100 + SEED)
    const tally = new Tally()
    const data = Uint8Array.from({ length: 3000 }, (_, i) => (i % 97 < 40 ? 7 : (i * 31) & 0xff))
    const stream = simpleLz11(data)
    for (let i = 0; i < cases(2000); i++) {
      const b = stream.slice(0, rng.int(3) === 0 ? rng.int(stream.length) : stream.length)
      for (let k = 0, n = 1 + rng.int(4); k < n && b.length; k++) b[rng.int(b.length)] = rng.int(256)
      tally.add(expectReaderOk(`lz11 case ${i}`, () => {
        const out = decodeLz11(b, { file: FILE })
        expect(out.bytes.length).toBe(b[1]! | (b[2]! << 8) | (b[3]! << 16) || out.bytes.length)
      }, FILE))
    }
    tally.expectShares('lz11', { ok: 0.02, error: 0.3 })
  })
})

describe('gf garc pack --set with mutated set folders', () => {
  it('exit 0 or 1 naming the set file, no output after a failure; on success the other sets are byte-identical', async () => {
    const a = buildModelArchive(6, { alignment: 16 })
    const arc = path.join(dir, 'pack-set.garc')
    writeFileSync(arc, a.bytes)
    const names = Array.from({ length: 9 }, (_, k) => `${k}.bin`)
    const setFields: Record<string, Field[]> = {}
    for (let k = 0; k < 9; k++) setFields[names[k]!] = nonZeroWords(a.content[9 + k]!, 4096)
    const rng = new Rng(0x6c000000 + SEED)
    const tally = new Tally()
    for (let i = 0; i < cases(60); i++) {
      const set = path.join(dir, `set-${i}`)
      mkdirSync(set)
      const k = rng.int(9)
      const m = mutate(a.content[9 + k]!, setFields[names[k]!]!, rng, { little: true })
      for (let j = 0; j < 9; j++) writeFileSync(path.join(set, names[j]!), j === k ? m.bytes : a.content[9 + j]!)
      const out = path.join(dir, `pack-set-${i}.out`)
      const r = await expectCliCase(`pack --set case ${i}: ${names[k]}: ${m.label}`, ['gf', 'garc', 'pack', arc, '--set', `1=${set}`, '--out', out, '--json'], [set, names[k]!], [out], [[arc, a.bytes]])
      if (r.code === 0) {
        const before = parseGarc(a.bytes)
        const written = new Uint8Array(readFileSync(out))
        const after = parseGarc(written)
        for (const e of before.entries) if (e.index < 9 || e.index > 17) expect(Buffer.compare(garcStoredBytes(written, after, e.index), garcStoredBytes(a.bytes, before, e.index)), `case ${i}: entry ${e.index}`).toBe(0)
      }
      tally.add(r.code)
      rmSync(set, { recursive: true, force: true })
      rmSync(out, { force: true })
    }
    tally.expectShares('gf garc pack --set', { ok: 0.1, error: 0.1 })
  })
})

describe('gf garc commands on mutated archives', () => {
  const commands: { name: string; count: number; argv: (f: string, out: string) => string[] }[] = [
    { name: 'list', count: 120, argv: (f) => ['gf', 'garc', f, '--json'] },
    { name: 'extract', count: 80, argv: (f, out) => ['gf', 'garc', 'extract', f, '--out', out, '--json'] },
    { name: 'pack', count: 80, argv: (f, out) => ['gf', 'garc', 'pack', f, '--out', out, '--json'] },
    { name: 'info', count: 80, argv: (f) => ['gf', 'info', `${f}#1`, '--json'] },
  ]
  for (const c of commands) {
    it(`gf ${c.name}: exit 0 or 1 naming the archive, no output after a failure, input untouched`, async () => {
      const rng = new Rng(0x6b000000 + c.name.length + SEED)
      const tally = new Tally()
      const extra = nonZeroWords(base)
      for (let i = 0; i < cases(c.count); i++) {
        const m = mutate(base, fields, rng, { little: true, extra })
        const f = path.join(dir, `${c.name}-${i}.garc`)
        writeFileSync(f, m.bytes)
        const out = path.join(dir, `${c.name}-${i}.out`)
        const r = await expectCliCase(`gf ${c.name} case ${i}: ${m.label}`, c.argv(f, out), [f], [out], [[f, m.bytes]])
        if (r.code === 0 && c.name === 'pack') expect(Buffer.compare(readFileSync(out), m.bytes), `case ${i}: a pack with no --set is a copy`).toBe(0)
        tally.add(r.code)
        rmSync(f, { force: true })
        rmSync(out, { recursive: true, force: true })
      }
      tally.expectShares(`gf ${c.name}`, { ok: 0.05, error: 0.2 })
    })
  }
})
