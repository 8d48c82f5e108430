/**
 * readGameFile: the one size guard and gzip (ISIZE) guard for game files. Numbers are checked by
 * hand: ISIZE is the trailer's last four bytes little endian (RFC 1952 §2.3.1), so a member whose
 * trailer ends 78 56 34 12 claims 0x12345678 bytes, and its offset is the file length − 4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { gzipSync } from 'fflate'
import { FormatError } from '../../../../src-shared/binary'
import { gzipIsize, readGameFile, readGameFileSync, unpackGameBytes, type GameFileLimits } from '../../../../src-main/node/game-file'

const LIMITS: GameFileLimits = { maxBytes: 4096, noun: 'an N64 image', note: 'at most 64 MiB' }
let dir: string
const put = (name: string, bytes: Uint8Array) => {
  const p = path.join(dir, name)
  fs.writeFileSync(p, bytes)
  return p
}
const content = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 0xff)

async function failure(p: Promise<unknown>): Promise<FormatError> {
  const e = await p.then(() => null, (x: unknown) => x)
  expect(e).toBeInstanceOf(FormatError)
  return e as FormatError
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-gamefile-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('readGameFile', () => {
  it('returns a plain file as it is and inflates a gzip one', async () => {
    expect(await readGameFile(put('a.z64', content), LIMITS)).toEqual(content)
    expect(await readGameFile(put('a.z64.gz', gzipSync(content)), LIMITS)).toEqual(content)
  })

  it('gives a plain Uint8Array over exactly the file (slice copies, as for any Uint8Array)', async () => {
    const raw = await readGameFile(put('b.z64', content), LIMITS)
    expect(Buffer.isBuffer(raw)).toBe(false)
    expect(raw.byteLength).toBe(1000)
    const part = raw.slice(0, 4)
    part[0] = 0xee
    expect(raw[0]).toBe(0)
  })

  it('reads ISIZE from the trailer, little endian', () => {
    const b = new Uint8Array(20)
    b.set([0x78, 0x56, 0x34, 0x12], 16)
    expect(gzipIsize(b)).toBe(0x12345678)
    expect(gzipIsize(new Uint8Array(17))).toBe(0) // shorter than a gzip header + trailer
  })

  it('refuses a gzip whose ISIZE is over the limit before inflating, naming the trailer and its offset', async () => {
    const gz = gzipSync(content)
    gz.set([0x01, 0x10, 0x00, 0x00], gz.length - 4) // ISIZE 0x1001 = 4097 > 4096
    const p = put('bomb.z64.gz', gz)
    const e = await failure(readGameFile(p, LIMITS))
    expect([e.file, e.structure, e.offset]).toEqual([p, 'gzip trailer ISIZE', gz.length - 4])
    expect(e.detail).toBe('gzip member unpacks to 4097 bytes, more than the 4096-byte limit for an N64 image')
    // maxUnpacked, when given, is the limit instead
    expect(String(await readGameFile(p, { ...LIMITS, maxUnpacked: 8192 }).then((b) => b.length, (x: Error) => x.message))).not.toMatch(/limit/)
  })

  it('refuses a file larger than maxBytes before reading it', async () => {
    const p = path.join(dir, 'huge.z64')
    fs.writeFileSync(p, '')
    fs.truncateSync(p, 3 * 1024 ** 3)
    const e = await failure(readGameFile(p, LIMITS))
    expect(e.detail).toBe(`${3 * 1024 ** 3} bytes is larger than any N64 image (at most 64 MiB; limit 4096)`)
    expect([e.file, e.offset]).toEqual([p, 4096])
    fs.rmSync(p)
  })

  it('names a corrupt gzip stream, a missing file and a folder, by base name when asked', async () => {
    // a real header and trailer around a deflate block of the reserved type (BTYPE 11): not inflatable
    const gz = gzipSync(content)
    const broken = new Uint8Array([...gz.subarray(0, 10), ...new Uint8Array(16).fill(0xff), ...gz.subarray(gz.length - 8)])
    const bad = put('bad.z64.gz', broken)
    const e = await failure(readGameFile(bad, { ...LIMITS, label: 'basename' }))
    expect([e.file, e.structure]).toEqual(['bad.z64.gz', 'gzip member'])
    expect(e.detail).toMatch(/^gzip data is corrupt: /)
    const gone = await failure(readGameFile(path.join(dir, 'gone.z64'), LIMITS))
    expect([gone.file, gone.detail]).toEqual([path.join(dir, 'gone.z64'), 'file not found'])
    const folder = await failure(readGameFile(dir, LIMITS))
    expect([folder.file, folder.detail]).toEqual([dir, 'is a folder, not a file'])
  })

  it("with gzip: 'name', leaves gzip-looking bytes alone unless the name ends .gz", () => {
    const gz = gzipSync(content)
    expect(unpackGameBytes(gz, 'x.bin', { ...LIMITS, gzip: 'name' })).toBe(gz)
    expect(unpackGameBytes(gz, 'x.bin.gz', { ...LIMITS, gzip: 'name' })).toEqual(content)
    expect(unpackGameBytes(gz, 'x.bin', LIMITS)).toEqual(content)
  })
})

describe('readGameFileSync (a worker reading its own inputs)', () => {
  const syncFailure = (f: () => unknown): FormatError => {
    let e: unknown = null
    try {
      f()
    } catch (x) {
      e = x
    }
    expect(e).toBeInstanceOf(FormatError)
    return e as FormatError
  }

  it('gives the bytes readGameFile gives, in a buffer of their own, gzip inflated', async () => {
    const p = put('s.z64', content)
    const got = readGameFileSync(p, LIMITS)
    expect(got).toEqual(await readGameFile(p, LIMITS))
    expect([got.byteOffset, got.buffer.byteLength]).toEqual([0, content.length])
    expect(readGameFileSync(put('s.z64.gz', gzipSync(content)), LIMITS)).toEqual(content)
  })

  it('refuses what readGameFile refuses with the same errors: too large, missing, a folder', async () => {
    const p = path.join(dir, 'huge-s.z64')
    fs.writeFileSync(p, '')
    fs.truncateSync(p, 5000)
    for (const f of [p, path.join(dir, 'gone-s.z64'), dir]) {
      const a = syncFailure(() => readGameFileSync(f, LIMITS))
      const b = await failure(readGameFile(f, LIMITS))
      expect([a.file, a.detail, a.offset]).toEqual([b.file, b.detail, b.offset])
    }
    expect(syncFailure(() => readGameFileSync(p, LIMITS)).detail).toBe('5000 bytes is larger than any N64 image (at most 64 MiB; limit 4096)')
    fs.rmSync(p)
  })
})
