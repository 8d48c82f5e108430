/**
 * A Fluffy Mod Manager mod zip (spec §10.9, CLI.md `re pack-mod`): `modinfo.ini` at the zip root
 * with lower-case `key=value` lines (`name`, `version`, `description`, `author`, `screenshot`),
 * the optional screenshot beside it, and the file at its game path (`natives/stm/…`, `/`
 * separators, at the zip root). The zip container is fflate's.
 *
 * Choices (docs/DECISIONS.md): lines end in CRLF (Fluffy is a Windows tool; it reads either);
 * `version` defaults to 1.0, `description` and `author` are written empty when not given, and
 * `screenshot` (the value is the picture's file name in the zip, `screenshot.png`) only when a
 * picture is given; line breaks inside a value become spaces (one line per key). A game path that
 * ends in `/` gets the file's own name appended.
 */
import { zipSync, type Zippable } from 'fflate'

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

/** The `modinfo.ini` text. */
export function modInfoText(info: ModInfo, screenshot: boolean): string {
  const lines = [`name=${oneLine(info.name)}`, `version=${oneLine(info.version ?? '1.0')}`, `description=${oneLine(info.description ?? '')}`, `author=${oneLine(info.author ?? '')}`]
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
