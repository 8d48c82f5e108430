/**
 * The stage's RAM layout rebuilt from ROM ranges (the seed's `CRGDataMap`, noclip's `DataMap`;
 * pokemon-snap.md §2). Pointers in the data are RAM addresses; this map turns them back into
 * bytes, searching the chunks in order (stage Data, Code, Photo, then common), because overlay
 * RAM ranges overlap (§2.4).
 */
import { FormatError, Reader, hex } from '../../binary'
import type { Memory } from '../n64/f3dex2'
import { COMMON_OVERLAY_INDEX, type StageInfo } from './stages'
import { readValidOverlay } from './overlay'

export type ChunkKind = 'Data' | 'Code' | 'Photo'

/**
 * A pointer that resolves to no mapped chunk (or runs off the end of one). Always bad input:
 * scene building does not downgrade it to a warning (the "pointers outside every chunk:
 * exit 1, no output").
 */
export class UnmappedAddressError extends FormatError {
  constructor(detail: string, ctx: ConstructorParameters<typeof FormatError>[1] = {}) {
    super(detail, ctx)
    this.name = 'UnmappedAddressError'
  }
}

export interface Chunk {
  /** Archive the chunk belongs to (`beach`, `common` …). */
  archive: string
  kind: ChunkKind
  /** RAM address of `bytes[0]`. */
  start: number
  bytes: Uint8Array
  /** ROM offset of `bytes[0]`. */
  romStart: number
}

export function chunkLabel(c: Chunk): string {
  return `${c.archive} ${c.kind} ${hex(c.start)}..${hex(c.start + c.bytes.length)}`
}

export class AddressMap implements Memory {
  constructor(
    readonly file: string,
    readonly chunks: Chunk[],
  ) {}

  /** The first chunk (search order) that holds `[addr, addr+len)`, or undefined. */
  find(addr: number, len = 1): Chunk | undefined {
    addr >>>= 0
    for (const c of this.chunks) if (addr >= c.start && addr + len <= c.start + c.bytes.length) return c
    return undefined
  }

  /**
   * Where `addr` lives, or a FormatError like
   * "WorldBlockSetup.modelBlocks → 0x80412345 is in no mapped chunk".
   * `field` names the pointer that led here.
   */
  locate(addr: number, len: number, field: string): { chunk: Chunk; offset: number } {
    addr >>>= 0
    if (addr === 0) throw new FormatError(`${field} is NULL`, { file: this.file, structure: field })
    if (addr >>> 24 === 0x0e) throw new FormatError(`${field} → ${hex(addr)} is a segment-0x0E material slot, not memory`, { file: this.file, structure: field })
    const c = this.find(addr, len)
    if (c) return { chunk: c, offset: addr - c.start }
    const partial = this.find(addr, 1)
    if (partial) {
      throw new UnmappedAddressError(`${field} → ${hex(addr)}: ${hex(len)} bytes run past the end of chunk ${chunkLabel(partial)}`, { file: this.file, offset: partial.romStart + (addr - partial.start) })
    }
    throw new UnmappedAddressError(`${field} → ${hex(addr)} is in no mapped chunk (mapped: ${this.chunks.map(chunkLabel).join(', ')})`, { file: this.file })
  }

  /** The ROM offset of a RAM address (for messages), or undefined. */
  romOffset(addr: number): number | undefined {
    const c = this.find(addr)
    return c ? c.romStart + (addr - c.start) : undefined
  }

  /**
   * A big-endian Reader whose offset 0 is `addr` (it spans to the end of the chunk) and whose
   * errors report ROM offsets and `structure`. Checks that `size` bytes are there.
   */
  view(addr: number, size: number, structure: string, field = structure): Reader {
    const { chunk, offset } = this.locate(addr, size, field)
    return new Reader(chunk.bytes.subarray(offset), { endian: 'big', file: this.file, base: chunk.romStart + offset, structure })
  }

  /** Memory for the F3DEX2 interpreter. */
  read(addr: number, len: number, what: string): Uint8Array {
    const { chunk, offset } = this.locate(addr, len, what)
    return chunk.bytes.subarray(offset, offset + len)
  }

  /** Reads a NULL-terminated pointer list (at most `limit` entries). */
  pointerList(addr: number, field: string, limit = 4096): number[] {
    const out: number[] = []
    const r = this.view(addr, 4, field)
    for (let i = 0; ; i++) {
      if (i >= limit) throw new FormatError(`${field}: no NULL terminator within ${limit} entries`, { file: this.file, structure: field, offset: r.base })
      const p = r.u32At(i * 4, `${field}[${i}]`)
      if (p === 0) return out
      out.push(p)
    }
  }
}

/**
 * Builds the stage's map from the overlay table: stage Data (entry k) and Code (k+1), the fixed
 * Photo range, then the common archive's two entries (0x0E, 0x0F).
 */
export function buildStageMap(image: Uint8Array, stage: StageInfo, file = 'ROM', warnings: string[] = []): AddressMap {
  const rom = new Reader(image, { endian: 'big', file, structure: 'ROM' })
  const chunks: Chunk[] = []
  const add = (archive: string, kind: ChunkKind, index: number, required: boolean) => {
    try {
      const ov = readValidOverlay(rom, index)
      chunks.push({ archive, kind, start: ov.vramStart, bytes: image.subarray(ov.romStart, ov.romEnd), romStart: ov.romStart })
    } catch (e) {
      if (required) throw e
      warnings.push(`${archive} ${kind} overlay not mapped: ${(e as Error).message}`)
    }
  }
  add(stage.name, 'Data', stage.overlayIndex, true)
  add(stage.name, 'Code', stage.overlayIndex + 1, true)
  const p = stage.photo
  if (p.rom + p.length > image.length) {
    // The Photo overlay only holds HD photo models; a short image (a sparse fixture, a trimmed
    // hack) still opens, and a pointer into the range then fails by name.
    warnings.push(`${stage.name} Photo range ${hex(p.rom)}..${hex(p.rom + p.length)} lies past the end of the ${hex(image.length)}-byte image; not mapped`)
  } else {
    chunks.push({ archive: stage.name, kind: 'Photo', start: p.ram, bytes: image.subarray(p.rom, p.rom + p.length), romStart: p.rom })
  }
  add('common', 'Data', COMMON_OVERLAY_INDEX, false)
  add('common', 'Code', COMMON_OVERLAY_INDEX + 1, false)
  return new AddressMap(file, chunks)
}
