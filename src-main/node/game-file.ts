/**
 * The one way Node code reads a game file whole: a size guard before reading, and gzip-wrapped
 * files (our bundled samples are gzipped ROM images) inflated only after the gzip trailer's ISIZE
 * says the content fits the limit (a gzip bomb is refused before inflating). Used by the indexer
 * and by the Snap and Stadium domains; every failure is a FormatError naming the file, the
 * structure and the byte offset.
 */
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { gunzipSync } from 'fflate'
import { FormatError } from '../../src-shared/binary'

export interface GameFileLimits {
  /** Largest file read, in bytes: a larger one is refused before reading. */
  maxBytes: number
  /** Largest gzip content (ISIZE), in bytes: a larger one is refused before inflating. Default `maxBytes`. */
  maxUnpacked?: number
  /** What the limit is for, in messages: "larger than any N64 image …". Default "the limit". */
  noun?: string
  /** A note on the real sizes, in messages: "at most 64 MiB". */
  note?: string
  /** When the content is gzip: whenever the bytes start with the gzip magic (default), or only when the name also ends `.gz`. */
  gzip?: 'magic' | 'name'
  /** How the file is named in errors: its path as given (default) or its base name. */
  label?: 'path' | 'basename'
}

/** The gzip magic (RFC 1952 §2.3.1: ID1 0x1F, ID2 0x8B). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
}

/** ISIZE: the trailer's last 4 bytes, little endian, the content size mod 2^32 (RFC 1952 §2.3.1); 0 when there is no trailer. */
export function gzipIsize(raw: Uint8Array): number {
  return raw.length >= 18 ? new DataView(raw.buffer, raw.byteOffset + raw.length - 4, 4).getUint32(0, true) : 0
}

/**
 * Inflates `raw` when it is gzip (per `limits.gzip`), refusing a member whose ISIZE is over
 * `maxUnpacked` before inflating; other bytes are returned as they are.
 */
export function unpackGameBytes(raw: Uint8Array, name: string, limits: GameFileLimits): Uint8Array {
  if (!isGzip(raw) || (limits.gzip === 'name' && !name.toLowerCase().endsWith('.gz'))) return raw
  const max = limits.maxUnpacked ?? limits.maxBytes
  const isize = gzipIsize(raw)
  const what = limits.noun ? ` for ${limits.noun}` : ''
  if (isize > max) throw new FormatError(`gzip member unpacks to ${isize} bytes, more than the ${max}-byte limit${what}`, { file: name, structure: 'gzip trailer ISIZE', offset: raw.length - 4 })
  try {
    return gunzipSync(raw)
  } catch (e) {
    throw new FormatError(`gzip data is corrupt: ${(e as Error).message}`, { file: name, structure: 'gzip member', offset: 0 })
  }
}

/** Refuses a file of `size` bytes larger than `limits.maxBytes`, before anything is read. */
export function assertGameFileSize(name: string, size: number, limits: GameFileLimits): void {
  if (size <= limits.maxBytes) return
  const any = limits.noun ? ` than any ${limits.noun.replace(/^an? /, '')}` : ' than the limit'
  throw new FormatError(`${size} bytes is larger${any} (${limits.note ? `${limits.note}; ` : ''}limit ${limits.maxBytes})`, { file: name, offset: limits.maxBytes })
}

/** The bytes of a game file, guarded by `limits` (see the file comment). */
export async function readGameFile(file: string, limits: GameFileLimits): Promise<Uint8Array> {
  const name = limits.label === 'basename' ? path.basename(file) : file
  let size: number
  try {
    size = (await fsp.stat(file)).size
  } catch (e) {
    throw new FormatError(`cannot read the file: ${(e as Error).message}`, { file: name })
  }
  assertGameFileSize(name, size, limits)
  let raw: Uint8Array
  try {
    // A plain Uint8Array view of the Buffer readFile allocated for this file (not pooled), not a
    // copy: a 32 MiB ROM stays 32 MiB in memory.
    const b = await fsp.readFile(file)
    raw = new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
  } catch (e) {
    throw new FormatError(`cannot read the file: ${(e as Error).message}`, { file: name })
  }
  return unpackGameBytes(raw, name, limits)
}
