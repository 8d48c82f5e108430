/**
 * The sparse read of a Stadium ROM file (`readStadiumRom` → `openStadiumSparse`): the same MD5,
 * byte order, archive, models and exported glb bytes as a whole-file read, in all three N64 byte
 * orders; bytes the readers never use stay unread; bad files give the whole-file path's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { gzipSync } from 'fflate'
import { buildStadiumRom } from '../../../fixtures/stadium/rom-builder'
import { fixtureFiles } from '../../../fixtures/stadium/models'
import { openStadiumBytes, readStadiumRom } from '../../../../src-main/domains/stadium/rom-file'
import { openStadiumSparse } from '../../../../src-main/domains/stadium/rom-sparse'
import { openGameFileRange } from '../../../../src-main/node/game-file'
import { N64_FILE_LIMITS } from '../../../../src-main/domains/n64/rom-file'
import { loadModel, type StadiumRom } from '../../../../src-shared/formats/stadium/model'
import { buildStadiumScene } from '../../../../src-shared/formats/stadium/scene'
import { sceneToGlb } from '../../../../src-shared/export/gltf'
import { MODEL_ARCHIVE_ROM } from '../../../../src-shared/formats/stadium/archive'

let dir = ''
let z64: Uint8Array
const FILLER = 0xa5
/** Past the archive: bytes no Stadium reader uses (a real image has 20 MiB of them). */
let unusedAt = 0

function swap(bytes: Uint8Array, order: 'v64' | 'n64'): Uint8Array {
  const out = new Uint8Array(bytes.length)
  const w = order === 'v64' ? 2 : 4
  for (let i = 0; i < bytes.length; i += w) for (let b = 0; b < w; b++) out[i + b] = bytes[i + w - 1 - b]!
  return out
}

/** `openStadiumSparse` on the guarded ranged reader, as `readStadiumRom` calls it. */
async function sparse(file: string): Promise<StadiumRom | null> {
  const range = openGameFileRange(file, N64_FILE_LIMITS)
  try {
    return await openStadiumSparse(range, file)
  } finally {
    range.close()
  }
}

function glbs(sr: StadiumRom): string[] {
  return sr.archive.entries.map((e) => createHash('sha1').update(sceneToGlb(buildStadiumScene(loadModel(sr, e.index)))).digest('hex'))
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'stadium-sparse-'))
  const built = buildStadiumRom({ files: fixtureFiles(8) })
  unusedAt = built.length
  z64 = new Uint8Array(built.length + 0x40000).fill(FILLER)
  z64.set(built)
  writeFileSync(path.join(dir, 'a.z64'), z64)
  writeFileSync(path.join(dir, 'a.v64'), swap(z64, 'v64'))
  writeFileSync(path.join(dir, 'a.n64'), swap(z64, 'n64'))
  writeFileSync(path.join(dir, 'a.z64.gz'), gzipSync(z64))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('sparse Stadium ROM read', () => {
  it('gives the MD5 of the big-endian image, the file byte order and the same models as a whole read, in every byte order', async () => {
    const md5 = createHash('md5').update(z64).digest('hex')
    const whole = openStadiumBytes(z64, 'a.z64')
    const expected = glbs(whole)
    for (const order of ['z64', 'v64', 'n64'] as const) {
      const sr = await readStadiumRom(path.join(dir, `a.${order}`))
      expect(sr.rom.md5).toBe(md5)
      expect(sr.rom.byteOrder).toBe(order)
      expect(sr.archive.entries).toEqual(whole.archive.entries)
      expect(sr.warnings).toEqual(whole.warnings)
      expect(glbs(sr)).toEqual(expected)
    }
  })

  it('reads only the ranges the readers use: bytes past the archive stay zero in the image', async () => {
    const sr = await readStadiumRom(path.join(dir, 'a.v64'))
    expect(sr.rom.image.length).toBe(z64.length)
    expect(sr.rom.image.subarray(unusedAt).every((b) => b === 0)).toBe(true)
    expect(z64.subarray(unusedAt).every((b) => b === FILLER)).toBe(true)
    // and what it did read is the big-endian image's
    const e = sr.archive.entries[3]!
    expect(Buffer.from(sr.rom.image.subarray(e.romOffset, e.romOffset + e.size)).equals(Buffer.from(z64.subarray(e.romOffset, e.romOffset + e.size)))).toBe(true)
  })

  it('leaves gzip-wrapped files and odd lengths to the whole-file path', async () => {
    expect(await sparse(path.join(dir, 'a.z64.gz'))).toBeNull()
    const sr = await readStadiumRom(path.join(dir, 'a.z64.gz'))
    expect(sr.rom.md5).toBe(createHash('md5').update(z64).digest('hex'))
    const odd = path.join(dir, 'odd.v64')
    writeFileSync(odd, swap(z64, 'v64').subarray(0, z64.length - 1))
    expect(await sparse(odd)).toBeNull()
    await expect(readStadiumRom(odd)).rejects.toThrow(/odd\.v64.*odd length|odd length.*odd\.v64/s)
  })

  it('reports a truncated archive as the whole-file read does, naming the file, structure and offset', async () => {
    const cut = z64.subarray(0, MODEL_ARCHIVE_ROM + 0x10 + 16 * 8 + 0x40)
    const p = path.join(dir, 'cut.z64')
    writeFileSync(p, cut)
    let whole = ''
    try {
      openStadiumBytes(cut, p)
    } catch (e) {
      whole = (e as Error).message
    }
    expect(whole).toMatch(/cut\.z64/)
    await expect(readStadiumRom(p)).rejects.toThrow(whole)
  })

  it('names a missing file', async () => {
    await expect(readStadiumRom(path.join(dir, 'missing.z64'))).rejects.toThrow(`${path.join(dir, 'missing.z64')}: file not found`)
  })
})
