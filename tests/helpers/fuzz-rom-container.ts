/**
 * The container-level fuzz cases shared by the Snap and Stadium campaigns: a gzip-compressed
 * sample ROM damaged in its stream, a gzip trailer that lies about its size, and a sparse file
 * larger than any N64 image. `argv(path)` is the reading command under test.
 */
import { expect, it } from 'vitest'
import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import * as path from 'node:path'
import { Rng, SEED, cases, expectCliCase, writeCase } from './fuzz'

export function romContainerCases(sample: string, dir: () => string, argv: (file: string) => string[]): void {
  it('corrupt gzip-compressed ROMs: exit 1 naming the file (or 0 when the damage misses)', async () => {
    const gz = readFileSync(sample)
    const rng = new Rng(0x92000000 + SEED)
    const n = cases(24)
    for (let i = 0; i < n; i++) {
      let b = new Uint8Array(gz)
      let label: string
      if (i % 3 === 0) {
        const at = 2 + rng.int(b.length - 2)
        b = b.slice(0, at)
        label = `truncated at ${at}`
      } else {
        const k = 1 + rng.int(8)
        for (let j = 0; j < k; j++) b[rng.pick([10 + rng.int(64), b.length - 1 - rng.int(8), rng.int(b.length)])] ^= 1 << rng.int(8)
        label = `${k} bits flipped`
      }
      const name = `gz-${i}.z64.gz`
      const p = await writeCase(dir(), name, b)
      await expectCliCase(`gzip case ${i}: ${label}`, argv(p), [name])
      rmSync(p)
    }
  })

  it('a gzip whose trailer says it unpacks to more than any N64 image is refused before inflating', async () => {
    const b = new Uint8Array(readFileSync(sample))
    b.set([0x00, 0x00, 0x00, 0x20], b.length - 4) // ISIZE 512 MiB
    const name = 'isize-512m.z64.gz'
    const p = await writeCase(dir(), name, b)
    const r = await expectCliCase('ISIZE 512 MiB', argv(p), [name])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/limit/)
  })

  it('a file larger than any N64 image (sparse, 3 GiB) is refused before reading, naming the file', async () => {
    const p = path.join(dir(), 'huge.z64')
    writeFileSync(p, '')
    truncateSync(p, 3 * 1024 ** 3)
    const r = await expectCliCase('sparse 3 GiB', argv(p), ['huge.z64'])
    expect(r.code).toBe(1)
    rmSync(p)
  })
}
