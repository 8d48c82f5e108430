import { spawnSync } from 'node:child_process'

/**
 * `npm start`'s build step, quiet (issue 25: ~110 lines of build output came before the one line
 * that matters): the child's output is kept and shown only when it fails, or always with
 * `--verbose`. Returns the child's exit code (1 when it could not run).
 */
export function quietRun(cmd: string, args: string[], opts: { cwd: string; verbose: boolean; write: (text: string) => void; shell?: boolean }): number {
  if (opts.verbose) return spawnSync(cmd, args, { stdio: 'inherit', cwd: opts.cwd, shell: opts.shell }).status ?? 1
  const r = spawnSync(cmd, args, { cwd: opts.cwd, shell: opts.shell, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 })
  const code = r.error ? 1 : (r.status ?? 1)
  if (code !== 0) {
    // stdout and stderr as two blocks (their interleaving is lost; the error is usually on stderr, last)
    opts.write(`${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `${r.error.message}\n` : ''}`)
    opts.write(`${[cmd, ...args].join(' ')} failed (exit ${r.status ?? r.signal ?? 'error'}); run npm start -- --verbose to see the build as it goes.\n`)
  }
  return code
}

/** `npm start`'s own flag (`--verbose`) taken out of the arguments passed on to `modbench serve`. */
export function startArgs(argv: readonly string[]): { verbose: boolean; rest: string[] } {
  return { verbose: argv.includes('--verbose'), rest: argv.filter((a) => a !== '--verbose') }
}
