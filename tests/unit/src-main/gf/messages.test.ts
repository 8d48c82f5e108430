/**
 * Messages of the GF commands (issue 24): an error in a set's file names the set folder with the
 * file (`SET/1.bin: …`) in every command and in the export-all manifest; a damaged PNG is
 * "FILE: not a valid PNG (what is wrong)", never the PNG library's own text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { runCli } from '../../../../src-main/cli/main'
import { buildSyntheticSet } from '../../../fixtures/gf/build-set'
import { decodePng, encodePng, readPng } from '../../../../src-main/domains/gf/png'

let tmp = ''
let setDir = ''
const synthetic = buildSyntheticSet(1)

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await runCli(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } })
  return { code, out, err }
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gf-msg-'))
  setDir = path.join(tmp, 'sets', 'broken')
  mkdirSync(setDir, { recursive: true })
  for (const [n, b] of synthetic.files) writeFileSync(path.join(setDir, n), n === '1.bin' ? b.subarray(0, 100) : b)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('GF errors name the set folder with the file', () => {
  for (const argv of [['gf', 'export', '<set>', '--out', '<tmp>/x.glb'], ['gf', 'models', '<set>'], ['gf', 'motions', '<set>'], ['gf', 'info', '<set>']]) {
    it(argv.slice(0, 2).join(' '), async () => {
      const r = await cli(...argv.map((a) => a.replace('<set>', setDir).replace('<tmp>', tmp)))
      expect(r.code).toBe(1)
      expect(r.err).toContain(`${path.join(setDir, '1.bin')}: `)
    })
  }

  it('gf export-all: the manifest error names the set path with the file', async () => {
    const out = path.join(tmp, 'all')
    const r = await cli('gf', 'export-all', path.join(tmp, 'sets'), '--out', out, '--json')
    expect(r.code).toBe(1)
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as { set: string; error?: string }[]
    expect(manifest[0]!.set).toBe('broken')
    expect(manifest[0]!.error).toMatch(/^broken\/1\.bin: /)
  })
})

describe('a damaged PNG is named with what is wrong', () => {
  // a 2×2 RGBA PNG: signature (8 bytes), IHDR chunk (length, type, 13 data bytes from offset 16, CRC at 29), IDAT, IEND
  const good = encodePng(new Uint8Array(16).fill(200), 2, 2)
  const cases: [string, Uint8Array, RegExp][] = [
    ['not a PNG at all', new TextEncoder().encode('hello'), /no PNG signature at offset 0/],
    ['truncated after IHDR', good.subarray(0, 33), /the file ends at offset 0x21 before the IEND chunk: it is truncated/],
    ['truncated inside IHDR', good.subarray(0, 20), /chunk IHDR at offset 0x8 runs past the end of the file/],
    ['the IHDR checksum changed (CRC mismatch)', Uint8Array.from(good, (b, i) => (i === 29 ? b ^ 1 : b)), /chunk IHDR at offset 0x8: its checksum \(CRC\) does not match/],
    ['junk after IEND', new Uint8Array([...good, 1, 2, 3, 4]), /4 unexpected bytes after the IEND chunk/],
  ]
  for (const [what, bytes, want] of cases) {
    it(what, async () => {
      const file = path.join(tmp, `${what.replace(/\W+/g, '-')}.png`)
      writeFileSync(file, bytes)
      const e = await readPng(file).then(() => null, (x: Error) => x)
      expect(e?.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not a valid PNG \\(`))
      expect(e?.message).toMatch(want)
    })
  }

  it('a good PNG still reads', () => {
    expect(decodePng(good)).toMatchObject({ width: 2, height: 2 })
  })
})
