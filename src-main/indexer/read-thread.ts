/**
 * Set folders read ahead on a second thread (issue 26 item 3): while this thread parses one set and
 * writes its rows, the reader opens, reads and SHA-1-hashes the next ones, so on a cold disk the
 * reads overlap the work (and each other, a few sets deep) instead of waiting one file at a time.
 * Inside the thread the calls are synchronous: an asynchronous call per file costs a thread-pool
 * round trip each, 5–10× the read of a cached 30 KB member (measured, issue 26).
 *
 * The reader only speeds things up: any trouble it meets (an error, a file over the size limit, a
 * thread that fails to start or dies) makes that set be read here by `readSetFiles`, which gives the
 * error its usual words. Its code is plain JavaScript given as source (`eval`), like md5-thread.ts,
 * so it needs no file beside a bundle and no TypeScript loader.
 */
import { Worker } from 'node:worker_threads'
import { readSetFiles, SOURCE_LIMITS, type SetBytes } from './read-source'

const SOURCE = `
const { parentPort } = require('node:worker_threads')
const fs = require('node:fs')
const path = require('node:path')
const { createHash } = require('node:crypto')
parentPort.on('message', ({ id, dir, members, maxBytes }) => {
  const stamp = { size: 0, mtime: 0, ino: 0 }
  const buffers = []
  const h = createHash('sha1')
  try {
    for (const m of members) {
      const fd = fs.openSync(path.join(dir, m), 'r')
      try {
        const st = fs.fstatSync(fd)
        if (!st.isFile() || st.size > maxBytes) throw new Error('read it on the main thread')
        const bytes = new Uint8Array(st.size)
        for (let pos = 0; pos < st.size; ) {
          const n = fs.readSync(fd, bytes, pos, st.size - pos, pos)
          if (n === 0) throw new Error('shrank')
          pos += n
        }
        stamp.size += st.size
        stamp.mtime = Math.max(stamp.mtime, st.mtimeMs)
        stamp.ino = (stamp.ino + st.ino) % 2 ** 48
        buffers.push(bytes.buffer)
        h.update(m).update('\\0').update(bytes)
      } finally {
        fs.closeSync(fd)
      }
    }
  } catch {
    parentPort.postMessage({ id, failed: true })
    return
  }
  parentPort.postMessage({ id, buffers, sha1: h.digest('hex'), stamp }, buffers)
})
`

interface Reply {
  id: number
  failed?: boolean
  buffers?: ArrayBuffer[]
  sha1?: string
  stamp?: SetBytes['stamp']
}

/** Reads set folders on a second thread, in the order asked. */
export class SetReader {
  private worker: Worker | null
  private readonly waiting = new Map<number, { dir: string; members: string[]; resolve: (r: SetBytes | null) => void }>()
  private nextId = 1

  constructor() {
    let w: Worker | null = null
    try {
      w = new Worker(SOURCE, { eval: true })
      w.on('message', (m: Reply) => this.settle(m))
      // a thread that fails or stops leaves its sets to be read on the main thread
      w.on('error', () => this.stopped())
      w.on('exit', () => this.stopped())
    } catch {
      w = null
    }
    this.worker = w
  }

  /** Starts reading a set folder; the promise gives its bytes (read on this thread if the reader could not). */
  read(dir: string, members: string[]): Promise<SetBytes> {
    if (!this.worker) return Promise.resolve().then(() => readSetFiles(dir, members))
    const id = this.nextId++
    const got = new Promise<SetBytes | null>((resolve) => this.waiting.set(id, { dir, members, resolve }))
    this.worker.postMessage({ id, dir, members, maxBytes: SOURCE_LIMITS.maxBytes })
    return got.then((r) => r ?? readSetFiles(dir, members))
  }

  /** Stops the thread (what it still reads is read here, if anyone waits for it). */
  close(): Promise<void> {
    const w = this.worker
    this.stopped()
    return w ? w.terminate().then(() => undefined) : Promise.resolve()
  }

  private settle(m: Reply): void {
    const w = this.waiting.get(m.id)
    if (!w) return
    this.waiting.delete(m.id)
    if (m.failed || !m.buffers || !m.sha1 || !m.stamp) return w.resolve(null)
    const files = new Map<string, Uint8Array>()
    w.members.forEach((name, i) => files.set(name, new Uint8Array(m.buffers![i]!)))
    w.resolve({ files, sha1: m.sha1, stamp: m.stamp })
  }

  /** No more reads on the thread: what it owes is read here. */
  private stopped(): void {
    this.worker = null
    for (const [id, w] of this.waiting) {
      this.waiting.delete(id)
      w.resolve(null)
    }
  }
}

/** Below this many sets to read, the thread's start (a new V8 isolate, tens of ms) costs more than it saves. */
const MIN_SETS = 16
/** How many sets are read ahead of the one being indexed. */
const AHEAD = 8

/** Set folders read ahead of the indexing loop, by job number. */
export class SetReadAhead {
  private readonly reader: SetReader | null
  private readonly ahead = new Map<number, Promise<SetBytes>>()

  /** `sets[i]`: job i's set folder when it is to be read (null: not a set, or not read). */
  constructor(private readonly sets: ({ dir: string; members: string[] } | null)[]) {
    this.reader = sets.filter(Boolean).length >= MIN_SETS ? new SetReader() : null
  }

  /** Job i's set bytes when they were read ahead (undefined: read them yourself); asks for the next ones. */
  take(i: number): Promise<SetBytes> | undefined {
    if (!this.reader) return undefined
    for (let k = i; k < Math.min(this.sets.length, i + AHEAD); k++) {
      const s = this.sets[k]
      if (!s || this.ahead.has(k)) continue
      const p = this.reader.read(s.dir, s.members)
      p.catch(() => undefined) // a read never taken (cancelled) must not reject unhandled
      this.ahead.set(k, p)
      this.sets[k] = null
    }
    const p = this.ahead.get(i)
    this.ahead.delete(i)
    return p
  }

  close(): Promise<void> {
    this.ahead.clear()
    return this.reader?.close() ?? Promise.resolve()
  }
}
