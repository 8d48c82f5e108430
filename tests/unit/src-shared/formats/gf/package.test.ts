import { describe, expect, it } from 'vitest'
import { parsePackage, entryBytes } from '../../../../../src-shared/formats/gf/package'
import { classifyEntry } from '../../../../../src-shared/formats/gf/entry-kind'
import { repackPackage } from '../../../../../src-shared/formats/gf/repack'
import { FormatError } from '../../../../../src-shared/binary/errors'
import { formatErrorOf } from '../../../../helpers/errors'

const hex = (s: string) => Uint8Array.from(s.trim().split(/\s+/).map((h) => parseInt(h, 16)))

// Spec §15.1
const PKG = hex(`50 43 03 00 14 00 00 00 1C 00 00 00 1C 00 00 00
24 00 00 00 13 12 04 15 41 42 43 44 00 00 06 00
01 02 00 00`)

const catchErr = formatErrorOf

describe('GF package (spec §2, §15.1)', () => {
  it('parses the 3-entry vector', () => {
    const p = parsePackage(PKG, { file: 'x.bin' })
    expect(p.magic).toBe('PC')
    expect(p.offsets).toEqual([0x14, 0x1c, 0x1c, 0x24])
    expect(p.entries).toEqual([
      { index: 0, offset: 0x14, length: 8 },
      { index: 1, offset: 0x1c, length: 0 },
      { index: 2, offset: 0x1c, length: 8 },
    ])
    expect(p.warnings).toEqual([])
    expect(classifyEntry(entryBytes(PKG, p, 0)).kind).toBe('texture')
    expect(classifyEntry(entryBytes(PKG, p, 1))).toMatchObject({ kind: 'unknown', note: 'empty' })
    expect(classifyEntry(entryBytes(PKG, p, 2)).kind).toBe('motion')
  })

  it('repacks the vector with no change to the same 36 bytes', () => {
    const p = parsePackage(PKG)
    expect(Array.from(repackPackage(PKG, p, new Map()))).toEqual(Array.from(PKG))
  })

  it('classifies every signature of spec §3', () => {
    const sig = (...b: number[]) => Uint8Array.from([...b, 0, 0, 0, 0])
    expect(classifyEntry(sig(0x17, 0x21, 0x12, 0x15)).kind).toBe('model')
    expect(classifyEntry(sig(0x13, 0x12, 0x04, 0x15)).kind).toBe('texture')
    expect(classifyEntry(sig(0x00, 0x00, 0x06, 0x00)).kind).toBe('motion')
    expect(classifyEntry(sig(0x42, 0x43, 0x48, 0x00)).kind).toBe('bch')
    expect(classifyEntry(sig(0x01, 0x02, 0x03, 0x04)).kind).toBe('unknown')
    expect(classifyEntry(PKG).kind).toBe('package')
    // "PC" with a table that does not fit is not a package
    expect(classifyEntry(hex('50 43 FF 00 00 00 00 00')).kind).toBe('unknown')
  })

  it('structural fallback: "texture" at +0x08 with an unknown first u32', () => {
    const e = new Uint8Array(0x80)
    e.set([0x99, 0x99, 0x99, 0x99], 0)
    e.set(Array.from('texture\0', (c) => c.charCodeAt(0)), 8)
    const c = classifyEntry(e, { file: 'f.bin', entry: 3 })
    expect(c.kind).toBe('texture')
    expect(c.warning).toMatch(/0x99999999/)
  })

  it('warns (not fails) when off[N] is not the file length', () => {
    const p = parsePackage(Uint8Array.from([...PKG, 0xee, 0xee]), { file: 'x.bin' })
    expect(p.tailLength).toBe(2)
    expect(p.warnings[0]).toMatch(/trailing/)
  })

  describe('bad input names file, structure, entry and offset', () => {
    it('truncated header', () => {
      const e = catchErr(() => parsePackage(PKG.subarray(0, 3), { file: '1.bin' }))
      expect(e.file).toBe('1.bin')
      expect(e.message).toMatch(/too short/)
    })
    it('bad magic', () => {
      const b = PKG.slice()
      b[0] = 0x70
      expect(catchErr(() => parsePackage(b, { file: '1.bin' })).message).toMatch(/upper-case/)
    })
    it('absurd count', () => {
      const b = PKG.slice()
      b[2] = 0xff; b[3] = 0xff
      const e = catchErr(() => parsePackage(b, { file: '1.bin' }))
      expect(e.message).toMatch(/entry count 65535/)
      expect(e.offset).toBe(2)
    })
    it('offset past the end', () => {
      const b = PKG.slice()
      b[0x0c] = 0x40 // entry 2 start = 0x40 > 0x24
      const e = catchErr(() => parsePackage(b, { file: '1.bin' }))
      expect(e.message).toMatch(/entry 2 start 0x40 is past the end/)
      expect(e.offset).toBe(0x0c)
      expect(e.structure).toMatch(/entry 2/)
    })
    it('offsets not increasing', () => {
      const b = PKG.slice()
      b[0x08] = 0x20 // entry 1 = 0x20 > entry 2 = 0x1C
      const e = catchErr(() => parsePackage(b, { file: '1.bin' }))
      expect(e.message).toMatch(/not increasing/)
      expect(e.offset).toBe(0x0c)
    })
    it('first entry inside the header', () => {
      const b = PKG.slice()
      b[0x04] = 0x08
      expect(catchErr(() => parsePackage(b, { file: '1.bin' })).message).toMatch(/inside the header/)
    })
    it('truncated file (cap past the end)', () => {
      const e = catchErr(() => parsePackage(PKG.subarray(0, 0x20), { file: '4.bin' }))
      expect(e.message).toMatch(/end of the last entry 0x24 is past the end/)
      expect(e.file).toBe('4.bin')
    })
  })
})

describe('BCH summary (spec §13)', () => {
  it('reads the versions and the 15 counts; a short header is an error', async () => {
    const { buildBchStub } = await import('../../../../fixtures/gf/build-set')
    const { parseBchSummary } = await import('../../../../../src-shared/formats/gf/bch')
    const b = buildBchStub()
    const s = parseBchSummary(b)
    expect(s.backwardVersion).toBe(0x21)
    expect(s.counts.models).toBe(1)
    expect(s.counts.textures).toBe(2)
    expect(s.counts.scenes).toBe(0)
    expect(() => parseBchSummary(b.subarray(0, 0x60), { file: '8.bin', entry: 0 })).toThrow(/8\.bin: BCH \(entry 0\).*BCH\.contents/)
  })
})
