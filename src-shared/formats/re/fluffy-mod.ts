/**
 * A Fluffy Mod Manager mod zip (spec §10.9, CLI.md `re pack-mod`): `modinfo.ini` at the zip root
 * with lower-case `key=value` lines (`name`, `version`, `description`, `author`, `screenshot`),
 * the optional screenshot beside it, and the file at its game path (`natives/stm/…`, `/`
 * separators, at the zip root). The zip container is fflate's.
 *
 * Choices (docs/DECISIONS.md): lines end in CRLF (Fluffy is a Windows tool; it reads either);
 * `version` defaults to 1.0, `description` and `author` are written empty when not given, and
 * `screenshot` (the value is the picture's file name in the zip, `screenshot.png`) only when a
 * picture is given; line breaks inside the description are written as Fluffy's literal `\n` (its
 * modinfo reader turns that into a line break), inside other values they become spaces (one line
 * per key). A game path that ends in `/` gets the file's own name appended.
 *
 * The packed file is checked first (`checkModFile`): a name `x.KIND.N` whose kind Modbench reads
 * (motlist, mot, mesh) must parse as that kind with version N (a mesh: in the layout N names), and the game path's own `.KIND.N` must be the same (the
 * game loads a file by its suffix: a `.motlist.85` under a `.motlist.663` path is never read).
 */
import { zipSync, type Zippable } from 'fflate'
import { FormatError } from '../../binary'
import { readMotionFile } from './motion-file'
import { readMesh } from './mesh'

export interface ModInfo {
  name: string
  version?: string
  description?: string
  author?: string
}

export interface ModDraft extends ModInfo {
  /** The file's game path, `natives/…` (checked by `checkGamePath`). */
  gamePath: string
  /** The file's name, used when `gamePath` ends in `/`. */
  fileName: string
  data: Uint8Array
  /** PNG bytes of the screenshot, if any. */
  screenshot?: Uint8Array
  /** Time stamp of the zip entries (default: now). */
  mtime?: Date
}

export const SCREENSHOT_NAME = 'screenshot.png'
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** Thrown for a game path the mod cannot hold (the CLI turns it into a usage error). */
export class GamePathError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'GamePathError'
  }
}

/**
 * The zip entry name for a game path: `\` becomes `/`; it must start with `natives/`, have no
 * empty, `.` or `..` segment, no drive letter and no control character.
 */
export function checkGamePath(gamePath: string, fileName: string): string {
  const p = gamePath.replace(/\\/g, '/')
  const full = p.endsWith('/') ? p + fileName : p
  const segments = full.split('/')
  if (segments.some((s) => s === '..')) throw new GamePathError(`game path ${JSON.stringify(gamePath)} contains "..": it must stay inside natives/`)
  if (!/^natives\//i.test(full)) throw new GamePathError(`game path ${JSON.stringify(gamePath)} is outside natives/: it must start with natives/ (e.g. natives/stm/_chainsaw/animation/…/name.motlist.663)`)
  if (segments.some((s) => s === '' || s === '.')) throw new GamePathError(`game path ${JSON.stringify(gamePath)} has an empty or "." folder`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f:*?"<>|]/.test(full)) throw new GamePathError(`game path ${JSON.stringify(gamePath)} holds a character Windows file names cannot have`)
  return full
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b)
}

const oneLine = (s: string): string => s.replace(/[\r\n]+/g, ' ').trim()
/** Line breaks (CRLF, LF or CR) as Fluffy's two characters `\n`. */
const fluffyLines = (s: string): string => s.trim().replace(/\r\n|\r|\n/g, '\\n')

/** The `modinfo.ini` text. */
export function modInfoText(info: ModInfo, screenshot: boolean): string {
  const lines = [`name=${oneLine(info.name)}`, `version=${oneLine(info.version ?? '1.0')}`, `description=${fluffyLines(info.description ?? '')}`, `author=${oneLine(info.author ?? '')}`]
  if (screenshot) lines.push(`screenshot=${SCREENSHOT_NAME}`)
  return lines.join('\r\n') + '\r\n'
}

/** The mod zip bytes and the entry names it holds. */
export function buildModZip(d: ModDraft): { bytes: Uint8Array; entries: string[]; gamePath: string } {
  if (!oneLine(d.name)) throw new GamePathError('the mod needs a name')
  const gamePath = checkGamePath(d.gamePath, d.fileName)
  if (d.screenshot && !isPng(d.screenshot)) throw new Error('the screenshot is not a PNG (its first 8 bytes are not the PNG signature)')
  const mtime = d.mtime ?? new Date()
  const files: Zippable = { 'modinfo.ini': [new TextEncoder().encode(modInfoText(d, !!d.screenshot)), { mtime }] }
  if (d.screenshot) files[SCREENSHOT_NAME] = [d.screenshot, { mtime, level: 0 }]
  files[gamePath] = [d.data, { mtime }]
  return { bytes: zipSync(files, { level: 6 }), entries: Object.keys(files), gamePath }
}

/** `KIND` and `N` of a file name `base.KIND.N` (lower-case kind), or null. */
export function kindSuffix(fileName: string): { kind: string; version: number } | null {
  const m = /\.([A-Za-z][\w-]*)\.(\d+)$/.exec(fileName)
  return m ? { kind: m[1]!.toLowerCase(), version: Number(m[2]) } : null
}

/** Readers of the kinds a packed file is checked against: the version the bytes say they are. */
const KIND_READERS: Record<string, (bytes: Uint8Array, file: string) => { kind: string; version: number }> = {
  motlist: (b, f) => {
    const m = readMotionFile(b, f)
    return m.kind === 'motlist' ? { kind: 'motlist', version: m.motlist.version } : { kind: 'mot', version: m.mot.version }
  },
  mot: (b, f) => {
    const m = readMotionFile(b, f)
    return m.kind === 'mot' ? { kind: 'mot', version: m.mot.version } : { kind: 'motlist', version: m.motlist.version }
  },
  // A mesh's suffix is not its internal version (spec §15.1): the suffix picks the layout, and the
  // file must parse in it.
  mesh: (b, f) => {
    const m = readMesh(b, f)
    return { kind: 'mesh', version: m.suffix ?? m.version }
  },
}

/**
 * Thrown when FILE and the game path disagree on kind or version, or FILE is not what its name
 * says (exit 1). Corrupt files raise the reader's FormatError (file, structure, offset).
 */
export class ModFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModFileError'
  }
}

/**
 * Checks a file before it is packed at `gamePath` (the zip entry name, `checkGamePath`'s result):
 * same `.KIND.N` at the end of both names, and a kind Modbench reads parses as that kind and
 * version. `file` is the user's path (for messages).
 */
export function checkModFile(file: string, fileName: string, gamePath: string, bytes: Uint8Array): void {
  const gameName = gamePath.slice(gamePath.lastIndexOf('/') + 1)
  const own = kindSuffix(fileName)
  const game = kindSuffix(gameName)
  if (own && game && (own.kind !== game.kind || own.version !== game.version)) {
    throw new ModFileError(`${file} is a .${own.kind}.${own.version} but the game path ${gamePath} names a .${game.kind}.${game.version}: the game would not read it there (give a game path ending in .${own.kind}.${own.version}, or a file of version ${game.version})`)
  }
  if (!own && game) throw new ModFileError(`${file} has no .${game.kind}.${game.version} suffix but the game path ${gamePath} names one; rename the file to match`)
  const read = own ? KIND_READERS[own.kind] : undefined
  if (!own || !read) return
  const got = read(bytes, file)
  if (got.kind !== own.kind || got.version !== own.version) {
    throw new FormatError(`its name says .${own.kind}.${own.version} but it is a ${got.kind} of version ${got.version}`, { file, structure: 'header', offset: 0 })
  }
}
