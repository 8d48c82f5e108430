/**
 * PNG file names of GF textures, both ways: the name `gf extract` / "Export all PNGs" writes
 * (`<file without .bin>/<entry>_<name>.png`, CLI.md) and the matching of a folder of PNGs back to
 * the set's textures for a batch replace: `<entry>_<name>.png` or `<name>.png`, optionally inside
 * a `<file without .bin>/` folder (`1/`, `2/`; also `normal/`, `shiny/`), or with a `_shiny`
 * suffix for the shiny copy in `2.bin`. In a flat folder a bare name that both `1.bin` and `2.bin`
 * hold (USUM's normal and shiny textures share names, spec §12) is the normal one.
 */

/** A safe file-name part for a texture name (path separators and reserved characters → `_`). */
export function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const s = name.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_').replace(/^\.+$/, '_')
  return s.length > 120 ? s.slice(0, 120) : s
}

/** What the matcher needs of a texture. */
export interface PngMatchTexture {
  file: string
  entry: number
  name: string
  width: number
  height: number
}

/** A PNG of the folder: its path relative to the folder (`/` separators) and its size. */
export interface PngMatchFile {
  rel: string
  width: number
  height: number
}

export interface PngMatchTarget {
  png: string
  file: string
  entry: number
  name: string
}

export interface PngMatchReport {
  /** PNGs of the right size, one per texture. */
  matched: PngMatchTarget[]
  /** PNGs naming a texture but of another size (not queued). */
  wrongSize: (PngMatchTarget & { width: number; height: number; expectedWidth: number; expectedHeight: number })[]
  /** PNGs whose name fits several textures (two entries of one file share it); put them in a `<file>/` folder as `<entry>_<name>.png`. */
  ambiguous: { png: string; candidates: string[] }[]
  /** PNGs that name no texture of the set, or a texture an earlier, more specific PNG already took. */
  unmatched: string[]
}

const ENTRY_NAME = /^(\d+)_(.*)$/
const SHINY_SUFFIX = /_shiny$/i
/** Folder names that stand for a set file besides `<file without .bin>` and `<file>.bin`. */
const FOLDER_ALIAS: Record<string, string> = { normal: '1.bin', shiny: '2.bin' }

const fileBase = (file: string) => file.replace(/\.bin$/i, '').toLowerCase()

function folderFits(folder: string | null, t: PngMatchTexture): boolean {
  if (folder === null) return true
  return fileBase(t.file) === fileBase(folder) || FOLDER_ALIAS[folder] === t.file.toLowerCase()
}

/** Textures named by `base` (`<entry>_<name>` first, then `<name>`), with the specificity rank of the match. */
function byBase(base: string, pool: PngMatchTexture[], specific: boolean): { list: PngMatchTexture[]; rank: number } {
  const m = ENTRY_NAME.exec(base)
  // `<entry>_<name>` names both the entry and the name: the most specific form.
  if (m) {
    const byEntry = pool.filter((t) => t.entry === Number(m[1]) && safeName(t.name) === m[2])
    if (byEntry.length) return { list: byEntry, rank: specific ? 3 : 2 }
  }
  return { list: pool.filter((t) => safeName(t.name) === base), rank: specific ? 1 : 0 }
}

/**
 * A bare name fitting a `1.bin` texture and its `2.bin` copy (same name) means the normal one;
 * any other several-way fit stays ambiguous.
 */
function preferNormal(list: PngMatchTexture[]): PngMatchTexture[] {
  if (list.length < 2) return list
  const normal = list.filter((t) => t.file === '1.bin')
  const rest = list.filter((t) => t.file !== '1.bin')
  return normal.length && rest.every((t) => t.file === '2.bin' && normal.some((n) => n.name === t.name)) ? normal : list
}

function candidatesOf(png: string, textures: PngMatchTexture[]): { list: PngMatchTexture[]; rank: number } {
  const parts = png.split('/')
  const base = parts[parts.length - 1]!.replace(/\.png$/i, '')
  const folder = parts.length > 1 ? parts[parts.length - 2]!.toLowerCase() : null
  const pool = textures.filter((t) => folderFits(folder, t))
  const exact = byBase(base, pool, folder !== null)
  if (exact.list.length) return folder === null ? { ...exact, list: preferNormal(exact.list) } : exact
  // `<name>_shiny`: the texture of that name in 2.bin (a texture really named so matched above).
  if (SHINY_SUFFIX.test(base)) return byBase(base.replace(SHINY_SUFFIX, ''), pool.filter((t) => t.file === '2.bin'), true)
  return exact
}

/**
 * Matches PNG files to the set's textures by name. A PNG fitting several textures is ambiguous
 * (except a bare name of a normal texture and its shiny copy: the normal one); when two PNGs fit
 * one texture the more specific name wins (folder or `_shiny` + entry + name, then entry + name,
 * then folder or `_shiny` + name, then name), ties going to the first in path order.
 */
export function matchPngs(textures: PngMatchTexture[], pngs: PngMatchFile[]): PngMatchReport {
  const report: PngMatchReport = { matched: [], wrongSize: [], ambiguous: [], unmatched: [] }
  const sorted = pngs.filter((p) => /\.png$/i.test(p.rel)).sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
  const single: { png: PngMatchFile; t: PngMatchTexture; rank: number }[] = []
  for (const png of sorted) {
    const { list, rank } = candidatesOf(png.rel, textures)
    if (list.length === 0) report.unmatched.push(png.rel)
    else if (list.length > 1) report.ambiguous.push({ png: png.rel, candidates: list.map((t) => `${t.file} #${t.entry}`) })
    else single.push({ png, t: list[0]!, rank })
  }
  const taken = new Map<string, number>()
  const order = single.map((s, i) => ({ ...s, i })).sort((a, b) => b.rank - a.rank || a.i - b.i)
  for (const { png, t } of order) {
    const key = `${t.file}#${t.entry}`
    if (taken.has(key)) {
      report.unmatched.push(png.rel)
      continue
    }
    taken.set(key, 1)
    const target = { png: png.rel, file: t.file, entry: t.entry, name: t.name }
    if (png.width === t.width && png.height === t.height) report.matched.push(target)
    else report.wrongSize.push({ ...target, width: png.width, height: png.height, expectedWidth: t.width, expectedHeight: t.height })
  }
  const byFileEntry = (a: PngMatchTarget, b: PngMatchTarget) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.entry - b.entry)
  report.matched.sort(byFileEntry)
  report.wrongSize.sort(byFileEntry)
  report.unmatched.sort()
  return report
}
