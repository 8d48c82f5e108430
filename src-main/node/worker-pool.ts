/**
 * A pool of worker threads running one worker script (src-main/node/worker-script.ts finds it,
 * built or from the sources): jobs are queued and handed to the workers, at most `depth` per
 * worker at a time (so a worker finds its next job waiting when it replies), each worker answering
 * its jobs in order with one message each. Workers start on demand up to `size` and are unref'd
 * while idle, so an idle pool never keeps the process alive.
 *
 * A worker that dies (an uncaught error, an exit) stops the pool: its running and queued jobs
 * reject with an error naming the worker; the next job starts a new pool. The work never silently
 * moves onto the main thread.
 */
import { Worker, type Transferable } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import { workerScript } from './worker-script'

interface Task<J, R> {
  job: J
  transfer: Transferable[]
  resolve(reply: R): void
  reject(e: Error): void
}

interface Running<J, R> {
  workers: Worker[]
  /** The jobs each worker holds, in the order it will answer them. */
  held: Map<Worker, Task<J, R>[]>
}

/** Threads for a pool over all cores (1 … 16). */
export function allCores(): number {
  return Math.max(1, Math.min(16, availableParallelism()))
}

export class WorkerPool<J, R> {
  private running: Running<J, R> | undefined
  private readonly queue: Task<J, R>[] = []

  /** `name`: the worker script (e.g. `export-worker`) beside the module at `callerUrl`. */
  constructor(
    private readonly name: string,
    private readonly callerUrl: string,
    readonly size = allCores(),
    private readonly depth = 2,
  ) {}

  /** Queues `job` (its `transfer` list moved to the worker); resolves with the worker's reply. */
  run(job: J, transfer: Transferable[] = []): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ job, transfer, resolve, reject })
      try {
        this.pump()
      } catch (e) {
        this.queue.splice(0).forEach((t) => t.reject(e as Error))
      }
    })
  }

  /** Drops the queued jobs for which `which` holds (they reject with `reason`); jobs a worker holds run on. */
  drop(which: (job: J) => boolean, reason: Error): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (which(this.queue[i]!.job)) this.queue.splice(i, 1)[0]!.reject(reason)
    }
  }

  /** Stops the threads (tests; a later job starts new ones). */
  async stop(): Promise<void> {
    const p = this.running
    this.running = undefined
    if (!p) return
    for (const w of p.workers) w.removeAllListeners()
    await Promise.all(p.workers.map((w) => w.terminate()))
  }

  /** Threads started so far. */
  get started(): number {
    return this.running?.workers.length ?? 0
  }

  private spawn(p: Running<J, R>): Worker {
    const script = workerScript(this.name, this.callerUrl)
    const w = new Worker(script.file, { workerData: script.workerData })
    w.on('message', (reply: R) => {
      p.held.get(w)?.shift()?.resolve(reply)
      this.pump()
    })
    w.on('error', (e) => this.fail(p, w, e.message))
    w.on('exit', (code) => this.fail(p, w, `exit code ${code}`))
    p.workers.push(w)
    p.held.set(w, [])
    return w
  }

  private pump(): void {
    const p = (this.running ??= { workers: [], held: new Map() })
    while (this.queue.length) {
      // the least loaded worker; a new one while all hold a job and the pool may grow
      let w = p.workers.reduce<Worker | undefined>((best, x) => (!best || p.held.get(x)!.length < p.held.get(best)!.length ? x : best), undefined)
      if (!w || (p.held.get(w)!.length > 0 && p.workers.length < this.size)) w = this.spawn(p)
      const held = p.held.get(w)!
      if (held.length >= this.depth) break
      const t = this.queue.shift()!
      held.push(t)
      w.postMessage(t.job, t.transfer)
    }
    for (const w of p.workers) {
      if (p.held.get(w)!.length) w.ref()
      else w.unref()
    }
  }

  private fail(p: Running<J, R>, w: Worker, reason: string): void {
    if (this.running !== p || !p.workers.includes(w)) return
    this.running = undefined
    for (const x of p.workers) {
      x.removeAllListeners()
      void x.terminate().catch(() => {})
    }
    const err = new Error(`the ${this.name} thread stopped (${reason}); the job was not done`)
    for (const t of [...[...p.held.values()].flat(), ...this.queue.splice(0)]) t.reject(err)
  }
}
