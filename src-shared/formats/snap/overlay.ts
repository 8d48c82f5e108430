/**
 * The overlay table at ROM 0x57580 (`Overlay`, 0x24 bytes each; pokemon-snap.md §2.1,
 * [D: include/sys/dma.h]).
 */
import { FormatError, Reader, hex } from '../../binary'
import { STAGES } from './stages'

export const OVERLAY_TABLE_ROM = 0x57580
export const OVERLAY_SIZE = 0x24

export interface Overlay {
  index: number
  romStart: number
  romEnd: number
  vramStart: number
  textVramStart: number
  textVramEnd: number
  dataVramStart: number
  dataVramEnd: number
  bssVramStart: number
  bssVramEnd: number
}

/** Reads overlay entry `index` from a normalised ROM image (no validation). */
export function readOverlay(rom: Reader, index: number): Overlay {
  const o = OVERLAY_TABLE_ROM + index * OVERLAY_SIZE
  rom.check(o, OVERLAY_SIZE, `Overlay[${hex(index)}]`)
  return {
    index,
    romStart: rom.u32At(o + 0x00, `Overlay[${hex(index)}].romStart`),
    romEnd: rom.u32At(o + 0x04, `Overlay[${hex(index)}].romEnd`),
    vramStart: rom.u32At(o + 0x08, `Overlay[${hex(index)}].vramStart`),
    textVramStart: rom.u32At(o + 0x0c, `Overlay[${hex(index)}].textVramStart`),
    textVramEnd: rom.u32At(o + 0x10, `Overlay[${hex(index)}].textVramEnd`),
    dataVramStart: rom.u32At(o + 0x14, `Overlay[${hex(index)}].dataVramStart`),
    dataVramEnd: rom.u32At(o + 0x18, `Overlay[${hex(index)}].dataVramEnd`),
    bssVramStart: rom.u32At(o + 0x1c, `Overlay[${hex(index)}].bssVramStart`),
    bssVramEnd: rom.u32At(o + 0x20, `Overlay[${hex(index)}].bssVramEnd`),
  }
}

/**
 * Reads and checks entry `index`: a non-empty ROM range inside the image and a KSEG0 load
 * address. A zeroed or corrupt table fails here with the entry's ROM offset.
 */
export function readValidOverlay(rom: Reader, index: number): Overlay {
  const ov = readOverlay(rom, index)
  const at = OVERLAY_TABLE_ROM + index * OVERLAY_SIZE
  const ctx = { file: rom.file, structure: `Overlay[${hex(index)}]`, offset: at }
  if (ov.romEnd <= ov.romStart) throw new FormatError(`empty or inverted ROM range ${hex(ov.romStart)}..${hex(ov.romEnd)} (zeroed overlay table?)`, ctx)
  if (ov.romEnd > rom.length) throw new FormatError(`ROM range ${hex(ov.romStart)}..${hex(ov.romEnd)} runs past the end of the ${hex(rom.length)}-byte image (truncated ROM?)`, ctx)
  if (ov.vramStart < 0x80000000 || ov.vramStart >= 0x80800000) throw new FormatError(`vramStart ${hex(ov.vramStart)} is not a KSEG0 RAM address`, ctx)
  if (ov.vramStart + (ov.romEnd - ov.romStart) > 0x80800000) throw new FormatError(`overlay of ${hex(ov.romEnd - ov.romStart)} bytes at ${hex(ov.vramStart)} runs past 8 MiB of RAM`, ctx)
  return ov
}

/**
 * True when the overlay table holds nothing for the stage whose Data entry is `index`: entries
 * `index` and `index + 1` (Data and Code) are all zero bytes. A partial image (a synthetic ROM
 * that lays out only some stages) leaves the other stages' entries like this; such a stage is
 * absent rather than broken. A table that lies past the end of the image is not "absent" (that is
 * a truncated ROM, reported by `readValidOverlay`).
 */
export function stageEntriesEmpty(rom: Reader, index: number): boolean {
  const at = OVERLAY_TABLE_ROM + index * OVERLAY_SIZE
  if (at + 2 * OVERLAY_SIZE > rom.length) return false
  for (let o = 0; o < 2 * OVERLAY_SIZE; o += 4) if (rom.u32At(at + o) !== 0) return false
  return true
}

/**
 * True when the overlay table at 0x57580 places at least one stage's Data overlay inside the image
 * with the stage's fixed header address (&WorldSetup, §2.2) in its RAM range: the image has the
 * US 1.0 Snap layout whatever its header says.
 */
export function hasSnapLayout(image: Uint8Array, file = 'ROM'): boolean {
  const r = new Reader(image, { endian: 'big', file, structure: 'ROM' })
  return STAGES.some((s) => {
    // An entry past the end of the image cannot match: said without building an error (a
    // FormatError's stack costs more than the rest of probing a small image).
    if (OVERLAY_TABLE_ROM + (s.overlayIndex + 1) * OVERLAY_SIZE > image.length) return false
    try {
      const ov = readValidOverlay(r, s.overlayIndex)
      return s.header >= ov.vramStart && s.header < ov.vramStart + (ov.romEnd - ov.romStart)
    } catch {
      return false
    }
  })
}
