/**
 * writeDirAtomic / writeFileAtomic with streamed content: chunks (strings and bytes, sync and async)
 * land in order in one file, across the 64 KiB write batches and multi-byte characters; a failing
 * stream leaves nothing behind (no output folder, no temp sibling).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { writeDirAtomic, writeFileAtomic } from '../../../../src-main/node/atomic'

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'atomic-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const utf8 = (parts: (string | Uint8Array)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))))

describe('writeDirAtomic with streamed files', () => {
  it('writes chunks in order: strings, bytes, sync and async iterables, beside plain files', async () => {
    // 3-byte ♀ and 4-byte 😀 land across the 64 KiB batch boundaries; one chunk is bigger than a batch
    const parts: (string | Uint8Array)[] = []
    for (let i = 0; i < 5000; i++) parts.push(i % 7 === 0 ? new Uint8Array([i & 0xff, 0, 0xff]) : `${i}:♀😀é,`)
    parts.push('x'.repeat(200_000), new Uint8Array(70_000).fill(0x41), '', new Uint8Array(0), 'end\n')
    async function* slow() {
      for (const p of parts) {
        await Promise.resolve()
        yield p
      }
    }
    const out = path.join(dir, 'out1')
    await writeDirAtomic(out, [
      ['a/sync.bin', parts],
      ['a/async.bin', slow()],
      ['plain.txt', 'plain ♂'],
      ['bytes.bin', new Uint8Array([1, 2, 3])],
      ['empty.txt', (function* () {})()],
    ])
    const want = utf8(parts)
    expect(want.byteLength).toBeGreaterThan(3 * 64 * 1024)
    expect(readFileSync(path.join(out, 'a/sync.bin')).equals(want)).toBe(true)
    expect(readFileSync(path.join(out, 'a/async.bin')).equals(want)).toBe(true)
    expect(readFileSync(path.join(out, 'plain.txt'), 'utf8')).toBe('plain ♂')
    expect([...readFileSync(path.join(out, 'bytes.bin'))]).toEqual([1, 2, 3])
    expect(readFileSync(path.join(out, 'empty.txt')).byteLength).toBe(0)
  })

  it('a stream that fails half-way leaves no output folder and no temp folder', async () => {
    const out = path.join(dir, 'out2')
    function* failing() {
      yield 'x'.repeat(100_000) // already written to the temp file
      throw new Error('the model cannot be read')
    }
    await expect(writeDirAtomic(out, [['first.txt', 'ok'], ['manifest.json', failing()]])).rejects.toThrow('the model cannot be read')
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.includes('out2'))).toEqual([])
  })

  it('refuses a chunk that is neither a string nor bytes, and writes nothing', async () => {
    const out = path.join(dir, 'out3')
    await expect(writeDirAtomic(out, [['a.json', ['ok', 42 as unknown as string]]])).rejects.toThrow(/chunk must be a string or a Uint8Array, not number/)
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.includes('out3'))).toEqual([])
  })

  it('still refuses a folder that is not empty, and paths outside the folder', async () => {
    const full = path.join(dir, 'full')
    mkdirSync(full)
    writeFileSync(path.join(full, 'keep.txt'), 'mine')
    await expect(writeDirAtomic(full, [['a.txt', ['x']]])).rejects.toThrow(/not empty/)
    expect(readFileSync(path.join(full, 'keep.txt'), 'utf8')).toBe('mine')
    await expect(writeDirAtomic(path.join(dir, 'out4'), [['../escape.txt', ['x']]])).rejects.toThrow(/outside the output folder/)
    expect(existsSync(path.join(dir, 'escape.txt'))).toBe(false)
  })
})

describe('writeFileAtomic with streamed content', () => {
  it('writes the chunks; a failing stream leaves the old file and no temp file', async () => {
    const f = path.join(dir, 'file.json')
    await writeFileAtomic(f, ['{', '"a": "♀"', '}'])
    expect(readFileSync(f, 'utf8')).toBe('{"a": "♀"}')
    function* failing() {
      yield 'partial'
      throw new Error('stop')
    }
    await expect(writeFileAtomic(f, failing())).rejects.toThrow('stop')
    expect(readFileSync(f, 'utf8')).toBe('{"a": "♀"}')
    expect(readdirSync(dir).filter((n) => n.includes('file.json'))).toEqual(['file.json'])
  })
})
