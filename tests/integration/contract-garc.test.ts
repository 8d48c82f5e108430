/**
 * Contract tests of CLI.md "GF model archive" (spec gf-packages §19) through `runCli`, on archives
 * of both versions laid out by tests/fixtures/gf/build-garc.ts from §19 (LZ11 entries, an empty set,
 * entries outside a set). Expected offsets come from the second-hand reader of
 * tests/oracles/garc-reader.ts, expected contents from the builder's inputs, never from src-*.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { PNG } from 'pngjs'
import { cli } from '../helpers/cli'
import { buildGarc, buildModelArchive, simpleLz11, type ModelArchive } from '../fixtures/gf/build-garc'
import { oracleLz11, oracleReadGarc } from '../oracles/garc-reader'

let tmp: string
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'contract-garc-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const h = (s: string) => new Uint8Array(s.trim().split(/\s+/).map((x) => parseInt(x, 16)))
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0
const read = (p: string) => new Uint8Array(readFileSync(p))

/** The §19.7 archive, as the spec prints it. */
const SPEC = h(`43 52 41 47 24 00 00 00 FF FE 00 06 04 00 00 00 70 00 00 00 80 00 00 00 08 00 00 00 08 00 00 00
  04 00 00 00 4F 54 41 46 14 00 00 00 02 00 FF FF 00 00 00 00 10 00 00 00 42 54 41 46 2C 00 00 00
  02 00 00 00 01 00 00 00 00 00 00 00 08 00 00 00 05 00 00 00 01 00 00 00 08 00 00 00 10 00 00 00
  08 00 00 00 42 4D 49 46 0C 00 00 00 10 00 00 00 01 02 03 04 05 FF FF FF 11 06 00 00 40 41 40 00`)

it('gf garc --json of the §19.7 archive is the spec\'s document', async () => {
  const f = path.join(tmp, 'spec.garc')
  writeFileSync(f, SPEC)
  const r = await cli(['gf', 'garc', f, '--json'])
  expect(r.code, r.stderr).toBe(0)
  const j = r.json()
  expect({ version: j.version, entries: j.entries, sets: j.sets }).toEqual({
    version: 1536,
    entries: [{ index: 0, offset: 112, length: 5, compressed: false }, { index: 1, offset: 120, length: 8, compressed: true }],
    sets: [],
  })
})

for (const version of [4, 6] as const) {
  describe(`GARC v${version}`, () => {
    let a: ModelArchive
    let dir: string
    let arc: string
    beforeAll(() => {
      a = buildModelArchive(version, { alignment: version === 6 ? 0x80 : undefined })
      dir = path.join(tmp, `v${version}`)
      arc = path.join(dir, 'dump', 'romfs', 'a', '0', '9', '4')
      mkdirSync(path.dirname(arc), { recursive: true })
      writeFileSync(arc, a.bytes)
    })

    it('gf garc --json: every entry (absolute offset, stored length, LZ11), the sets with their names', async () => {
      const r = await cli(['gf', 'garc', arc, '--json'])
      expect(r.code, r.stderr).toBe(0)
      const o = oracleReadGarc(a.bytes)
      const j = r.json()
      expect(j.version).toBe(version === 6 ? 1536 : 1024)
      expect(j.entries).toEqual(o.entries.map((e, index) => ({ index, offset: o.dataOffset + e.start, length: e.length, compressed: a.compressed[index] })))
      expect(j.sets).toEqual(a.names.map((name, set) => ({ set, first: 9 * set, name })))
    })

    it('gf garc extract: DIR/<4 digits>/0.bin … 8.bin decompressed, DIR/entries/<index>.bin', async () => {
      const out = path.join(dir, 'x')
      const r = await cli(['gf', 'garc', 'extract', arc, '--out', out, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(readdirSync(out).sort()).toEqual(['0000', '0001', '0002', '0003', 'entries'])
      for (let set = 0; set < 4; set++) for (let k = 0; k < 9; k++) expect(same(read(path.join(out, String(set).padStart(4, '0'), `${k}.bin`)), a.content[9 * set + k]!), `set ${set} ${k}.bin`).toBe(true)
      expect(readdirSync(path.join(out, 'entries')).sort()).toEqual(['36.bin', '37.bin', '38.bin'])
      // 36 was stored LZ11 (decompressed), 37 starts 0x11 but is no stream (as stored), 38 plain
      for (const i of [36, 37, 38]) expect(same(read(path.join(out, 'entries', `${i}.bin`)), a.content[i]!), `entry ${i}`).toBe(true)
    })

    it('gf garc pack with no --set is byte-identical; with a set replaced every other entry is, LZ11 again where it was', async () => {
      const copy = path.join(dir, 'copy')
      let r = await cli(['gf', 'garc', 'pack', arc, '--out', copy, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.json()).toEqual({ out: copy, replaced: [] })
      expect(same(read(copy), a.bytes)).toBe(true)

      const edit = path.join(dir, 'edit1')
      mkdirSync(edit)
      for (let k = 0; k < 9; k++) writeFileSync(path.join(edit, `${k}.bin`), a.content[9 + k]!)
      const tex = a.content[10]!.slice()
      tex[tex.length - 5] ^= 0x33 // inside the last texture's padding or pixels: still a package
      writeFileSync(path.join(edit, '1.bin'), tex)
      const mot = a.content[14]!.slice()
      mot[mot.length - 1] ^= 1
      writeFileSync(path.join(edit, '5.bin'), mot)
      const out = path.join(dir, 'packed')
      r = await cli(['gf', 'garc', 'pack', arc, '--set', `1=${edit}`, '--out', out, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.json()).toEqual({ out, replaced: [1] })
      const before = oracleReadGarc(a.bytes)
      const after = oracleReadGarc(read(out))
      expect(after.version).toBe(before.version)
      expect(after.alignment).toBe(before.alignment)
      expect(after.entries.length).toBe(before.entries.length)
      expect(after.entries[10]!.bytes[0]).toBe(0x11) // 1.bin was stored LZ11: so again
      expect(same(oracleLz11(after.entries[10]!.bytes), tex)).toBe(true)
      expect(same(after.entries[14]!.bytes, mot)).toBe(true) // 5.bin was plain
      for (let i = 0; i < before.entries.length; i++) if (i !== 10 && i !== 14) expect(same(after.entries[i]!.bytes, before.entries[i]!.bytes), `entry ${i}`).toBe(true)
    })

    it('--layeredfs DIR --title ID writes DIR/luma/titles/ID/romfs/a/0/9/4 (the path below romfs)', async () => {
      const lfs = path.join(dir, 'sd')
      const r = await cli(['gf', 'garc', 'pack', arc, '--layeredfs', lfs, '--title', '00040000001B5100', '--json'])
      expect(r.code, r.stderr).toBe(0)
      const target = path.join(lfs, 'luma', 'titles', '00040000001B5100', 'romfs', 'a', '0', '9', '4')
      expect(r.json().out).toBe(target)
      expect(same(read(target), a.bytes)).toBe(true)
      // an archive found outside any romfs folder: its file name
      const loose = path.join(dir, 'model.garc')
      writeFileSync(loose, a.bytes)
      const r2 = await cli(['gf', 'garc', 'pack', loose, '--layeredfs', lfs, '--title', '00040000001B5000', '--json'])
      expect(r2.code, r2.stderr).toBe(0)
      expect(r2.json().out).toBe(path.join(lfs, 'luma', 'titles', '00040000001B5000', 'romfs', 'model.garc'))
    })

    it('GARC#N works wherever a set is taken: the same answers as the extracted folder', async () => {
      const folder = path.join(dir, 'x', '0001')
      for (const cmd of ['info', 'textures', 'models', 'motions']) {
        const fromArc = await cli(['gf', cmd, `${arc}#1`, '--json'])
        const fromDir = await cli(['gf', cmd, folder, '--json'])
        expect(fromArc.code, `${cmd}: ${fromArc.stderr}`).toBe(fromDir.code)
        expect(fromArc.json(), cmd).toEqual(fromDir.json())
      }
      const png = path.join(dir, 'png')
      const r = await cli(['gf', 'extract', `${arc}#1`, '--out', png, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(readdirSync(path.join(png, '1'))).toContain('0_pm0025_00_BodyA1.png')
      const glb = path.join(dir, 'one.glb')
      const e = await cli(['gf', 'export', `${arc}#2`, '--out', glb, '--json'])
      expect(e.code, e.stderr).toBe(0)
      expect(read(glb).subarray(0, 4)).toEqual(new Uint8Array([0x67, 0x6c, 0x54, 0x46])) // "glTF"
    })

    it('gf replace GARC#N --out NEW: the texture re-encoded in the new archive, every other entry byte for byte', async () => {
      // 1.bin entry 2 is RGBA8 32×32 (lossless): a new picture comes back exactly
      const p = new PNG({ width: 32, height: 32 })
      for (let i = 0; i < 32 * 32; i++) p.data.set([i & 255, (i * 7) & 255, 90, 255], i * 4)
      const pngFile = path.join(dir, 'eye.png')
      writeFileSync(pngFile, PNG.sync.write(p))
      const out = path.join(dir, 'replaced')
      const r = await cli(['gf', 'replace', `${arc}#2`, '--out', out, '--texture', `1.bin:2=${pngFile}`, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.json().out).toBe(out)
      expect(r.json().replaced).toMatchObject([{ file: '1.bin', entry: 2, format: 'RGBA8', psnr: null }])
      const before = oracleReadGarc(a.bytes)
      const after = oracleReadGarc(read(out))
      for (let i = 0; i < before.entries.length; i++) if (i !== 19) expect(same(after.entries[i]!.bytes, before.entries[i]!.bytes), `entry ${i}`).toBe(true)
      const back = path.join(dir, 'back')
      expect((await cli(['gf', 'extract', `${out}#2`, '--out', back])).code).toBe(0)
      const got = PNG.sync.read(readFileSync(path.join(back, '1', readdirSync(path.join(back, '1')).find((n) => n.startsWith('2_'))!)))
      expect(Buffer.compare(got.data, p.data)).toBe(0)
    })

    it('gf export-all GARC: one glb per set, the manifest names them', async () => {
      const out = path.join(dir, 'all')
      const r = await cli(['gf', 'export-all', arc, '--out', out, '--json'])
      expect(r.code).toBe(1) // set 3 is empty: listed with its error, the rest go on
      const m = r.json() as { set: string; glb: string | null; name: string; error?: string }[]
      expect(m.map((x) => [x.set, x.glb, x.name])).toEqual([
        [`${arc}#0`, '0000.glb', 'pm0999_00'], [`${arc}#1`, '0001.glb', 'Pikachu'], [`${arc}#2`, '0002.glb', 'Pikachu (form 3)'], [`${arc}#3`, null, 'set 3'],
      ])
      expect(m[3]!.error).toMatch(/empty/)
      expect(readdirSync(out).sort()).toEqual(['0000.glb', '0001.glb', '0002.glb', 'manifest.json'])
    })
  })
}

describe('the output rule', () => {
  let arc: string
  beforeAll(() => {
    arc = path.join(tmp, 'rule.garc')
    writeFileSync(arc, buildModelArchive(6).bytes)
  })
  it('an existing --out: exit 1 naming --force, untouched; --force replaces it', async () => {
    const out = path.join(tmp, 'rule-out')
    writeFileSync(out, 'keep')
    const r = await cli(['gf', 'garc', 'pack', arc, '--out', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/--force/)
    expect(readFileSync(out, 'utf8')).toBe('keep')
    const f = await cli(['gf', 'garc', 'pack', arc, '--out', out, '--force'])
    expect(f.code, f.stderr).toBe(0)
    expect(same(read(out), read(arc))).toBe(true)
    expect(readdirSync(tmp).filter((n) => n.includes('.tmp'))).toEqual([])
  })
  it('an existing extract folder: exit 1 naming --force; --force replaces it whole', async () => {
    const out = path.join(tmp, 'rule-x')
    mkdirSync(out)
    writeFileSync(path.join(out, 'old.txt'), 'old')
    const r = await cli(['gf', 'garc', 'extract', arc, '--out', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/--force/)
    const f = await cli(['gf', 'garc', 'extract', arc, '--out', out, '--force'])
    expect(f.code, f.stderr).toBe(0)
    expect(readdirSync(out).sort()).toEqual(['0000', '0001', '0002', '0003', 'entries'])
  })
  it('--out naming the input, or a folder holding it, is refused even with --force', async () => {
    for (const out of [arc, tmp]) {
      const r = await cli(['gf', 'garc', 'pack', arc, '--out', out, '--force'])
      expect(r.code, out).toBe(1)
      expect(r.stderr).toMatch(/input/)
    }
    expect(statSync(arc).size).toBe(buildModelArchive(6).bytes.length)
  })
  it('usage: --layeredfs without --title, a bad title, both --out and --layeredfs', async () => {
    expect((await cli(['gf', 'garc', 'pack', arc, '--layeredfs', tmp])).code).toBe(2)
    expect((await cli(['gf', 'garc', 'pack', arc, '--layeredfs', tmp, '--title', 'USUM'])).code).toBe(2)
    expect((await cli(['gf', 'garc', 'pack', arc, '--layeredfs', tmp, '--title', '00040000001B5000', '--out', 'x'])).code).toBe(2)
  })
})

describe('truncated or inconsistent archives: exit 1 with file, structure, offset; nothing written', () => {
  const good = () => buildModelArchive(4).bytes
  const cases: [string, () => Uint8Array, RegExp][] = [
    ['truncated', () => good().subarray(0, good().length - 100), /GARC header at 0x14: file size field/],
    ['FATB file count', () => { const b = good().slice(); const dv = new DataView(b.buffer); const fatb = 0x1c + dv.getUint32(0x20, true); dv.setUint32(fatb + 8, 7, true); return b }, /FATB at 0x[0-9A-F]+: file count 7/],
    ['an entry past the end', () => { const b = good().slice(); const dv = new DataView(b.buffer); const fatb = 0x1c + dv.getUint32(0x20, true); dv.setUint32(fatb + 12 + 16 * 38 + 8, 0x7ffffff0, true); return b }, /FATB record 38 at 0x[0-9A-F]+: /],
  ]
  for (const [label, make, re] of cases) {
    it(label, async () => {
      const f = path.join(tmp, `bad-${label.replace(/\W+/g, '-')}`)
      writeFileSync(f, make())
      for (const argv of [['gf', 'garc', f, '--json'], ['gf', 'garc', 'extract', f, '--out', `${f}.x`], ['gf', 'garc', 'pack', f, '--out', `${f}.p`], ['gf', 'info', `${f}#0`]]) {
        const r = await cli(argv)
        expect(r.code, argv.join(' ')).toBe(1)
        expect(r.stderr).toContain(f)
        expect(r.stderr).toMatch(re)
      }
      expect(existsSync(`${f}.x`)).toBe(false)
      expect(existsSync(`${f}.p`)).toBe(false)
    })
  }
  it('an entry of a set that starts 0x11 and does not decode: the set is an error, the listing is not', async () => {
    const entries = buildModelArchive(6).content.slice(0, 9)
    entries[4] = h('11 06 00 00 80 20 05 00') // distance 6 with nothing decoded
    const f = path.join(tmp, 'bad-lz.garc')
    writeFileSync(f, buildGarc({ version: 6, entries: [...entries, simpleLz11(new Uint8Array(50))] }))
    const list = await cli(['gf', 'garc', f, '--json'])
    expect(list.code, list.stderr).toBe(0)
    expect(list.json().entries.map((e: { compressed: boolean }) => e.compressed)).toEqual([false, false, false, false, false, false, false, false, false, true])
    const r = await cli(['gf', 'info', `${f}#0`])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/GARC entry 4 \(set 0, 4\.bin\) LZ11 at 0x[0-9A-F]+: .*before the first output byte/)
    const x = await cli(['gf', 'garc', 'extract', f, '--out', `${f}.x`])
    expect(x.code).toBe(1)
    expect(existsSync(`${f}.x`)).toBe(false)
  })
})
