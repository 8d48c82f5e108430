/**
 * The FRAGMENT module (one decompressed model file) and its root struct
 * (pokemon-stadium.md §4; pret `src/memmap.h` Fragment, `src/19840.c` func_80019328).
 *
 * Header: 0x00 `j entry; nop`, 0x08 "FRAGMENT", 0x10 u32 headerSize, 0x14 u32 relocOffset,
 * 0x18 u32 sizeInRom, 0x1C u32 sizeInRam. Pointers are virtual addresses in the module's link
 * space (base derived from the archive id); [relocOffset, sizeInRam) is the relocation table,
 * which the game wipes after relocating, so it is never read as model data.
 */
import { FormatError, Reader, hex } from '../../binary'

export const DEFAULT_LINK_BASE = 0x8ff00000

/** A decompressed module with pointer resolution (virtual address → file offset). */
export class Module {
  readonly r: Reader
  readonly bytes: Uint8Array
  /** End of model data: the relocation table offset when sane, else the module length. */
  readonly dataEnd: number
  constructor(bytes: Uint8Array, readonly base: number, readonly file: string, dataEnd?: number) {
    this.bytes = bytes
    this.r = new Reader(bytes, { endian: 'big', file })
    this.dataEnd = dataEnd ?? bytes.length
  }
  /** True when `ptr` points inside this module's model data. */
  owns(ptr: number): boolean {
    const o = (ptr >>> 0) - this.base
    return ptr !== 0 && o >= 0 && o < this.dataEnd
  }
  /** File offset of `ptr`, or a FormatError naming the field that held it. */
  off(ptr: number, field: string, at?: number): number {
    if (!this.owns(ptr)) {
      throw new FormatError(`${field}: pointer ${hex(ptr >>> 0)} is outside the module (${hex(this.base)}..${hex(this.base + this.dataEnd)})`, { file: this.file, structure: field, offset: at })
    }
    return (ptr >>> 0) - this.base
  }
  error(detail: string, structure: string, offset?: number): FormatError {
    return new FormatError(detail, { file: this.file, structure, offset })
  }
}

export interface FragmentHeader {
  entryInstr: number
  headerSize: number
  relocOffset: number
  sizeInRom: number
  sizeInRam: number
}

export function readFragmentHeader(r: Reader): FragmentHeader {
  if (r.length < 0x20) throw r.error(`truncated module: ${r.length} bytes, the FRAGMENT header needs 0x20`, 0, 'Fragment')
  const magic = r.asciiAt(0x08, 8, 'Fragment.magic')
  if (magic !== 'FRAGMENT') throw r.error(`missing "FRAGMENT" magic (found ${JSON.stringify(magic)})`, 0x08, 'Fragment')
  return {
    entryInstr: r.u32At(0x00, 'Fragment.entry'),
    headerSize: r.u32At(0x10, 'Fragment.headerSize'),
    relocOffset: r.u32At(0x14, 'Fragment.relocOffset'),
    sizeInRom: r.u32At(0x18, 'Fragment.sizeInRom'),
    sizeInRam: r.u32At(0x1c, 'Fragment.sizeInRam'),
  }
}

/**
 * Finds the root struct statically: the `lui rX, hi` / `addiu rX, rX, lo` pair the entry function
 * uses to build its return value (§4.2). Scans from the `j` target at +0, then the pipeline's
 * fallback window 0x20..0x7C. Allows one instruction between LUI and ADDIU (a delay slot).
 */
export function findRootOffset(mod: Module, header: FragmentHeader): number {
  const r = mod.r
  const candidates: number[] = []
  const scan = (from: number, to: number): void => {
    for (let o = from; o + 4 <= Math.min(to, mod.bytes.length); o += 4) {
      const w = r.u32At(o)
      if (w >>> 26 !== 0x0f) continue
      const reg = (w >>> 16) & 31
      for (let k = 1; k <= 2 && o + 4 * k + 4 <= mod.bytes.length; k++) {
        const w2 = r.u32At(o + 4 * k)
        if (w2 >>> 26 === 0x09 && ((w2 >>> 21) & 31) === reg) {
          const lo = ((w2 & 0xffff) << 16) >> 16
          const addr = (((w & 0xffff) << 16) + lo) >>> 0
          if (mod.owns(addr) && !candidates.includes(addr - mod.base)) candidates.push(addr - mod.base)
          break
        }
      }
    }
  }
  if (header.entryInstr >>> 26 === 0x02) {
    const target = (0x80000000 | ((header.entryInstr & 0x03ffffff) << 2)) >>> 0
    const start = ((target & 0x0fffffff) | (mod.base & 0xf0000000)) >>> 0
    if (mod.owns(start)) scan(start - mod.base, start - mod.base + 0x100)
  }
  scan(0x20, 0x80)
  // The first candidate that looks like a root struct: at least one geo layout, lists inside the module.
  const plausible = (o: number): boolean => {
    if (o + 0x18 > mod.dataEnd) return false
    const geo = r.u8At(o + 3)
    return geo >= 1 && geo <= 16 && mod.owns(r.u32At(o + 8)) && [0x0c, 0x10].every((f, i) => r.u8At(o + 4 + i) === 0 || mod.owns(r.u32At(o + f)))
  }
  const found = candidates.find(plausible) ?? candidates[0]
  if (found === undefined) throw mod.error('no lui/addiu pair building the root struct address in the entry code', 'Fragment.entry', 0)
  return found
}

export interface RootStruct {
  offset: number
  species: number
  unk02: number
  geoLayoutCount: number
  animCount: number
  texAnimCount: number
  /** File offsets of the geo layouts / skeletal animation headers / texture animation headers. */
  geoLayouts: number[]
  animations: number[]
  textureAnimations: number[]
  warnings: string[]
}

function pointerList(mod: Module, listPtr: number, count: number, field: string, warnings: string[]): number[] {
  if (count === 0) return []
  if (listPtr === 0) {
    warnings.push(`${field}: count ${count} but a null list pointer`)
    return []
  }
  const at = mod.off(listPtr, field)
  mod.r.count(count, 4, field, at)
  const out: number[] = []
  for (let i = 0; i < count; i++) out.push(mod.off(mod.r.u32At(at + i * 4, `${field}[${i}]`), `${field}[${i}]`, at + i * 4))
  // The pipeline treats the lists as null-terminated; check that the counts agree (§20 item 6).
  if (at + count * 4 + 4 <= mod.bytes.length && mod.r.u32At(at + count * 4) !== 0) warnings.push(`${field}: no null terminator after ${count} entries`)
  return out
}

export function readRootStruct(mod: Module, offset: number): RootStruct {
  const r = mod.r
  const warnings: string[] = []
  r.check(offset, 0x18, 'RootStruct')
  const geoLayoutCount = r.u8At(offset + 3, 'RootStruct.geoLayoutCount')
  const animCount = r.u8At(offset + 4, 'RootStruct.animCount')
  const texAnimCount = r.u8At(offset + 5, 'RootStruct.texAnimCount')
  return {
    offset,
    species: r.u16At(offset, 'RootStruct.species'),
    unk02: r.u8At(offset + 2),
    geoLayoutCount,
    animCount,
    texAnimCount,
    geoLayouts: pointerList(mod, r.u32At(offset + 0x08), geoLayoutCount, 'RootStruct.geoLayouts', warnings),
    animations: pointerList(mod, r.u32At(offset + 0x0c), animCount, 'RootStruct.animations', warnings),
    textureAnimations: pointerList(mod, r.u32At(offset + 0x10), texAnimCount, 'RootStruct.textureAnimations', warnings),
    warnings,
  }
}
