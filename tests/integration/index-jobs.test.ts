import { describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { IndexJobs } from '../../src-main/services/index-jobs'
import { openCatalog } from '../../src-main/catalog/catalog'
import type { IndexProgress } from '../../src-shared/api/catalog'
import { genericRom } from '../fixtures/platform/n64'

describe('IndexJobs (indexing in a child process)', () => {
  it('streams progress and stops between sources when cancelled', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-jobs-'))
    const files = path.join(dir, 'roms')
    fs.mkdirSync(files)
    const N = 1500
    for (let i = 0; i < N; i++) fs.writeFileSync(path.join(files, `r${i}.z64`), genericRom(`GAME ${i}`, 'NJBE', 0x2000, i & 0xff))
    const db = path.join(dir, 'c.sqlite')
    const seen: IndexProgress[] = []
    let jobs: IndexJobs
    let cancelled = false
    jobs = new IndexJobs(
      db,
      (p) => {
        seen.push(p)
        if (!cancelled && p.phase === 'index' && p.done >= 5) {
          cancelled = true
          expect(jobs.cancel('job-1')).toBe(true)
        }
      },
      () => {},
    )
    const result = await jobs.start([files], 'job-1')
    expect(result.cancelled).toBe(true)
    expect(seen.every((p) => p.jobId === 'job-1')).toBe(true)
    expect(seen.some((p) => p.phase === 'index' && p.total === N)).toBe(true)
    expect(seen.at(-1)!.phase).toBe('cancelled')
    const cat = openCatalog(db)
    const n = cat.sources().length
    expect(n).toBeGreaterThanOrEqual(5)
    expect(n).toBeLessThan(N)
    expect(cat.integrityCheck()).toBe('ok')
    cat.close()
    expect(jobs.active).toEqual([])
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('reports a failing indexer as an error event', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-jobs-'))
    const seen: IndexProgress[] = []
    // A database path inside a file cannot be opened: the child fails before indexing anything.
    fs.writeFileSync(path.join(dir, 'file'), 'x')
    const jobs = new IndexJobs(path.join(dir, 'file', 'c.sqlite'), (p) => seen.push(p), () => {})
    await expect(jobs.start([dir])).rejects.toThrow()
    expect(seen.at(-1)?.phase).toBe('error')
    fs.rmSync(dir, { recursive: true, force: true })
  })
})
