/**
 * Reading a GF set from disk: a folder holding `0.bin` … `8.bin`, or set N of a GARC archive named
 * `ARCHIVE#N` (CLI.md "GF model archive": only that set's nine entries are read). Missing files
 * (or empty archive entries) are reported, not fatal.
 */
import * as fs from 'node:fs'
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { FormatError, LimitError } from '../../../src-shared/binary/errors'
import { GF_SET_FILES, parseGfSet, type GfSet, type ParseOptions } from '../../../src-shared/formats/gf/gf-set'
import { safeName } from '../../../src-shared/formats/gf/png-names'
import { garcSetFolder, parseGarcSetArg } from '../../../src-shared/formats/gf/garc-set'
import { LZ11_MAX_SIZE } from '../../../src-shared/formats/gf/lz11'
import type { Handlers, ServiceContext } from '../../plugin/context'
import { readGameFile, readGameFileSync, type GameFileLimits } from '../../node/game-file'

/** A set member is a few MiB; 256 MiB is a guard (as LZ11_MAX_SIZE), refused before reading. Never inflated: `N.bin` is not a `.gz` name. */
export const GF_SET_FILE_LIMITS: GameFileLimits = { maxBytes: LZ11_MAX_SIZE, noun: 'a GF set file', note: 'a few MiB', gzip: 'name' }

export interface SetFolder {
  /** The set as the user named it: a folder, or `ARCHIVE#N`. */
  dir: string
  /** Name (`0.bin`) → bytes, for the files present. */
  files: Map<string, Uint8Array>
  missing: string[]
  /** The files the set was read from (an output may never be one of them). */
  inputs: string[]
  /** Set when the set came from an archive. */
  archive?: { file: string; set: number }
}

/** `ARCHIVE#N` naming an existing file (and not itself an existing path) → the archive and the set. */
export async function garcSetSource(arg: string): Promise<{ file: string; set: number } | null> {
  const m = parseGarcSetArg(arg)
  if (!m || (await fsp.stat(arg).catch(() => null))) return null
  return (await fsp.stat(m.file).catch(() => null))?.isFile() ? m : null
}

/** Set N of an archive, as a set folder would be read. */
async function readGarcSet(arg: string, src: { file: string; set: number }): Promise<SetFolder> {
  const { GarcFile } = await import('./garc-file')
  const { files, missing } = await GarcFile.with(src.file, (g) => g.readSetStrict(src.set, arg))
  return { dir: arg, files, missing, inputs: [src.file], archive: src }
}

/** Finds a set member case-insensitively (`0.BIN` on some extractions). */
function findMember(names: string[], want: string): string | undefined {
  return names.find((n) => n.toLowerCase() === want)
}

/** A set folder's stat, checked: the error texts of `readSetFolder` and `readSetDirSync`. */
function checkSetDir(dir: string, st: { isDirectory(): boolean } | null): void {
  if (!st) throw new Error(`${dir}: no such folder`)
  if (!st.isDirectory()) throw new Error(`${dir} is not a folder (a GF set is a folder holding 0.bin … 8.bin)`)
}

/** The set files among `names` (the folder's listing): those missing, and each present one with its path. */
function setMembers(dir: string, names: string[]): { missing: string[]; present: [want: string, file: string][] } {
  const missing = GF_SET_FILES.filter((want) => !findMember(names, want))
  const present = GF_SET_FILES.filter((want) => !missing.includes(want)).map((want): [string, string] => [want, path.join(dir, findMember(names, want)!)])
  return { missing, present }
}

function setFolderOf(dir: string, missing: string[], present: [string, string][], bytes: Uint8Array[]): SetFolder {
  if (present.length === 0) throw new Error(`${dir} holds none of the set files 0.bin … 8.bin`)
  return { dir, files: new Map(present.map(([want], i) => [want, bytes[i]!])), missing, inputs: present.map(([, file]) => file) }
}

export async function readSetFolder(dir: string): Promise<SetFolder> {
  const garc = await garcSetSource(dir)
  if (garc) return readGarcSet(dir, garc)
  checkSetDir(dir, await fsp.stat(dir).catch(() => null))
  const { missing, present } = setMembers(dir, await fsp.readdir(dir))
  // the files are read at once (a batch waits on the disk, not on one read after another), each
  // through the guarded reader (its error names the file); the first unreadable one in set order is reported
  const reads = await Promise.allSettled(present.map(([, file]) => readGameFile(file, GF_SET_FILE_LIMITS)))
  return setFolderOf(dir, missing, present, reads.map((r) => {
    if (r.status === 'rejected') throw r.reason
    return r.value
  }))
}

/**
 * `readSetFolder` of a folder (never `ARCHIVE#N`), synchronously: what a batch export's pool thread
 * reads itself (export-worker.ts), one file after another, with the same errors.
 */
export function readSetDirSync(dir: string): SetFolder {
  checkSetDir(dir, tryStat(dir))
  const { missing, present } = setMembers(dir, fs.readdirSync(dir))
  return setFolderOf(dir, missing, present, present.map(([, file]) => readGameFileSync(file, GF_SET_FILE_LIMITS)))
}

function tryStat(p: string): fs.Stats | null {
  try {
    return fs.statSync(p)
  } catch {
    return null
  }
}

/** Reads and parses a set folder. */
export async function loadSet(dir: string, opts: ParseOptions = {}): Promise<GfSet & Pick<SetFolder, 'dir' | 'inputs' | 'archive'>> {
  const folder = await readSetFolder(dir)
  const set = parseGfSet(folder.files, opts)
  return { ...set, dir, inputs: folder.inputs, archive: folder.archive }
}

/**
 * The set's name in its scene and glb: the folder's name, or for set N of an archive the folder
 * `gf garc extract` writes it to (`0012`), so the set exports to the same bytes either way.
 */
export function setSceneName(set: Pick<SetFolder, 'dir' | 'archive'>): string {
  return set.archive ? garcSetFolder(set.archive.set) : path.basename(path.resolve(set.dir))
}

const isMember = (name: string) => (GF_SET_FILES as readonly string[]).includes(name.toLowerCase())

/** A set member's name (`1.bin`) leading `text` → that member inside `dir` (`SET/1.bin: …`, `SET` as given). */
export function inSetFolder(dir: string, text: string): string {
  const m = /^(\d\.bin)\b/i.exec(text)
  return m && isMember(m[1]!) ? path.join(dir, m[1]!) + text.slice(m[1]!.length) : text
}

/**
 * The parsers name a set's files alone (`1.bin`: the name is also the JSON `file` key); an error
 * that reaches the user names the set folder too. A FormatError keeps its class, structure and
 * offset; a plain Error leading with a member name gets the folder; anything else is left as is.
 */
export function setFolderError(dir: string, e: unknown): unknown {
  if (e instanceof FormatError) {
    if (!e.file || e.file !== path.basename(e.file) || !isMember(e.file)) return e
    const Err = e instanceof LimitError ? LimitError : FormatError
    return new Err(e.detail, { file: path.join(dir, e.file), structure: e.structure, offset: e.offset })
  }
  if (e instanceof Error && e.constructor === Error && inSetFolder(dir, e.message) !== e.message) return new Error(inSetFolder(dir, e.message))
  return e
}

/** The app's set handlers: an error names the request's set folder with the file, as the CLI's do. */
export function handlersNamingSetFolder(h: Handlers): Handlers {
  const out: Record<string, unknown> = {}
  for (const [channel, fn] of Object.entries(h) as [string, (req: unknown, ctx: ServiceContext) => unknown][]) {
    out[channel] = async (req: unknown, ctx: ServiceContext) => {
      try {
        return await fn(req, ctx)
      } catch (e) {
        const set = (req as { set?: unknown } | null)?.set
        throw typeof set === 'string' ? setFolderError(set, e) : e
      }
    }
  }
  return out as Handlers
}

/** `<file without .bin>/<entry>_<name>.png` (CLI.md, `gf extract`). */
export function pngRelPath(file: string, entry: number, name: string): string {
  return path.join(file.replace(/\.bin$/i, ''), `${entry}_${safeName(name)}.png`)
}
