/**
 * A full disk and a read-only folder, for every writer (tests/helpers/writers.ts): exit 1, a
 * message naming `--out` (the user's path, never the temp file) and what to do, nothing left
 * behind, inputs untouched.
 * Where the test can mount (root), the full disk is a tiny tmpfs filled to the last page and the
 * read-only folder a tmpfs mounted `ro`; elsewhere ENOSPC is injected through the atomic writers'
 * seam (MODBENCH_FAULT_ENOSPC) and the read-only folder is a folder without write permission.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { cli } from '../helpers/cli'
import { WRITER_NAMES, makeWriters, snapshot, type Writer } from '../helpers/writers'

let dir = ''
let writers: Writer[] = []
let before: Map<string, string>
let full = ''
let readOnly = ''
const mounted: string[] = []

/** Mounts a tmpfs at `at` (options as `mount -o`); false where this process may not mount. */
function mountTmpfs(at: string, options: string): boolean {
  if (process.getuid?.() !== 0) return false
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { encoding: 'utf8' })
  if (r.status !== 0) return false
  mounted.push(at)
  return true
}

/** Writes a filler file until the file system is full (every page taken). */
function fill(at: string): void {
  const fd = openSync(path.join(at, 'filler'), 'w')
  const page = Buffer.alloc(4096, 0x55)
  try {
    for (;;) writeSync(fd, page)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e
  } finally {
    closeSync(fd)
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'faults-disk-'))
  writers = await makeWriters(dir)
  before = new Map(writers.flatMap((w) => w.inputs).map((p) => [p, snapshot(p)]))
  full = path.join(dir, 'full')
  readOnly = path.join(dir, 'read-only')
  mkdirSync(full)
  mkdirSync(readOnly)
  if (mountTmpfs(full, 'size=64k')) fill(full)
  else process.env.MODBENCH_FAULT_ENOSPC = '1'
  if (!mountTmpfs(readOnly, 'ro,size=64k')) chmodSync(readOnly, 0o555)
}, 60_000)

afterAll(() => {
  delete process.env.MODBENCH_FAULT_ENOSPC
  for (const m of mounted) spawnSync('umount', [m])
  rmSync(dir, { recursive: true, force: true })
})

/** What the folder holds besides the filler. */
const leftIn = (d: string) => readdirSync(d).filter((n) => n !== 'filler')

describe('a full disk', () => {
  for (const [i, name] of WRITER_NAMES.entries()) {
    it(`${name}: exit 1 naming --out and what to do, nothing left`, async () => {
      const w = writers[i]!
      const out = path.join(full, w.outName)
      const r = await cli(w.argv(out))
      expect(r.code, `${name}: ${r.stderr}`).toBe(1)
      expect(r.stderr).toContain(`--out ${out}: the disk is full (no space left on the device); free some space, or choose another --out`)
      expect(r.stderr).not.toMatch(/\.tmp\b/)
      expect(leftIn(full)).toEqual([])
    })
  }
})

describe('a read-only folder', () => {
  for (const [i, name] of WRITER_NAMES.entries()) {
    it(`${name}: exit 1 naming --out and what to do, nothing written`, async () => {
      const w = writers[i]!
      const out = path.join(readOnly, w.outName)
      // the seam is for the full disk only
      const seam = process.env.MODBENCH_FAULT_ENOSPC
      delete process.env.MODBENCH_FAULT_ENOSPC
      try {
        const r = await cli(w.argv(out))
        expect(r.code, `${name}: ${r.stderr}`).toBe(1)
        expect(r.stderr).toMatch(new RegExp(`--out ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (the folder is on a read-only file system; choose another --out|permission denied: the folder is not writable; make it writable, or choose another --out)`))
        expect(r.stderr).not.toMatch(/\.tmp\b/)
        expect(readdirSync(readOnly)).toEqual([])
      } finally {
        if (seam) process.env.MODBENCH_FAULT_ENOSPC = seam
      }
    })
  }

  it('inputs are byte-identical after everything', () => {
    for (const [p, s] of before) expect(snapshot(p), p).toBe(s)
  })
})
