/**
 * `npm run bench gf-batch`: `gf export-all` (issue 26 item 2) beside its floor, reading the same
 * inputs, in the same run. N sets (default 400; `BENCH_GF_SETS=1000` for the full dump) whose
 * textures are all their own (varied-set.ts: no PNG is met twice, the worst case for the batch's
 * PNG cache), exported on the worker pool and in one thread (the path before the pool); a scale
 * row (100 sets vs N: the cost per set should stay flat); and the zlib levels the PNGs could be
 * deflated at (docs/DECISIONS.md "Batch export"). Figures only, never pass/fail.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { deflateSync } from 'node:zlib'
import { zlibSync } from 'fflate'
import type { Report } from './run'
import { variedSet } from '../tests/fixtures/gf/varied-set'
import { discPicture, gradientPicture } from '../tests/fixtures/gf/build-set'
import { GF_SET_FILES } from '../src-shared/formats/gf/gf-set'
import { exportAllSets } from '../src-main/domains/gf/export-batch'
import { exportPool, stopExportPool } from '../src-main/domains/gf/export-pool'

const N = Math.max(100, Number(process.env.BENCH_GF_SETS) || 400)

function makeDump(dir: string, n: number): string[] {
  const dirs: string[] = []
  for (let i = 0; i < n; i++) {
    const d = path.join(dir, String(Math.floor(i / 100)), String(i).padStart(4, '0'))
    mkdirSync(d, { recursive: true })
    for (const [f, b] of variedSet(i + 1)) writeFileSync(path.join(d, f), b)
    dirs.push(d)
  }
  return dirs
}

/** The floor: every input file read once, one after another (from the page cache after the first pass). */
function readAll(dirs: string[]): number {
  const t = performance.now()
  for (const d of dirs) for (const f of GF_SET_FILES) readFileSync(path.join(d, f))
  return performance.now() - t
}

/** Best of `rounds` runs of each, interleaved with the floor (a loaded machine moves both alike). */
async function exportVsFloor(root: string, dirs: string[], out: string, inThread: boolean, rounds: number): Promise<{ ms: number; floor: number; cpu: number }> {
  let ms = Infinity, floor = Infinity, cpu = Infinity
  for (let r = 0; r < rounds; r++) {
    floor = Math.min(floor, readAll(dirs))
    const o = `${out}-${r}`
    const t = performance.now(), c = process.cpuUsage()
    await exportAllSets(root, o, { inThread })
    const used = process.cpuUsage(c)
    ms = Math.min(ms, performance.now() - t)
    cpu = Math.min(cpu, (used.user + used.system) / 1000) // every thread of the process
    rmSync(o, { recursive: true, force: true })
  }
  return { ms, floor, cpu }
}

function pngLevels(report: Report): void {
  // distinct textures of a retail size (256×256 and 128×128), rows filtered as the PNG encoder does
  const raw = [gradientPicture(256, 256, 3), discPicture(256, 256, 1), gradientPicture(128, 128, 9, 30), discPicture(128, 128, 5)].map((rgba) => {
    const w = Math.sqrt(rgba.length / 4), out = new Uint8Array(w * (w * 4 + 1))
    for (let y = 0; y < w; y++) out.set(rgba.subarray(y * w * 4, (y + 1) * w * 4), y * (w * 4 + 1) + 1)
    return out
  })
  const mb = raw.reduce((s, r) => s + r.byteLength, 0) / 1e6
  const coders: [string, (b: Uint8Array) => Uint8Array][] = [
    ...([1, 3, 6, 9] as const).map((l): [string, (b: Uint8Array) => Uint8Array] => [`fflate ${l}${l === 3 ? ' (used)' : ''}`, (b) => zlibSync(b, { level: l })]),
    ...[1, 6].map((l): [string, (b: Uint8Array) => Uint8Array] => [`node zlib ${l}`, (b) => deflateSync(b, { level: l })]),
  ]
  const best = coders.map(() => Infinity)
  const size = coders.map(() => 0)
  for (let round = 0; round < 5; round++) {
    coders.forEach(([, f], i) => {
      const t = performance.now()
      size[i] = raw.reduce((s, r) => s + f(r).byteLength, 0)
      best[i] = Math.min(best[i]!, performance.now() - t)
    })
  }
  coders.forEach(([name], i) => report('gf-batch', `PNG deflate, ${name}`, mb / (best[i]! / 1000), 'MB/s', `${(size[i]! / 1e3).toFixed(0)} kB of ${(mb * 1e3).toFixed(0)} kB`))
}

export async function run(report: Report): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'bench-gf-batch-'))
  try {
    const dirs = makeDump(path.join(tmp, 'dump'), N)
    const small = path.join(tmp, 'small')
    const smallDirs = makeDump(small, 100)
    const t0 = performance.now()
    await exportAllSets(small, path.join(tmp, 'warm'), {})
    report('gf-batch', `pool start + first batch of 100 sets (${exportPool().size} threads)`, performance.now() - t0, 'ms', 'starting the threads is paid once per process')
    const pool = await exportVsFloor(path.join(tmp, 'dump'), dirs, path.join(tmp, 'pool'), false, 3)
    report('gf-batch', `gf export-all: ${N} sets on the pool (written)`, pool.ms / pool.floor, '× floor', `${pool.ms.toFixed(0)} ms, ${(pool.ms / N).toFixed(2)} ms/set, CPU ${(pool.cpu / N).toFixed(2)} ms/set; floor: read all inputs ${pool.floor.toFixed(0)} ms`)
    const one = await exportVsFloor(path.join(tmp, 'dump'), dirs, path.join(tmp, 'one'), true, 1)
    report('gf-batch', `gf export-all: ${N} sets in one thread (inThread)`, one.ms / one.floor, '× floor', `${one.ms.toFixed(0)} ms, ${(one.ms / N).toFixed(2)} ms/set, CPU ${(one.cpu / N).toFixed(2)} ms/set; pool ${(one.ms / pool.ms).toFixed(1)}× faster`)
    const hundred = await exportVsFloor(small, smallDirs, path.join(tmp, 'hundred'), false, 3)
    // CPU time (every thread) per set is the figure a loaded machine moves least; wall time beside it
    report('gf-batch', `scale: CPU per set, ${N} sets vs 100 (pool)`, pool.cpu / N / (hundred.cpu / 100), '×', `1.00 = flat; CPU ${(hundred.cpu / 100).toFixed(2)} vs ${(pool.cpu / N).toFixed(2)} ms/set, wall ${(hundred.ms / 100).toFixed(2)} vs ${(pool.ms / N).toFixed(2)} ms/set, ${(hundred.ms / hundred.floor).toFixed(1)} vs ${(pool.ms / pool.floor).toFixed(1)}× floor`)
    pngLevels(report)
  } finally {
    await stopExportPool()
    rmSync(tmp, { recursive: true, force: true })
  }
}
