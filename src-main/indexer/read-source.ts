import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'
import { Gunzip } from 'fflate'
import { assertGameFileSize, readGameFile, type GameFileLimits } from '../node/game-file'
import { md5ThreadReady, threadedMd5 } from './md5-thread'

const HEAD_BYTES = 64 * 1024
/** Any source file read whole: at most 256 MiB on disk or unpacked (the largest N64 image is 64 MiB). */
export const SOURCE_LIMITS: GameFileLimits = { maxBytes: 256 * 1024 * 1024, gzip: 'name' }

/** What one pass over a file gives: its bytes and both content hashes. */
export interface HashedBytes {
  bytes: Uint8Array
  sha1: string
  md5: string
}

const CHUNK = 1024 * 1024
/**
 * From this size on, the next piece is read on the thread pool while this one is hashed, and MD5
 * runs on a second thread (`md5-thread.ts`), so a big image costs about its SHA-1 rather than
 * reading plus both hashes (issue 15 item 3: one 32 MiB image within 2× of reading and SHA-1-ing
 * it). Smaller files are read and hashed here synchronously: a round trip to another thread
 * costs them more than it saves.
 */
const READ_AHEAD_BYTES = 8 * 1024 * 1024
const READ_AHEAD_PIECE = 2 * 1024 * 1024

/** Reads `bytes` from `pos` to its end, the next piece on the thread pool while `use` takes this one. */
async function readAhead(fd: number, file: string, bytes: Uint8Array, pos: number, use: (piece: Uint8Array) => void): Promise<void> {
  const size = bytes.length
  let next = pos < size ? readAt(fd, bytes, pos, Math.min(READ_AHEAD_PIECE, size - pos)) : null
  while (next) {
    const n = await next
    if (n === 0) throw new Error(`${file}: the file shrank while being read (${pos} of ${size} bytes)`)
    const piece = bytes.subarray(pos, pos + n)
    pos += n
    next = pos < size ? readAt(fd, bytes, pos, Math.min(READ_AHEAD_PIECE, size - pos)) : null
    use(piece)
  }
}

/** `fs.read` of `length` bytes at `pos` into `bytes` (the same offset), as a promise of the count read. */
function readAt(fd: number, bytes: Uint8Array, pos: number, length: number): Promise<number> {
  return new Promise((resolve, reject) => fs.read(fd, bytes, pos, length, pos, (e, n) => (e ? reject(e) : resolve(n))))
}

/**
 * Reads a whole file once, feeding SHA-1 and MD5 the same chunk while it is still in cache.
 * `head`, the first bytes already read for detection (with the size and mtime seen then), is
 * not read again unless the file changed since.
 */
export async function readHashed(file: string, head?: { bytes: Uint8Array; size: number; mtimeMs: number }): Promise<HashedBytes & { size: number; mtimeMs: number; ino: number }> {
  // Synchronous calls: each async one is a thread-pool round trip, most of a small file's cost.
  const fd = fs.openSync(file, 'r')
  try {
    const st = fs.fstatSync(fd)
    assertGameFileSize(file, st.size, SOURCE_LIMITS)
    const bytes = new Uint8Array(st.size)
    const sha1 = createHash('sha1')
    const md5 = createHash('md5')
    let pos = 0
    if (head && head.size === st.size && head.mtimeMs === st.mtimeMs && head.bytes.length <= st.size) {
      bytes.set(head.bytes, 0)
      sha1.update(head.bytes)
      md5.update(head.bytes)
      pos = head.bytes.length
    }
    if (st.size >= READ_AHEAD_BYTES && md5ThreadReady()) {
      // the big-file path: MD5 on the second thread, the next piece read on the thread pool
      const md5t = await threadedMd5()
      try {
        md5t.update(bytes.subarray(0, pos))
        await readAhead(fd, file, bytes, pos, (chunk) => {
          md5t.update(chunk)
          sha1.update(chunk)
        })
      } catch (e) {
        md5t.abandon()
        throw e
      }
      return { bytes, sha1: sha1.digest('hex'), md5: await md5t.digest(), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino }
    }
    if (st.size >= READ_AHEAD_BYTES) {
      // the first big file of a run (the MD5 thread is starting): both hashes here, reading ahead
      await readAhead(fd, file, bytes, pos, (chunk) => {
        sha1.update(chunk)
        md5.update(chunk)
      })
      pos = st.size
    }
    while (pos < st.size) {
      const bytesRead = fs.readSync(fd, bytes, pos, Math.min(CHUNK, st.size - pos), pos)
      if (bytesRead === 0) throw new Error(`${file}: the file shrank while being read (${pos} of ${st.size} bytes)`)
      const chunk = bytes.subarray(pos, pos + bytesRead)
      sha1.update(chunk)
      md5.update(chunk)
      pos += bytesRead
    }
    return { bytes, sha1: sha1.digest('hex'), md5: md5.digest('hex'), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino }
  } finally {
    fs.closeSync(fd)
  }
}

/** Both hashes of bytes already in memory (an unpacked `.gz` sample). */
export function hashBytes(bytes: Uint8Array): { sha1: string; md5: string } {
  return { sha1: createHash('sha1').update(bytes).digest('hex'), md5: createHash('md5').update(bytes).digest('hex') }
}

/** What an unchanged re-index compares, like git's index: size, mtime and inode. */
export interface FileStamp {
  size: number
  mtime: number
  ino: number
}

/**
 * True when a source recorded with `prev` can be taken as unchanged from its stamp alone. A file
 * modified within 2 s before it was indexed is "racily clean" (git's term: a later write in the
 * same timestamp tick would not show) and is read again.
 */
export function stampUnchanged(prev: FileStamp & { status: string; indexedAt: number }, now: FileStamp): boolean {
  return prev.status === 'indexed' && prev.size === now.size && prev.mtime === now.mtime && prev.ino === now.ino && now.mtime < prev.indexedAt - 2000
}

/** The first bytes of a file (up to 64 KiB, at most `size`), for detection. */
export async function readHead(file: string, size = HEAD_BYTES): Promise<Uint8Array> {
  // Synchronous: an async open/read/close is three thread-pool round trips per small file.
  const fd = fs.openSync(file, 'r')
  try {
    const buf = new Uint8Array(Math.max(0, Math.min(HEAD_BYTES, size)))
    const bytesRead = fs.readSync(fd, buf, 0, buf.length, 0)
    return buf.subarray(0, bytesRead)
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * The first HEAD_BYTES of a gzip file's unpacked content, unpacking no more than that (a large
 * unrelated `.tar.gz` in a walked folder costs one small read, not a full inflate).
 */
export async function gzipHead(file: string): Promise<Uint8Array> {
  const out = new Uint8Array(HEAD_BYTES)
  let have = 0
  const gz = new Gunzip((chunk) => {
    const n = Math.min(chunk.length, HEAD_BYTES - have)
    out.set(chunk.subarray(0, n), have)
    have += n
  })
  const fh = await fsp.open(file, 'r')
  try {
    const size = (await fh.stat()).size
    const buf = new Uint8Array(64 * 1024)
    // Bounded: at most 16 MiB of compressed input is read to fill the head.
    for (let pos = 0; have < HEAD_BYTES && pos < 16 * 1024 * 1024; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos)
      if (bytesRead === 0) break
      pos += bytesRead
      try {
        // The last chunk is pushed as final, so a small file's tail is flushed too.
        gz.push(buf.slice(0, bytesRead), pos >= size)
      } catch (e) {
        throw new Error(`${file}: not a readable gzip file (${(e as Error).message})`)
      }
    }
  } finally {
    await fh.close()
  }
  return out.subarray(0, have)
}

/** gzip-compressed inputs (our bundled samples) are detected and read by their inner name. */
export function isGzip(head: Uint8Array, name: string): boolean {
  return name.endsWith('.gz') && head[0] === 0x1f && head[1] === 0x8b
}

/** The bytes of a source file as the detectors saw them (gzip-compressed samples unpacked, ISIZE-guarded). */
export function loadBytes(file: string): Promise<Uint8Array> {
  return readGameFile(file, SOURCE_LIMITS)
}

/** Adds one member's stat to a set folder's stamp (total size, newest mtime, sum of inodes). */
function addToStamp(stamp: FileStamp, st: fs.Stats): void {
  stamp.size += st.size
  stamp.mtime = Math.max(stamp.mtime, st.mtimeMs)
  stamp.ino = (stamp.ino + st.ino) % 2 ** 48
}

/**
 * A set folder's stamp (total size, newest mtime, sum of inodes) from its members' stats.
 * Synchronous: a stat of a cached inode costs a few microseconds, an asynchronous one a thread-pool
 * round trip each (issue 26: nine in a row per set made the unchanged re-index wait, not work).
 */
export function folderStamp(abs: string, members: string[]): FileStamp {
  const stamp = { size: 0, mtime: 0, ino: 0 }
  for (const m of members) addToStamp(stamp, fs.statSync(path.join(abs, m)))
  return stamp
}

/** A set folder's member files read whole, their SHA-1 (over `name \0 bytes` of each, in order) and stamp. */
export interface SetBytes {
  files: Map<string, Uint8Array>
  sha1: string
  stamp: FileStamp
}

/**
 * Reads a set folder's members, each in one open/fstat/read/close (the stamp from the same fstat,
 * so it matches the bytes), synchronously: see `folderStamp`.
 */
export function readSetFiles(abs: string, members: string[]): SetBytes {
  const stamp = { size: 0, mtime: 0, ino: 0 }
  const files = new Map<string, Uint8Array>()
  const h = createHash('sha1')
  for (const m of members) {
    const file = path.join(abs, m)
    const fd = fs.openSync(file, 'r')
    try {
      const st = fs.fstatSync(fd)
      if (!st.isFile()) throw new Error(`${file}: not a regular file`)
      assertGameFileSize(file, st.size, SOURCE_LIMITS)
      const bytes = new Uint8Array(st.size)
      for (let pos = 0; pos < st.size; ) {
        const n = fs.readSync(fd, bytes, pos, st.size - pos, pos)
        if (n === 0) throw new Error(`${file}: the file shrank while being read (${pos} of ${st.size} bytes)`)
        pos += n
      }
      addToStamp(stamp, st)
      files.set(m, bytes)
      h.update(m).update('\0').update(bytes)
    } finally {
      fs.closeSync(fd)
    }
  }
  return { files, sha1: h.digest('hex'), stamp }
}

/** A path's stat (following links), or null when it cannot be stat'd (a dangling link). */
export function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p)
  } catch {
    return null
  }
}
