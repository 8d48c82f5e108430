/**
 * `npm run bench indexing`: indexing near the disk. One 32 MiB ROM image and 2 000 small (16 KiB)
 * images, each indexed into a fresh catalog, re-indexed unchanged (the stamp fast path) and with
 * --force, beside `sha1sum`-style hashing of the same bytes in Node (read each file, SHA-1 it).
 * Figures are wall time and process CPU time (the machine is shared: CPU is the steadier one).
 */
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { performance } from 'node:perf_hooks'
import '../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog } from '../src-main/catalog/catalog'
import { indexPaths } from '../src-main/indexer/indexer'
import { genericRom } from '../tests/fixtures/platform/n64'
import type { Report } from './run'

interface Timing {
  wall: number
  cpu: number
}

async function timed(f: () => Promise<unknown> | unknown): Promise<Timing> {
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  await f()
  const c = process.cpuUsage(c0)
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 }
}

/** The floor: read each file whole and SHA-1 it, as `sha1sum` does. */
function sha1sum(files: string[]): void {
  for (const f of files) createHash('sha1').update(fs.readFileSync(f)).digest('hex')
}

function noisyRom(name: string, size: number, seed: number): Uint8Array {
  const rom = genericRom(name, 'NBNE', size, 0)
  for (let i = 0x40; i < rom.length; i += 4) rom[i] = Math.imul(i + seed, 2654435761) >>> 24
  return rom
}

async function compare(report: Report, label: string, dir: string, files: string[], mib: number): Promise<void> {
  const floor = await timed(() => sha1sum(files))
  const cat = openCatalog(path.join(dir, `${label}.sqlite`))
  try {
    const first = await timed(() => indexPaths(cat, [dir]))
    const again = await timed(() => indexPaths(cat, [dir]))
    const forced = await timed(() => indexPaths(cat, [dir], { force: true }))
    const n = files.length
    const rate = (t: Timing) => `${(mib / (t.wall / 1000)).toFixed(0)} MiB/s, ${(n / (t.wall / 1000)).toFixed(0)} files/s wall; CPU ${t.cpu.toFixed(0)} ms`
    report('indexing', `${label}: sha1sum-style read + SHA-1 in Node`, mib / (floor.wall / 1000), 'MiB/s', `${rate(floor)}`)
    report('indexing', `${label}: index (first time)`, mib / (first.wall / 1000), 'MiB/s', `${rate(first)}; ${(first.wall / floor.wall).toFixed(1)}× the floor wall, ${(first.cpu / floor.cpu).toFixed(1)}× CPU`)
    report('indexing', `${label}: re-index unchanged (stamp fast path)`, n / (again.wall / 1000), 'files/s', `${again.wall.toFixed(0)} ms wall, ${again.cpu.toFixed(0)} ms CPU`)
    report('indexing', `${label}: re-index --force`, mib / (forced.wall / 1000), 'MiB/s', `${rate(forced)}; ${(forced.wall / floor.wall).toFixed(1)}× the floor wall`)
  } finally {
    cat.close()
  }
}

export async function run(report: Report): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bench-idx-'))
  try {
    const big = path.join(root, 'big')
    fs.mkdirSync(big)
    const bigFile = path.join(big, 'big.z64')
    fs.writeFileSync(bigFile, noisyRom('BENCH BIG', 32 * 1024 * 1024, 1))
    const old = new Date(Date.now() - 3600_000)
    fs.utimesSync(bigFile, old, old)
    await compare(report, 'one 32 MiB image', big, [bigFile], 32)

    const small = path.join(root, 'small')
    fs.mkdirSync(small)
    const files: string[] = []
    for (let i = 0; i < 2000; i++) {
      const f = path.join(small, `s${String(i).padStart(4, '0')}.z64`)
      fs.writeFileSync(f, noisyRom(`SMALL ${i}`, 16 * 1024, i))
      fs.utimesSync(f, old, old)
      files.push(f)
    }
    await compare(report, '2 000 images of 16 KiB', small, files, (2000 * 16) / 1024)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}
