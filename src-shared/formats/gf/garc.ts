/**
 * GARC, the model archive (`a/0/9/4`; spec §19): header `CRAG` (v4 0x1C bytes, v6 0x24 bytes),
 * FATO (u16 count, one u32 per entry: its FATB record's offset), FATB (per entry a bit vector and
 * start/end/length per set bit), FIMB (data size), then the data. Everything little-endian.
 *
 * The tables are read without the data (`parseGarcTables` takes the first bytes of the file and
 * its size), so a whole romfs dump is listed at the speed of its file tables; the data of one
 * entry is then read where the tables say. Errors name the file, the structure and the offset.
 */
import { FormatError, hex } from '../../binary/errors'
import { Reader } from '../../binary/reader'

export const GARC_V4 = 0x0400
export const GARC_V6 = 0x0600
export type GarcVersion = typeof GARC_V4 | typeof GARC_V6
/** Header size per version (§19.1). */
export const GARC_HEADER_SIZE: Record<GarcVersion, number> = { [GARC_V4]: 0x1c, [GARC_V6]: 0x24 }
/** The nine files of a set are nine consecutive entries (§19.6). */
export const GARC_SET_SIZE = 9
/** The magics as they appear in the file (LE u32s of "GARC", "FATO", "FATB", "FIMB"). */
export const GARC_MAGIC = 'CRAG'
const FATO = 'OTAF'
const FATB = 'BTAF'
const FIMB = 'BMIF'

export interface GarcEntry {
  index: number
  /** Relative to the data offset (FATB `start`). */
  start: number
  /** Relative to the data offset (FATB `end`); `end - start` is the padded size. */
  end: number
  /** The stored (possibly compressed) length, without padding. */
  length: number
  /** Absolute offset of the stored bytes in the archive file (data offset + start). */
  offset: number
  /** Absolute offset of the FATB record (for messages). */
  record: number
}

export interface GarcTables {
  version: GarcVersion
  headerSize: number
  /** "Pad to nearest": 4 for v4 (not stored), the header field for v6. */
  alignment: number
  dataOffset: number
  fileSize: number
  /** Header +0x18: v4 largest stored length; v6 largest padded length. */
  largest: number
  /** v6 header +0x1C: largest unpadded length (null for v4). */
  largestUnpadded: number | null
  fatoOffset: number
  fatbOffset: number
  fimbOffset: number
  /** FATB file count (set bits over all vectors). */
  fileCount: number
  entries: GarcEntry[]
}

export interface GarcContext {
  /** The archive's path as the user gave it, for messages. */
  file?: string
}

const isPow2 = (n: number) => n >= 4 && (n & (n - 1)) === 0

/**
 * How many bytes from the start of the file the tables need (header, FATO, FATB, FIMB header),
 * as far as `prefix` tells: call again with that many bytes until the answer stops growing.
 * Never more than the values read say; a caller caps it at the file size (the parser then reports
 * the truncation).
 */
export function garcTablesExtent(prefix: Uint8Array): number {
  const u32 = (o: number) => (prefix[o]! | (prefix[o + 1]! << 8) | (prefix[o + 2]! << 16) | (prefix[o + 3]! << 24)) >>> 0
  const have = prefix.byteLength
  if (have < 8) return 0x30
  const hs = u32(4)
  // a size no valid archive has: no more reading (the parser reports the field)
  if (hs !== 0x1c && hs !== 0x24) return have
  if (have < hs + 8) return hs + 8
  const fato = u32(hs + 4)
  if (fato > 0xc + 4 * 0xffff) return have
  const fatb = hs + fato
  if (have < fatb + 8) return fatb + 8
  const size = u32(fatb + 4)
  // 0xFFFF records of at most 32 bits (4 + 12 × 32 bytes each)
  if (size > 0xc + 0xffff * (4 + 12 * 32)) return have
  return fatb + size + 0xc
}

/**
 * Parses and checks the header and tables (§19.1–19.4, §19.6 "bad archive"): `bytes` holds at least
 * the tables (the whole file is fine), `fileSize` is the archive's real size. Throws FormatError
 * naming the file, the structure and the offset.
 */
export function parseGarcTables(bytes: Uint8Array, fileSize: number, ctx: GarcContext = {}): GarcTables {
  const r = new Reader(bytes, { file: ctx.file, structure: 'GARC header' })
  const fail: Fail = (structure, detail, offset) => new FormatError(detail, { file: ctx.file, structure, offset })
  if (fileSize < 0x1c) throw fail('GARC header', `${fileSize} bytes is too short for a GARC header (0x1C bytes)`, 0)
  const magic = r.asciiAt(0, 4, 'GARC header.magic')
  if (magic !== GARC_MAGIC) throw fail('GARC header', `magic ${JSON.stringify(magic)} is not "CRAG"`, 0)
  const headerSize = r.u32At(4, 'GARC header.size')
  const bom = r.u16At(8, 'GARC header.byteOrder')
  if (bom !== 0xfeff) throw fail('GARC header', `byte-order mark ${hex(bom)} is not 0xFEFF`, 8)
  const version = r.u16At(0xa, 'GARC header.version')
  if (version !== GARC_V4 && version !== GARC_V6) throw fail('GARC header', `version ${hex(version)} is neither 0x400 nor 0x600`, 0xa)
  if (headerSize !== GARC_HEADER_SIZE[version]) throw fail('GARC header', `header size ${hex(headerSize)} is not ${hex(GARC_HEADER_SIZE[version])} (version ${hex(version)})`, 4)
  const sections = r.u32At(0xc, 'GARC header.sections')
  if (sections !== 4) throw fail('GARC header', `section count ${sections} is not 4`, 0xc)
  const dataOffset = r.u32At(0x10, 'GARC header.dataOffset')
  const declaredSize = r.u32At(0x14, 'GARC header.fileSize')
  const largest = r.u32At(0x18, 'GARC header.largest')
  const largestUnpadded = version === GARC_V6 ? r.u32At(0x1c, 'GARC header.largestUnpadded') : null
  const alignment = version === GARC_V6 ? r.u32At(0x20, 'GARC header.alignment') : 4
  if (!isPow2(alignment) || alignment > 0x10000) throw fail('GARC header', `alignment ${hex(alignment)} is not a power of two from 4 to 0x10000`, 0x20)
  if (declaredSize !== fileSize) throw fail('GARC header', `file size field ${hex(declaredSize)} differs from the real size ${hex(fileSize)}`, 0x14)

  const fatoOffset = headerSize
  const count = readFato(r, fatoOffset, fail)
  const fatoSize = 0xc + 4 * count
  const fatbOffset = fatoOffset + fatoSize
  const { entries, fileCount, end: fimbOffset } = readFatb(r, fatoOffset, fatbOffset, count, fail)
  checkFimb(r, fimbOffset, dataOffset, fileSize, fail)
  for (const e of entries) e.offset = dataOffset + e.start
  for (const e of entries) {
    if (dataOffset + e.end > fileSize) throw fail(`FATB record ${e.index}`, `entry ${e.index} ends at ${hex(dataOffset + e.end)}, past the end of the file (size ${hex(fileSize)})`, e.record + 8)
  }
  return { version, headerSize, alignment, dataOffset, fileSize, largest, largestUnpadded, fatoOffset, fatbOffset, fimbOffset, fileCount, entries }
}

type Fail = (structure: string, detail: string, offset: number) => FormatError

function readFato(r: Reader, at: number, fail: Fail): number {
  const magic = r.asciiAt(at, 4, 'FATO.magic')
  if (magic !== FATO) throw fail('FATO', `magic ${JSON.stringify(magic)} is not "OTAF"`, at)
  const size = r.u32At(at + 4, 'FATO.size')
  const count = r.u16At(at + 8, 'FATO.count')
  if (size !== 0xc + 4 * count) throw fail('FATO', `section size ${hex(size)} is not 0xC + 4 × ${count} entries (${hex(0xc + 4 * count)})`, at + 4)
  r.check(at + 0xc, 4 * count, 'FATO.offsets')
  return count
}

function readFatb(r: Reader, fatoOffset: number, at: number, count: number, fail: Fail): { entries: GarcEntry[]; fileCount: number; end: number } {
  const magic = r.asciiAt(at, 4, 'FATB.magic')
  if (magic !== FATB) throw fail('FATB', `magic ${JSON.stringify(magic)} is not "BTAF"`, at)
  const size = r.u32At(at + 4, 'FATB.size')
  const fileCount = r.u32At(at + 8, 'FATB.fileCount')
  const first = at + 0xc
  const end = at + size
  if (size < 0xc) throw fail('FATB', `section size ${hex(size)} is smaller than its 0xC-byte header`, at + 4)
  const entries: GarcEntry[] = []
  let bits = 0
  for (let i = 0; i < count; i++) {
    const fato = fatoOffset + 0xc + 4 * i
    const rel = r.u32At(fato, `FATO.offset[${i}]`)
    const rec = first + rel
    if (rel % 4 || rec + 16 > end) throw fail(`FATO entry ${i}`, `FATB record offset ${hex(rel)} is ${rel % 4 ? 'not a multiple of 4' : `past the end of the FATB (ends at ${hex(end)})`}`, fato)
    r.check(rec, 16, `FATB record ${i}`)
    const vector = r.u32At(rec, `FATB record ${i}.vector`)
    if (vector !== 1) throw fail(`FATB record ${i}`, `bit vector ${hex(vector)} is not 1 (language-variant archives are not model archives)`, rec)
    const start = r.u32At(rec + 4, `FATB record ${i}.start`)
    const stop = r.u32At(rec + 8, `FATB record ${i}.end`)
    const length = r.u32At(rec + 12, `FATB record ${i}.length`)
    if (start > stop) throw fail(`FATB record ${i}`, `start ${hex(start)} is after end ${hex(stop)}`, rec + 4)
    if (length > stop - start) throw fail(`FATB record ${i}`, `length ${hex(length)} is more than end − start (${hex(stop - start)})`, rec + 12)
    entries.push({ index: i, start, end: stop, length, offset: 0, record: rec })
    bits++
  }
  if (fileCount !== bits) throw fail('FATB', `file count ${fileCount} differs from the ${bits} set bits of the records`, at + 8)
  return { entries, fileCount, end }
}

function checkFimb(r: Reader, at: number, dataOffset: number, fileSize: number, fail: Fail): void {
  const magic = r.asciiAt(at, 4, 'FIMB.magic')
  if (magic !== FIMB) throw fail('FIMB', `magic ${JSON.stringify(magic)} is not "BMIF"`, at)
  const size = r.u32At(at + 4, 'FIMB.size')
  if (size !== 0xc) throw fail('FIMB', `section size ${hex(size)} is not 0xC`, at + 4)
  const dataSize = r.u32At(at + 8, 'FIMB.dataSize')
  if (dataOffset !== at + 0xc) throw fail('GARC header', `data offset ${hex(dataOffset)} is not the end of the FIMB header (${hex(at + 0xc)})`, 0x10)
  if (dataSize !== fileSize - dataOffset) throw fail('FIMB', `data size ${hex(dataSize)} differs from file size − data offset (${hex(fileSize - dataOffset)})`, at + 8)
}

/** Parses a whole archive in memory. */
export function parseGarc(bytes: Uint8Array, ctx: GarcContext = {}): GarcTables {
  return parseGarcTables(bytes, bytes.byteLength, ctx)
}

/** The stored bytes of entry `i` of an archive held whole in memory (zero-copy view). */
export function garcStoredBytes(bytes: Uint8Array, garc: GarcTables, i: number): Uint8Array {
  const e = garc.entries[i]!
  return bytes.subarray(e.offset, e.offset + e.length)
}

export interface GarcSet {
  set: number
  /** The entry index of the set's `0.bin` (9 × set). */
  first: number
}

/** The nine-file sets (§19.6): floor(count / 9), set N = entries 9N … 9N+8. */
export function garcSets(garc: Pick<GarcTables, 'entries'>): GarcSet[] {
  return Array.from({ length: Math.floor(garc.entries.length / GARC_SET_SIZE) }, (_, set) => ({ set, first: set * GARC_SET_SIZE }))
}

/** The entries after the last whole set (§19.6 "entries outside a set"). */
export function garcLooseEntries(garc: Pick<GarcTables, 'entries'>): number[] {
  const first = Math.floor(garc.entries.length / GARC_SET_SIZE) * GARC_SET_SIZE
  return Array.from({ length: garc.entries.length - first }, (_, k) => first + k)
}

/** The set an entry belongs to, or null for an entry outside a set. */
export function garcSetOf(garc: Pick<GarcTables, 'entries'>, index: number): number | null {
  const set = Math.floor(index / GARC_SET_SIZE)
  return set < Math.floor(garc.entries.length / GARC_SET_SIZE) ? set : null
}
