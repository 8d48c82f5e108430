/**
 * Stadium bench: full export of a 215-model Stadium-layout image (our synthetic models) and the
 * per-model open time (decompress + root + geo walk + DLs) and scene build time.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import type { Report } from './run'
import { buildStadiumRom } from '../tests/fixtures/stadium/rom-builder'
import { fixtureFiles } from '../tests/fixtures/stadium/models'
import { openStadiumRom, loadModel } from '../src-shared/formats/stadium/model'
import { buildStadiumScene } from '../src-shared/formats/stadium/scene'
import { exportStadium } from '../src-main/domains/stadium/rom-file'

export async function run(report: Report): Promise<void> {
  const rom = buildStadiumRom({ files: fixtureFiles(215) })
  const sr = openStadiumRom(rom, 'bench.z64', 'bench')
  const n = sr.archive.entries.length
  let t = performance.now()
  for (let i = 0; i < n; i++) loadModel(sr, i)
  const open = (performance.now() - t) / n
  report('stadium', `open model (unwrap + geo walk + DLs), mean of ${n}`, open, 'ms')
  t = performance.now()
  for (let i = 0; i < n; i++) buildStadiumScene(loadModel(sr, i))
  report('stadium', `open + neutral scene, mean of ${n}`, (performance.now() - t) / n, 'ms')
  const dir = mkdtempSync(path.join(tmpdir(), 'stadium-bench-'))
  try {
    t = performance.now()
    const res = await exportStadium(sr, path.join(dir, 'out'))
    report('stadium', `full export of a ${n}-model image (glb + PNG + manifest + moves)`, (performance.now() - t) / 1000, 's', `${res.files.length} files`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
