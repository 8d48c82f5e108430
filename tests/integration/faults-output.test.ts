/**
 * CLI.md's output rule, for every writer (tests/helpers/writers.ts) and the app's `scene:export`:
 * - an existing output without --force → exit 1 naming --force, the output untouched;
 * - with --force → replaced whole (the same bytes a fresh run writes);
 * - --out naming an input or a file inside an input set/folder → exit 1 even with --force, every
 *   input byte-identical (`export <gf-model id> --out SET/1.bin`, `gf extract SET --out SET`, …);
 * - a temp file a dead run left beside the output is removed by the next run, a live run's kept;
 * - `gf extract` into a folder holding a file where it needs a folder: with --force the folder is
 *   replaced whole, without it nothing is written (main left 15 PNGs and a raw EEXIST).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { cli } from '../helpers/cli'
import { WRITER_NAMES, isComplete, makeWriters, snapshot, tempsBeside, type Writer } from '../helpers/writers'
import { openCatalog } from '../../src-main/catalog/catalog'
import { Services } from '../../src-main/services/index'
import { errorReplyOf } from '../../src-shared/transport/api-error'

let dir = ''
let writers: Writer[] = []
let before: Map<string, string>

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'faults-output-'))
  writers = await makeWriters(dir)
  before = new Map(writers.flatMap((w) => w.inputs).map((p) => [p, snapshot(p)]))
}, 60_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The id of a process that has ended. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout)
}

/** Puts something the user owns at `out`: a file, or a folder holding one. */
function occupy(w: Writer, out: string): string {
  if (w.kind === 'file') writeFileSync(out, 'the user\'s own file')
  else {
    mkdirSync(out)
    writeFileSync(path.join(out, 'keep.txt'), 'the user\'s own file')
  }
  return snapshot(out)
}

describe('the output rule, every writer', () => {
  it('covers every writer of CLI.md', () => {
    expect(writers.map((w) => w.name)).toEqual([...WRITER_NAMES])
  })

  for (const [i, name] of WRITER_NAMES.entries()) {
    it(`${name}: refuses an existing output without --force, replaces it whole with it`, async () => {
      const w = writers[i]!
      const base = path.join(dir, `rule-${i}`)
      mkdirSync(base)
      const fresh = path.join(base, w.outName)
      const first = await cli(w.argv(fresh))
      expect(first.code, `${w.name}: ${first.stderr}`).toBe(0)
      const want = snapshot(fresh)
      rmSync(fresh, { recursive: true })

      const owned = occupy(w, fresh)
      const refused = await cli(w.argv(fresh))
      expect(refused.code, w.name).toBe(1)
      expect(refused.stderr, w.name).toMatch(/already exists; pass --force to replace it/)
      expect(refused.stderr, w.name).toContain(fresh)
      expect(snapshot(fresh), w.name).toBe(owned)

      const forced = await cli([...w.argv(fresh), '--force'])
      expect(forced.code, `${w.name}: ${forced.stderr}`).toBe(0)
      expect(snapshot(fresh), w.name).not.toBe(owned)
      expect(isComplete(w, fresh, want), w.name).toBe(true)
      expect(tempsBeside(fresh), w.name).toEqual([])
    })

    it(`${name}: --out naming an input (or inside an input set) is refused even with --force`, async () => {
      const w = writers[i]!
      const r = await cli([...w.argv(w.hitsInput), '--force'])
      expect(r.code, `${w.name}: ${r.stderr}`).toBe(1)
      expect(r.stderr, w.name).toMatch(/is an input of this command|lies inside the input folder|is a source file of the catalog|lies inside the catalog source/)
      for (const p of w.inputs) expect(snapshot(p), `${w.name}: ${p}`).toBe(before.get(p))
    })

    it(`${name}: the next run removes the temps a dead run left beside the output, not a live one's`, async () => {
      const w = writers[i]!
      const base = path.join(dir, `stale-${i}`)
      mkdirSync(base)
      const out = path.join(base, w.outName)
      const dead = `.${w.outName}.${deadPid()}.0badf00d.tmp`
      const live = `.${w.outName}.${process.pid}.00c0ffee.tmp`
      writeFileSync(path.join(base, dead), 'half a file')
      mkdirSync(path.join(base, live))
      const r = await cli(w.argv(out))
      expect(r.code, `${w.name}: ${r.stderr}`).toBe(0)
      expect(readdirSync(base).sort(), w.name).toEqual([live, w.outName].sort())
    })
  }

  it('gf extract into a folder holding a file where it needs a folder: nothing without --force, replaced whole with it', async () => {
    const w = writers.find((x) => x.name === 'gf extract')!
    const out = path.join(dir, 'blocked-png')
    mkdirSync(out)
    writeFileSync(path.join(out, '1'), 'a file where the PNG folder 1/ goes')
    const owned = snapshot(out)
    const r = await cli(w.argv(out))
    expect(r.code).toBe(1)
    expect(r.stderr).not.toMatch(/EEXIST/)
    expect(snapshot(out)).toBe(owned)
    expect(tempsBeside(out)).toEqual([])
    expect((await cli([...w.argv(out), '--force'])).code).toBe(0)
    expect(readdirSync(out).sort()).toEqual(['1', '2', '3'])
  })

  it('gf export-all: OUTDIR beside the sets inside DIR is fine; DIR itself, a folder holding DIR or a set are refused even with --force', async () => {
    const sets = path.join(dir, 'sets')
    const beside = path.join(sets, 'glb-out')
    const ok = await cli(['gf', 'export-all', sets, '--out', beside])
    expect(ok.code, ok.stderr).toBe(0)
    expect(readdirSync(beside).sort()).toEqual(['manifest.json', 'pm0999.glb'])
    rmSync(beside, { recursive: true })
    for (const [out, why] of [[sets, /is an input of this command/], [dir, /holds an input of this command/], [path.join(sets, 'pm0999'), /is an input of this command/]] as const) {
      const r = await cli(['gf', 'export-all', sets, '--out', out, '--force'])
      expect(r.code, out).toBe(1)
      expect(r.stderr, out).toMatch(why)
    }
  })

  it('inputs are byte-identical after everything', () => {
    for (const [p, s] of before) expect(snapshot(p), p).toBe(s)
  })
})

describe('scene:export (the app) never hits a catalog source, even with overwrite', () => {
  it('a gf-model export to SET/1.bin with overwrite: true is refused, the set untouched', async () => {
    const set = path.join(dir, 'sets', 'pm0999')
    const catalog = openCatalog(path.join(dir, 'catalog.db'))
    const services = new Services(catalog)
    try {
      const id = catalog.search('PM_HighPoly', 5).find((a) => a.kind === 'gf-model')!.id
      const target = path.join(set, '1.bin')
      const err = await services.invoke('scene:export', { id, out: target, overwrite: true }).then(() => null, (e: unknown) => e)
      expect(errorReplyOf(err).error.message).toMatch(/lies inside the catalog source/)
      expect(snapshot(set)).toBe(before.get(set))
      expect(tempsBeside(target)).toEqual([])
    } finally {
      services.dispose()
      catalog.close()
    }
  })
})
