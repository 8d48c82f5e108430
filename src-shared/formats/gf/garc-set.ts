/**
 * A GF set inside a GARC (spec §19.6): set N = entries 9N … 9N+8 as `0.bin` … `8.bin`. Each member,
 * after LZ11, must be empty or a `PC` package; an entry of a set that starts with 0x11 and does
 * not decode is an error. A set names itself from the `pmSSSS_FF` prefix of its first texture name
 * (else the first texture name its first model lists): species and form, else `set N`.
 */
import { FormatError, hex } from '../../binary/errors'
import { Reader } from '../../binary/reader'
import { GF_SET_FILES } from './gf-set'
import { readNameTable, readSection } from './gf-strings'
import { SIG_MODEL } from './entry-kind'
import { GARC_SET_SIZE, type GarcEntry } from './garc'
import { LZ11_TYPE, decodeLz11 } from './lz11'
import { parsePackage } from './package'
import { speciesName } from './species'
import { GF_TEXTURE_FIELDS, GF_TEXTURE_HEADER_SIZE, GF_TEXTURE_MAGIC } from './texture'

/** `ARCHIVE#N` for set N of an archive (CLI.md "GF model archive"). */
export function garcSetLabel(file: string, set: number): string {
  return `${file}#${set}`
}

/** Set N's folder name where `gf garc extract` writes it (`0012`), also its glb's in `gf export-all GARC`. */
export const garcSetFolder = (set: number): string => String(set).padStart(4, '0')

/** `ARCHIVE#N` → its parts, or null when the argument has no `#N` suffix. */
export function parseGarcSetArg(arg: string): { file: string; set: number } | null {
  const m = /^(.+)#(\d+)$/.exec(arg)
  return m ? { file: m[1]!, set: Number(m[2]) } : null
}

/** The member name of entry `index` in its set (`0.bin` … `8.bin`). */
export const garcMemberName = (index: number): string => GF_SET_FILES[index % GARC_SET_SIZE]!

/** Where a message about entry `e` of set `set` points: `GARC entry 117 (set 13, 0.bin)`. */
export function garcEntryStructure(e: Pick<GarcEntry, 'index'>, set: number | null): string {
  return `GARC entry ${e.index}${set === null ? '' : ` (set ${set}, ${garcMemberName(e.index)})`}`
}

/**
 * The content of a set member from its stored bytes: decompressed when it starts with 0x11 (a
 * stream that does not decode is an error: a `PC` package never starts with 0x11), null when
 * empty; anything else must be a `PC` package (§19.6). Errors name the archive, the entry and
 * the offset in the archive (or in the member, for a bad package header).
 */
export function garcSetMember(stored: Uint8Array, e: GarcEntry, set: number, file?: string): Uint8Array | null {
  const structure = garcEntryStructure(e, set)
  if (stored.byteLength === 0) return null
  const bytes = stored[0] === LZ11_TYPE ? decodeLz11(stored, { file, structure: `${structure} LZ11`, base: e.offset }).bytes : stored
  if (bytes.byteLength === 0) return null
  const magic = bytes.byteLength >= 2 ? String.fromCharCode(bytes[0]!, bytes[1]!) : ''
  if (magic !== 'PC') {
    throw new FormatError(`${stored[0] === LZ11_TYPE ? 'decompressed, it' : 'it'} starts with ${[...bytes.subarray(0, 2)].map((b) => hex(b)).join(' ') || 'nothing'}, not a "PC" package`, { file, structure, offset: e.offset })
  }
  // named as a set folder's member would be: `ARCHIVE#N/1.bin` (offsets inside the member)
  parsePackage(bytes, { file: file ? `${garcSetLabel(file, set)}/${garcMemberName(e.index)}` : garcMemberName(e.index), structure: 'Package' })
  return bytes
}

const NAME_RE = /^pm(\d{4})_(\d{2})/

/** The set's name from a texture name (§19.6): `Pikachu`, `Pikachu (form 3)`, `pm0999_00`, else `set N`. */
export function garcSetName(textureName: string | null, set: number): string {
  const m = textureName ? NAME_RE.exec(textureName) : null
  if (!m) return `set ${set}`
  const species = speciesName(Number(m[1]))
  if (!species) return `pm${m[1]}_${m[2]}`
  const form = Number(m[2])
  return form ? `${species} (form ${form})` : species
}

/** The species number and form of a `pmSSSS_FF` name, or null. */
export function garcSpeciesForm(textureName: string | null): { species: number; form: number } | null {
  const m = textureName ? NAME_RE.exec(textureName) : null
  return m ? { species: Number(m[1]), form: Number(m[2]) } : null
}

/** What a name probe needs: the name, "none here", or more bytes from the member's start. */
export type NameProbe = { name: string } | { none: true } | { need: number }

function u32(b: Uint8Array, o: number): number {
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0
}

/** The name of the first GFTexture of a texture package (`1.bin`), from the first bytes of the member. */
export function firstTextureName(prefix: Uint8Array): NameProbe {
  if (prefix.byteLength < 8) return prefix.byteLength === 0 ? { none: true } : { need: 8 }
  if (prefix[0] !== 0x50 || prefix[1] !== 0x43) return { none: true }
  const count = prefix[2]! | (prefix[3]! << 8)
  if (count === 0) return { none: true }
  const start = u32(prefix, 4)
  const end = start + GF_TEXTURE_HEADER_SIZE
  if (prefix.byteLength < end) return { need: end }
  if (u32(prefix, start + GF_TEXTURE_FIELDS.magic) !== GF_TEXTURE_MAGIC) return { none: true }
  const name = new Reader(prefix).asciiAt(start + GF_TEXTURE_FIELDS.name, 0x40)
  return name ? { name } : { none: true }
}

/** The first texture name listed by the first GFModel of a model package (`0.bin`), from its first bytes. */
export function firstModelTextureName(prefix: Uint8Array): NameProbe {
  if (prefix.byteLength < 12) return prefix.byteLength === 0 ? { none: true } : { need: 12 }
  if (prefix[0] !== 0x50 || prefix[1] !== 0x43 || (prefix[2]! | (prefix[3]! << 8)) === 0) return { none: true }
  const start = u32(prefix, 4)
  if (prefix.byteLength < start + 4) return { need: start + 4 }
  if (u32(prefix, start) !== SIG_MODEL) return { none: true }
  try {
    const r = new Reader(prefix.subarray(start), { structure: 'GFModel' })
    r.seek(0x10)
    readSection(r, 'gfmodel', 'GFModel')
    readNameTable(r, 'shader names')
    const textures = readNameTable(r, 'texture names')
    return textures[0]?.name ? { name: textures[0].name } : { none: true }
  } catch (e) {
    if (!(e instanceof FormatError)) throw e
    // the tables ran past the prefix: ask for more, up to the whole entry (the caller stops there)
    return { need: Math.max(prefix.byteLength * 4, start + 0x1000) }
  }
}
