/**
 * The output rule (docs/CLI.md, after "Exit codes"), in one place for every writer, CLI and app:
 * - an existing output is refused unless the caller agreed to replace it (`force`);
 * - an output that is an input of the command, lies inside an input folder or set, holds an input
 *   (replacing it would delete the input), or is a source file of the catalog is refused even with
 *   `force` (paths compared after resolving symbolic links; an existing file also by device+inode,
 *   so a hard link to an input is caught);
 * - temp files a killed run left beside the output (the atomic writers' `.NAME.PID.HEX.tmp`) are
 *   removed when their process is no longer alive.
 * Call `guardOutput` before producing anything; then write with src-main/node/atomic.ts.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { OutputExists } from './atomic'

export interface OutputCheck {
  /** The output file(s) or folder(s) the command will write. */
  out: string | readonly string[]
  /** What the output is: a file (default) or a folder (an empty existing folder is not refused). */
  kind?: 'file' | 'folder'
  /** The command's inputs: files, folders and sets (a set's folder). */
  inputs?: readonly (string | undefined)[]
  /** The catalog's source files the output must never replace (`export ID`). */
  sources?: readonly string[]
  /** The user agreed to replace an existing output (`--force`, or the app's confirmation). */
  force?: boolean
  /** The option that names the output, for messages (default `--out`). */
  flag?: string
  /** How the user agrees to replacing, for the "exists" message (default `pass --force to replace it`). */
  agree?: string
}

/** The output would hit an input or a catalog source (code `input`): refused even with force. */
export class OutputHitsInput extends Error {
  readonly code = 'input'
  constructor(message: string) {
    super(message)
    this.name = 'OutputHitsInput'
  }
}

/** Throws OutputExists / OutputHitsInput when the rule forbids writing; removes dead runs' temps. */
export function guardOutput(check: OutputCheck): void {
  const outs = typeof check.out === 'string' ? [check.out] : check.out
  const flag = check.flag ?? '--out'
  const inputs = (check.inputs ?? []).filter((p): p is string => !!p)
  for (const out of outs) {
    for (const p of inputs) refuseOverlap(out, p, flag, 'input')
    for (const p of check.sources ?? []) refuseOverlap(out, p, flag, 'source')
    const st = fs.statSync(out, { throwIfNoEntry: false })
    if (st) {
      if (check.kind === 'folder' && !st.isDirectory()) throw new OutputExists(out, `${flag} ${out} is a file, not a folder; choose a folder`)
      if (check.kind !== 'folder' && st.isDirectory()) throw new OutputExists(out, `${flag} ${out} is a folder; name a file`)
      const empty = st.isDirectory() && fs.readdirSync(out).length === 0
      if (!empty && !check.force) throw new OutputExists(out, `${flag} ${out} already exists; ${check.agree ?? 'pass --force to replace it'}`)
    }
  }
  for (const out of outs) removeStaleTemps(out)
}

/** The path with every existing part's symbolic links resolved (the missing tail kept as given). */
export function realPathLoose(p: string): string {
  const abs = path.resolve(p)
  const tail: string[] = []
  let at = abs
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(at), ...tail.reverse())
    } catch {
      const up = path.dirname(at)
      if (up === at) return abs
      tail.push(path.basename(at))
      at = up
    }
  }
}

/** `child` is `parent` or lies inside it (both already resolved). */
export function isSameOrInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child)
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel))
}

function refuseOverlap(out: string, other: string, flag: string, what: 'input' | 'source'): void {
  const o = realPathLoose(out)
  const p = realPathLoose(other)
  const name = what === 'input' ? 'an input of this command' : 'a source file of the catalog'
  const fix = 'choose a path outside the inputs'
  if (o === p || sameFile(out, other)) throw new OutputHitsInput(`${flag} ${out} is ${name} (${other}); ${fix}`)
  if (isSameOrInside(o, p)) throw new OutputHitsInput(`${flag} ${out} lies inside ${what === 'input' ? 'the input folder' : 'the catalog source'} ${other}; ${fix}`)
  if (isSameOrInside(p, o)) throw new OutputHitsInput(`${flag} ${out} holds ${name} (${other}); replacing it would delete it; ${fix}`)
}

function sameFile(a: string, b: string): boolean {
  const sa = fs.statSync(a, { throwIfNoEntry: false })
  const sb = sa && fs.statSync(b, { throwIfNoEntry: false })
  return !!sa && !!sb && sa.dev === sb.dev && sa.ino === sb.ino
}

/** The atomic writers' temp names: `.NAME.PID.HEX8.tmp` (src-main/node/atomic.ts tempSibling). */
const TEMP = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/

/** Whether a process with this id runs (EPERM: it runs under another user). */
export function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Removes the temp files and folders beside `target` left by runs that are no longer alive; returns them. */
export function removeStaleTemps(target: string): string[] {
  const abs = path.resolve(target)
  const dir = path.dirname(abs)
  const base = path.basename(abs)
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const m = TEMP.exec(name)
    if (!m || m[1] !== base || pidAlive(Number(m[2]))) continue
    const p = path.join(dir, name)
    try {
      fs.rmSync(p, { recursive: true, force: true })
      removed.push(p)
    } catch {
      // a temp we cannot remove (read-only folder) is left; the write that follows reports the folder
    }
  }
  return removed
}
