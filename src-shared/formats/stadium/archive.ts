/**
 * The "pokemon_models" BinArchive at ROM 0x920000 (pokemon-stadium.md §3.1; pret
 * `src/3FB0.h` BinArchive, `tools/unpack_asset.py`, `yamls/us/rom.yaml`).
 *
 *   0x00 u16 flags  0x02 u16 id (fragment slot; 0xEF)  0x04 u32 0  0x08 u32 totalSize
 *   0x0C u32 count  0x10 {u32 offset, u32 size, u32 cachePtr, u32 pad}[count]
 */
import { FormatError, Reader, hex } from '../../binary'

export const MODEL_ARCHIVE_ROM = 0x920000
/** The next segment starts here, so the archive spans at most 0xCA0000 bytes. */
export const MODEL_ARCHIVE_END = 0x15c0000
export const EXPECTED_ARCHIVE_ID = 0xef
/** The game reads a compressed file into a buffer of this size (func_80019484). */
export const MAX_COMPRESSED_FILE = 0x28000

export interface ArchiveEntry {
  index: number
  /** Absolute ROM offset of the file. */
  romOffset: number
  size: number
}

export interface ModelArchive {
  romOffset: number
  flags: number
  id: number
  totalSize: number
  /** Link base of every module of this archive, derived from the id (§4.1). */
  linkBase: number
  entries: ArchiveEntry[]
  warnings: string[]
}

/** Link base of fragment slot `id`: addresses in [0x81000000, 0x90000000) map to slot ((a>>20)&0xFF)−0x10. */
export function fragmentSlotBase(id: number): number {
  return (0x80000000 | (((id + 0x10) & 0xff) << 20)) >>> 0
}

export function readModelArchive(rom: Uint8Array, file = 'ROM', at = MODEL_ARCHIVE_ROM): ModelArchive {
  if (rom.length < at + 0x10) {
    throw new FormatError(`truncated ROM: ${hex(rom.length)} bytes, the model archive header needs ${hex(at + 0x10)}`, { file, structure: 'BinArchive', offset: Math.min(rom.length, at) })
  }
  const r = new Reader(rom, { endian: 'big', file, structure: 'BinArchive' })
  const warnings: string[] = []
  const flags = r.u16At(at, 'BinArchive.flags')
  const id = r.u16At(at + 2, 'BinArchive.id')
  const zero = r.u32At(at + 4, 'BinArchive.romBase')
  const totalSize = r.u32At(at + 8, 'BinArchive.totalSize')
  const count = r.u32At(at + 0x0c, 'BinArchive.count')
  if (flags !== 0 || id > 0xff || zero !== 0 || count === 0 || count >= 4096) {
    throw r.error(`not a model archive (flags ${hex(flags)}, id ${hex(id)}, word +4 ${hex(zero)}, count ${count})`, at)
  }
  r.count(count, 16, 'BinArchive.records', at + 0x10)
  if (id !== EXPECTED_ARCHIVE_ID) warnings.push(`archive id ${hex(id)}, expected ${hex(EXPECTED_ARCHIVE_ID)}; module link base ${hex(fragmentSlotBase(id))}`)
  if (at + totalSize > rom.length) warnings.push(`archive totalSize ${hex(totalSize)} runs past the end of the ROM`)
  const entries: ArchiveEntry[] = []
  for (let i = 0; i < count; i++) {
    const rec = at + 0x10 + i * 16
    const off = r.u32At(rec, `BinArchive.record[${i}].offset`)
    const size = r.u32At(rec + 4, `BinArchive.record[${i}].size`)
    const romOffset = at + off
    if (romOffset + size > rom.length) {
      throw new FormatError(`record ${i}: file at ${hex(romOffset)} (+${hex(size)}) runs past the end of the ${hex(rom.length)}-byte ROM`, { file, structure: `BinArchive.record[${i}]`, offset: rec })
    }
    if (off + size > totalSize) {
      throw new FormatError(`record ${i}: file at archive offset ${hex(off)} (+${hex(size)}) runs past the archive's ${hex(totalSize)} bytes`, { file, structure: `BinArchive.record[${i}]`, offset: rec })
    }
    if (size > MAX_COMPRESSED_FILE) warnings.push(`file ${i}: ${hex(size)} bytes is larger than the game's 0x28000-byte read buffer`)
    entries.push({ index: i, romOffset, size })
  }
  return { romOffset: at, flags, id, totalSize, linkBase: fragmentSlotBase(id), entries, warnings }
}
