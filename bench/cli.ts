/**
 * CLI start-up (issue 15): wall time of whole processes, median of interleaved runs, each beside
 * `node -e 0` (the floor). Goals: `--help` within 3× of it, `re info` on the sample within 5×.
 * The tsx row is the development path (MODBENCH_DEV=1), for comparison.
 */
import { spawnSync } from 'node:child_process'
import * as path from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildCli } from '../tools/build-cli.mjs'
import type { Report } from './run'

const root = path.resolve(import.meta.dirname, '..')
const bundle = path.join(root, 'out', 'cli', 'main.mjs')
const bin = path.join(root, 'bin', 'modbench.mjs')
const sample = path.join(root, 'resources', 'samples', 're', 'sample.motlist.663')

/** Wall and CPU (user + system, from bash's `time`, so a loaded machine skews it less) of one run. */
function measure(args: string[], env: Record<string, string> = {}): { wall: number; cpu: number } {
  const quoted = [process.execPath, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  const t = performance.now()
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%3U %3S'; time ${quoted} >/dev/null 2>/dev/null`], { env: { ...process.env, MODBENCH_DEV: '', ...env }, encoding: 'utf8' })
  const wall = performance.now() - t
  const m = /([\d.]+) ([\d.]+)\s*$/.exec(r.stderr)
  if (r.status !== 0 || !m) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return { wall, cpu: (Number(m[1]) + Number(m[2])) * 1000 }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

export async function run(report: Report): Promise<void> {
  await buildCli()
  const runs = Number(process.env.BENCH_CLI_RUNS ?? 7)
  const cases: [string, string[], Record<string, string>?][] = [
    ['node -e 0 (floor)', ['-e', '0']],
    ['modbench --help (bundle)', [bundle, '--help']],
    ['modbench --help (bin shim: staleness check + bundle)', [bin, '--help']],
    ['modbench re info SAMPLE (bundle)', [bundle, 're', 'info', sample]],
    ['modbench --help (tsx, MODBENCH_DEV=1)', [bin, '--help'], { MODBENCH_DEV: '1' }],
  ]
  const wall = cases.map(() => [] as number[])
  const cpu = cases.map(() => [] as number[])
  measure([bundle, '--help']) // warm the file cache
  for (let i = 0; i < runs; i++) {
    cases.forEach(([, args, env], j) => {
      const m = measure(args, env)
      wall[j]!.push(m.wall)
      cpu[j]!.push(m.cpu)
    })
  }
  const floorWall = median(wall[0]!)
  const floorCpu = median(cpu[0]!)
  const goal = [undefined, 3, 3, 5, undefined]
  cases.forEach(([label], j) => {
    const w = median(wall[j]!)
    const c = median(cpu[j]!)
    const vs = j === 0 ? `median of ${runs}; CPU ${c.toFixed(0)} ms` : `${(w / floorWall).toFixed(2)}× node -e 0; CPU ${c.toFixed(0)} ms = ${(c / floorCpu).toFixed(2)}×${goal[j] ? `; goal ≤ ${goal[j]}×` : ''}`
    report('cli', `${label}, wall`, w, 'ms', vs)
  })
}
