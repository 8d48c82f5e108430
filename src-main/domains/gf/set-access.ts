/**
 * A set as the services name it: a set folder, or set N of a model archive as `ARCHIVE#N` (CLI.md
 * "GF model archive"), checked against what the user indexed or chose (the archive file for an
 * archive set), with a stamp that changes when its files do (a cached parse is reused until then).
 */
import { promises as fsp, statSync } from 'node:fs'
import * as path from 'node:path'
import type { ServiceContext } from '../../plugin/context'
import { garcSetLabel, parseGarcSetArg } from '../../../src-shared/formats/gf/garc-set'

export interface AllowedSet {
  /** The set string with its path made absolute and allowed (`/dump/romfs/a/0/9/4#12`). */
  set: string
  /** Set when the set is inside an archive. */
  archive?: { file: string; set: number }
}

/** `ARCHIVE#N` when the part before `#` is a file and the whole is not itself a path (a folder named `x#1`). */
function archiveOf(set: string): { file: string; set: number } | null {
  const m = parseGarcSetArg(set)
  if (!m) return null
  return statSync(set, { throwIfNoEntry: false }) ? null : m
}

/** Checks `set` (a folder or `ARCHIVE#N`) for reading; an archive set checks its archive file. */
export function allowSet(ctx: Pick<ServiceContext, 'allowPath'>, set: string): AllowedSet {
  const a = archiveOf(set)
  if (!a) return { set: ctx.allowPath(set, 'read') }
  const file = ctx.allowPath(a.file, 'read')
  return { set: garcSetLabel(file, a.set), archive: { file, set: a.set } }
}

/** Size and mtime of the set's files (the archive's for an archive set). */
export async function setStamp(s: AllowedSet): Promise<string> {
  if (s.archive) {
    const st = await fsp.stat(s.archive.file).catch(() => null)
    return st ? `garc:${st.size}:${st.mtimeMs}` : ''
  }
  const names = await fsp.readdir(s.set).catch(() => [] as string[])
  const parts: string[] = []
  for (const n of names.filter((x) => /^[0-8]\.bin$/i.test(x)).sort()) {
    const st = await fsp.stat(path.join(s.set, n)).catch(() => null)
    if (st) parts.push(`${n}:${st.size}:${st.mtimeMs}`)
  }
  return parts.join('|')
}
