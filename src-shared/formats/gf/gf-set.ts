/**
 * The nine-file set of one Pokémon (spec §1): `0.bin` … `8.bin`, each a `PC` package whose
 * entries are models and shader packages (0), textures (1–3), motions (4–7) and extra data (8).
 * This module parses the files the caller has (missing ones are the caller's business) into
 * plain data: package tables, entry kinds, nested packages and texture headers.
 */
import { FormatError, hex } from '../../binary/errors'
import { classifyEntry, type GfEntryKind } from './entry-kind'
import { entryBytes, parsePackage, type GfPackage } from './package'
import { parseGfTexture, type GfTextureHeader } from './texture'
import { parseBchSummary, type BchSummary } from './bch'

/** File names of a set, in order. */
export const GF_SET_FILES = ['0.bin', '1.bin', '2.bin', '3.bin', '4.bin', '5.bin', '6.bin', '7.bin', '8.bin'] as const

export interface GfEntry {
  index: number
  /** Absolute offset of the entry in its file. */
  offset: number
  length: number
  kind: GfEntryKind
  signature: number | null
  note?: string
  /** Texture header when kind is `texture` (absent when lenient parsing recorded an error). */
  texture?: GfTextureHeader
  /** Entries of a nested package (kind `package`), offsets absolute in the file. */
  children?: GfEntry[]
  nestedMagic?: string
  /** Error recorded instead of thrown in lenient mode. */
  error?: string
  /** Header counts of a BCH entry (kept opaque). */
  bch?: BchSummary
}

export interface GfFile {
  file: string
  bytes: Uint8Array
  pkg: GfPackage
  magic: string
  entries: GfEntry[]
  warnings: string[]
}

export interface ParseOptions {
  /** Record texture errors on the entry instead of throwing (catalog, UI). Default false. */
  lenient?: boolean
  /**
   * parseGfSet: leave out a file whose package cannot be read, with a note in `warnings` (the
   * app's views, so the other files stay usable). Default false: the command line fails on it.
   */
  skipDamaged?: boolean
}

/** Alignment an entry's type implies (spec §2.4): 16 for models/shaders, 4 for motions. */
function impliedAlignment(kind: GfEntryKind, inShaderPackage: boolean): number {
  if (kind === 'model' || inShaderPackage) return 16
  if (kind === 'motion') return 4
  return 1
}

function parseEntries(bytes: Uint8Array, pkg: GfPackage, file: string, base: number, warnings: string[], opts: ParseOptions, depth: number, nestedIn?: number): GfEntry[] {
  const out: GfEntry[] = []
  for (const pe of pkg.entries) {
    const abs = base + pe.offset
    const eb = entryBytes(bytes, pkg, pe.index)
    const cls = depth < 2 ? classifyEntry(eb, { file, entry: pe.index, base: abs }) : { kind: 'unknown' as const, signature: null }
    const label = nestedIn !== undefined ? `entry ${nestedIn}.${pe.index}` : `entry ${pe.index}`
    const e: GfEntry = { index: pe.index, offset: abs, length: pe.length, kind: cls.kind, signature: cls.signature }
    if ('note' in cls && cls.note) e.note = cls.note
    if ('warning' in cls && cls.warning) warnings.push(cls.warning)
    const align = impliedAlignment(cls.kind, nestedIn !== undefined && file === '0.bin' && pe.length > 0)
    if (align > 1 && abs % align) warnings.push(`${file}: ${label} (${cls.kind}) starts at ${hex(abs)}, not a multiple of ${align}; parsed relative to the entry start`)
    if (cls.kind === 'texture') {
      try {
        e.texture = parseGfTexture(eb, { file, entry: pe.index, base: abs })
        warnings.push(...e.texture.warnings)
      } catch (err) {
        if (!opts.lenient || !(err instanceof FormatError)) throw err
        e.error = err.message
        warnings.push(err.message)
      }
    } else if (cls.kind === 'bch') {
      // BCH stays opaque: a header we cannot read is a warning, never a failure.
      try {
        e.bch = parseBchSummary(eb, { file, entry: pe.index, base: abs })
      } catch (err) {
        if (!(err instanceof FormatError)) throw err
        warnings.push(err.message)
      }
    } else if (cls.kind === 'package' && 'nested' in cls && cls.nested) {
      e.nestedMagic = cls.nested.magic
      warnings.push(...cls.nested.warnings)
      e.children = parseEntries(eb, cls.nested, file, abs, warnings, opts, depth + 1, pe.index)
    }
    out.push(e)
  }
  return out
}

/**
 * Parses one file of a set. Throws FormatError (file, structure, offset) on a bad package header;
 * texture errors throw too unless `lenient`.
 */
export function parseGfFile(file: string, bytes: Uint8Array, opts: ParseOptions = {}): GfFile {
  const pkg = parsePackage(bytes, { file, structure: 'Package' })
  const warnings = [...pkg.warnings]
  if (pkg.magic !== 'PC') warnings.push(`${file}: package magic is "${pkg.magic}", the nine-file set uses "PC"`)
  const entries = parseEntries(bytes, pkg, file, 0, warnings, opts, 0)
  return { file, bytes, pkg, magic: pkg.magic, entries, warnings }
}

export interface GfSet {
  files: GfFile[]
  /** Set files not present (e.g. `8.bin`). */
  missing: string[]
  warnings: string[]
}

/**
 * A lenient read's note for a file whose package cannot be read (issue 25: one bad `0.bin` hid
 * every texture of the set): what is wrong, that the rest stays usable, and what to do.
 */
export function damagedFileNote(file: string, err: FormatError): string {
  return `${file} is damaged and was left out (${err.message}); the set's other files are usable. Replace ${file} with an intact copy (from the game's files) and re-index the set.`
}

/** Parses the files of a set given as name → bytes (names as in GF_SET_FILES); with `skipDamaged`, a damaged file is left out with a note. */
export function parseGfSet(files: Map<string, Uint8Array>, opts: ParseOptions = {}): GfSet {
  const out: GfFile[] = []
  const missing: string[] = []
  const warnings: string[] = []
  for (const name of GF_SET_FILES) {
    const b = files.get(name)
    if (!b) {
      missing.push(name)
      continue
    }
    let f: GfFile
    try {
      f = parseGfFile(name, b, opts)
    } catch (err) {
      if (!opts.skipDamaged || !(err instanceof FormatError)) throw err
      warnings.push(damagedFileNote(name, err))
      continue
    }
    warnings.push(...f.warnings)
    out.push(f)
  }
  return { files: out, missing, warnings }
}

export interface GfTextureRef {
  file: string
  entry: number
  header: GfTextureHeader
  /** The whole entry bytes (zero-copy view into the file). */
  bytes: Uint8Array
}

/** Every top-level texture entry of the set, in file and entry order. */
export function listTextures(set: GfSet): GfTextureRef[] {
  const out: GfTextureRef[] = []
  for (const f of set.files) {
    for (const e of f.entries) {
      if (e.kind === 'texture' && e.texture) out.push({ file: f.file, entry: e.index, header: e.texture, bytes: entryBytes(f.bytes, f.pkg, e.index) })
    }
  }
  return out
}

/** Finds one texture; throws a FormatError-free plain Error when it is not a texture. */
export function findTexture(set: GfSet, file: string, entry: number): GfTextureRef {
  const f = set.files.find((x) => x.file === file)
  if (!f) throw new Error(`${file} is not in the set${set.missing.includes(file) ? ' (missing)' : ''}`)
  const e = f.entries[entry]
  if (!e) throw new Error(`${file} has no entry ${entry} (it has ${f.entries.length})`)
  if (e.kind !== 'texture' || !e.texture) throw new Error(`${file} entry ${entry} is ${e.error ? `a texture that cannot be read: ${e.error}` : `a ${e.kind} entry, not a texture`}`)
  return { file, entry, header: e.texture, bytes: entryBytes(f.bytes, f.pkg, entry) }
}
