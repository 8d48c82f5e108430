/**
 * The CLI command contract: what a domain's command module exports (`Command` objects) and the
 * helpers its `run` may use (usage errors, option readers, CLI.md's output rule). The CLI runner
 * (src-main/cli/main.ts) parses the arguments and builds the `CommandContext`.
 */
import type { ParseArgsConfig } from 'node:util'
import { guardOutput, type OutputCheck } from '../node/output-guard'

/** Options in node:util parseArgs form. `--json` and `--help` are added to every command. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>

export interface CommandContext {
  /** Parsed option values (strings, booleans, or string[] for `multiple` options). */
  values: Record<string, string | boolean | string[] | undefined>
  positionals: string[]
  json: boolean
  /** Writes a line to stdout. */
  out(text: string): void
  /** Writes a line to stderr (warnings, progress in plain mode). */
  err(text: string): void
  /** Prints one JSON document on stdout. */
  printJson(value: unknown): void
  /**
   * Prints the items as one JSON array, byte for byte what `printJson([...items])` prints, but
   * written as they come (a million rows never sit in memory at once).
   */
  printJsonArray(items: Iterable<unknown>): void
  /** A progress reporter to stderr: a bar on a terminal, plain lines otherwise. */
  progress(label: string): ProgressReporter
  /** Aborted by Ctrl+C. Long work checks it. */
  signal: AbortSignal
}

export interface ProgressReporter {
  update(done: number, total: number, detail?: string): void
  end(): void
}

export interface Command {
  /** Words that select the command, e.g. `gf info`. */
  name: string
  /** One line for `modbench --help`. */
  summary: string
  /** Usage line after `modbench`, e.g. `gf info SET [--json]`. */
  usage: string
  /** Longer help: arguments, JSON shape, examples. */
  help?: string
  options?: OptionSpec
  /** One line per option for `--help` (`--port N` → what it does); options without one are listed bare. */
  optionHelp?: Record<string, string>
  /** Allowed count of positional arguments. */
  positionals?: { min: number; max: number }
  /** Returns the exit code (0 done, 1 failed). Throw UsageError for usage problems. */
  run(ctx: CommandContext): Promise<number> | number
}

/** Wrong arguments: exit code 2 and the command's usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** Reads a required string option or throws a UsageError. */
export function requireString(ctx: CommandContext, name: string): string {
  const v = ctx.values[name]
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`)
  return v
}

/** Reads an integer option (or undefined), throwing a UsageError when it is not one. */
export function intOption(ctx: CommandContext, name: string, def?: number): number | undefined {
  const v = ctx.values[name]
  if (v === undefined) return def
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw new UsageError(`--${name} takes a whole number, got ${JSON.stringify(v)}`)
  return Number(v)
}

/** `--force`: the option every writer takes to replace an existing output (CLI.md's output rule). */
export const forceOption: OptionSpec = { force: { type: 'boolean' } }

/**
 * CLI.md's output rule for a command's output, before any work: an existing `out` needs `--force`;
 * an input, a file inside an input folder or set (or a catalog source) is refused even with it.
 * Returns whether the user agreed to replace (`--force`), for folder writers.
 */
export function guardCliOutput(ctx: CommandContext, out: string, inputs: readonly (string | undefined)[], opts: Omit<OutputCheck, 'out' | 'inputs' | 'force'> = {}): boolean {
  const force = ctx.values.force === true
  guardOutput({ out, inputs, force, ...opts })
  return force
}
