/**
 * PICA200 GPU command lists (spec §4.5; SPICA `PICACommandReader.cs`, 3dbrew): each command is a
 * first parameter word, a header word (bits 0–15 register, 16–19 byte-enable mask, 20–30 extra
 * parameter count E, bit 31 consecutive), E extra words, and one padding word when needed so
 * every command takes an even number of words. Decoded into register writes in order.
 */
import { hex } from '../../binary/errors'
import type { Reader } from '../../binary/reader'

export interface PicaCommand {
  register: number
  mask: number
  consecutive: boolean
  /** Every parameter: the first one, then the extras. */
  params: number[]
  /** Offset of the command's first word (relative to the reader's view). */
  offset: number
}

export interface PicaWrite {
  register: number
  value: number
  mask: number
}

/** Header word fields. */
export function picaHeader(word: number): { register: number; mask: number; extra: number; consecutive: boolean } {
  return { register: word & 0xffff, mask: (word >>> 16) & 0xf, extra: (word >>> 20) & 0x7ff, consecutive: (word >>> 31) === 1 }
}

/**
 * Reads the command list at `[offset, offset + byteLength)` of `r`. A command whose parameters
 * run past the list is an error naming the structure and the command's offset.
 */
export function readPicaCommands(r: Reader, offset: number, byteLength: number, structure: string): PicaCommand[] {
  r.check(offset, byteLength, `${structure} (command list of ${byteLength} bytes)`)
  if (byteLength % 4) throw r.error(`command list length ${byteLength} is not a multiple of 4`, offset, structure)
  const n = byteLength / 4
  const out: PicaCommand[] = []
  let i = 0
  while (i < n) {
    const at = offset + i * 4
    if (i + 1 >= n) throw r.error(`command at ${hex(r.base + at)} has no header word (list ends)`, at, structure)
    const p0 = r.u32At(at)
    const h = picaHeader(r.u32At(at + 4))
    i += 2
    if (i + h.extra > n) {
      throw r.error(`command at ${hex(r.base + at)} (register ${hex(h.register)}) declares ${h.extra} extra parameters, ${h.extra - (n - i)} more than the ${byteLength}-byte list holds`, at, structure)
    }
    const params = [p0]
    for (let k = 0; k < h.extra; k++) params.push(r.u32At(offset + (i + k) * 4))
    i += h.extra
    if (i & 1) i++
    out.push({ register: h.register, mask: h.mask, consecutive: h.consecutive, params, offset: at })
  }
  return out
}

/** The register writes of a command list, in order (consecutive commands spread over registers). */
export function picaWrites(cmds: readonly PicaCommand[]): PicaWrite[] {
  const out: PicaWrite[] = []
  for (const c of cmds) c.params.forEach((value, k) => out.push({ register: c.consecutive ? c.register + k : c.register, value, mask: c.mask }))
  return out
}

/** Expands a byte-enable mask to a bit mask (bit k of the nibble enables byte k). */
function byteMask(mask: number): number {
  return ((mask & 1 ? 0xff : 0) | (mask & 2 ? 0xff00 : 0) | (mask & 4 ? 0xff0000 : 0) | (mask & 8 ? 0xff000000 : 0)) >>> 0
}

/** Final register values after the writes (byte-enable masks applied). */
export function picaRegisters(writes: readonly PicaWrite[]): Map<number, number> {
  const regs = new Map<number, number>()
  for (const w of writes) {
    const m = byteMask(w.mask)
    regs.set(w.register, (((regs.get(w.register) ?? 0) & ~m) | (w.value & m)) >>> 0)
  }
  return regs
}
