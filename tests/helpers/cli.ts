import { spawn } from 'node:child_process'
import * as path from 'node:path'
import { runCli } from '../../src-main/cli/main'

export const repoRoot = path.resolve(import.meta.dirname, '..', '..')
export const cliBin = path.join(repoRoot, 'bin', 'modbench.mjs')

/** Runs the CLI in-process and collects its output. */
export async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string; json: () => any }> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  })
  return { code, stdout, stderr, json: () => JSON.parse(stdout) }
}

/** Runs `node bin/modbench.mjs` as a child process (real exit codes). */
export function spawnCli(argv: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, ...argv], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
