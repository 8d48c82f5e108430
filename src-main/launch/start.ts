/**
 * `npm start`: builds, then opens the desktop app, or, where Electron cannot run (its binary
 * missing, no display), says so in one line and starts browser mode (`modbench serve`, which
 * indexes the bundled samples into an empty catalog), prints the URL and opens the system
 * browser when there is one. Extra arguments go to `modbench serve` (e.g. `npm start -- --port 8080`).
 * The build is quiet: its output shows only when it fails, or with `npm start -- --verbose`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import * as fs from 'node:fs'
import { createRequire } from 'node:module'
import * as path from 'node:path'
import * as readline from 'node:readline'
import { quietRun, startArgs } from './quiet-run'
import { browserOpener, chooseStart, type StartProbe } from './start-mode'

const root = path.resolve(import.meta.dirname, '..', '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name)

function electronDir(): string | null {
  try {
    return path.dirname(createRequire(path.join(root, 'package.json')).resolve('electron/package.json'))
  } catch {
    return null
  }
}

function hasCommand(name: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, name)))
}

/** Exits with the child's code. Ctrl+C reaches the child through the terminal's process group; a TERM or HUP sent to us alone is passed on. */
function follow(child: ChildProcess): void {
  process.on('SIGINT', () => {})
  for (const s of ['SIGTERM', 'SIGHUP'] as const) process.on(s, () => child.kill(s))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)))
}

function startBrowserMode(reason: string, args: string[]): void {
  process.stderr.write(`${reason}: starting browser mode instead.\n`)
  const child = spawn(process.execPath, [path.join(root, 'bin', 'modbench.mjs'), 'serve', ...args], { cwd: root, stdio: ['inherit', 'pipe', 'inherit'] })
  const lines = readline.createInterface({ input: child.stdout! })
  let first = true
  lines.on('line', (line) => {
    if (!first) return void process.stdout.write(`${line}\n`)
    first = false // `modbench serve` prints its URL on the first stdout line
    process.stdout.write(`Modbench in browser mode: ${line}\n`) // `modbench serve` says on stderr: open it, Ctrl+C stops
    const opener = browserOpener({ platform: process.platform, env: process.env }, line, hasCommand)
    if (opener) spawn(opener[0]!, opener.slice(1), { stdio: 'ignore', detached: true }).on('error', () => {}).unref()
  })
  follow(child)
}

function main(): void {
  const { verbose, rest: args } = startArgs(process.argv.slice(2))
  const probe: StartProbe = {
    platform: process.platform,
    nodeVersion: process.versions.node,
    env: process.env,
    electronDir: electronDir(),
    exists: (f) => fs.existsSync(f),
    readText: (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null),
  }
  const mode = chooseStart(probe)
  // main, preload and renderer; Electron's binary is not needed for this (browser mode serves the same renderer build)
  const built = quietRun(bin('electron-vite'), ['build'], { cwd: root, verbose, write: (t) => process.stderr.write(t), shell: process.platform === 'win32' })
  if (built !== 0) process.exit(built)
  if (mode.mode === 'browser') return startBrowserMode(mode.reason, args)
  follow(spawn(bin('electron-vite'), ['preview', '--skipBuild'], { cwd: root, stdio: 'inherit', env: { ...process.env, ELECTRON_EXEC_PATH: mode.binary }, shell: process.platform === 'win32' }))
}

main()
