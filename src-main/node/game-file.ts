/**
 * The one way Node code reads a game file whole: a size guard before reading, and gzip-wrapped
 * files (our bundled samples are gzipped ROM images) inflated only after the gzip trailer's ISIZE
 * says the content fits the limit (a gzip bomb is refused before inflating). Used by the indexer
 * and by the Snap and Stadium domains; every failure is a FormatError naming the file, the
 * structure and the byte offset. `openGameFileRange` is the same guard for files read in pieces.
 * Domain code reads a user's game file only through these (tests/unit/layering/game-file-reads.test.ts).
 */
import * as fs from 'node:fs'
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

const IS_FOLDER = 'is a folder, not a file'
/** The `detail` of the FormatError for a game file that does not exist. */
export const FILE_NOT_FOUND = 'file not found'

/** Why a file could not be opened or read, in words (`file not found`, not `ENOENT: …`). */
function cannotRead(e: unknown): string {
  const err = e as NodeJS.ErrnoException
  return err.code === 'ENOENT' ? FILE_NOT_FOUND : err.code === 'EISDIR' ? IS_FOLDER : `cannot read the file: ${err.message}`
}

/** The bytes of a game file, guarded by `limits` (see the file comment). */
export async function readGameFile(file: string, limits: GameFileLimits): Promise<Uint8Array> {
  const name = limits.label === 'basename' ? path.basename(file) : file
  let size: number
  try {
    size = (await fsp.stat(file)).size
  } catch (e) {
    throw new FormatError(cannotRead(e), { file: name })
  }
  assertGameFileSize(name, size, limits)
  counted.reads++
  let raw: Uint8Array
  try {
    // A plain Uint8Array view of the Buffer readFile allocated for this file (not pooled), not a
    // copy: a 32 MiB ROM stays 32 MiB in memory.
    const b = await fsp.readFile(file)
    raw = new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
  } catch (e) {
    throw new FormatError(cannotRead(e), { file: name })
  }
  return unpackGameBytes(raw, name, limits)
}

/**
 * `readGameFile` synchronously, for a worker thread that reads its own inputs (the batch export's
 * pool: a thread-pool round trip per call cost more than the read): one open, the size guard on
 * the open file (`openGameFileRange`: a folder or a file over the limit is refused), one read into
 * a buffer of its own, the same errors.
 */
export function readGameFileSync(file: string, limits: GameFileLimits): Uint8Array {
  const range = openGameFileRange(file, limits)
  let raw: Uint8Array
  try {
    raw = range.read(0, range.size)
  } catch (e) {
    throw new FormatError(cannotRead(e), { file: range.name })
  } finally {
    range.close()
  }
  return unpackGameBytes(raw, range.name, limits)
}

/**
 * A game file open for reads in pieces (a GARC archive read entry by entry, a Stadium ROM read
 * sparsely): the same size guard as `readGameFile` before anything is read, errors naming the
 * file. Gzip is not inflated here (a gzip file cannot be read in pieces): callers that accept
 * gzip samples test `isGzip` on the first bytes and read those files whole with `readGameFile`.
 */
export interface GameFileRange {
  /** The file as errors name it (`limits.label`). */
  readonly name: string
  readonly size: number
  readonly mtimeMs: number
  readonly ino: number
  /** Reads up to `length` bytes at `pos` into `dest` at `at`, synchronously (many small pieces cost no thread-pool round trip each); the count read, 0 at the end. */
  readInto(dest: Uint8Array, at: number, length: number, pos: number): number
  /** The same on the thread pool, for big pieces the caller overlaps with other work. */
  readIntoAsync(dest: Uint8Array, at: number, length: number, pos: number): Promise<number>
  /** `length` bytes at `pos` (fewer at the end of the file). */
  read(pos: number, length: number): Uint8Array
  close(): void
}

/** Opens a game file for ranged reads (see `GameFileRange`); a folder or a file over `limits.maxBytes` is refused. */
export function openGameFileRange(file: string, limits: GameFileLimits): GameFileRange {
  const name = limits.label === 'basename' ? path.basename(file) : file
  let fd: number
  try {
    fd = fs.openSync(file, 'r')
  } catch (e) {
    throw new FormatError(cannotRead(e), { file: name })
  }
  try {
    const st = fs.fstatSync(fd)
    if (!st.isFile()) throw new FormatError(st.isDirectory() ? IS_FOLDER : 'is not a file', { file: name })
    assertGameFileSize(name, st.size, limits)
    counted.reads++
    return rangeOn(fd, name, st)
  } catch (e) {
    fs.closeSync(fd)
    throw e
  }
}

function rangeOn(fd: number, name: string, st: fs.Stats): GameFileRange {
  const readInto = (dest: Uint8Array, at: number, length: number, pos: number) => fs.readSync(fd, dest, at, length, pos)
  return {
    name,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ino: st.ino,
    readInto,
    readIntoAsync: (dest, at, length, pos) => new Promise((resolve, reject) => fs.read(fd, dest, at, length, pos, (e, n) => (e ? reject(e) : resolve(n)))),
    read(pos, length) {
      const buf = new Uint8Array(Math.max(0, Math.min(length, st.size - pos)))
      let got = 0
      while (got < buf.length) {
        const n = readInto(buf, got, buf.length - got, pos + got)
        if (n === 0) break
        got += n
      }
      return got === buf.length ? buf : buf.subarray(0, got)
    },
    close: () => fs.closeSync(fd),
  }
}

const counted = { reads: 0 }

/**
 * How many game files were opened for reading (whole or ranged) in this process so far: what a
 * test of a cache compares before and after (a hit reads nothing).
 */
export function gameFileReads(): number {
  return counted.reads
}
