import type { Endian } from './reader'

/** `v` as an integer that fits `bits` bits read as signed or unsigned; anything else throws. */
function int(v: number, bits: 8 | 16 | 32): number {
  if (!Number.isInteger(v) || v < -(2 ** (bits - 1)) || v > 2 ** bits - 1) throw new RangeError(`Writer: ${v} does not fit in ${bits} bits`)
  return v
}

/** `v` as a 64-bit value (signed or unsigned range); anything wider throws. */
function big(v: bigint): bigint {
  if (typeof v !== 'bigint' || v < -(1n << 63n) || v > (1n << 64n) - 1n) throw new RangeError(`Writer: ${String(v)} does not fit in 64 bits`)
  return v
}

/** An absolute offset: a whole number ≥ 0. */
function at(offset: number): number {
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`Writer: bad offset ${offset}`)
  return offset
}

/** A place reserved in the output, to be filled in later (reserve → write → patch). */
export interface Reservation {
  offset: number
  size: 1 | 2 | 4 | 8
  name: string
}

/**
 * A growable little/big-endian byte writer. Offsets that are only known later are reserved
 * with `reserveU32('name')` and patched with `patchU32(res, value)`; `finish()` fails if any
 * reservation was never patched, so a half-written structure cannot slip out.
 */
export class Writer {
  private buf: Uint8Array
  private view: DataView
  private len = 0
  private open = new Map<number, Reservation>()
  pos = 0
  little: boolean

  constructor(opts: { endian?: Endian; capacity?: number } = {}) {
    this.little = (opts.endian ?? 'little') === 'little'
    this.buf = new Uint8Array(opts.capacity ?? 1024)
    this.view = new DataView(this.buf.buffer)
  }

  get length(): number {
    return this.len
  }

  private ensure(end: number): void {
    if (end > this.buf.byteLength) {
      let cap = this.buf.byteLength * 2
      while (cap < end) cap *= 2
      const next = new Uint8Array(cap)
      next.set(this.buf.subarray(0, this.len))
      this.buf = next
      this.view = new DataView(next.buffer)
    }
    if (end > this.len) this.len = end
  }

  private advance(n: number): number {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`Writer: cannot write ${n} bytes`)
    const at = this.pos
    this.ensure(at + n)
    this.pos += n
    return at
  }

  seek(offset: number): this {
    if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`Writer.seek(${offset})`)
    this.ensure(offset)
    this.pos = offset
    return this
  }

  // Integer writes take the value as either signed or unsigned (u16(-1) writes FFFF), but never
  // silently wrap or truncate: NaN, fractions and out-of-range values throw a RangeError.
  u8(v: number): this { const x = int(v, 8); const at = this.advance(1); this.view.setUint8(at, x); return this }
  i8(v: number): this { const x = int(v, 8); const at = this.advance(1); this.view.setInt8(at, x); return this }
  u16(v: number): this { const x = int(v, 16); const at = this.advance(2); this.view.setUint16(at, x, this.little); return this }
  i16(v: number): this { const x = int(v, 16); const at = this.advance(2); this.view.setInt16(at, x, this.little); return this }
  u32(v: number): this { const x = int(v, 32) >>> 0; const at = this.advance(4); this.view.setUint32(at, x, this.little); return this }
  i32(v: number): this { const x = int(v, 32); const at = this.advance(4); this.view.setInt32(at, x, this.little); return this }
  f32(v: number): this { const at = this.advance(4); this.view.setFloat32(at, v, this.little); return this }
  f64(v: number): this { const at = this.advance(8); this.view.setFloat64(at, v, this.little); return this }
  u64(v: bigint): this { const x = big(v); const at = this.advance(8); this.view.setBigUint64(at, x, this.little); return this }
  i64(v: bigint): this { const x = big(v); const at = this.advance(8); this.view.setBigInt64(at, x, this.little); return this }

  bytes(b: Uint8Array): this {
    const at = this.advance(b.byteLength)
    this.buf.set(b, at)
    return this
  }

  zeros(n: number): this {
    const at = this.advance(n)
    this.buf.fill(0, at, at + n)
    return this
  }

  /** Fixed-length ASCII, NUL padded (or truncated) to `n` bytes. */
  ascii(s: string, n?: number): this {
    const len = n ?? s.length
    for (let i = 0; i < len; i++) this.u8(i < s.length ? s.charCodeAt(i) & 0xff : 0)
    return this
  }

  /** Pads with `fill` up to the next multiple of `n`. */
  align(n: number, fill = 0): this {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`Writer.align(${n}): needs a whole number ≥ 1`)
    while (this.pos % n !== 0) this.u8(fill)
    return this
  }

  reserve(name: string, size: Reservation['size']): Reservation {
    const r: Reservation = { offset: this.pos, size, name }
    this.zeros(size)
    this.open.set(r.offset, r)
    return r
  }

  reserveU32(name: string): Reservation { return this.reserve(name, 4) }
  reserveU16(name: string): Reservation { return this.reserve(name, 2) }
  reserveU64(name: string): Reservation { return this.reserve(name, 8) }

  private take(r: Reservation, size: number): void {
    if (r.size !== size) throw new Error(`Writer: ${r.name} was reserved as ${r.size} bytes, patched as ${size}`)
    this.open.delete(r.offset)
  }

  patchU16(r: Reservation, v: number): this { const x = int(v, 16); this.take(r, 2); this.view.setUint16(r.offset, x, this.little); return this }
  patchU32(r: Reservation, v: number): this { const x = int(v, 32) >>> 0; this.take(r, 4); this.view.setUint32(r.offset, x, this.little); return this }
  patchU64(r: Reservation, v: bigint): this { const x = big(v); this.take(r, 8); this.view.setBigUint64(r.offset, x, this.little); return this }
  /** Patches a reservation with the current position (the usual "offset of what comes next"). */
  patchHere(r: Reservation): this {
    return r.size === 8 ? this.patchU64(r, BigInt(this.pos)) : r.size === 2 ? this.patchU16(r, this.pos) : this.patchU32(r, this.pos)
  }

  /** Raw overwrite at an absolute offset (no reservation). */
  setU32At(offset: number, v: number): this { this.ensure(at(offset) + 4); this.view.setUint32(offset, int(v, 32) >>> 0, this.little); return this }
  setU16At(offset: number, v: number): this { this.ensure(at(offset) + 2); this.view.setUint16(offset, int(v, 16), this.little); return this }
  setU8At(offset: number, v: number): this { this.ensure(at(offset) + 1); this.view.setUint8(offset, int(v, 8)); return this }

  /** The written bytes (a copy). Throws if a reservation was never patched. */
  finish(): Uint8Array {
    if (this.open.size) {
      const names = [...this.open.values()].map((r) => `${r.name}@0x${r.offset.toString(16)}`)
      throw new Error(`Writer: unpatched reservations: ${names.join(', ')}`)
    }
    return this.buf.slice(0, this.len)
  }
}
