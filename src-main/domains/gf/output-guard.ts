/**
 * CLI.md's output rule for the GARC commands, in one small function (easy to swap for a shared
 * guard): an existing output is replaced only with `--force` (exit 1 naming `--force` otherwise);
 * no output, even with `--force`, may be an input, lie inside an input folder, or contain an input
 * (replacing a folder that holds the archive would delete it).
 */
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep)

/** Throws (exit 1) when `out` may not be written; `inputs` are files or folders the command reads. */
export async function guardOutput(out: string, inputs: readonly string[], force: boolean, flag = '--out'): Promise<void> {
  const abs = path.resolve(out)
  for (const input of inputs) {
    const inp = path.resolve(input)
    const real = await fsp.realpath(inp).catch(() => inp)
    const realOut = await fsp.realpath(abs).catch(() => abs)
    if (inside(abs, inp) || inside(realOut, real)) throw new Error(`${flag} ${out} names the input ${input} or a file inside it; choose another output`)
    if (inside(inp, abs) || inside(real, realOut)) throw new Error(`${flag} ${out} holds the input ${input}; choose another output`)
  }
  if (!force && (await fsp.lstat(abs).catch(() => null))) throw new Error(`${flag} ${out} already exists; add --force to replace it`)
}
