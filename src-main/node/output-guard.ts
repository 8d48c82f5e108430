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
  /** The option that names the output, for messages (default `--out`; '' for none, as in the app). */
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
    const named = flag ? `${flag} ${out}` : out
    for (const p of inputs) refuseOverlap(out, p, named, 'input')
    for (const p of check.sources ?? []) refuseOverlap(out, p, named, 'source')
    const st = statOut(out, named)
    if (st) {
      if (check.kind === 'folder' && !st.isDirectory()) throw new Error(`${named} is a file, not a folder; choose a folder`)
      if (check.kind !== 'folder' && st.isDirectory()) throw new Error(`${named} is a folder; give a file name inside it`)
      const empty = st.isDirectory() && fs.readdirSync(out).length === 0
      if (!empty && !check.force) throw new OutputExists(out, `${named} already exists; ${check.agree ?? 'pass --force to replace it'}`)
    }
  }
  for (const out of outs) removeStaleTemps(out)
}

/** The output's stat, or undefined when it does not exist; a file where a folder of its path must be is an error. */
function statOut(out: string, named: string): fs.Stats | undefined {
  try {
    return fs.statSync(out, { throwIfNoEntry: false })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOTDIR') throw e
    let at = path.dirname(path.resolve(out))
    while (fs.statSync(at, { throwIfNoEntry: false })?.isDirectory() === false) at = path.dirname(at)
    let blocker = path.resolve(out)
    for (let up = path.dirname(blocker); up !== at && up !== path.dirname(up); up = path.dirname(up)) blocker = up
    throw new Error(`${named}: cannot create its folder, a file is in the way (${blocker}); choose another path`)
  }
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

function refuseOverlap(out: string, other: string, named: string, what: 'input' | 'source'): void {
  const o = realPathLoose(out)
  const p = realPathLoose(other)
  const name = what === 'input' ? 'an input of this command' : 'a source file of the catalog'
  const fix = 'choose a path outside the inputs'
  if (o === p || sameFile(out, other)) throw new OutputHitsInput(`${named} is ${name} (${other}); ${fix}`)
  if (isSameOrInside(o, p)) throw new OutputHitsInput(`${named} lies inside ${what === 'input' ? 'the input folder' : 'the catalog source'} ${other}; ${fix}`)
  if (isSameOrInside(p, o)) throw new OutputHitsInput(`${named} holds ${name} (${other}); replacing it would delete it; ${fix}`)
}

function sameFile(a: string, b: string): boolean {
  try {
    const sa = fs.statSync(a, { throwIfNoEntry: false })
    const sb = sa && fs.statSync(b, { throwIfNoEntry: false })
    return !!sa && !!sb && sa.dev === sb.dev && sa.ino === sb.ino
  } catch {
    return false // ENOTDIR and the like: no such file, so not the same
  }
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

/** Whether the user agreed to replace, and how messages name the output: what a writer shared by the CLI and the app takes. */
export type OutputConsent = Pick<OutputCheck, 'force' | 'flag' | 'agree'>

/** The app's consent: `overwrite` is the user's confirmation; messages name no option. */
export function appConsent(overwrite: boolean | undefined): OutputConsent {
  return { force: overwrite === true, flag: '', agree: 'choose another name, or confirm replacing it' }
}

/** The app's folder writers: an existing folder that holds anything is refused (the app picks a new one). */
export const NEW_FOLDER: OutputConsent = { force: false, flag: '', agree: 'choose a new folder' }
