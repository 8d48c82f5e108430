/**
 * GARC writer (spec §19.4, the rules pk3DS's packers follow): header, FATO (padding 0xFFFF), FATB
 * (vector 1 per entry), FIMB, then the entries in index order, each followed by 0xFF up to a
 * multiple of the alignment (relative to the data offset); data offset, file size, the largest
 * fields and the FIMB data size recomputed; version and alignment kept from the input.
 *
 * The tables are built from the stored lengths alone (`buildGarcTables`), so a caller can stream the
 * entry bytes from the original file after them (`garcDataParts`); `writeGarc` does both in memory.
 * An entry stored LZ11 is re-compressed by the caller (`storeLike`).
 */
import { FormatError } from '../../binary/errors'
import { Writer } from '../../binary/writer'
import { GARC_HEADER_SIZE, GARC_V6, garcStoredBytes, parseGarc, type GarcTables, type GarcVersion } from './garc'
import { encodeLz11, isLz11 } from './lz11'

/** The padded size of a stored length (0 stays 0). */
export function garcPadded(length: number, alignment: number): number {
  return Math.ceil(length / alignment) * alignment
}

export interface GarcLayout {
  /** Header, FATO, FATB and FIMB: the bytes before the data. */
  tables: Uint8Array
  dataOffset: number
  fileSize: number
  /** Per entry, start and end relative to the data offset. */
  ranges: { start: number; end: number; length: number }[]
}

/** The largest fields of §19.1 for these stored lengths: [header +0x18, v6 header +0x1C]. */
export function garcLargest(version: GarcVersion, alignment: number, lengths: readonly number[]): [number, number] {
  let at = -1
  for (let i = 0; i < lengths.length; i++) if (at < 0 || lengths[i]! > lengths[at]!) at = i // the first on ties
  const unpadded = at < 0 ? 0 : lengths[at]!
  return version === GARC_V6 ? [garcPadded(unpadded, alignment), unpadded] : [unpadded, 0]
}

/** Header and tables for entries of these stored lengths, laid out per §19.4. */
export function buildGarcTables(version: GarcVersion, alignment: number, lengths: readonly number[]): GarcLayout {
  if (lengths.length > 0xffff) throw new RangeError(`a GARC holds at most 65535 entries, not ${lengths.length}`)
  const headerSize = GARC_HEADER_SIZE[version]
  const n = lengths.length
  const fatoSize = 0xc + 4 * n
  const fatbSize = 0xc + 16 * n
  const dataOffset = headerSize + fatoSize + fatbSize + 0xc
  const ranges: GarcLayout['ranges'] = []
  let cursor = 0
  for (const length of lengths) {
    const end = cursor + garcPadded(length, alignment)
    ranges.push({ start: cursor, end, length })
    cursor = end
  }
  const fileSize = dataOffset + cursor
  if (fileSize > 0xffffffff) throw new RangeError(`the archive would be ${fileSize} bytes, more than a GARC's u32 sizes hold`)
  const [largest, largestUnpadded] = garcLargest(version, alignment, lengths)
  const w = new Writer({ capacity: dataOffset })
  w.ascii('CRAG', 4).u32(headerSize).u16(0xfeff).u16(version).u32(4).u32(dataOffset).u32(fileSize).u32(largest)
  if (version === GARC_V6) w.u32(largestUnpadded).u32(alignment)
  w.ascii('OTAF', 4).u32(fatoSize).u16(n).u16(0xffff)
  for (let i = 0; i < n; i++) w.u32(16 * i)
  w.ascii('BTAF', 4).u32(fatbSize).u32(n)
  for (const r of ranges) w.u32(1).u32(r.start).u32(r.end).u32(r.length)
  w.ascii('BMIF', 4).u32(0xc).u32(cursor)
  return { tables: w.finish(), dataOffset, fileSize, ranges }
}

const FF = new Uint8Array(0x10000).fill(0xff)

/** The 0xFF bytes that follow an entry of `length` bytes (a view of a shared buffer; do not write to it). */
export function garcPadding(length: number, alignment: number): Uint8Array {
  const n = garcPadded(length, alignment) - length
  return n <= FF.byteLength ? FF.subarray(0, n) : new Uint8Array(n).fill(0xff)
}

/** The whole archive in memory: tables, then every entry and its padding. */
export function writeGarc(version: GarcVersion, alignment: number, entries: readonly Uint8Array[]): Uint8Array {
  const layout = buildGarcTables(version, alignment, entries.map((e) => e.byteLength))
  const out = new Uint8Array(layout.fileSize).fill(0xff)
  out.set(layout.tables, 0)
  entries.forEach((e, i) => out.set(e, layout.dataOffset + layout.ranges[i]!.start))
  return out
}

/**
 * The bytes to store for a replaced entry (CLI.md `gf garc pack`): LZ11-compressed again when the
 * original stored bytes were a compressed entry (§19.5), else as given.
 */
export function storeLike(originalStored: Uint8Array, content: Uint8Array): Uint8Array {
  return isLz11(originalStored) ? encodeLz11(content) : content
}

/**
 * Repacks an archive held in memory: `changes` maps entry index → new *stored* bytes. No change →
 * a copy of the input, byte for byte (§19.4: a Nintendo-built archive may differ from a rebuild).
 */
export function repackGarc(original: Uint8Array, garc: GarcTables, changes: ReadonlyMap<number, Uint8Array>): Uint8Array {
  for (const i of changes.keys()) if (!garc.entries[i]) throw new RangeError(`no entry ${i} to replace (the archive has ${garc.entries.length})`)
  if (changes.size === 0) return original.slice()
  const stored = garc.entries.map((e) => changes.get(e.index) ?? garcStoredBytes(original, garc, e.index))
  return writeGarc(garc.version, garc.alignment, stored)
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Re-parses a written archive and checks it against the original: same version, alignment and
 * entry count, every untouched entry's stored bytes identical, every changed entry holding its new
 * bytes. Throws FormatError naming the first difference.
 */
export function verifyGarcRepack(original: Uint8Array, garc: GarcTables, written: Uint8Array, changes: ReadonlyMap<number, Uint8Array>, file = 'archive'): void {
  const out = parseGarc(written, { file })
  const fail = (detail: string, offset: number) => new FormatError(`repack verification failed: ${detail}`, { file, structure: 'GARC (written)', offset })
  if (out.version !== garc.version) throw fail(`version ${out.version} ≠ ${garc.version}`, 0xa)
  if (out.alignment !== garc.alignment) throw fail(`alignment ${out.alignment} ≠ ${garc.alignment}`, 0x20)
  if (out.entries.length !== garc.entries.length) throw fail(`${out.entries.length} entries, the original has ${garc.entries.length}`, out.fatoOffset + 8)
  for (const e of garc.entries) {
    const now = garcStoredBytes(written, out, e.index)
    const want = changes.get(e.index) ?? garcStoredBytes(original, garc, e.index)
    if (!equalBytes(now, want)) throw fail(`entry ${e.index} ${changes.has(e.index) ? 'does not hold its new bytes' : 'differs from the original'}`, out.entries[e.index]!.offset)
  }
}
