/**
 * Set folders read ahead on a second thread (issue 26 item 3): while this thread parses one set and
 * writes its rows, the reader opens, reads and SHA-1-hashes the next ones, so on a cold disk the
 * reads overlap the work (and each other, a few sets deep) instead of waiting one file at a time.
 * Inside the thread the calls are synchronous: an asynchronous call per file costs a thread-pool
 * round trip each, 5–10× the read of a cached 30 KB member (measured, issue 26).
 *
 * Sets are asked for 8 at a time and answered in one message each (a message per set cost this
 * thread a dispatch each), 32 ahead; until the thread is up (a new isolate: ≈ 17 ms) the first
 * sets are read here rather than waited for.
 *
 * The reader only speeds things up: any trouble it meets (an error, a file over the size limit, a
 * thread that fails to start or dies) makes that set be read here by `readSetFiles`, which gives the
 * error its usual words. Its code is plain JavaScript given as source (`eval`), like md5-thread.ts,
 * so it needs no file beside a bundle and no TypeScript loader.
 */
import { Worker } from 'node:worker_threads'
import { readSetFiles, SOURCE_LIMITS, type SetBytes } from './read-source'

// A request names several sets and is answered in one message (one dispatch here for all of them:
// a message per set cost this thread ≈ 0.1 ms each, a third of a set's own work).
const SOURCE = `
const { parentPort } = require('node:worker_threads')
const fs = require('node:fs')
const path = require('node:path')
const { createHash } = require('node:crypto')
function readSet(dir, members, maxBytes, transfer) {
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
    return { failed: true }
  }
  transfer.push(...buffers)
  return { buffers, sha1: h.digest('hex'), stamp }
}
parentPort.on('message', ({ id, sets, maxBytes }) => {
  const transfer = []
  const results = sets.map((s) => readSet(s.dir, s.members, maxBytes, transfer))
  parentPort.postMessage({ id, results }, transfer)
})
`

interface SetReply {
  failed?: boolean
  buffers?: ArrayBuffer[]
  sha1?: string
  stamp?: SetBytes['stamp']
}

interface Reply {
  id: number
  results: SetReply[]
}

/** A set folder to read: its path and member file names. */
export interface SetToRead {
  dir: string
  members: string[]
}

/** Reads set folders on a second thread, in the order asked. */
export class SetReader {
  private worker: Worker | null
  private readonly waiting = new Map<number, { members: string[]; resolve: (r: SetBytes | null) => void }[]>()
  private nextId = 1
  /** True once the thread runs (a new isolate takes tens of ms to start; meanwhile sets are better read here). */
  online = false
  /** Settles when the thread is up (true) or could not start (false). */
  readonly started: Promise<boolean>
  private onStart: (up: boolean) => void = () => {}

  constructor() {
    this.started = new Promise((resolve) => (this.onStart = resolve))
    let w: Worker | null = null
    try {
      w = new Worker(SOURCE, { eval: true })
      w.on('online', () => {
        this.online = true
        this.onStart(true)
      })
      w.on('message', (m: Reply) => this.settle(m))
      // a thread that fails or stops leaves its sets to be read on the main thread
      w.on('error', () => this.stopped())
      w.on('exit', () => this.stopped())
    } catch {
      w = null
    }
    this.worker = w
    if (!w) this.onStart(false)
  }

  /** Starts reading a set folder; the promise gives its bytes (read on this thread if the reader could not). */
  read(dir: string, members: string[]): Promise<SetBytes> {
    return this.readMany([{ dir, members }])[0]!
  }

  /** Starts reading set folders, answered together; each promise gives its set's bytes (read here if the reader could not). */
  readMany(sets: SetToRead[]): Promise<SetBytes>[] {
    const w = this.worker
    if (!w) return sets.map((s) => Promise.resolve().then(() => readSetFiles(s.dir, s.members)))
    const id = this.nextId++
    const slots: { members: string[]; resolve: (r: SetBytes | null) => void }[] = []
    const got = sets.map((s) => new Promise<SetBytes | null>((resolve) => slots.push({ members: s.members, resolve })))
    this.waiting.set(id, slots)
    w.postMessage({ id, sets, maxBytes: SOURCE_LIMITS.maxBytes })
    return got.map((p, i) => p.then((r) => r ?? readSetFiles(sets[i]!.dir, sets[i]!.members)))
  }

  /** Stops the thread (what it still reads is read here, if anyone waits for it). */
  close(): Promise<void> {
    const w = this.worker
    this.stopped()
    return w ? w.terminate().then(() => undefined) : Promise.resolve()
  }

  private settle(m: Reply): void {
    const slots = this.waiting.get(m.id)
    if (!slots) return
    this.waiting.delete(m.id)
    slots.forEach((w, k) => {
      const r = m.results[k]
      if (!r || r.failed || !r.buffers || !r.sha1 || !r.stamp) return w.resolve(null)
      const files = new Map<string, Uint8Array>()
      w.members.forEach((name, i) => files.set(name, new Uint8Array(r.buffers![i]!)))
      w.resolve({ files, sha1: r.sha1, stamp: r.stamp })
    })
  }

  /** No more reads on the thread: what it owes is read here. */
  private stopped(): void {
    this.worker = null
    this.online = false
    this.onStart(false)
    for (const [id, slots] of this.waiting) {
      this.waiting.delete(id)
      for (const w of slots) w.resolve(null)
    }
  }
}

/** Below this many sets to read, the thread's start (a new V8 isolate, tens of ms) costs more than it saves. */
const MIN_SETS = 16
/**
 * How many sets are read ahead of the one being indexed (≈ 30 KB each): deep enough that a thread
 * descheduled for a while on a loaded machine is still ahead when this one comes to the set.
 */
const AHEAD = 32
/** How many sets one request names (one reply, one dispatch here). */
const GROUP = 8

/** Set folders read ahead of the indexing loop, by job number. */
export class SetReadAhead {
  private readonly reader: SetReader | null
  private readonly ahead = new Map<number, Promise<SetBytes>>()

  /** `sets[i]`: job i's set folder when it is to be read (null: not a set, or not read). */
  constructor(private readonly sets: (SetToRead | null)[]) {
    this.reader = sets.filter(Boolean).length >= MIN_SETS ? new SetReader() : null
  }

  /**
   * Job i's set bytes when they were read ahead (undefined: read them yourself); asks for the next
   * ones. Until the thread is up nothing is asked: the first sets are read here instead of waiting
   * for it to start.
   */
  take(i: number): Promise<SetBytes> | undefined {
    if (!this.reader) return undefined
    if (this.reader.online) this.askAhead(i)
    const p = this.ahead.get(i)
    this.ahead.delete(i)
    return p
  }

  /** The next position not yet asked for. */
  private asked = 0

  /** Asks for the sets up to AHEAD past job i, GROUP at a time. */
  private askAhead(i: number): void {
    if (!this.reader) return
    this.asked = Math.max(this.asked, i)
    const end = Math.min(this.sets.length, i + AHEAD)
    while (this.asked < end) {
      const jobs: number[] = []
      for (; this.asked < this.sets.length && jobs.length < GROUP; this.asked++) if (this.sets[this.asked]) jobs.push(this.asked)
      if (!jobs.length) break
      const got = this.reader.readMany(jobs.map((k) => this.sets[k]!))
      jobs.forEach((k, n) => {
        const p = got[n]!
        p.catch(() => undefined) // a read never taken (cancelled) must not reject unhandled
        this.ahead.set(k, p)
        this.sets[k] = null
      })
    }
  }

  /** Settles when the reading thread is up (true) or will not be (false: no thread, or it failed). */
  get started(): Promise<boolean> {
    return this.reader?.started ?? Promise.resolve(false)
  }

  close(): Promise<void> {
    this.ahead.clear()
    return this.reader?.close() ?? Promise.resolve()
  }
}
