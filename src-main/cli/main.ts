import { parseArgs } from 'node:util'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
// The CLI entry: the one place besides the Electron main that loads the domain list into the registry.
import '../domains/index'
import type { Command, CommandContext } from '../plugin/command'
import { UsageError } from '../plugin/command'
import { stderrProgress } from './progress'
import { commandsFor } from './commands/index'
import { nodeDomains } from '../plugin/registry'
import { writeJsonArray } from './json-stream'
import { keepYoungGenerationSmall } from '../node/heap'
import { OutputWriteError } from '../node/atomic'
import { useNodePngCodec } from '../node/png-codec'

// every export of the CLI writes its PNGs with Node's zlib (the same bytes as the app and the batch's workers)
useNodePngCodec()

const VERSION = '0.1.0'

function findCommand(commands: Command[], words: string[]): { cmd?: Command; used: number; prefix: string[] } {
  let best: Command | undefined
  let used = 0
  for (const c of commands) {
    const parts = c.name.split(' ')
    if (parts.length <= words.length && parts.every((p, i) => p === words[i]) && parts.length > used) {
      best = c
      used = parts.length
    }
  }
  return { cmd: best, used, prefix: words.filter((w) => !w.startsWith('-')).slice(0, 1) }
}

function topHelp(commands: Command[]): string {
  // Keep the summaries in one column; a usage too long for it gets its summary on the next line.
  const width = Math.min(56, Math.max(...commands.map((c) => c.usage.length))) + 2
  return [
    `modbench ${VERSION}: a workbench for game modders (${nodeDomains().filter((d) => d.cli).map((d) => d.shared.title).join(', ')})`,
    '',
    'Usage: modbench COMMAND [ARGS] [--json] [--help]',
    '',
    'Commands:',
    ...commands.map((c) => (c.usage.length < width ? `  ${c.usage.padEnd(width)}${c.summary}` : `  ${c.usage}\n  ${''.padEnd(width)}${c.summary}`)),
    '',
    'Exit codes: 0 done, 1 bad input or failed operation, 2 usage error.',
    'Run `modbench COMMAND --help` for the arguments and JSON shape of a command.',
  ].join('\n')
}

/**
 * `--frame -5` → `--frame=-5`: after an option that takes a value, a negative number is that value
 * (node:util parseArgs would call it ambiguous and ask for the `=` form).
 */
export function joinNegativeValues(args: string[], options: Command['options'] = {}): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    const next = args[i + 1]
    if (a === '--') return [...out, ...args.slice(i)]
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined
    if (name && options[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${a}=${next}`)
      i++
    } else out.push(a)
  }
  return out
}

function commandHelp(c: Command): string {
  // a value's placeholder as the usage line spells it (`--port N`), else VALUE
  const placeholder = (k: string) => new RegExp(`--${k.replace(/[-]/g, '\\-')}[ =]([A-Z][\\w.…]*)`).exec(c.usage)?.[1] ?? 'VALUE'
  const rows: [string, string][] = Object.entries(c.options ?? {}).map(([k, o]) => [`--${k}${o.type === 'string' ? ` ${placeholder(k)}` : ''}${o.multiple ? ' (repeatable)' : ''}`, c.optionHelp?.[k] ?? ''])
  rows.push(['--json', c.optionHelp?.json ?? ''], ['--help', 'this help'])
  const w = Math.max(...rows.map(([k]) => k.length)) + 2
  const opts = rows.map(([k, h]) => `  ${h ? k.padEnd(w) + h : k}`.trimEnd())
  return [`Usage: modbench ${c.usage}`, '', c.summary, ...(c.help ? ['', c.help] : []), '', 'Options:', ...opts].join('\n')
}

/** Where the CLI writes: process streams by default; tests pass collectors. */
export interface CliIO {
  stdout: { write(s: string): unknown }
  stderr: { write(s: string): unknown; isTTY?: boolean }
}

export async function runCli(argv: string[], io: CliIO = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const words = argv.filter((a) => !a.startsWith('-'))
  // Only the domain a command word names is loaded (`modbench gf info` imports no Snap code).
  const commands = await commandsFor(argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : undefined)
  if (argv.length === 0 || (words.length === 0 && (argv.includes('--help') || argv.includes('-h')))) {
    io.stdout.write(topHelp(commands) + '\n')
    return argv.length === 0 ? 2 : 0
  }
  if (argv[0] === '--version' || argv[0] === '-V') {
    io.stdout.write(VERSION + '\n')
    return 0
  }
  // Command words come first: find the longest command whose words prefix the argv.
  const lead: string[] = []
  for (const a of argv) {
    if (a.startsWith('-')) break
    lead.push(a)
  }
  const { cmd, used } = findCommand(commands, lead)
  if (!cmd) return unknownCommand(io, commands, lead, argv)
  const rest = argv.slice(used)
  const opts = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest // after `--` all is positional
  if (opts.includes('--help') || opts.includes('-h')) {
    io.stdout.write(commandHelp(cmd) + '\n')
    return 0
  }
  const parsed = parseCommandArgs(io, cmd, rest)
  return typeof parsed === 'number' ? parsed : runCommand(io, cmd, parsed)
}

/** No command has these words: a group's commands as help (`modbench gf --help`, exit 0), else a usage error (exit 2). */
function unknownCommand(io: CliIO, commands: Command[], lead: string[], argv: string[]): number {
  const group = commands.filter((c) => c.name.split(' ')[0] === lead[0])
  // `modbench gf --help`: the commands of a group, as help (stdout, exit 0).
  if (group.length && lead.length === 1 && (argv.includes('--help') || argv.includes('-h'))) {
    io.stdout.write(['Usage:', ...group.map((c) => `  modbench ${c.usage}`), '', ...group.map((c) => `  ${c.name.padEnd(18)}${c.summary}`), '', `Run \`modbench ${lead[0]} COMMAND --help\` for details.`].join('\n') + '\n')
    return 0
  }
  io.stderr.write(`modbench: unknown command '${lead.join(' ')}'\n`)
  io.stderr.write((group.length ? group.map((c) => `  modbench ${c.usage}`).join('\n') : topHelp(commands)) + '\n')
  return 2
}

type ParsedArgs = ReturnType<typeof parseArgs>

/** The command's options and positionals, or exit code 2 (after saying why) when they do not fit it. */
function parseCommandArgs(io: CliIO, cmd: Command, rest: string[]): ParsedArgs | number {
  let parsed: ParsedArgs
  try {
    parsed = parseArgs({
      args: joinNegativeValues(rest, cmd.options),
      options: { ...(cmd.options ?? {}), json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    })
  } catch (e) {
    io.stderr.write(`modbench ${cmd.name}: ${(e as Error).message}\nUsage: modbench ${cmd.usage}\n`)
    return 2
  }
  const pos = cmd.positionals ?? { min: 0, max: 0 }
  if (parsed.positionals.length < pos.min || parsed.positionals.length > pos.max) {
    io.stderr.write(`modbench ${cmd.name}: expected ${pos.min === pos.max ? pos.min : `${pos.min}–${pos.max}`} argument(s), got ${parsed.positionals.length}\nUsage: modbench ${cmd.usage}\n`)
    return 2
  }
  return parsed
}

/** Runs the command (Ctrl+C aborts its signal); its errors become exit 2 (usage) or 1 with the message on stderr. */
async function runCommand(io: CliIO, cmd: Command, parsed: ParsedArgs): Promise<number> {
  const controller = new AbortController()
  const onSigint = () => controller.abort(new Error('cancelled'))
  process.once('SIGINT', onSigint)
  const ctx: CommandContext = {
    values: parsed.values as CommandContext['values'],
    positionals: parsed.positionals,
    json: parsed.values.json === true,
    out: (t) => io.stdout.write(t + '\n'),
    err: (t) => io.stderr.write(t + '\n'),
    printJson: (v) => io.stdout.write(JSON.stringify(v, null, 2) + '\n'),
    printJsonArray: (items) => writeJsonArray(items, (t) => io.stdout.write(t)),
    progress: (label) => stderrProgress(label, io.stderr as NodeJS.WriteStream),
    signal: controller.signal,
  }
  try {
    return await cmd.run(ctx)
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`modbench ${cmd.name}: ${e.message}\nUsage: modbench ${cmd.usage}\n`)
      return 2
    }
    const msg = e instanceof OutputWriteError ? e.describe(outputFlag(ctx)) : e instanceof Error ? e.message : String(e)
    io.stderr.write(`modbench ${cmd.name}: error: ${msg}\n`)
    if (process.env.MODBENCH_DEBUG && e instanceof Error) io.stderr.write(`${e.stack}\n`)
    return 1
  } finally {
    process.off('SIGINT', onSigint)
  }
}

/** The option that named the command's output, for a write fault's message. */
function outputFlag(ctx: CommandContext): string {
  return typeof ctx.values.layeredfs === 'string' && typeof ctx.values.out !== 'string' ? '--layeredfs' : '--out'
}

/** True when this module is the process's entry (`node out/cli/main.mjs …`, `tsx src-main/cli/main.ts …`). */
function isProcessEntry(): boolean {
  const script = process.argv[1]
  return script !== undefined && import.meta.url === pathToFileURL(path.resolve(script)).href
}

// Run when executed directly, or imported by bin/modbench.mjs (which sets MODBENCH_CLI=1).
if (process.env.MODBENCH_CLI === '1' || isProcessEntry()) {
  keepYoungGenerationSmall() // a batch process of its own: garbage does not grow the heap (node/heap.ts)
  // `modbench ls | head`: the reader went away; stop quietly instead of crashing on EPIPE
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0)
  })
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (e) => {
      process.stderr.write(`modbench: ${(e as Error).stack ?? e}\n`)
      process.exitCode = 1
    },
  )
}
