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

function wallMs(args: string[], env: Record<string, string> = {}): number {
  const t = performance.now()
  const r = spawnSync(process.execPath, args, { env: { ...process.env, MODBENCH_DEV: '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`)
  return ms
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
  const times = cases.map(() => [] as number[])
  wallMs([bundle, '--help']) // warm the file cache
  for (let i = 0; i < runs; i++) cases.forEach(([, args, env], j) => times[j]!.push(wallMs(args, env)))
  const floor = median(times[0]!)
  const goal = [undefined, 3, 3, 5, undefined]
  cases.forEach(([label], j) => {
    const ms = median(times[j]!)
    report('cli', label, ms, 'ms', j === 0 ? `median of ${runs}` : `${(ms / floor).toFixed(2)}× node -e 0${goal[j] ? `, goal ≤ ${goal[j]}×` : ''}`)
  })
}
