/**
 * kill -9 at random points of every writer (tests/helpers/writers.ts), each a child process
 * running the built CLI (bin/modbench.mjs): the output is afterwards either absent or exactly
 * what an uninterrupted run writes, never half-written; the next run succeeds, writes that same
 * output and leaves no temp of the killed run beside it. Bounded: FAULTS_KILLS kills per writer
 * (default 3) at points drawn by a seeded generator (FAULTS_SEED, default 24): anywhere over the
 * length of an uninterrupted run, or a few ms after the run's temp appears (inside the write).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, watch } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { cliBin, spawnCli } from '../helpers/cli'
import { Rng } from '../helpers/fuzz'
import { WRITER_NAMES, isComplete, makeWriters, snapshot, tempsBeside, type Writer } from '../helpers/writers'

const KILLS = Number(process.env.FAULTS_KILLS ?? 3)
const rng = new Rng(Number(process.env.FAULTS_SEED ?? 24))
let dir = ''
let writers: Writer[] = []
let before: Map<string, string>
/** Kills that left a temp of the killed run (they hit the write itself). */
let caughtWriting = 0

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'faults-kill-'))
  writers = await makeWriters(dir)
  before = new Map(writers.flatMap((w) => w.inputs).map((p) => [p, snapshot(p)]))
  const warm = await spawnCli(['--help']) // builds the bundle first when a source changed
  expect(warm.code).toBe(0)
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * Runs the CLI as a child and SIGKILLs it (if still running) `ms` after the start, or, with
 * `onTemp`, `ms` after its temp file or folder appears beside `out` (a kill inside the write
 * itself); resolves when it has ended.
 */
function runKilled(argv: string[], out: string, ms: number, onTemp: boolean): Promise<{ killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...argv], { stdio: 'ignore' })
    let timer: NodeJS.Timeout | undefined
    const kill = () => (timer ??= setTimeout(() => child.kill('SIGKILL'), ms))
    const watcher = onTemp ? watch(path.dirname(out), (_e, name) => name?.startsWith(`.${path.basename(out)}.`) && kill()) : (kill(), null)
    child.on('error', reject)
    child.on('close', (_code, signal) => {
      clearTimeout(timer)
      watcher?.close()
      resolve({ killed: signal === 'SIGKILL' })
    })
  })
}

describe('kill -9 at random points of every writer', () => {
  for (const [i, name] of WRITER_NAMES.entries()) {
    it(`${name}: never a half-written output; the next run removes the killed run's temps`, async () => {
      const w = writers[i]!
      const base = path.join(dir, `kill-${i}`)
      mkdirSync(base)
      const out = path.join(base, w.outName)
      const t0 = performance.now()
      const ref = await spawnCli(w.argv(out))
      const took = performance.now() - t0
      expect(ref.code, `${name}: ${ref.stderr}`).toBe(0)
      const want = snapshot(out)
      rmSync(out, { recursive: true })
      for (let k = 0; k < KILLS; k++) {
        // even kills: anywhere in the run; odd kills: 0-5 ms after the temp appears
        const onTemp = k % 2 === 1
        const at = onTemp ? 5 * rng.next() : took * (0.2 + 0.9 * rng.next())
        const { killed } = await runKilled(w.argv(out), out, at, onTemp)
        const got = snapshot(out)
        expect(got === '(absent)' || isComplete(w, out, want), `${name} killed at ${at.toFixed(0)} ms: a partial output`).toBe(true)
        if (killed && tempsBeside(out).length) caughtWriting++
        const next = await spawnCli(got === '(absent)' ? w.argv(out) : [...w.argv(out), '--force'])
        expect(next.code, `${name} after a kill at ${at.toFixed(0)} ms: ${next.stderr}`).toBe(0)
        expect(isComplete(w, out, want), name).toBe(true)
        expect(tempsBeside(out), name).toEqual([])
        rmSync(out, { recursive: true })
      }
    }, 120_000)
  }

  it('inputs are byte-identical after every kill', () => {
    for (const [p, s] of before) expect(snapshot(p), p).toBe(s)
    // how many kills landed inside a write (left a temp the next run removed): where a small file's
    // kill lands depends on the machine's speed, but the folder writers' temps live long enough
    console.log(`faults-kill: ${caughtWriting} of ${WRITER_NAMES.length * KILLS} kills left a temp of the killed run`)
    if (KILLS >= 2) expect(caughtWriting).toBeGreaterThan(0)
  })
})
