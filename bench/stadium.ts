/**
 * Stadium bench: a 215-model Stadium-layout image (our synthetic models, padded to the real
 * 32 MiB ROM size): per-model open and scene build time; per-model glb writing beside its floor (a
 * plain write of the same glb bytes) and beside the oracle (glTF-Transform's document + WebIO,
 * tests/oracles/gltf-document.ts), with the scene validation both include; the whole export (glb +
 * PNG + manifest + moves) in a child process with its peak RSS beside the ROM size, as growth over
 * the process's RSS before the ROM is read and in absolute terms.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Report } from './run'
import { buildStadiumRom } from '../tests/fixtures/stadium/rom-builder'
import { fixtureFiles } from '../tests/fixtures/stadium/models'
import { openStadiumRom, loadModel } from '../src-shared/formats/stadium/model'
import { buildStadiumScene } from '../src-shared/formats/stadium/scene'
import { exportGlb } from '../src-shared/export/gltf'
import { oracleGlb } from '../tests/oracles/gltf-document'
import type { Scene } from '../src-shared/scene/types'
import { validateScene } from '../src-shared/scene/validate'

const REAL_ROM_SIZE = 32 * 1024 * 1024
const MiB = 1024 * 1024

export async function run(report: Report): Promise<void> {
  const built = buildStadiumRom({ files: fixtureFiles(215) })
  const rom = new Uint8Array(Math.max(REAL_ROM_SIZE, built.byteLength))
  rom.set(built)
  const sr = openStadiumRom(rom, 'bench.z64', 'bench')
  const n = sr.archive.entries.length
  let t = performance.now()
  for (let i = 0; i < n; i++) loadModel(sr, i)
  const open = (performance.now() - t) / n
  report('stadium', `open model (unwrap + geo walk + DLs), mean of ${n}`, open, 'ms')
  t = performance.now()
  const scenes = Array.from({ length: n }, (_, i) => buildStadiumScene(loadModel(sr, i)))
  report('stadium', `open + neutral scene, mean of ${n}`, (performance.now() - t) / n, 'ms')
  await glbFigures(report, scenes)
  exportFigures(report, rom)
}

/** Mean ms per scene of `write` over all scenes. */
async function perScene(scenes: Scene[], write: (s: Scene) => Promise<Uint8Array>): Promise<number> {
  const t = performance.now()
  for (const s of scenes) await write(s)
  return (performance.now() - t) / scenes.length
}

async function glbFigures(report: Report, scenes: Scene[]): Promise<void> {
  const n = scenes.length
  for (const s of scenes.slice(0, 10)) {
    await exportGlb(s) // warm-up
    await oracleGlb(s)
  }
  const glbs: Uint8Array[] = []
  for (const s of scenes) glbs.push(await exportGlb(s))
  const kib = glbs.reduce((a, g) => a + g.byteLength, 0) / n / 1024
  // Ours beside the oracle (glTF-Transform's document + WebIO, the writer before issue 15),
  // interleaved twice on this shared machine, the better run of each.
  const ours = [await perScene(scenes, (s) => exportGlb(s))]
  const theirs = [await perScene(scenes, (s) => oracleGlb(s))]
  ours.push(await perScene(scenes, (s) => exportGlb(s)))
  theirs.push(await perScene(scenes, (s) => oracleGlb(s)))
  const x = Math.min(...ours)
  const y = Math.min(...theirs)
  let t = performance.now()
  for (const s of scenes) validateScene(s)
  const vMs = (performance.now() - t) / n
  const dir = mkdtempSync(path.join(tmpdir(), 'stadium-glb-'))
  try {
    t = performance.now()
    glbs.forEach((g, i) => writeFileSync(path.join(dir, `${i}.glb`), g))
    const floor = (performance.now() - t) / n
    report('stadium', `glb writing per model (mean of ${n}, ${kib.toFixed(1)} KiB each)`, x, 'ms', `floor: plain write of the same bytes ${floor.toFixed(3)} ms, ${(x / floor).toFixed(0)}× it`)
    report('stadium', '  beside: glTF-Transform document + WebIO (the oracle)', y, 'ms', `ours ${x.toFixed(2)} ms, glTF-Transform document + WebIO ${y.toFixed(2)} ms, ${(y / x).toFixed(2)}×`)
    report('stadium', '  of which (both): validateScene', vMs, 'ms')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The whole export in a child process (its own peak RSS). */
function exportFigures(report: Report, rom: Uint8Array): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'stadium-bench-'))
  try {
    const romPath = path.join(dir, 'bench.z64')
    writeFileSync(romPath, rom)
    const child = fileURLToPath(new URL('./stadium-export-child.ts', import.meta.url))
    const out = execFileSync(process.execPath, ['--import', 'tsx', child, romPath, path.join(dir, 'out')], { encoding: 'utf8' })
    const r = JSON.parse(out.trim().split('\n').pop()!) as { baselineRss: number; peakRss: number; peakRssGrowth: number; bytesRead: number; ms: number; models: number }
    const growth = r.peakRssGrowth
    report('stadium', `full export of a ${r.models}-model image (glb + PNG + manifest + moves)`, r.ms / 1000, 's', `${(r.ms / r.models).toFixed(1)} ms per model`)
    report('stadium', `  peak RSS growth over the start (ROM ${(rom.byteLength / MiB).toFixed(0)} MiB)`, growth / MiB, 'MiB', `${(growth / rom.byteLength).toFixed(2)}× the ROM; peak RSS ${(r.peakRss / MiB).toFixed(0)} MiB (${(r.peakRss / rom.byteLength).toFixed(2)}× the ROM), start ${(r.baselineRss / MiB).toFixed(0)} MiB`)
    // A real US image's archive spans at most 0xCA0000 bytes (spec §3.1), its battle tables 153 × 0xB90:
    // the sparse read takes up to that much more there than from these small synthetic models.
    const realRead = 0xca0000 + 0x1000 + 153 * 4 + 153 * 0xb90
    const bound = growth - r.bytesRead + realRead
    report('stadium', `  ROM bytes read (sparse: header, battle tables, archive files)`, r.bytesRead / MiB, 'MiB', `of ${(rom.byteLength / MiB).toFixed(0)} MiB; with a real image's ≤ ${(realRead / MiB).toFixed(1)} MiB the growth would be ≤ ${(bound / MiB).toFixed(1)} MiB = ${(bound / rom.byteLength).toFixed(2)}× the ROM`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
