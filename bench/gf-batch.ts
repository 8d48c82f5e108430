/**
 * `npm run bench gf-batch`: `gf export-all` (issue 26 item 2) beside its floor, reading the same
 * inputs, in the same run. N sets (default 400; `BENCH_GF_SETS=1000` for the full dump) whose
 * textures are all their own (varied-set.ts: no PNG is met twice, the worst case for the batch's
 * PNG cache), exported on the worker pool and in one thread (the reference path); the irreducible
 * work (each set's textures decoded and deflated, nothing else, in one thread: what no export of
 * these sets can go under on this machine); a scale row (100 sets vs N: the cost per set should
 * stay flat); and the PNG filters and zlib levels the textures could be written with
 * (docs/DECISIONS.md "Batch export", "Batch export, second pass"). The PNG codec is Node's, as
 * the CLI and the app register it. Figures only, never pass/fail.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { deflateSync } from 'node:zlib'
import { zlibSync } from 'fflate'
import type { Report } from './run'
import { variedSet } from '../tests/fixtures/gf/varied-set'
import { discPicture, gradientPicture } from '../tests/fixtures/gf/build-set'
import { GF_SET_FILES, listTextures, parseGfSet } from '../src-shared/formats/gf/gf-set'
import { decodeGfTexture } from '../src-shared/formats/gf/texture'
import { buildGfScene } from '../src-shared/formats/gf/scene'
import { encodeRgbaPng } from '../src-shared/export/png'
import { useNodePngCodec } from '../src-main/node/png-codec'
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

/**
 * The work no export of these sets can skip, in one thread: the textures the glb holds decoded to
 * RGBA and written as PNG (the set's files already in memory: reading them is the floor). CPU ms per set.
 */
function irreducible(dirs: string[], rounds: number): { cpu: number; pngBytes: number; textures: number } {
  const sets = dirs.map((d) => new Map(GF_SET_FILES.map((f) => [f, new Uint8Array(readFileSync(path.join(d, f)))])))
  // the entries the export writes (`1_0_<name>`: 1.bin entry 0), the same in every set of the dump
  const used = new Set(buildGfScene(parseGfSet(sets[0]!)).scene.textures.map((t) => t.name.split('_').slice(0, 2).join('_')))
  let cpu = Infinity, pngBytes = 0
  for (let r = 0; r < rounds; r++) {
    const c = process.cpuUsage()
    pngBytes = 0
    for (const files of sets) {
      for (const t of listTextures(parseGfSet(files))) {
        if (used.has(`${t.file.replace('.bin', '')}_${t.entry}`)) pngBytes += encodeRgbaPng(decodeGfTexture(t.bytes, t.header), t.header.width, t.header.height).byteLength
      }
    }
    const u = process.cpuUsage(c)
    cpu = Math.min(cpu, (u.user + u.system) / 1000 / sets.length)
  }
  return { cpu, pngBytes: pngBytes / sets.length, textures: used.size }
}

/**
 * What writing the outputs costs on this disk, alone: `n` new files of `bytes` each created and
 * written in a new folder, one thread. CPU ms per file (creating a file is most of it on some
 * file systems: ~0.8 ms on the bench machine's, against ~3 µs to open one for reading).
 */
function createFiles(dir: string, n: number, bytes: number, rounds: number): number {
  const data = new Uint8Array(bytes).fill(7)
  let cpu = Infinity
  for (let r = 0; r < rounds; r++) {
    const d = `${dir}-${r}`
    mkdirSync(d)
    const c = process.cpuUsage()
    for (let i = 0; i < n; i++) writeFileSync(path.join(d, `${i}.glb`), data)
    const u = process.cpuUsage(c)
    cpu = Math.min(cpu, (u.user + u.system) / 1000 / n)
    rmSync(d, { recursive: true, force: true })
  }
  return cpu
}

/** Rows of retail-sized pictures (two 256×256, two 128×128) as a PNG filters them: type 0 (none) or 2 (Up). */
function filteredPictures(filter: 0 | 2): Uint8Array[] {
  return [gradientPicture(256, 256, 3), discPicture(256, 256, 1), gradientPicture(128, 128, 9, 30), discPicture(128, 128, 5)].map((rgba) => {
    const w = Math.sqrt(rgba.length / 4), stride = w * 4, out = new Uint8Array(w * (stride + 1))
    for (let y = 0; y < w; y++) {
      out[y * (stride + 1)] = filter
      for (let i = 0; i < stride; i++) out[y * (stride + 1) + 1 + i] = rgba[y * stride + i]! - (filter === 2 && y > 0 ? rgba[(y - 1) * stride + i]! : 0)
    }
    return out
  })
}

function pngLevels(report: Report): void {
  type Coder = [string, 0 | 2, (b: Uint8Array) => Uint8Array]
  const coders: Coder[] = [
    ['filter 0, fflate 3 (before)', 0, (b) => zlibSync(b, { level: 3 })],
    ['filter 0, node zlib 1', 0, (b) => deflateSync(b, { level: 1 })],
    ['filter Up, fflate 3 (the browser)', 2, (b) => zlibSync(b, { level: 3 })],
    ...[1, 3, 6].map((l): Coder => [`filter Up, node zlib ${l}${l === 1 ? ' (Node: used)' : ''}`, 2, (b) => deflateSync(b, { level: l })]),
  ]
  const pictures = { 0: filteredPictures(0), 2: filteredPictures(2) }
  const mb = pictures[0].reduce((s, r) => s + r.byteLength, 0) / 1e6
  const best = coders.map(() => Infinity)
  const size = coders.map(() => 0)
  for (let round = 0; round < 5; round++) {
    coders.forEach(([, filter, f], i) => {
      const t = performance.now()
      size[i] = pictures[filter].reduce((s, r) => s + f(r).byteLength, 0)
      best[i] = Math.min(best[i]!, performance.now() - t)
    })
  }
  coders.forEach(([name], i) => report('gf-batch', `PNG deflate, ${name}`, mb / (best[i]! / 1000), 'MB/s', `${(size[i]! / 1e3).toFixed(0)} kB of ${(mb * 1e3).toFixed(0)} kB`))
}

export async function run(report: Report): Promise<void> {
  useNodePngCodec() // as the CLI and the app do
  const tmp = mkdtempSync(path.join(tmpdir(), 'bench-gf-batch-'))
  try {
    const dirs = makeDump(path.join(tmp, 'dump'), N)
    const small = path.join(tmp, 'small')
    const smallDirs = makeDump(small, 100)
    const t0 = performance.now()
    await exportAllSets(small, path.join(tmp, 'warm'), {})
    report('gf-batch', `pool start + first batch of 100 sets (${exportPool().size} threads)`, performance.now() - t0, 'ms', 'starting the threads is paid once per process')
    const pool = await exportVsFloor(path.join(tmp, 'dump'), dirs, path.join(tmp, 'pool'), false, 3)
    report('gf-batch', `gf export-all: ${N} sets on the pool (written)`, pool.ms / pool.floor, '× floor', `${pool.ms.toFixed(0)} ms, ${(pool.ms / N).toFixed(2)} ms/set, CPU ${(pool.cpu / N).toFixed(2)} ms/set = ${(pool.cpu / pool.floor).toFixed(0)}× floor; floor: read all inputs ${pool.floor.toFixed(0)} ms`)
    const one = await exportVsFloor(path.join(tmp, 'dump'), dirs, path.join(tmp, 'one'), true, 1)
    report('gf-batch', `gf export-all: ${N} sets in one thread (inThread)`, one.ms / one.floor, '× floor', `${one.ms.toFixed(0)} ms, ${(one.ms / N).toFixed(2)} ms/set, CPU ${(one.cpu / N).toFixed(2)} ms/set; pool ${(one.ms / pool.ms).toFixed(1)}× faster`)
    const floorPerSet = Math.min(pool.floor, one.floor) / N
    const least = irreducible(dirs, 3)
    const threads = exportPool().size
    report('gf-batch', `irreducible: textures decoded + PNG-deflated, one thread`, least.cpu / floorPerSet, '× floor', `CPU ${least.cpu.toFixed(2)} ms/set (${least.textures} textures, ${(least.pngBytes / 1e3).toFixed(1)} kB of PNG per set), on ${threads} cores at best ${(least.cpu / threads / floorPerSet).toFixed(1)}× floor; the pool's CPU is ${(pool.cpu / N / least.cpu).toFixed(1)}× this`)
    const glbBytes = Math.round(readdirSync(path.join(tmp, 'warm'), { recursive: true }).filter((f) => String(f).endsWith('.glb')).reduce((sum, f) => sum + statSync(path.join(tmp, 'warm', String(f))).size, 0) / 100)
    const create = createFiles(path.join(tmp, 'create'), N, glbBytes, 3)
    report('gf-batch', `irreducible: ${N} output files created + written, one thread`, create / floorPerSet, '× floor', `CPU ${create.toFixed(2)} ms/file of ${(glbBytes / 1e3).toFixed(1)} kB (the glbs' mean size); with the textures: ${((least.cpu + create) / floorPerSet).toFixed(1)}× floor in one thread, ${((least.cpu + create) / threads / floorPerSet).toFixed(1)}× on ${threads} cores at best`)
    const hundred = await exportVsFloor(small, smallDirs, path.join(tmp, 'hundred'), false, 3)
    // CPU time (every thread) per set is the figure a loaded machine moves least; wall time beside it
    report('gf-batch', `scale: CPU per set, ${N} sets vs 100 (pool)`, pool.cpu / N / (hundred.cpu / 100), '×', `1.00 = flat; CPU ${(hundred.cpu / 100).toFixed(2)} vs ${(pool.cpu / N).toFixed(2)} ms/set, wall ${(hundred.ms / 100).toFixed(2)} vs ${(pool.ms / N).toFixed(2)} ms/set, ${(hundred.ms / hundred.floor).toFixed(1)} vs ${(pool.ms / pool.floor).toFixed(1)}× floor`)
    pngLevels(report)
  } finally {
    await stopExportPool()
    rmSync(tmp, { recursive: true, force: true })
  }
}
