/**
 * What a game file opens to (a Snap ROM read and MD5-hashed, a Stadium ROM read sparsely), kept
 * for the life of the process (issue 26 item 1: a view opened again must not re-read and re-hash
 * a 16 MiB ROM). An entry is keyed by the file's absolute path and what it is opened as, and is
 * valid while the file's size, mtime and inode are those seen when it was opened (git's "stat
 * data"); a changed file is opened again. Two opens at once share one read. Memory is bounded:
 * least recently used entries are dropped past `maxBytes` (docs/DECISIONS.md "Process caches").
 */
import { promises as fsp } from 'node:fs'
import * as path from 'node:path'

interface Entry {
  stamp: string
  value: Promise<unknown>
  bytes: number
}

/** What an open gives the cache: the value and what it holds in memory, in bytes. */
export interface Opened<T> {
  value: T
  bytes: number
}

/** Size, mtime and inode of `file`, or '' when it cannot be stat'ed. */
async function statStamp(file: string): Promise<string> {
  const st = await fsp.stat(file).catch(() => null)
  return st ? `${st.size}:${st.mtimeMs}:${st.ino}` : ''
}

export class GameFileCache {
  private readonly entries = new Map<string, Entry>()

  constructor(readonly maxBytes: number) {}

  /**
   * The value of `file` opened as `kind`: the cached one while the file is unchanged, else
   * `open()`'s (whose failure is not kept: the next call tries again). A file that cannot be
   * stat'ed is left to `open` to report. `stampOf` replaces the file's stat for what is not one
   * file (a GF set: its members' stats); an empty stamp is never cached.
   */
  async get<T>(file: string, kind: string, open: () => Promise<Opened<T>>, stampOf: (file: string) => Promise<string> = statStamp): Promise<T> {
    const key = `${kind}\0${path.resolve(file)}`
    const stamp = await stampOf(file)
    const hit = this.entries.get(key)
    if (hit && stamp && hit.stamp === stamp) {
      this.entries.delete(key) // most recently used last
      this.entries.set(key, hit)
      return hit.value as Promise<T>
    }
    this.entries.delete(key)
    const entry: Entry = { stamp, value: Promise.resolve(), bytes: 0 }
    const value = open().then(
      (o) => {
        entry.bytes = o.bytes
        if (this.entries.get(key) === entry) this.trim(key)
        return o.value
      },
      (e: unknown) => {
        if (this.entries.get(key) === entry) this.entries.delete(key)
        throw e
      },
    )
    entry.value = value
    if (stamp) this.entries.set(key, entry)
    return value
  }

  /** Bytes held by the entries that have opened. */
  get heldBytes(): number {
    let n = 0
    for (const e of this.entries.values()) n += e.bytes
    return n
  }

  /** Drops least recently used entries until the rest fit; `keep` (just opened) goes only when it alone is too big. */
  private trim(keep: string): void {
    for (const [k, e] of this.entries) {
      if (this.heldBytes <= this.maxBytes) return
      if (k !== keep) this.entries.delete(k)
      else if (e.bytes > this.maxBytes) this.entries.delete(k)
    }
  }

  clear(): void {
    this.entries.clear()
  }
}

/**
 * The main process's cache: 160 MiB holds a Snap ROM (16 MiB), both Stadium ROMs (32 MiB each,
 * sparse: their untouched pages cost nothing) and room for more.
 */
export const gameFileCache = new GameFileCache(160 * 1024 * 1024)
