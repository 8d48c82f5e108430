/**
 * Strings and name tables of GFL2 data (spec §4.2, §6.2; SPICA `GFHashName.cs`, `GFSection.cs`).
 * Names are ASCII; a NUL inside a counted string ends the text.
 */
import type { Reader } from '../../binary/reader'

function text(b: Uint8Array): string {
  const nul = b.indexOf(0)
  const t = nul < 0 ? b : b.subarray(0, nul)
  // one char per byte, as a loop of String.fromCharCode would give (the batch export reads thousands of names)
  let s = ''
  for (let i = 0; i < t.length; i += 4096) s += String.fromCharCode.apply(null, t.subarray(i, i + 4096) as unknown as number[])
  return s
}

/** `u8 n`, then n bytes. */
export function readByteString(r: Reader, field: string): string {
  const n = r.u8(`${field} length`)
  return text(r.bytesN(n, field))
}

/** `u32 n`, then n bytes (SPICA's writer rounds n up to 4). */
export function readIntString(r: Reader, field: string): string {
  const n = r.u32(`${field} length`)
  r.count(n, 1, field)
  return text(r.bytesN(n, field))
}

/** Short hash+name: `u32 hash`, byte-length string. */
export function readHashName(r: Reader, field: string): { hash: number; name: string } {
  const hash = r.u32(`${field} hash`)
  return { hash, name: readByteString(r, field) }
}

/** `u32 count`, then count × {u32 hash, char[0x40]} (spec §6.2). */
export function readNameTable(r: Reader, field: string): { hash: number; name: string }[] {
  const n = r.count(r.u32(`${field} count`), 0x44, field)
  const out: { hash: number; name: string }[] = []
  for (let i = 0; i < n; i++) {
    const hash = r.u32(`${field}[${i}] hash`)
    out.push({ hash, name: r.ascii(0x40, `${field}[${i}] name`) })
  }
  return out
}

/** A 16-byte GFSection header (spec §4.1): name, body length; checks the name and that the body fits. */
export function readSection(r: Reader, expect: string, structure: string): { name: string; length: number; bodyStart: number } {
  const at = r.pos
  const name = r.ascii(8, `${structure} section name`)
  const length = r.u32(`${structure} section length`)
  r.skip(4, `${structure} section padding`)
  if (name !== expect) throw r.error(`${structure}: section name is "${name}", expected "${expect}"`, at, structure)
  r.check(r.pos, length, `${structure} section body (${length} bytes)`)
  return { name, length, bodyStart: r.pos }
}

/** An f32 that must be finite (NaN or ±Infinity is an error at its offset). */
export function finiteF32(r: Reader, field: string): number {
  const at = r.pos
  const v = r.f32(field)
  if (!Number.isFinite(v)) throw r.error(`${field}: ${v} is not a finite number`, at)
  return v
}

/** f32 × n; finite unless `strict` is false (fields we only carry, such as bounding boxes). */
export function readFloats(r: Reader, n: number, field: string, strict = true): number[] {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push(strict ? finiteF32(r, field) : r.f32(field))
  return out
}
