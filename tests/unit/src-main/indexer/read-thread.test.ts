/** Set folders read ahead on a second thread: the same bytes, hash and stamp as reading them here; trouble falls back to here. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { readSetFiles } from '../../../../src-main/indexer/read-source'
import { SetReadAhead, SetReader } from '../../../../src-main/indexer/read-thread'

let dir: string
const MEMBERS = ['0.bin', '1.bin', '2.bin']
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-read-thread-'))
  for (let s = 0; s < 20; s++) {
    fs.mkdirSync(path.join(dir, `s${s}`))
    MEMBERS.forEach((m, i) => fs.writeFileSync(path.join(dir, `s${s}`, m), new Uint8Array(1000 * (i + 1) + s).map((_, k) => (k * 31 + s) & 0xff)))
  }
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** SHA-1 over `name \0 bytes` of each member, in order, computed here from the files. */
function expectedSha1(set: string): string {
  const h = createHash('sha1')
  for (const m of MEMBERS) h.update(m).update('\0').update(fs.readFileSync(path.join(set, m)))
  return h.digest('hex')
}

describe('SetReader', () => {
  it('gives each set the bytes, SHA-1 and stamp that reading it here gives', async () => {
    const reader = new SetReader()
    try {
      const sets = [0, 1, 2, 3].map((s) => path.join(dir, `s${s}`))
      const got = await Promise.all(sets.map((s) => reader.read(s, MEMBERS)))
      got.forEach((r, i) => {
        const here = readSetFiles(sets[i]!, MEMBERS)
        expect(r.sha1).toBe(expectedSha1(sets[i]!))
        expect(r.stamp).toEqual(here.stamp)
        expect(r.stamp.size).toBe(6000 + 3 * i)
        expect([...r.files.keys()]).toEqual(MEMBERS)
        for (const m of MEMBERS) expect(Buffer.from(r.files.get(m)!).equals(fs.readFileSync(path.join(sets[i]!, m)))).toBe(true)
      })
    } finally {
      await reader.close()
    }
  })

  it('leaves a set it cannot read to this thread, which names the missing file', async () => {
    const reader = new SetReader()
    try {
      const set = path.join(dir, 's4')
      await expect(reader.read(set, [...MEMBERS, '3.bin'])).rejects.toThrow(path.join(set, '3.bin'))
      // and goes on with the next one
      expect((await reader.read(set, MEMBERS)).sha1).toBe(expectedSha1(set))
    } finally {
      await reader.close()
    }
  })

  it('answers sets asked together each on its own: one it cannot read is read here, the others come from the thread', async () => {
    const reader = new SetReader()
    try {
      const sets = [6, 7, 8].map((s) => path.join(dir, `s${s}`))
      const got = reader.readMany([{ dir: sets[0]!, members: MEMBERS }, { dir: sets[1]!, members: [...MEMBERS, '3.bin'] }, { dir: sets[2]!, members: MEMBERS }])
      expect(got).toHaveLength(3)
      expect((await got[0]!).sha1).toBe(expectedSha1(sets[0]!))
      await expect(got[1]!).rejects.toThrow(path.join(sets[1]!, '3.bin'))
      expect((await got[2]!).sha1).toBe(expectedSha1(sets[2]!))
    } finally {
      await reader.close()
    }
  })

  it('reads here what is asked after it was closed', async () => {
    const reader = new SetReader()
    await reader.close()
    expect((await reader.read(path.join(dir, 's5'), MEMBERS)).sha1).toBe(expectedSha1(path.join(dir, 's5')))
  })
})

describe('SetReadAhead', () => {
  it('hands out every asked set in job order once its thread is up (other jobs, and sets met before: nothing)', async () => {
    const sets = Array.from({ length: 20 }, (_, s) => (s % 5 === 4 ? null : { dir: path.join(dir, `s${s}`), members: MEMBERS }))
    const ahead = new SetReadAhead(sets.map((s) => (s ? { ...s } : null)))
    try {
      // the thread cannot be up before this one has waited: the first set is left to the caller
      expect(ahead.take(0)).toBeUndefined()
      expect(await ahead.started).toBe(true)
      for (let i = 1; i < sets.length; i++) {
        const p = ahead.take(i)
        if (!sets[i]) expect(p).toBeUndefined()
        else expect((await p!).sha1).toBe(expectedSha1(sets[i]!.dir))
      }
    } finally {
      await ahead.close()
    }
  })
})
