/**
 * `npm run bench indexing`: indexing near the disk (issue 26 item 3), each row beside its floor
 * measured in the same run on the same (cached) files:
 * - GF sets (nine files each) and small 16 KiB N64 images, first index into a fresh catalog, beside
 *   hashing the same bytes: `sha1sum` over every file (the tool, one process per 2 000 files) and
 *   Node reading each file and SHA-1-ing it; the floor is the faster of the two (the row says which);
 * - the unchanged re-index beside `find DIR -newer STAMP` (a walk that stats every file), in this
 *   process and as the whole `modbench index` process (the built CLI, start-up included);
 * - the parts of a GF first index, each alone on the same sets in the same run: reading and parsing
 *   them (no catalog), the catalog's writes of the rows parsed beforehand, and SQLite's own cost for
 *   the same rows and FTS rows copied from the first index's catalog (`INSERT … SELECT`, no JS per
 *   row): the last is what this schema costs here at the least;
 * - the scale row: cost per set of a first index at two sizes (flat = the same ms per set);
 * - one 32 MiB image (the big-file path), and `--force`.
 * Default sizes are short (a few seconds); BENCH_INDEX_FULL=1 runs issue 26's full sizes (1 000
 * sets, 2 000 small files, the scale row 100 vs 1 000 sets). Figures are wall time; CPU time is in
 * the notes (the machine is shared, CPU is the steadier one).
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { performance } from 'node:perf_hooks'
import '../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog, type Catalog } from '../src-main/catalog/catalog'
import { ftsAddSource } from '../src-main/catalog/fts'
import { gfSetDetector } from '../src-main/domains/gf/detector'
import { indexPaths } from '../src-main/indexer/indexer'
import { readSetFiles } from '../src-main/indexer/read-source'
import type { AssetDraft } from '../src-main/plugin/detector'
import { buildSyntheticSet } from '../tests/fixtures/gf/build-set'
import { genericRom } from '../tests/fixtures/platform/n64'
import { buildCli } from '../tools/build-cli.mjs'
import type { Report } from './run'

const FULL = !!process.env.BENCH_INDEX_FULL
const SETS = FULL ? 1000 : 200
const SMALL = FULL ? 2000 : 500
const SCALE: [number, number] = FULL ? [100, 1000] : [50, 200]

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

/** The best of `n` runs (the machine is shared: the least disturbed run is the steadiest figure). */
async function best(n: number, f: () => Promise<unknown> | unknown): Promise<Timing> {
  let b: Timing | null = null
  for (let i = 0; i < n; i++) {
    const t = await timed(f)
    if (!b || t.wall < b.wall) b = t
  }
  return b!
}

/** Node's floor: read each file whole and SHA-1 it. */
function nodeSha1(files: string[]): void {
  for (const f of files) createHash('sha1').update(fs.readFileSync(f)).digest('hex')
}

/** Wall and CPU (user + system, from bash's `time`) of a command run in a child, as bench/cli.ts measures. */
function child(cmd: string, args: string[]): Timing {
  const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  const t = performance.now()
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%3U %3S'; time ${quoted} >/dev/null`], { encoding: 'utf8', maxBuffer: 1 << 26 })
  const wall = performance.now() - t
  const m = /([\d.]+) ([\d.]+)\s*$/.exec(r.stderr)
  if (r.status !== 0 || !m) throw new Error(`${cmd} exited ${r.status}: ${r.stderr.slice(0, 500)}`)
  return { wall, cpu: (Number(m[1]) + Number(m[2])) * 1000 }
}

/** The tool's floor: `sha1sum` over every file (argument lists of 2 000 files, one process each). */
function toolSha1(files: string[]): Timing {
  const t = { wall: 0, cpu: 0 }
  for (let i = 0; i < files.length; i += 2000) {
    const r = child('sha1sum', files.slice(i, i + 2000))
    t.wall += r.wall
    t.cpu += r.cpu
  }
  return t
}

const hasTool = (cmd: string) => spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0

/** The least of `n` runs of a measured child (wall and CPU each at their least). */
function bestChild(n: number, f: () => Timing): Timing {
  const runs = Array.from({ length: n }, f)
  return { wall: Math.min(...runs.map((r) => r.wall)), cpu: Math.min(...runs.map((r) => r.cpu)) }
}

const say = (t: Timing) => `${t.wall.toFixed(0)} ms wall, CPU ${t.cpu.toFixed(0)} ms`

/** The hashing floor of `files`: the faster (by wall time) of `sha1sum` and Node's read + SHA-1, and which it was. */
async function hashFloor(files: string[]): Promise<{ t: Timing; which: string; other: string }> {
  const node = await best(3, () => nodeSha1(files))
  if (!hasTool('sha1sum')) return { t: node, which: 'Node read+SHA-1', other: 'sha1sum not installed' }
  const tool = bestChild(3, () => toolSha1(files))
  return tool.wall < node.wall ? { t: tool, which: 'sha1sum', other: `Node read+SHA-1 ${say(node)}` } : { t: node, which: 'Node read+SHA-1', other: `sha1sum ${say(tool)}` }
}

/** `find DIR -newer STAMP`: a walk that stats every file (what an unchanged re-index must at least do). */
function findNewer(dir: string, stamp: string): Timing {
  return bestChild(3, () => child('find', [dir, '-newer', stamp]))
}

const OLD = new Date(Date.now() - 3600_000)

function writeOld(file: string, bytes: Uint8Array): void {
  fs.writeFileSync(file, bytes)
  fs.utimesSync(file, OLD, OLD)
}

/** `n` GF set folders (the test suite's synthetic nine-file set, ~30 KB) under `dir`; returns every file. */
function gfSets(dir: string, n: number): string[] {
  const set = buildSyntheticSet(1).files
  const files: string[] = []
  fs.mkdirSync(dir, { recursive: true })
  for (let i = 0; i < n; i++) {
    const d = path.join(dir, `a${String(i).padStart(4, '0')}`)
    fs.mkdirSync(d)
    for (const [name, bytes] of set) {
      writeOld(path.join(d, name), bytes)
      files.push(path.join(d, name))
    }
  }
  return files
}

function noisyRom(name: string, size: number, seed: number): Uint8Array {
  const rom = genericRom(name, 'NBNE', size, 0)
  for (let i = 0x40; i < rom.length; i += 4) rom[i] = Math.imul(i + seed, 2654435761) >>> 24
  return rom
}

function smallRoms(dir: string, n: number): string[] {
  fs.mkdirSync(dir, { recursive: true })
  const files: string[] = []
  for (let i = 0; i < n; i++) {
    const f = path.join(dir, `s${String(i).padStart(4, '0')}.z64`)
    writeOld(f, noisyRom(`SMALL ${i}`, 16 * 1024, i))
    files.push(f)
  }
  return files
}

const mib = (files: string[]) => files.reduce((n, f) => n + fs.statSync(f).size, 0) / 2 ** 20

const ratio = (t: Timing, floor: Timing) => `${(t.wall / floor.wall).toFixed(1)}× wall, ${(t.cpu / floor.cpu).toFixed(1)}× CPU`

/** The set folders among `files` (each file's folder, in order). */
const setDirs = (files: string[]) => [...new Set(files.map((f) => path.dirname(f)))]

/**
 * The parts of a GF first index alone, on the sets of `files` (`first`: the catalog the first index
 * wrote), each beside the same floor: read + parse (no catalog), the catalog's writes of rows parsed
 * beforehand, and SQLite alone (the first index's rows and FTS rows copied in by `INSERT … SELECT`).
 */
async function gfParts(report: Report, label: string, files: string[], first: Catalog, floor: Timing): Promise<void> {
  const dirs = setDirs(files)
  const members = [...fs.readdirSync(dirs[0]!)].sort()
  let parsed: { dir: string; sha1: string; assets: AssetDraft<string>[]; metadata?: Record<string, unknown> }[] = []
  const parse = await best(3, () => {
    parsed = dirs.map((dir) => {
      const set = readSetFiles(dir, members)
      const r = gfSetDetector.enumerate(set.files, dir) as { assets: AssetDraft<string>[]; metadata?: Record<string, unknown> }
      return { dir, sha1: set.sha1, assets: r.assets, metadata: r.metadata }
    })
  })
  const fresh = (name: string) => openCatalog(path.join(path.dirname(first.path), `${path.basename(first.path, '.sqlite')}-${name}-${Math.random().toString(36).slice(2)}.sqlite`))
  const writes = await best(3, async () => {
    const cat = fresh('writes')
    try {
      await cat.batch(async () => {
        for (const p of parsed) cat.replaceSource({ path: p.dir, size: 0, mtime: 0, hash: p.sha1, kind: 'gf-set', metadata: p.metadata }, p.assets)
      })
    } finally {
      cat.close()
    }
  })
  const sqlite = await best(3, () => {
    const cat = fresh('sqlite')
    try {
      const db = cat.db
      db.prepare('ATTACH ? AS a').run(first.path)
      db.transaction(() => {
        for (const t of ['sources', 'assets', 'fts_multi_text', 'fts_terms', 'id_seq']) db.exec(`INSERT OR REPLACE INTO main.${t} SELECT * FROM a.${t}`)
        ftsAddSource((sql) => db.prepare(sql), (db.prepare('SELECT id FROM sources').pluck().all() as number[]))
      }).immediate()
      db.exec('DETACH a')
    } finally {
      cat.close()
    }
  })
  const rows = first.assetCount()
  report('indexing', `${label}: read + parse alone`, parse.wall / floor.wall, '× floor', `${ratio(parse, floor)}; ${say(parse)}; the sets read and enumerated, no catalog`)
  report('indexing', `${label}: catalog writes alone`, writes.wall / floor.wall, '× floor', `${ratio(writes, floor)}; ${say(writes)}; the rows parsed beforehand, written as indexing writes them (${rows} assets + FTS)`)
  report('indexing', `${label}: SQLite alone (least possible)`, sqlite.wall / floor.wall, '× floor', `${ratio(sqlite, floor)}; ${say(sqlite)}; the same ${rows} asset rows and FTS rows copied in by INSERT … SELECT and committed, no JavaScript per row`)
}

/** The first index of `dir`, best of 3 (each into a new catalog, as the floor is the best of 3); the last catalog is left open. */
async function firstIndex(dir: string): Promise<{ t: Timing; cat: Catalog }> {
  let t: Timing | null = null
  let cat: Catalog | null = null
  for (let i = 0; i < 3; i++) {
    cat?.close()
    const c = (cat = openCatalog(path.join(path.dirname(dir), `${path.basename(dir)}-${i}.sqlite`)))
    const run = await timed(() => indexPaths(c, [dir]))
    if (!t || run.wall < t.wall) t = run
  }
  return { t: t!, cat: cat! }
}

/** First index, unchanged re-index and --force of `dir`, each beside its floor; `parts`: the GF parts rows too. */
async function compare(report: Report, label: string, dir: string, files: string[], force = true, cli?: string, parts = false): Promise<void> {
  const size = mib(files)
  const floor = await hashFloor(files)
  const stamp = path.join(path.dirname(dir), `${path.basename(dir)}.stamp`)
  fs.writeFileSync(stamp, '')
  const find = findNewer(dir, stamp)
  const { t: first, cat } = await firstIndex(dir)
  try {
    const again = await best(3, () => indexPaths(cat, [dir]))
    report('indexing', `${label}: floor, ${floor.which}`, size / (floor.t.wall / 1000), 'MiB/s', `${say(floor.t)}; ${floor.other}`)
    report('indexing', `${label}: index (first time)`, first.wall / floor.t.wall, '× floor', `${ratio(first, floor.t)}; ${say(first)}; goal ≤ 3×`)
    if (parts) await gfParts(report, label, files, cat, floor.t)
    report('indexing', `${label}: find DIR -newer STAMP`, find.wall, 'ms', `${say(find)}; ${files.length} files`)
    report('indexing', `${label}: re-index unchanged`, again.wall / find.wall, '× find', `${ratio(again, find)}; ${say(again)}; goal ≤ 5×`)
    if (cli) {
      // what a user runs: the whole CLI process (start-up, catalog open, walk) on the same catalog
      const proc = bestChild(3, () => child(process.execPath, [cli, 'index', dir, '--db', cat.path, '--json']))
      // the same process on an empty folder: start-up, catalog open, exit (the rest is the re-index)
      const empty = fs.mkdtempSync(path.join(path.dirname(dir), 'empty-'))
      const start = bestChild(3, () => child(process.execPath, [cli, 'index', empty, '--db', cat.path, '--json']))
      report('indexing', `${label}: modbench index, unchanged (whole process)`, proc.wall / find.wall, '× find', `${ratio(proc, find)}; ${say(proc)}; of an empty folder ${say(start)}`)
    }
    if (force) {
      const forced = await timed(() => indexPaths(cat, [dir], { force: true }))
      report('indexing', `${label}: re-index --force`, forced.wall / floor.t.wall, '× floor', `${ratio(forced, floor.t)}; ${say(forced)}`)
    }
  } finally {
    cat.close()
  }
}

/** Cost per set of a first index at two sizes (a flat cost per set: the same ms/set). */
async function scaleRow(report: Report, root: string): Promise<void> {
  const per: number[] = []
  for (const n of SCALE) {
    const dir = path.join(root, `scale${n}`)
    gfSets(dir, n)
    const cat = openCatalog(path.join(root, `scale${n}.sqlite`))
    try {
      per.push((await timed(() => indexPaths(cat, [dir]))).wall / n)
    } finally {
      cat.close()
    }
  }
  // the sets added between the two sizes, without the run's fixed costs (catalog, reader thread, commit)
  const marginal = (per[1]! * SCALE[1] - per[0]! * SCALE[0]) / (SCALE[1] - SCALE[0])
  report('indexing', `GF sets: first index, ${SCALE[1]} sets`, per[1]!, 'ms/set', `${SCALE[0]} sets: ${per[0]!.toFixed(2)} ms/set; ratio ${(per[1]! / per[0]!).toFixed(2)} (1 = flat); the ${SCALE[1] - SCALE[0]} sets between: ${marginal.toFixed(2)} ms/set`)
}

export async function run(report: Report): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bench-idx-'))
  try {
    // warm-up: load the detectors' modules and compile their code before anything is timed (the
    // CLI's start-up is measured in bench/cli.ts)
    const warm = path.join(root, 'warm')
    gfSets(warm, 20)
    smallRoms(path.join(warm, 'roms'), 20)
    const wcat = openCatalog(path.join(root, 'warm.sqlite'))
    await indexPaths(wcat, [warm]).finally(() => wcat.close())
    const sets = path.join(root, 'sets')
    await buildCli()
    const cli = path.resolve(import.meta.dirname, '..', 'out', 'cli', 'main.mjs')
    await compare(report, `${SETS} GF sets (${SETS * 9} files)`, sets, gfSets(sets, SETS), true, cli, true)
    const small = path.join(root, 'small')
    await compare(report, `${SMALL} images of 16 KiB`, small, smallRoms(small, SMALL), true, cli)
    await scaleRow(report, root)
    const big = path.join(root, 'big')
    fs.mkdirSync(big)
    const bigFile = path.join(big, 'big.z64')
    writeOld(bigFile, noisyRom('BENCH BIG', 32 * 1024 * 1024, 1))
    await compare(report, 'one 32 MiB image', big, [bigFile], false)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}
