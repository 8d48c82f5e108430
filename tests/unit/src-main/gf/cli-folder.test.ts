import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { cli } from '../../../helpers/cli'
import { glbImageBytes } from '../../../helpers/glb'
import { buildSyntheticSet } from '../../../fixtures/gf/build-set'
import { decodePng, encodePng } from '../../../../src-main/domains/gf/png'
import { findTexture, parseGfSet } from '../../../../src-shared/formats/gf/gf-set'
import { decodeGfTexture } from '../../../../src-shared/formats/gf/texture'
import { buildModelArchive } from '../../../fixtures/gf/build-garc'
import { GarcFile } from '../../../../src-main/domains/gf/garc-file'

/**
 * Issue 22 item 5 on the command line: a batch replace from one flat folder of PNGs (USUM's
 * normal 1.bin and shiny 2.bin textures share names), what matched what printed first, `gf export`
 * with replacements saying which it wrote, and paths printed as given: relative stays relative,
 * a set member is named with its folder (`set1/1.bin`). Runs in a temporary working folder.
 */
let tmp: string
const cwd = process.cwd()
const solid = (w: number, h: number, rgba: number[]) => encodePng(new Uint8Array(w * h * 4).map((_, i) => rgba[i % 4]!), w, h)

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gf-folder-'))
  process.chdir(tmp)
  mkdirSync('set1')
  for (const [n, b] of buildSyntheticSet(1).files) if (n !== '8.bin') writeFileSync(path.join('set1', n), b)
  mkdirSync('flat')
  // The synthetic set's names: 1.bin and 2.bin both hold pm0999_00_BodyA1 (64×64) and pm0999_00_Eye1 (32×32).
  writeFileSync('flat/pm0999_00_BodyA1.png', solid(64, 64, [255, 0, 0, 255]))
  writeFileSync('flat/pm0999_00_Eye1_shiny.png', solid(32, 32, [0, 0, 255, 255]))
  writeFileSync('flat/pm0999_00_Mouth1.png', solid(8, 8, [0, 255, 0, 255])) // 16×16 in the set: wrong size
  writeFileSync('flat/nobody.png', solid(4, 4, [0, 0, 0, 255]))
})
afterAll(() => {
  process.chdir(cwd)
  rmSync(tmp, { recursive: true, force: true })
})

const pixel = (dir: string, file: string, entry: number) => {
  const set = parseGfSet(new Map([[file, new Uint8Array(readFileSync(path.join(dir, file)))]]))
  const t = findTexture(set, file, entry)
  return Array.from(decodeGfTexture(t.bytes, t.header).subarray(0, 4))
}

describe('gf replace --png-folder', () => {
  it('a flat folder replaces the normal texture by its bare name and the shiny one by <name>_shiny; the matching is printed first', async () => {
    const r = await cli(['gf', 'replace', 'set1', '--png-folder', 'flat', '--out', 'new1', '--etc1-effort', 'fast'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([
      `${path.join('set1', '1.bin')} #0 pm0999_00_BodyA1 ← ${path.join('flat', 'pm0999_00_BodyA1.png')}`,
      `${path.join('set1', '2.bin')} #2 pm0999_00_Eye1 ← ${path.join('flat', 'pm0999_00_Eye1_shiny.png')}`,
    ])
    expect(r.stdout).toContain('8 files written to new1 (2 changed)')
    expect(r.stderr).toContain(`warning: ${path.join('set1', '8.bin')} missing from the set`)
    expect(r.stderr).toContain(`warning: ${path.join('flat', 'pm0999_00_Mouth1.png')} is 8×8; ${path.join('set1', '1.bin')} #3 pm0999_00_Mouth1 is 16×16 (not used)`)
    expect(r.stderr).toContain(`warning: ${path.join('flat', 'nobody.png')} names no texture of set1`)
    // ETC1 of a flat red stays red within a few levels; RGBA8 blue is exact; the shiny body and normal eye are untouched
    const body = pixel('new1', '1.bin', 0)
    expect(body[0]).toBeGreaterThan(240)
    expect(body[1]! + body[2]!).toBeLessThan(16)
    expect(pixel('new1', '2.bin', 2)).toEqual([0, 0, 255, 255])
    expect(pixel('new1', '2.bin', 0)).toEqual(pixel('set1', '2.bin', 0))
    expect(pixel('new1', '1.bin', 2)).toEqual(pixel('set1', '1.bin', 2))
  })

  it('--json: the usual keys with "out" as given, plus the folder report', async () => {
    const r = await cli(['gf', 'replace', 'set1', '--png-folder', 'flat', '--out', 'new2', '--etc1-effort', 'fast', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = r.json()
    expect(j.out).toBe('new2')
    expect(j.replaced.map((x: { file: string; entry: number }) => `${x.file}#${x.entry}`)).toEqual(['1.bin#0', '2.bin#2'])
    expect(j.folder.matched).toEqual([
      { png: 'pm0999_00_BodyA1.png', file: '1.bin', entry: 0, name: 'pm0999_00_BodyA1' },
      { png: 'pm0999_00_Eye1_shiny.png', file: '2.bin', entry: 2, name: 'pm0999_00_Eye1' },
    ])
    expect(j.folder.unmatched).toEqual(['nobody.png'])
  })

  it('--dry-run prints the matching and writes nothing; no match at all is an error', async () => {
    const r = await cli(['gf', 'replace', 'set1', '--png-folder', 'flat', '--dry-run', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().matched).toHaveLength(2)
    expect(r.json().wrongSize).toMatchObject([{ png: 'pm0999_00_Mouth1.png', file: '1.bin', entry: 3 }])
    mkdirSync('none')
    writeFileSync('none/other.png', solid(4, 4, [1, 2, 3, 255]))
    const n = await cli(['gf', 'replace', 'set1', '--png-folder', 'none', '--out', 'new3'])
    expect(n.code).toBe(1)
    expect(n.stderr).toMatch(/error: none: no PNG matched a texture of set1 by name/)
    expect(existsSync('new3')).toBe(false)
    expect((await cli(['gf', 'replace', 'set1', '--dry-run'])).code).toBe(2)
  })
})

describe('gf export with replacements', () => {
  const image = (glb: Uint8Array, name: string) => decodePng(glbImageBytes(glb, name))

  it('writes the PNG pixels instead of the stored texture and says so; without one it says the stored textures', async () => {
    const r = await cli(['gf', 'export', 'set1', '--out', 'with.glb', '--texture', '1.bin:0=flat/pm0999_00_BodyA1.png', '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({ out: 'with.glb', replaced: [{ file: '1.bin', entry: 0, png: 'flat/pm0999_00_BodyA1.png' }] })
    expect(r.stderr).toContain(`warning: ${path.join('set1', '4.bin')}: entry 0 GFMotion names bone 'Ghost'`)
    const glb = new Uint8Array(readFileSync('with.glb'))
    expect(Array.from(image(glb, '1_0_pm0999_00_BodyA1').rgba.subarray(0, 4))).toEqual([255, 0, 0, 255])
    // the shiny copy keeps its stored pixels
    expect(Array.from(image(glb, '2_0_pm0999_00_BodyA1').rgba.subarray(0, 4))).toEqual(pixel('set1', '2.bin', 0))
    const t = await cli(['gf', 'export', 'set1', '--out', 'plain.glb', '--png-folder', 'flat'])
    expect(t.stdout).toContain(`with 2 replaced textures: ${path.join('set1', '1.bin')} #0 ← ${path.join('flat', 'pm0999_00_BodyA1.png')}, ${path.join('set1', '2.bin')} #2 ← ${path.join('flat', 'pm0999_00_Eye1_shiny.png')}`)
    const s = await cli(['gf', 'export', 'set1', '--out', 'stored.glb'])
    expect(s.stdout).toMatch(/^wrote stored\.glb \(\d+ bytes\)/)
    expect(s.stdout).toContain('with the stored textures (no replacement given)')
  })

  it('an error names the set folder with the file as given', async () => {
    mkdirSync('bad')
    for (const n of ['0.bin', '1.bin']) writeFileSync(path.join('bad', n), readFileSync(path.join('set1', n)))
    writeFileSync(path.join('bad', '4.bin'), new Uint8Array([0x50, 0x43, 1, 0]))
    for (const cmd of [['gf', 'export', 'bad', '--out', 'bad.glb'], ['gf', 'motions', 'bad']]) {
      const r = await cli(cmd)
      expect(r.code, cmd.join(' ')).toBe(1)
      expect(r.stderr).toContain(`error: ${path.join('bad', '4.bin')}: Package`)
    }
    expect(existsSync('bad.glb')).toBe(false)
  })
})

describe('gf replace GARC#N --png-folder', () => {
  it('matches the folder against set N of the archive and writes the LayeredFS archive', async () => {
    mkdirSync('dump/romfs/a/0/9', { recursive: true })
    writeFileSync('dump/romfs/a/0/9/4', buildModelArchive(6).bytes)
    mkdirSync('pika')
    writeFileSync('pika/pm0025_00_Eye1.png', solid(32, 32, [0, 255, 0, 255])) // set 1's 1.bin #2 (32×32 RGBA8)
    const r = await cli(['gf', 'replace', 'dump/romfs/a/0/9/4#1', '--png-folder', 'pika', '--layeredfs', 'sd', '--title', '00040000001B5100'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.split('\n')[0]).toBe(`${path.join('dump/romfs/a/0/9/4#1', '1.bin')} #2 pm0025_00_Eye1 ← ${path.join('pika', 'pm0025_00_Eye1.png')}`)
    const out = path.join('sd', 'luma', 'titles', '00040000001B5100', 'romfs', 'a', '0', '9', '4')
    const set = await GarcFile.with(out, (g) => g.readSet(1))
    const t = findTexture(parseGfSet(set.files), '1.bin', 2)
    expect(Array.from(decodeGfTexture(t.bytes, t.header).subarray(0, 4))).toEqual([0, 255, 0, 255])
  })
})
