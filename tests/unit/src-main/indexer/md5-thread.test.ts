/** The MD5 thread of big-file indexing: RFC 1321's test vectors, pieces in order, turns, abandon. */
import { describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { threadedMd5 } from '../../../../src-main/indexer/md5-thread'

const enc = (s: string) => new TextEncoder().encode(s)

describe('threadedMd5', () => {
  it('gives RFC 1321 §A.5 digests, fed in pieces', async () => {
    const vectors: [string, string][] = [
      ['', 'd41d8cd98f00b204e9800998ecf8427e'],
      ['abc', '900150983cd24fb0d6963f7d28e17f72'],
      ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
      ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', '57edf4a22be3c955ac49da2e2107b67a'],
    ]
    for (const [text, hex] of vectors) {
      const h = await threadedMd5()
      const b = enc(text)
      for (let i = 0; i < b.length; i += 7) h.update(b.subarray(i, i + 7))
      expect(await h.digest()).toBe(hex)
    }
  })

  it('serves callers in turn, and an abandoned digest frees the thread', async () => {
    const a = new Uint8Array(3 << 20).map((_, i) => i * 31)
    const first = await threadedMd5()
    first.update(a.subarray(0, 1000))
    first.abandon()
    const [x, y] = await Promise.all(
      [a, a.subarray(5)].map(async (bytes) => {
        const h = await threadedMd5()
        h.update(bytes.subarray(0, 1 << 20))
        h.update(bytes.subarray(1 << 20))
        return h.digest()
      }),
    )
    expect(x).toBe(createHash('md5').update(a).digest('hex'))
    expect(y).toBe(createHash('md5').update(a.subarray(5)).digest('hex'))
  })

  it('keeps a process alive while a digest is owed, and not after (a CLI exits by itself)', () => {
    const mod = fileURLToPath(new URL('../../../../src-main/indexer/md5-thread.ts', import.meta.url))
    const script = `const { threadedMd5, md5ThreadReady } = await import(${JSON.stringify(mod)})
md5ThreadReady()
const h = await threadedMd5()
h.update(new TextEncoder().encode('abc'))
console.log(await h.digest())`
    const dir = mkdtempSync(path.join(tmpdir(), 'md5-thread-'))
    const file = path.join(dir, 'run.mts')
    writeFileSync(file, script)
    const r = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 30_000 })
    rmSync(dir, { recursive: true, force: true })
    expect(r.signal, 'the process did not exit by itself').toBeNull()
    expect(r.status, r.stderr).toBe(0) // 13 would be a digest lost to an exit
    expect(r.stdout.trim()).toBe('900150983cd24fb0d6963f7d28e17f72')
  })
})
