/**
 * GARC reader and writer (spec gf-packages §19): the §19.7 archive byte by byte, fixture archives of
 * both versions (laid out by tests/fixtures/gf/build-garc.ts from the spec), every "bad archive"
 * rule of §19.6 with its offset computed by hand, and the writer's output read by the second-hand
 * reader of tests/oracles/garc-reader.ts.
 */
import { describe, expect, it } from 'vitest'
import { FormatError } from '../../../../../src-shared/binary/errors'
import { garcSets, garcLooseEntries, garcStoredBytes, garcTablesExtent, parseGarc, parseGarcTables } from '../../../../../src-shared/formats/gf/garc'
import { buildGarcTables, repackGarc, storeLike, verifyGarcRepack, writeGarc } from '../../../../../src-shared/formats/gf/garc-write'
import { garcSetMember, garcSetName, firstTextureName } from '../../../../../src-shared/formats/gf/garc-set'
import { isLz11 } from '../../../../../src-shared/formats/gf/lz11'
import { romfsRelative } from '../../../../../src-shared/formats/gf/romfs-path'
import { garcSourceName } from '../../../../../src-shared/formats/gf/domain'
import { speciesName, SPECIES_MAX } from '../../../../../src-shared/formats/gf/species'
import { buildGarc, buildModelArchive, simpleLz11 } from '../../../../fixtures/gf/build-garc'
import { oracleLz11, oracleReadGarc } from '../../../../oracles/garc-reader'
import { formatErrorOf } from '../../../../helpers/errors'

/** The §19.7 dump, as printed in the spec (16 bytes a row). */
const SPEC = new Uint8Array(
  `43 52 41 47 24 00 00 00 FF FE 00 06 04 00 00 00
   70 00 00 00 80 00 00 00 08 00 00 00 08 00 00 00
   04 00 00 00 4F 54 41 46 14 00 00 00 02 00 FF FF
   00 00 00 00 10 00 00 00 42 54 41 46 2C 00 00 00
   02 00 00 00 01 00 00 00 00 00 00 00 08 00 00 00
   05 00 00 00 01 00 00 00 08 00 00 00 10 00 00 00
   08 00 00 00 42 4D 49 46 0C 00 00 00 10 00 00 00
   01 02 03 04 05 FF FF FF 11 06 00 00 40 41 40 00`.split(/\s+/).map((x) => parseInt(x, 16)),
)

const errorOf = formatErrorOf

describe('§19.7 archive', () => {
  it('parses to the listed entries', () => {
    const g = parseGarc(SPEC, { file: 'spec.garc' })
    expect(g.version).toBe(1536)
    expect(g.alignment).toBe(4)
    expect(g.dataOffset).toBe(0x70)
    expect(g.entries.map((e) => [e.index, e.offset, e.length])).toEqual([[0, 112, 5], [1, 120, 8]])
    expect(g.entries.map((e) => isLz11(garcStoredBytes(SPEC, g, e.index)))).toEqual([false, true])
    expect(garcSets(g)).toEqual([])
    expect(garcLooseEntries(g)).toEqual([0, 1])
  })
  it('the writer reproduces it byte for byte', () => {
    const out = writeGarc(0x600, 4, [new Uint8Array([1, 2, 3, 4, 5]), new Uint8Array([0x11, 6, 0, 0, 0x40, 0x41, 0x40, 0])])
    expect(Buffer.from(out).toString('hex')).toBe(Buffer.from(SPEC).toString('hex'))
  })
  it('the tables extent from a growing prefix ends at the data offset', () => {
    let need = garcTablesExtent(new Uint8Array(0))
    for (let k = 0; k < 5; k++) need = garcTablesExtent(SPEC.subarray(0, need))
    expect(need).toBe(0x70)
    expect(parseGarcTables(SPEC.subarray(0, 0x70), 0x80).entries.length).toBe(2)
  })
  it('an absurd header size, FATO size or FATB size stops the tables read where it is', () => {
    for (const [at, v] of [[4, 0xfffffff0], [0x28, 0x7ffffff0], [0x3c, 0xfffffff0]] as const) {
      const b = SPEC.slice()
      new DataView(b.buffer).setUint32(at, v, true)
      expect(garcTablesExtent(b.subarray(0, 0x40)), `field at ${at}`).toBe(0x40)
    }
  })
})

/** `f` mutates a copy of SPEC; the error must name the file, `structure` and `offset`. */
function bad(label: string, f: (b: Uint8Array, dv: DataView) => Uint8Array | void, structure: string, offset: number): void {
  it(label, () => {
    const b = SPEC.slice()
    const out = f(b, new DataView(b.buffer)) ?? b
    const e = errorOf(() => parseGarc(out, { file: 'dump/romfs/a/0/9/4' }))
    expect(e.file).toBe('dump/romfs/a/0/9/4')
    expect(e.structure).toBe(structure)
    expect(e.offset, e.message).toBe(offset)
  })
}

describe('bad archives (§19.6): file, structure, offset', () => {
  bad('magic', (b) => void (b[0] = 0x47), 'GARC header', 0)
  bad('byte-order mark', (b, dv) => dv.setUint16(8, 0xfffe, true), 'GARC header', 8)
  bad('version', (b, dv) => dv.setUint16(0xa, 0x500, true), 'GARC header', 0xa)
  bad('header size 0x1C in a v6 header', (b, dv) => dv.setUint32(4, 0x1c, true), 'GARC header', 4)
  bad('section count', (b, dv) => dv.setUint32(0xc, 3, true), 'GARC header', 0xc)
  bad('file size field', (b, dv) => dv.setUint32(0x14, 0x84, true), 'GARC header', 0x14)
  bad('truncated by 4 bytes', (b) => b.subarray(0, 0x7c), 'GARC header', 0x14)
  bad('FATO size', (b, dv) => dv.setUint32(0x28, 0x18, true), 'FATO', 0x28)
  bad('FATO offset past the FATB', (b, dv) => dv.setUint32(0x34, 0x40, true), 'FATO entry 1', 0x34)
  bad('FATB magic', (b) => void (b[0x38] = 0), 'FATB', 0x38)
  bad('FATB file count', (b, dv) => dv.setUint32(0x40, 3, true), 'FATB', 0x40)
  bad('bit vector 3', (b, dv) => dv.setUint32(0x44, 3, true), 'FATB record 0', 0x44)
  bad('start after end', (b, dv) => dv.setUint32(0x48, 0xc, true), 'FATB record 0', 0x48)
  bad('length more than end − start', (b, dv) => dv.setUint32(0x50, 9, true), 'FATB record 0', 0x50)
  bad('entry past the end of the file', (b, dv) => dv.setUint32(0x5c, 0x14, true), 'FATB record 1', 0x5c)
  bad('FIMB magic', (b) => void (b[0x64] = 0), 'FIMB', 0x64)
  bad('FIMB data size', (b, dv) => dv.setUint32(0x6c, 0x14, true), 'FIMB', 0x6c)
  bad('data offset not after FIMB', (b, dv) => dv.setUint32(0x10, 0x74, true), 'GARC header', 0x10)
  it('a FATB cut short (the file ends inside the tables) is an error, not a crash', () => {
    const b = SPEC.slice(0, 0x4c)
    new DataView(b.buffer).setUint32(0x14, 0x4c, true)
    const e = errorOf(() => parseGarc(b, { file: 'cut' }))
    expect(e.file).toBe('cut')
    expect(e.offset).toBeLessThanOrEqual(0x4c)
  })
})

describe('model archives of both versions (fixture builder)', () => {
  for (const version of [4, 6] as const) {
    const a = buildModelArchive(version, { alignment: version === 6 ? 0x80 : undefined })
    const g = parseGarc(a.bytes)
    it(`v${version}: 4 sets, 3 entries outside, LZ11 where stored so`, () => {
      expect(g.version).toBe(version === 6 ? 0x600 : 0x400)
      expect(g.alignment).toBe(version === 6 ? 0x80 : 4)
      expect(g.entries.length).toBe(39)
      expect(garcSets(g).map((s) => s.first)).toEqual([0, 9, 18, 27])
      expect(garcLooseEntries(g)).toEqual([36, 37, 38])
      for (const e of g.entries) {
        const stored = garcStoredBytes(a.bytes, g, e.index)
        expect(isLz11(stored), `entry ${e.index}`).toBe(a.compressed[e.index])
        expect(a.compressed[e.index] ? oracleLz11(stored) : stored).toEqual(a.content[e.index])
      }
    })
    it(`v${version}: the writer lays out what the builder lays out (pk3DS rules)`, () => {
      const stored = g.entries.map((e) => garcStoredBytes(a.bytes, g, e.index))
      expect(Buffer.compare(writeGarc(g.version, g.alignment, stored), a.bytes)).toBe(0)
    })
    it(`v${version}: no change → the input; one set replaced → the oracle reads it, every other entry identical`, () => {
      expect(Buffer.compare(repackGarc(a.bytes, g, new Map()), a.bytes)).toBe(0)
      const changes = new Map<number, Uint8Array>()
      const newTex = a.content[10]!.slice()
      newTex[newTex.length - 1] ^= 0x5a
      changes.set(10, storeLike(garcStoredBytes(a.bytes, g, 10), newTex)) // set 1's 1.bin, stored LZ11
      changes.set(13, new Uint8Array(333).fill(3))
      const out = repackGarc(a.bytes, g, changes)
      verifyGarcRepack(a.bytes, g, out, changes)
      const o = oracleReadGarc(out)
      expect(o.version).toBe(g.version)
      expect(o.alignment).toBe(g.alignment)
      for (const e of o.entries) expect(e.start % g.alignment).toBe(0)
      expect(oracleLz11(o.entries[10]!.bytes)).toEqual(newTex)
      expect(o.entries[13]!.bytes).toEqual(new Uint8Array(333).fill(3))
      for (const e of g.entries) if (!changes.has(e.index)) expect(Buffer.compare(o.entries[e.index]!.bytes, garcStoredBytes(a.bytes, g, e.index)), `entry ${e.index}`).toBe(0)
      // largest fields (§19.1) by hand from the oracle's lengths
      const lens = o.entries.map((e) => e.length)
      const max = Math.max(...lens)
      if (version === 6) {
        expect(o.largestUnpadded).toBe(max)
        expect(o.largest).toBe(Math.ceil(max / 0x80) * 0x80)
      } else expect(o.largest).toBe(max)
    })
  }
  it('a padding byte other than 0xFF reads the same and repacks with 0xFF', () => {
    const a = buildGarc({ version: 6, alignment: 8, entries: [new Uint8Array([1]), new Uint8Array([2, 2])], fill: 0 })
    const g = parseGarc(a)
    expect(Buffer.compare(repackGarc(a, g, new Map()), a)).toBe(0)
    const out = repackGarc(a, g, new Map([[1, new Uint8Array([3])]]))
    expect([...out.subarray(g.dataOffset, g.dataOffset + 16)]).toEqual([1, 255, 255, 255, 255, 255, 255, 255, 3, 255, 255, 255, 255, 255, 255, 255])
  })
  it('tables of 9 000 entries: FATO offsets 16 × i, data offset after 0xC + 4n + 0xC + 16n', () => {
    const l = buildGarcTables(0x600, 4, new Array(9000).fill(5))
    expect(l.dataOffset).toBe(0x24 + 0xc + 4 * 9000 + 0xc + 16 * 9000 + 0xc)
    expect(l.fileSize).toBe(l.dataOffset + 8 * 9000)
  })
})

describe('set members and names (§19.6)', () => {
  const a = buildModelArchive(6)
  const g = parseGarc(a.bytes)
  it('members are decompressed, empty entries are missing', () => {
    expect(garcSetMember(garcStoredBytes(a.bytes, g, 10), g.entries[10]!, 1, 'arc')).toEqual(a.content[10])
    expect(garcSetMember(new Uint8Array(0), g.entries[27]!, 3, 'arc')).toBeNull()
  })
  it('a set entry starting 0x11 that does not decode is an error naming the entry', () => {
    const e = errorOf(() => garcSetMember(new Uint8Array([0x11, 9, 0, 0, 0x80, 0x20, 0x05]), g.entries[4]!, 0, 'arc'))
    expect(e.file).toBe('arc')
    expect(e.structure).toBe('GARC entry 4 (set 0, 4.bin) LZ11')
    expect(e.offset).toBe(g.entries[4]!.offset + 5)
  })
  it('a set entry that is not a PC package is an error', () => {
    const e = errorOf(() => garcSetMember(new Uint8Array([1, 2, 3, 4]), g.entries[5]!, 0, 'arc'))
    expect(e.message).toMatch(/arc: GARC entry 5 \(set 0, 5\.bin\) at 0x[0-9A-F]+: .*not a "PC" package/)
  })
  it('names: species and form, beyond 807, none', () => {
    expect(garcSetName('pm0025_00_BodyA1', 1)).toBe('Pikachu')
    expect(garcSetName('pm0025_03_BodyA1', 1)).toBe('Pikachu (form 3)')
    expect(garcSetName('pm0001_10', 0)).toBe('Bulbasaur (form 10)')
    expect(garcSetName('pm0807_00_x', 0)).toBe('Zeraora')
    expect(garcSetName('pm0808_00_x', 0)).toBe('pm0808_00')
    expect(garcSetName('pm0000_00_x', 0)).toBe('pm0000_00')
    expect(garcSetName('Body', 12)).toBe('set 12')
    expect(garcSetName(null, 7)).toBe('set 7')
  })
  it('the first texture name from the first bytes of 1.bin (asks for more when cut)', () => {
    const tex = a.content[10]!
    const need = firstTextureName(tex.subarray(0, 8))
    expect(need).toHaveProperty('need')
    const probe = firstTextureName(tex.subarray(0, (need as { need: number }).need))
    expect(probe).toEqual({ name: 'pm0025_00_BodyA1' })
  })
  it('the fixture LZ11 encoder is read by both decoders the same way', () => {
    const d = Uint8Array.from({ length: 700 }, (_, i) => (i < 300 ? 4 : i & 0xff))
    expect(oracleLz11(simpleLz11(d))).toEqual(d)
  })
})

describe('paths below romfs (§19.8)', () => {
  it('the nearest romfs folder, either separator; none → null', () => {
    expect(romfsRelative('/home/u/usum/romfs/a/0/9/4')).toBe('a/0/9/4')
    expect(romfsRelative('C:\\dumps\\usum\\romfs\\a\\0\\9\\4')).toBe('a/0/9/4')
    expect(romfsRelative('/x/romfs/y/romfs/a/0/9/4')).toBe('a/0/9/4')
    expect(romfsRelative('/x/model.garc')).toBeNull()
    expect(romfsRelative('/x/romfs')).toBeNull()
  })
  it('the tree names a model archive after it', () => {
    expect(garcSourceName('/home/u/usum/romfs/a/0/9/4')).toBe('Pokémon models (a/0/9/4)')
    expect(garcSourceName('/x/model.garc')).toBe('Pokémon models (model.garc)')
  })
})

describe('species names (national dex 1–807)', () => {
  it('the last species of each generation, and the ends of the table', () => {
    const last: [number, string][] = [[151, 'Mew'], [251, 'Celebi'], [386, 'Deoxys'], [493, 'Arceus'], [649, 'Genesect'], [721, 'Volcanion'], [807, 'Zeraora']]
    for (const [dex, name] of last) expect(speciesName(dex), String(dex)).toBe(name)
    expect([speciesName(1), speciesName(25), speciesName(122), speciesName(772), speciesName(785)]).toEqual(['Bulbasaur', 'Pikachu', 'Mr. Mime', 'Type: Null', 'Tapu Koko'])
    expect(SPECIES_MAX).toBe(807)
    expect([speciesName(0), speciesName(808), speciesName(1.5)]).toEqual([null, null, null])
  })
})
