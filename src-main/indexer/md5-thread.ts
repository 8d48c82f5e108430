/**
 * MD5 of a big file on a second thread while this one reads it and computes SHA-1, so indexing a
 * big image costs about the slower hash, not both (issue 15 item 3). MD5 is the slower of the two
 * here (~50 ms for 32 MiB against SHA-1's ~22 ms with the CPU's SHA instructions).
 *
 * `md5ThreadReady()` says whether to use it (see there).
 * The thread's code is a few lines of plain JavaScript given to the Worker as source (`eval`), so
 * it needs no file beside a bundle and no TypeScript loader. One thread serves the process (files
 * are hashed one after another), started on the first big file; it keeps the process alive only
 * while a digest is owed. Pieces are copies of the bytes read (transferred, not cloned); the file's
 * buffer itself stays on this thread for the detectors.
 */
import { Worker } from 'node:worker_threads'

const SOURCE = `
const { parentPort } = require('node:worker_threads')
const { createHash } = require('node:crypto')
let h = null
parentPort.postMessage({ type: 'ready' })
parentPort.on('message', (m) => {
  if (m.type === 'start') h = createHash('md5')
  else if (m.type === 'piece') h.update(new Uint8Array(m.buffer))
  else if (m.type === 'end') { parentPort.postMessage({ type: 'digest', hex: h.digest('hex') }); h = null }
})
`

let worker: Worker | null = null
let ready = false
let busy: Promise<void> = Promise.resolve()

function thread(): Worker {
  if (!worker) {
    const w = new Worker(SOURCE, { eval: true })
    w.on('message', (m: { type: string }) => m.type === 'ready' && (ready = true))
    w.unref() // after the listener, which refs it
    w.on('error', () => {
      worker = null
      ready = false
    })
    w.on('exit', () => {
      worker = null
      ready = false
    })
    worker = w
  }
  return worker
}

/** An MD5 computed on the second thread from pieces given in order. */
export interface ThreadedMd5 {
  update(piece: Uint8Array): void
  /** The digest; this (or `abandon`) must be called once, or the thread stays taken. */
  digest(): Promise<string>
  /** Gives the thread up when the read failed half-way. */
  abandon(): void
}

/**
 * True when the second thread has started and can take an MD5 now. Starting it takes tens of
 * milliseconds (a new V8 isolate), about what it saves on one 32 MiB file, so the first big file
 * of a run starts it and hashes on this thread; the files after it use it.
 */
export function md5ThreadReady(): boolean {
  if (!worker) thread()
  return ready
}

/** Starts an MD5 on the second thread (after the one before it has finished). */
export async function threadedMd5(): Promise<ThreadedMd5> {
  // take the next turn before waiting, so two callers at once queue instead of both starting
  const before = busy
  let release!: () => void
  busy = new Promise<void>((r) => (release = r))
  await before
  const w = thread()
  w.postMessage({ type: 'start' })
  let done!: (hex: string) => void
  let fail!: (e: Error) => void
  const result = new Promise<string>((resolve, reject) => {
    done = resolve
    fail = reject
  })
  const onMessage = (m: { type: string; hex: string }) => m.type === 'digest' && done(m.hex)
  const onError = (e: Error) => fail(new Error(`the MD5 thread failed: ${e.message}`))
  const onExit = (code: number) => fail(new Error(`the MD5 thread stopped (exit code ${code})`))
  w.on('message', onMessage)
  w.once('error', onError)
  w.once('exit', onExit)
  w.ref() // held while this digest is owed (a listener refs it anyway); let go when it is done
  const finished = result.finally(() => {
    w.off('message', onMessage)
    w.off('error', onError)
    w.off('exit', onExit)
    w.unref() // idle: never keeps the process alive
    release()
  })
  return {
    update(piece) {
      const copy = piece.slice()
      w.postMessage({ type: 'piece', buffer: copy.buffer }, [copy.buffer])
    },
    digest() {
      w.postMessage({ type: 'end' })
      return finished
    },
    abandon() {
      w.postMessage({ type: 'end' })
      finished.catch(() => undefined)
    },
  }
}
