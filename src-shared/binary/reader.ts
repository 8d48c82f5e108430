import { FormatError, hex } from './errors'

export type Endian = 'big' | 'little'

export interface ReaderOptions {
  endian?: Endian
  /** Name of the file, used in error messages. */
  file?: string
  /** Absolute offset of `bytes[0]` in the file, so errors report file offsets. */
  base?: number
  /** Structure name used when a read names no field. */
  structure?: string
}

/**
 * A bounds-checked cursor over bytes (zero-copy: it keeps a view, never copies).
 *
 * Every read takes an optional field name (`r.u32('WorldBlockGFX.movement')`) which appears in
 * the error if the read runs past the end. Offsets given to `*At` methods and `seek` are
 * relative to this reader's view; errors report absolute offsets (`base + offset`).
 */
export class Reader {
  readonly bytes: Uint8Array
  readonly view: DataView
  readonly file?: string
  readonly base: number
  little: boolean
  structure?: string
  pos = 0

  constructor(bytes: Uint8Array, opts: ReaderOptions = {}) {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.little = (opts.endian ?? 'little') === 'little'
    this.file = opts.file
    this.base = opts.base ?? 0
    this.structure = opts.structure
  }

  get length(): number {
    return this.bytes.byteLength
  }

  get remaining(): number {
    return this.bytes.byteLength - this.pos
  }

  get endian(): Endian {
    return this.little ? 'little' : 'big'
  }

  /** An error located at `offset` (relative to this view) in this reader's file. */
  error(detail: string, offset = this.pos, structure?: string): FormatError {
    return new FormatError(detail, { file: this.file, structure: structure ?? this.structure, offset: this.base + offset })
  }

  /** Throws unless `size` bytes are readable at `offset`. */
  check(offset: number, size: number, field?: string): void {
    if (!Number.isInteger(offset) || !Number.isInteger(size) || offset < 0 || size < 0 || offset + size > this.bytes.byteLength) {
      throw this.error(
        `${field ? `${field}: ` : ''}read of ${size} byte${size === 1 ? '' : 's'} at ${hex(this.base + offset)} runs past the end (size ${hex(this.base + this.bytes.byteLength)})`,
        Number.isFinite(offset) ? Math.max(0, Math.min(Math.trunc(offset), this.bytes.byteLength)) : 0,
        field ? undefined : this.structure,
      )
    }
  }

  seek(offset: number, field?: string): this {
    if (!Number.isInteger(offset) || offset < 0 || offset > this.bytes.byteLength) this.check(offset, 0, field ?? 'seek')
    this.pos = offset
    return this
  }

  skip(n: number, field?: string): this {
    this.check(this.pos, n, field)
    this.pos += n
    return this
  }

  align(n: number): this {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`Reader.align(${n}): needs a whole number ≥ 1`)
    const r = this.pos % n
    if (r) this.pos = Math.min(this.bytes.byteLength, this.pos + n - r)
    return this
  }

  // ---- absolute reads -------------------------------------------------------------------
  u8At(o: number, field?: string): number { this.check(o, 1, field); return this.bytes[o]! }
  i8At(o: number, field?: string): number { this.check(o, 1, field); return this.view.getInt8(o) }
  u16At(o: number, field?: string): number { this.check(o, 2, field); return this.view.getUint16(o, this.little) }
  i16At(o: number, field?: string): number { this.check(o, 2, field); return this.view.getInt16(o, this.little) }
  u32At(o: number, field?: string): number { this.check(o, 4, field); return this.view.getUint32(o, this.little) }
  i32At(o: number, field?: string): number { this.check(o, 4, field); return this.view.getInt32(o, this.little) }
  f32At(o: number, field?: string): number { this.check(o, 4, field); return this.view.getFloat32(o, this.little) }
  f64At(o: number, field?: string): number { this.check(o, 8, field); return this.view.getFloat64(o, this.little) }
  u64At(o: number, field?: string): bigint { this.check(o, 8, field); return this.view.getBigUint64(o, this.little) }
  i64At(o: number, field?: string): bigint { this.check(o, 8, field); return this.view.getBigInt64(o, this.little) }

  /** Zero-copy sub-array. */
  bytesAt(o: number, n: number, field?: string): Uint8Array {
    this.check(o, n, field)
    return this.bytes.subarray(o, o + n)
  }

  /** ASCII/Latin-1 string of fixed length; stops at the first NUL. */
  asciiAt(o: number, n: number, field?: string): string {
    const b = this.bytesAt(o, n, field)
    let s = ''
    for (let i = 0; i < b.length && b[i] !== 0; i++) s += String.fromCharCode(b[i]!)
    return s
  }

  /** NUL-terminated ASCII string starting at `o` (at most `max` bytes scanned). */
  cstringAt(o: number, field?: string, max = 4096): string {
    this.check(o, 1, field)
    let s = ''
    for (let i = o; i < this.bytes.byteLength && i - o < max; i++) {
      const c = this.bytes[i]!
      if (c === 0) return s
      s += String.fromCharCode(c)
    }
    throw this.error(`${field ? `${field}: ` : ''}string at ${hex(this.base + o)} has no terminating NUL`, o)
  }

  /** NUL-terminated UTF-16 string (this reader's endianness) at `o`. */
  utf16zAt(o: number, field?: string, maxChars = 4096): string {
    let s = ''
    for (let i = 0; i < maxChars; i++) {
      const c = this.u16At(o + i * 2, field)
      if (c === 0) return s
      s += String.fromCharCode(c)
    }
    throw this.error(`${field ? `${field}: ` : ''}UTF-16 string at ${hex(this.base + o)} has no terminating NUL`, o)
  }

  // ---- cursor reads ---------------------------------------------------------------------
  u8(field?: string): number { const v = this.u8At(this.pos, field); this.pos += 1; return v }
  i8(field?: string): number { const v = this.i8At(this.pos, field); this.pos += 1; return v }
  u16(field?: string): number { const v = this.u16At(this.pos, field); this.pos += 2; return v }
  i16(field?: string): number { const v = this.i16At(this.pos, field); this.pos += 2; return v }
  u32(field?: string): number { const v = this.u32At(this.pos, field); this.pos += 4; return v }
  i32(field?: string): number { const v = this.i32At(this.pos, field); this.pos += 4; return v }
  f32(field?: string): number { const v = this.f32At(this.pos, field); this.pos += 4; return v }
  f64(field?: string): number { const v = this.f64At(this.pos, field); this.pos += 8; return v }
  u64(field?: string): bigint { const v = this.u64At(this.pos, field); this.pos += 8; return v }
  i64(field?: string): bigint { const v = this.i64At(this.pos, field); this.pos += 8; return v }
  bytesN(n: number, field?: string): Uint8Array { const v = this.bytesAt(this.pos, n, field); this.pos += n; return v }
  ascii(n: number, field?: string): string { const v = this.asciiAt(this.pos, n, field); this.pos += n; return v }

  /**
   * A reader over `[offset, offset+length)` of this one (zero-copy), reporting absolute file
   * offsets in its errors and carrying `structure` as its default structure name.
   */
  sub(offset: number, length: number, structure?: string, field?: string): Reader {
    this.check(offset, length, field ?? structure)
    return new Reader(this.bytes.subarray(offset, offset + length), {
      endian: this.endian,
      file: this.file,
      base: this.base + offset,
      structure: structure ?? this.structure,
    })
  }

  /** A reader positioned at `offset` over the same bytes (shares nothing mutable with this one). */
  at(offset: number, structure?: string): Reader {
    const r = new Reader(this.bytes, { endian: this.endian, file: this.file, base: this.base, structure: structure ?? this.structure })
    r.seek(offset, structure)
    return r
  }

  /** Checks an element count against the bytes that could hold it (stops absurd counts early). */
  count(n: number, elementSize: number, field: string, offset = this.pos): number {
    if (!Number.isInteger(n) || n < 0 || !Number.isInteger(offset) || offset < 0 || offset + n * elementSize > this.bytes.byteLength) {
      throw this.error(`${field}: count ${n} × ${elementSize} bytes at ${hex(this.base + offset)} does not fit in the ${hex(this.base + this.bytes.byteLength)}-byte file`, Number.isInteger(offset) && offset >= 0 ? offset : 0)
    }
    return n
  }
}
