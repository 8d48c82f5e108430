/**
 * The GF "mini" package (a.k.a. BinLinker package; spec §2): two ASCII upper-case letters,
 * a u16 entry count N, then N+1 u32 offsets from the package start; entry i is
 * [off[i], off[i+1]), off[N] is the end of the last entry (for a top-level file: its length).
 * The header may be padded past the table (retail texture packs: 0x80 bytes); those bytes are
 * kept verbatim by the writer. pk3DS (`mini.cs`) and pkNX (`MiniUtil.cs`) recognise a package by
 * off[N] == file length; SPICA (`GFPackage.cs`) computes entry addresses from the package start.
 */
import { FormatError, hex } from '../../binary/errors'
import { Reader } from '../../binary/reader'
import type { Writer } from '../../binary/writer'

export interface PackageEntry {
  index: number
  /** Offset of the entry from the package start (= off[index]). */
  offset: number
  length: number
}

export interface GfPackage {
  magic: string
  /** Offset table as stored: N+1 values. */
  offsets: number[]
  entries: PackageEntry[]
  /** Bytes after off[N] (normally none), kept as an opaque tail. */
  tailLength: number
  /** Warnings found while parsing (each names the file, structure and offset). */
  warnings: string[]
}

export interface PackageContext {
  /** File name for messages. */
  file?: string
  /** Absolute file offset of the package start (for nested packages). */
  base?: number
  /** Structure name for messages (default `Package`). */
  structure?: string
}

/** Where the header's u32 offset word i lives (after magic and count). */
export const packageOffsetWord = (i: number): number => 4 + 4 * i

function isUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a
}

/** True when the bytes start like a package (two upper-case letters); cheap sniff, no validation. */
export function looksLikePackage(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && isUpper(bytes[0]!) && isUpper(bytes[1]!)
}

/**
 * Parses and validates a package header (spec §2.2): magic letters, the table fits, offsets
 * non-decreasing, the first entry starts after the table, off[N] within the bytes.
 * Throws FormatError naming the file, the structure, the entry and the byte offset.
 */
export function parsePackage(bytes: Uint8Array, ctx: PackageContext = {}): GfPackage {
  const structure = ctx.structure ?? 'Package'
  const r = new Reader(bytes, { file: ctx.file, base: ctx.base ?? 0, structure })
  const len = bytes.byteLength
  if (len < 4) throw r.error(`${len} bytes is too short for a package header (4 bytes)`, 0)
  const m0 = r.u8At(0, `${structure}.magic`), m1 = r.u8At(1, `${structure}.magic`)
  if (!isUpper(m0) || !isUpper(m1)) {
    throw r.error(`magic ${hex(m0)} ${hex(m1)} is not two upper-case ASCII letters (expected e.g. "PC")`, 0)
  }
  const magic = String.fromCharCode(m0, m1)
  const n = r.u16At(2, `${structure}.count`)
  const tableEnd = packageOffsetWord(n + 1)
  if (tableEnd > len) {
    throw r.error(`entry count ${n} needs an offset table up to ${hex((ctx.base ?? 0) + tableEnd)}, past the end (size ${hex(len)})`, 2)
  }
  const offsets: number[] = []
  for (let i = 0; i <= n; i++) offsets.push(r.u32At(packageOffsetWord(i), `${structure}.offset[${i}]`))
  const warnings: string[] = []
  const where = (i: number) => `${ctx.file ? `${ctx.file}: ` : ''}${structure} entry ${i} (offset word at ${hex((ctx.base ?? 0) + packageOffsetWord(i))})`
  if (offsets[0]! < tableEnd) {
    throw new FormatError(`entry 0 starts at ${hex(offsets[0]!)}, inside the header (table ends at ${hex(tableEnd)})`, { file: ctx.file, structure: `${structure} entry 0`, offset: (ctx.base ?? 0) + packageOffsetWord(0) })
  }
  for (let i = 0; i <= n; i++) {
    const o = offsets[i]!
    if (o > len) {
      const what = i === n ? `end of the last entry` : `entry ${i} start`
      throw new FormatError(`${what} ${hex(o)} is past the end of the data (size ${hex(len)})`, { file: ctx.file, structure: `${structure} entry ${Math.min(i, Math.max(0, n - 1))}`, offset: (ctx.base ?? 0) + packageOffsetWord(i) })
    }
    if (i > 0 && o < offsets[i - 1]!) {
      throw new FormatError(`offsets not increasing: entry ${i - 1} starts at ${hex(offsets[i - 1]!)} but ${i === n ? 'the end' : `entry ${i}`} is at ${hex(o)}`, { file: ctx.file, structure: `${structure} entry ${i - 1}`, offset: (ctx.base ?? 0) + packageOffsetWord(i) })
    }
  }
  if (offsets[n]! !== len) warnings.push(`${where(n)}: the package ends at ${hex(offsets[n]!)} but the data is ${hex(len)} bytes; the ${hex(len - offsets[n]!)} trailing bytes are kept as they are`)
  const entries: PackageEntry[] = []
  for (let i = 0; i < n; i++) entries.push({ index: i, offset: offsets[i]!, length: offsets[i + 1]! - offsets[i]! })
  return { magic, offsets, entries, tailLength: len - offsets[n]!, warnings }
}

/** Writes the N+1 offsets into the header of a package being written (the counterpart of the table read above). */
export function writePackageOffsets(w: Writer, offsets: readonly number[]): void {
  offsets.forEach((o, i) => w.setU32At(packageOffsetWord(i), o))
}

/** Parses a package or returns null when the bytes are not a valid one (used to spot nested packages). */
export function tryParsePackage(bytes: Uint8Array, ctx: PackageContext = {}): GfPackage | null {
  if (!looksLikePackage(bytes)) return null
  try {
    return parsePackage(bytes, ctx)
  } catch (e) {
    if (e instanceof FormatError) return null
    throw e
  }
}

/** Bytes of entry `i` (zero-copy view). */
export function entryBytes(bytes: Uint8Array, pkg: GfPackage, i: number): Uint8Array {
  const e = pkg.entries[i]!
  return bytes.subarray(e.offset, e.offset + e.length)
}
