import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
import { WorkerPool } from '../../../../src-main/node/worker-pool'

type Job = { id: number; n: number; crash?: boolean; ms?: number }
type Reply = { id: number; twice: number; thread: number }

let tmp: string
let caller: string
const pools: WorkerPool<Job, Reply>[] = []
const pool = (size: number) => {
  const p = new WorkerPool<Job, Reply>('test-worker', caller, size)
  pools.push(p)
  return p
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'mb-worker-pool-'))
  // a built worker (plain JavaScript beside the calling module): doubles n, after ms milliseconds; a crash job ends the thread
  writeFileSync(
    path.join(tmp, 'test-worker.mjs'),
    `import { parentPort, threadId } from 'node:worker_threads'
let chain = Promise.resolve()
parentPort.on('message', (job) => { chain = chain.then(async () => {
  if (job.crash) process.exit(3)
  await new Promise((r) => setTimeout(r, job.ms ?? 0))
  parentPort.postMessage({ id: job.id, twice: job.n * 2, thread: threadId })
}) })`,
  )
  caller = pathToFileURL(path.join(tmp, 'caller.mjs')).href
})
afterAll(async () => {
  await Promise.all(pools.map((p) => p.stop()))
  rmSync(tmp, { recursive: true, force: true })
})

describe('WorkerPool', () => {
  it('answers every job with its own reply, spreading them over the threads it may start', async () => {
    const p = pool(2)
    const replies = await Promise.all([...Array(8).keys()].map((n) => p.run({ id: n, n, ms: 20 })))
    expect(replies.map((r) => [r.id, r.twice])).toEqual([...Array(8).keys()].map((n) => [n, 2 * n]))
    expect(new Set(replies.map((r) => r.thread)).size).toBe(2)
    expect(p.started).toBe(2)
  })

  it('starts no more threads than jobs at once', async () => {
    const p = pool(4)
    await p.run({ id: 1, n: 1 })
    expect(p.started).toBe(1)
  })

  it('a thread that dies fails its jobs and the queued ones, naming the worker; the next job starts a new pool', async () => {
    const p = pool(1)
    const jobs = [p.run({ id: 1, n: 1, ms: 50 }), p.run({ id: 2, n: 2, crash: true }), p.run({ id: 3, n: 3 }), p.run({ id: 4, n: 4 })]
    const settled = await Promise.allSettled(jobs)
    expect(settled[0]).toMatchObject({ status: 'fulfilled', value: { twice: 2 } })
    for (const s of settled.slice(1)) expect(s).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/the test-worker thread stopped \(exit code 3\)/) } })
    expect((await p.run({ id: 5, n: 5 })).twice).toBe(10)
  })

  it('drops queued jobs on request (they reject with the reason given); jobs a thread holds still answer', async () => {
    const p = pool(1)
    const jobs = [1, 2, 3, 4].map((n) => p.run({ id: n, n, ms: 30 }))
    p.drop((j) => j.n >= 3, new Error('dropped'))
    const settled = await Promise.allSettled(jobs)
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected'])
    expect((settled[3] as PromiseRejectedResult).reason.message).toBe('dropped')
  })

  it('a missing worker script rejects the job with a message naming it', async () => {
    const p = new WorkerPool<Job, Reply>('no-such-worker', caller, 1)
    await expect(p.run({ id: 1, n: 1 })).rejects.toThrow(/no-such-worker worker is missing/)
  })
})
