import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync, readFileSync, existsSync, rmSync, mkdirSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { createHash } from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { runCli } from '../../../../src-main/cli/main'
import { buildSyntheticSet, gradientPicture } from '../../../fixtures/gf/build-set'
import { encodePng, decodePng } from '../../../../src-main/domains/gf/png'
import { parseGfSet, findTexture } from '../../../../src-shared/formats/gf/gf-set'
import { parsePackage } from '../../../../src-shared/formats/gf/package'
import { decodeGfTexture } from '../../../../src-shared/formats/gf/texture'

const root = path.resolve(import.meta.dirname, '..', '..', '..', '..')
let tmp: string
let setDir: string
const synthetic = buildSyntheticSet(1)

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = ''
  const code = await runCli(argv, { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: (s: string) => ((err += s), true) } } as never)
  return { code, out, err }
}

function hashes(dir: string): Record<string, string> {
  const h: Record<string, string> = {}
  for (const n of readdirSync(dir).sort()) h[n] = createHash('sha256').update(readFileSync(path.join(dir, n))).digest('hex')
  return h
}

function writeSet(dir: string, files: Map<string, Uint8Array>): string {
  mkdirSync(dir, { recursive: true })
  for (const [n, b] of files) writeFileSync(path.join(dir, n), b)
  return dir
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gf-cli-'))
  setDir = writeSet(path.join(tmp, 'set'), synthetic.files)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('modbench gf info / textures', () => {
  it('info --json lists files, magic and entries with the CLI.md keys', async () => {
    const r = await cli('gf', 'info', setDir, '--json')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.out)
    expect(j.files.map((f: { file: string }) => f.file)).toEqual(['0.bin', '1.bin', '2.bin', '3.bin', '4.bin', '5.bin', '6.bin', '7.bin', '8.bin'])
    const f1 = j.files[1]
    expect(f1.magic).toBe('PC')
    const p = parsePackage(synthetic.files.get('1.bin')!)
    expect(f1.entries[0]).toMatchObject({ index: 0, offset: p.entries[0]!.offset, length: p.entries[0]!.length, kind: 'texture' })
    expect(j.files[0].entries.map((e: { kind: string }) => e.kind)).toEqual(['model', 'model', 'package', 'package'])
    expect(j.files[8].entries.map((e: { kind: string }) => e.kind)).toEqual(['bch', 'unknown'])
  })

  it('a missing file is reported on stderr, not fatal', async () => {
    const m = new Map(synthetic.files)
    m.delete('7.bin')
    const dir = writeSet(path.join(tmp, 'no7'), m)
    const r = await cli('gf', 'info', dir, '--json')
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/7\.bin missing/)
    expect(JSON.parse(r.out).files.length).toBe(8)
  })

  it('textures --json gives file, entry, name, width, height, format, mipmaps', async () => {
    const r = await cli('gf', 'textures', setDir, '--json')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.out)
    expect(j).toEqual(synthetic.textures.map((t) => ({ file: t.file, entry: t.entry, name: t.spec.name, width: t.spec.width, height: t.spec.height, format: t.spec.format, mipmaps: t.spec.mipmaps ?? 1 })))
  })

  it('human output without --json', async () => {
    const r = await cli('gf', 'textures', setDir)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/pm0999_00_Eye1/)
    expect(r.out).toMatch(/20 textures/)
  })
})

describe('modbench gf extract', () => {
  it('writes DIR/<file>/<entry>_<name>.png, top row first', async () => {
    const out = path.join(tmp, 'png')
    const r = await cli('gf', 'extract', setDir, '--out', out)
    expect(r.code).toBe(0)
    const set = parseGfSet(synthetic.files)
    for (const t of synthetic.textures) {
      const p = path.join(out, t.file.replace('.bin', ''), `${t.entry}_${t.spec.name}.png`)
      expect(existsSync(p)).toBe(true)
      const img = decodePng(readFileSync(p))
      const ref = findTexture(set, t.file, t.entry)
      expect(Buffer.from(img.rgba).equals(Buffer.from(decodeGfTexture(ref.bytes, ref.header)))).toBe(true)
    }
    // the builder's disc picture has an opaque blue marker in its top-left corner (RGBA8: exact)
    const eye = decodePng(readFileSync(path.join(out, '1', '2_pm0999_00_Eye1.png')))
    expect(Array.from(eye.rgba.subarray(0, 4))).toEqual([20, 20, 220, 255])
    expect(eye.rgba[(31 * 32 + 0) * 4 + 3]).toBe(0) // bottom-left corner is transparent
  })
})

describe('modbench gf replace', () => {
  it('with no --texture the output equals the input byte for byte; inputs untouched', async () => {
    const before = hashes(setDir)
    const out = path.join(tmp, 'same')
    const r = await cli('gf', 'replace', setDir, '--out', out, '--json')
    expect(r.code).toBe(0)
    expect(hashes(out)).toEqual(before)
    expect(hashes(setDir)).toEqual(before)
  })

  it('re-encodes a PNG into the texture\'s format; only its pixel bytes change', async () => {
    const before = hashes(setDir)
    const pngPath = path.join(tmp, 'body.png')
    writeFileSync(pngPath, encodePng(gradientPicture(64, 64, 42, 20), 64, 64))
    const out = path.join(tmp, 'replaced')
    const r = await cli('gf', 'replace', setDir, '--out', out, '--texture', `1.bin:0=${pngPath}`, '--json')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.out)
    expect(j.replaced[0]).toMatchObject({ file: '1.bin', entry: 0, name: 'pm0999_00_BodyA1', format: 'ETC1', width: 64, height: 64 })
    expect(j.replaced[0].psnr).toBeGreaterThan(30)
    expect(j.files.find((f: { file: string }) => f.file === '1.bin').changed).toBe(true)
    const a = readFileSync(path.join(setDir, '1.bin')), b = readFileSync(path.join(out, '1.bin'))
    const p = parsePackage(a)
    const start = p.entries[0]!.offset + 0x80, end = start + 64 * 64 / 2
    for (let i = 0; i < a.length; i++) if (i < start || i >= end) expect(b[i]).toBe(a[i])
    expect(a.subarray(start, end).equals(b.subarray(start, end))).toBe(false)
    const after = hashes(out)
    for (const n of Object.keys(before)) if (n !== '1.bin') expect(after[n]).toBe(before[n])
    expect(hashes(setDir)).toEqual(before)
  })

  it('accepts FILE without .bin', async () => {
    const pngPath = path.join(tmp, 'mouth.png')
    writeFileSync(pngPath, encodePng(gradientPicture(16, 16, 1), 16, 16))
    const r = await cli('gf', 'replace', setDir, '--out', path.join(tmp, 'short'), '--texture', `1:3=${pngPath}`, '--etc1-effort', 'fast')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/1\.bin entry 3 pm0999_00_Mouth1: RGB565 16×16/)
  })

  it('a PNG of the wrong size → exit 1 and no output folder', async () => {
    const pngPath = path.join(tmp, 'small.png')
    writeFileSync(pngPath, encodePng(new Uint8Array(8 * 8 * 4), 8, 8))
    const out = path.join(tmp, 'wrong')
    const r = await cli('gf', 'replace', setDir, '--out', out, '--texture', `1.bin:0=${pngPath}`)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/8×8.*64×64/)
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(tmp).some((n) => n.includes('wrong'))).toBe(false) // no temp folder left either
  })

  it('a non-texture entry or unknown file → exit 1', async () => {
    const pngPath = path.join(tmp, 'body.png')
    expect((await cli('gf', 'replace', setDir, '--out', path.join(tmp, 'x1'), '--texture', `4.bin:0=${pngPath}`)).code).toBe(1)
    expect((await cli('gf', 'replace', setDir, '--out', path.join(tmp, 'x2'), '--texture', `1.bin:99=${pngPath}`)).code).toBe(1)
    expect((await cli('gf', 'replace', setDir, '--out', path.join(tmp, 'x3'), '--texture', `1.bin:0=${path.join(tmp, 'nope.png')}`)).code).toBe(1)
    for (const n of ['x1', 'x2', 'x3']) expect(existsSync(path.join(tmp, n))).toBe(false)
  })

  it('usage errors → exit 2', async () => {
    expect((await cli('gf', 'replace', setDir, '--out', path.join(tmp, 'u'), '--texture', 'garbage')).code).toBe(2)
    expect((await cli('gf', 'replace', setDir)).code).toBe(2)
    expect((await cli('gf', 'info')).code).toBe(2)
  })

  it('refuses an existing non-empty output folder', async () => {
    const r = await cli('gf', 'replace', setDir, '--out', setDir)
    expect(r.code).toBe(1)
  })
})

describe('bad input', () => {
  function badSet(name: string, file: string, patch: (b: Uint8Array) => Uint8Array): string {
    const m = new Map(synthetic.files)
    m.set(file, patch(m.get(file)!.slice()))
    return writeSet(path.join(tmp, name), m)
  }

  it('a truncated file names the file, the entry and the offset', async () => {
    const dir = badSet('trunc', '2.bin', (b) => b.subarray(0, 0x1000))
    const r = await cli('gf', 'info', dir)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/2\.bin.*Package entry \d+ at 0x[0-9A-F]+.*past the end/)
  })

  it('a texture whose data runs past its entry', async () => {
    const dir = badSet('past', '3.bin', (b) => {
      const p = parsePackage(b)
      new DataView(b.buffer).setUint32(p.entries[4]!.offset + 0x18, 0x10000, true)
      return b
    })
    const r = await cli('gf', 'textures', dir, '--json')
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/3\.bin: GFTexture \(entry 4\) at 0x[0-9A-F]+: pixel data .* runs past the entry end/)
    expect(r.out).toBe('')
  })

  it('an unknown format id', async () => {
    const dir = badSet('fmt', '1.bin', (b) => {
      b[parsePackage(b).entries[1]!.offset + 0x6c] = 0x55
      return b
    })
    const r = await cli('gf', 'extract', dir, '--out', path.join(tmp, 'fmt-out'))
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/1\.bin: GFTexture \(entry 1\) at 0x[0-9A-F]+: unknown texture format id 0x55/)
    expect(existsSync(path.join(tmp, 'fmt-out'))).toBe(false)
  })

  it('absurd count and offsets not increasing', async () => {
    const d1 = badSet('count', '4.bin', (b) => { b[2] = 0xff; b[3] = 0x7f; return b })
    expect((await cli('gf', 'info', d1)).err).toMatch(/4\.bin.*entry count 32767/)
    const d2 = badSet('order', '6.bin', (b) => { new DataView(b.buffer).setUint32(4, 0x90, true); return b })
    const r = await cli('gf', 'info', d2)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/6\.bin.*not increasing/)
  })

  it('not a folder / empty folder → exit 1', async () => {
    expect((await cli('gf', 'info', path.join(setDir, '0.bin'))).code).toBe(1)
    mkdirSync(path.join(tmp, 'empty'))
    expect((await cli('gf', 'info', path.join(tmp, 'empty'))).err).toMatch(/none of the set files/)
  })
})

describe('bin/modbench.mjs (spawned)', () => {
  it('exit codes 0, 1 and 2 from the real binary', () => {
    const run = (...a: string[]) => spawnSync(process.execPath, [path.join(root, 'bin', 'modbench.mjs'), ...a], { encoding: 'utf8' })
    const ok = run('gf', 'textures', setDir, '--json')
    expect(ok.status).toBe(0)
    expect(JSON.parse(ok.stdout).length).toBe(20)
    const pngPath = path.join(tmp, 'spawn-small.png')
    writeFileSync(pngPath, encodePng(new Uint8Array(8 * 8 * 4), 8, 8))
    const bad = run('gf', 'replace', setDir, '--out', path.join(tmp, 'spawn-out'), '--texture', `1.bin:0=${pngPath}`)
    expect(bad.status).toBe(1)
    expect(existsSync(path.join(tmp, 'spawn-out'))).toBe(false)
    expect(run('gf', 'replace', setDir).status).toBe(2)
  })
})

describe('catalog', () => {
  it('indexes a set as set → files → entries; searching a texture name finds it', async () => {
    const db = path.join(tmp, 'catalog.db')
    const idx = await cli('index', setDir, '--db', db, '--json')
    expect(idx.code).toBe(0)
    expect(JSON.parse(idx.out).sources[0]).toMatchObject({ kind: 'gf-set', status: 'indexed' })
    const found = await cli('find', 'pm0999_00_BodyB1', '--db', db, '--json')
    expect(found.code).toBe(0)
    const rows = JSON.parse(found.out) as { kind: string; name: string }[]
    expect(rows.filter((r) => r.kind === 'gf-texture' && r.name === 'pm0999_00_BodyB1').length).toBe(2) // 1.bin and 2.bin
  })
})

describe('gf extract into an existing folder', () => {
  it('refuses a folder holding anything without --force (untouched); with --force replaces it whole', async () => {
    const out = path.join(tmp, 'busy')
    mkdirSync(out)
    writeFileSync(path.join(out, 'keep.txt'), 'mine')
    const refused = await cli('gf', 'extract', setDir, '--out', out)
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(/busy already exists; pass --force/)
    expect(readdirSync(out)).toEqual(['keep.txt'])
    expect((await cli('gf', 'extract', setDir, '--out', out, '--force')).code).toBe(0)
    expect(existsSync(path.join(out, 'keep.txt'))).toBe(false)
    expect(existsSync(path.join(out, '3', '0_pm0999_00_Rim.png'))).toBe(true)
    expect(readdirSync(tmp).filter((n) => n.startsWith('.busy')).length).toBe(0)
  })
})

describe('round trip extract → replace', () => {
  it('re-importing the exported PNGs of every lossless texture gives the input back byte for byte', async () => {
    const png = path.join(tmp, 'rt-png')
    expect((await cli('gf', 'extract', setDir, '--out', png)).code).toBe(0)
    const lossless = synthetic.textures.filter((t) => !t.spec.format.startsWith('ETC') && (t.spec.mipmaps ?? 1) === 1)
    expect(lossless.length).toBeGreaterThanOrEqual(12)
    const args = lossless.flatMap((t) => ['--texture', `${t.file}:${t.entry}=${path.join(png, t.file.replace('.bin', ''), `${t.entry}_${t.spec.name}.png`)}`])
    const out = path.join(tmp, 'rt-out')
    const r = await cli('gf', 'replace', setDir, '--out', out, '--json', ...args)
    expect(r.code).toBe(0)
    const j = JSON.parse(r.out)
    expect(j.replaced.length).toBe(lossless.length)
    expect(j.replaced.every((x: { psnr: number | null }) => x.psnr === null)).toBe(true)
    expect(j.files.every((f: { changed: boolean }) => !f.changed)).toBe(true)
    expect(hashes(out)).toEqual(hashes(setDir))
  })
})
