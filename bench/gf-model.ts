/**
 * `npm run bench gf-model`: GF models and motions (issue 11). Decode of a set (model + motions),
 * `gf export` per set, `gf export-all` sets per second on a folder of 500 sets and the batch's peak
 * memory, each beside the plain file read of the same bytes (the floor). Figures only.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import type { Report } from './run'
import { buildPackage, buildSyntheticSet } from '../tests/fixtures/gf/build-set'
import { largeModel, largeMotion } from '../tests/fixtures/gf/large'
import { parseGfSet, GF_SET_FILES } from '../src-shared/formats/gf/gf-set'
import { setModels, setMotions } from '../src-shared/formats/gf/set-models'
import { loadSet } from '../src-main/domains/gf/set-folder'
import { exportSetGlb } from '../src-main/domains/gf/export-set'
import { exportAllSets } from '../src-main/domains/gf/export-batch'

async function time<T>(f: () => T | Promise<T>, minMs = 300): Promise<{ ms: number; value: T }> {
  let n = 0
  let value: T
  const t0 = performance.now()
  do {
    value = await f()
    n++
  } while (performance.now() - t0 < minMs)
  return { ms: (performance.now() - t0) / n, value: value! }
}

function readAll(dirs: string[]): number {
  let bytes = 0
  for (const d of dirs) for (const f of GF_SET_FILES) bytes += readFileSync(path.join(d, f)).byteLength
  return bytes
}

export async function run(report: Report): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), 'bench-gf-model-'))
  try {
    // A retail-sized set: 60 bones, 4 meshes of 1600 vertices, 24 motions of 90 frames animating every bone.
    const files = buildSyntheticSet(1).files
    const motion = largeMotion()
    files.set('0.bin', buildPackage([largeModel(), largeModel(60, 20, 2)], { headerSize: 0x20, align: 16 }))
    for (const f of ['4.bin', '5.bin', '6.bin']) files.set(f, buildPackage(Array.from({ length: 8 }, () => motion), { align: 4 }))
    const big = path.join(tmp, 'big')
    mkdirSync(big)
    for (const [n, b] of files) writeFileSync(path.join(big, n), b)
    const mb = [...files.values()].reduce((s, b) => s + b.byteLength, 0) / 1e6
    const floor = await time(() => readAll([big]))
    const decode = await time(() => {
      const set = parseGfSet(new Map(GF_SET_FILES.map((f) => [f, new Uint8Array(readFileSync(path.join(big, f)))])))
      return [setModels(set), setMotions(set)]
    }, 1500)
    report('gf-model', `decode a set (2 models + 24 motions, ${mb.toFixed(2)} MB)`, decode.ms, 'ms', `floor: plain read ${floor.ms.toFixed(2)} ms`)
    const exp = await time(async () => (await exportSetGlb(await loadSet(big))).glb.byteLength, 1000)
    report('gf-model', 'gf export of that set (scene + glb, textures as PNG)', exp.ms, 'ms', `glb ${(exp.value / 1e6).toFixed(2)} MB; floor ${floor.ms.toFixed(2)} ms`)

    // The batch: 500 sets of the sample kind under one folder.
    const dump = path.join(tmp, 'dump')
    const small = buildSyntheticSet(1).files
    const dirs: string[] = []
    for (let i = 0; i < 500; i++) {
      const d = path.join(dump, String(Math.floor(i / 100)), String(i).padStart(4, '0'))
      mkdirSync(d, { recursive: true })
      for (const [n, b] of small) writeFileSync(path.join(d, n), b)
      dirs.push(d)
    }
    // the worker pool starts once per process (slow under tsx, which compiles the sources in each thread): not part of the batch's rate
    await exportAllSets(path.join(dump, '0'), path.join(tmp, 'warm'), {})
    const t0 = performance.now()
    readAll(dirs)
    const floorMs = performance.now() - t0
    let peakRss = process.memoryUsage().rss
    let peakHeap = process.memoryUsage().heapUsed
    const sampler = setInterval(() => {
      const m = process.memoryUsage()
      peakRss = Math.max(peakRss, m.rss)
      peakHeap = Math.max(peakHeap, m.heapUsed)
    }, 20)
    const rss0 = process.memoryUsage().rss
    const t1 = performance.now()
    const manifest = await exportAllSets(dump, path.join(tmp, 'out'), {})
    const batchMs = performance.now() - t1
    clearInterval(sampler)
    report('gf-model', `gf export-all: ${manifest.length} sets`, manifest.length / (batchMs / 1000), 'sets/s', `floor: plain read of the same files ${(dirs.length / (floorMs / 1000)).toFixed(0)} sets/s`)
    report('gf-model', 'gf export-all: peak RSS (growth during the batch)', (peakRss - rss0) / 1e6, 'MB', `peak RSS ${(peakRss / 1e6).toFixed(0)} MB, peak heap ${(peakHeap / 1e6).toFixed(0)} MB`)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}
