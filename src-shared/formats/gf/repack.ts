/**
 * Byte-exact package writer (spec §2.3) and its verification.
 *
 * Same-length changes (a texture replaced with the same size and format) overwrite only the
 * changed byte ranges of a copy of the original file. A change of length relays the package out:
 * the header bytes [0, off[0]) are kept (only the offset words change), every untouched entry is
 * copied whole (with its own padding), changed entries are padded to the package's alignment.
 */
import { FormatError, hex } from '../../binary/errors'
import { Writer } from '../../binary/writer'
import { parsePackage, writePackageOffsets, type GfPackage } from './package'
import { GF_TEXTURE_HEADER_SIZE, gfTextureDataLength } from './texture'

export interface RepackOptions {
  /** Fill byte for padding a changed entry (default: inferred from texture padding, else 0). */
  fill?: number
  /** Alignment for the relayout path (default: inferred from the original offsets). */
  alignment?: number
  file?: string
}

/** Largest power of two ≤ 0x80 dividing every non-empty entry start (spec §2.3 rule 2; 0x80 if none). */
export function inferAlignment(pkg: GfPackage): number {
  let a = 0x80
  for (const e of pkg.entries) {
    if (e.length === 0) continue
    while (a > 1 && e.offset % a) a >>= 1
  }
  return a
}

/**
 * The padding byte of the package (spec §2.3 rule 2): the value found after the pixels of its
 * GFTexture entries (bytes after 0x80 + TextureLength up to the entry end) when they agree,
 * otherwise 0.
 */
export function inferFill(bytes: Uint8Array, pkg: GfPackage): number {
  let fill: number | null = null
  for (const e of pkg.entries) {
    const dataLength = gfTextureDataLength(bytes.subarray(e.offset, e.offset + e.length))
    if (dataLength === null) continue
    const end = GF_TEXTURE_HEADER_SIZE + dataLength
    for (let i = end; i < e.length; i++) {
      const b = bytes[e.offset + i]!
      if (fill === null) fill = b
      else if (fill !== b) return 0
    }
  }
  return fill ?? 0
}

/** Writes the package with `changes` (entry index → new entry bytes). No change → a copy of the input. */
export function repackPackage(original: Uint8Array, pkg: GfPackage, changes: ReadonlyMap<number, Uint8Array>, opts: RepackOptions = {}): Uint8Array {
  for (const i of changes.keys()) {
    if (!pkg.entries[i]) throw new RangeError(`${opts.file ?? 'package'}: no entry ${i} to replace (it has ${pkg.entries.length})`)
  }
  const sameLength = [...changes].every(([i, b]) => b.byteLength === pkg.entries[i]!.length)
  if (sameLength) {
    const out = original.slice()
    for (const [i, b] of changes) out.set(b, pkg.entries[i]!.offset)
    return out
  }
  const A = opts.alignment ?? inferAlignment(pkg)
  const fill = opts.fill ?? inferFill(original, pkg)
  const n = pkg.entries.length
  const headerLen = pkg.offsets[0]!
  const parts: Uint8Array[] = []
  const newOff: number[] = []
  let cursor = headerLen
  for (let i = 0; i < n; i++) {
    newOff.push(cursor)
    const e = pkg.entries[i]!
    const changed = changes.get(i)
    if (!changed) {
      parts.push(original.subarray(e.offset, e.offset + e.length))
      cursor += e.length
    } else {
      const padded = changed.byteLength === 0 ? 0 : Math.ceil(changed.byteLength / A) * A
      const buf = new Uint8Array(padded).fill(fill)
      buf.set(changed)
      parts.push(buf)
      cursor += padded
    }
  }
  newOff.push(cursor)
  const tail = original.subarray(pkg.offsets[n]!)
  const w = new Writer({ capacity: cursor + tail.byteLength })
  w.bytes(original.subarray(0, headerLen))
  for (const p of parts) w.bytes(p)
  w.bytes(tail)
  writePackageOffsets(w, newOff)
  return w.finish()
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Re-parses a written package and checks it against the original: same magic and count, every
 * untouched entry byte-identical, every changed entry starting with its new bytes, header bytes
 * outside the offset table unchanged. Throws FormatError naming the first difference.
 */
export function verifyRepack(original: Uint8Array, pkg: GfPackage, written: Uint8Array, changes: ReadonlyMap<number, Uint8Array>, file = 'package'): void {
  const out = parsePackage(written, { file, structure: 'Package (written)' })
  const fail = (detail: string, offset: number) => new FormatError(`repack verification failed: ${detail}`, { file, structure: 'Package (written)', offset })
  if (out.magic !== pkg.magic) throw fail(`magic ${out.magic} ≠ ${pkg.magic}`, 0)
  if (out.entries.length !== pkg.entries.length) throw fail(`${out.entries.length} entries, the original has ${pkg.entries.length}`, 2)
  const tableEnd = 4 + 4 * (pkg.entries.length + 1)
  for (let i = tableEnd; i < pkg.offsets[0]!; i++) {
    if (written[i] !== original[i]) throw fail(`header byte at ${hex(i)} changed`, i)
  }
  for (const e of pkg.entries) {
    const w = out.entries[e.index]!
    const now = written.subarray(w.offset, w.offset + w.length)
    const changed = changes.get(e.index)
    if (changed) {
      if (w.length < changed.byteLength || !equalBytes(now.subarray(0, changed.byteLength), changed)) throw fail(`entry ${e.index} does not hold its new bytes`, w.offset)
    } else if (!equalBytes(now, original.subarray(e.offset, e.offset + e.length))) {
      throw fail(`untouched entry ${e.index} differs from the original`, w.offset)
    }
  }
  if (!equalBytes(written.subarray(out.offsets[out.entries.length]!), original.subarray(pkg.offsets[pkg.entries.length]!))) {
    throw fail('trailing bytes differ', out.offsets[out.entries.length]!)
  }
}
