import { createHash } from 'node:crypto'
import * as fs from 'node:fs'

/** What one pass over a file gives: its bytes and both content hashes. */
export interface HashedBytes {
  bytes: Uint8Array
  sha1: string
  md5: string
}

const CHUNK = 1024 * 1024

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
