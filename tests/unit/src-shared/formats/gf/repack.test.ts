import { describe, expect, it } from 'vitest'
import { buildSyntheticSet, buildPackage, gradientPicture } from '../../../../fixtures/gf/build-set'
import { parseGfSet, parseGfFile, listTextures, findTexture } from '../../../../../src-shared/formats/gf/gf-set'
import { parsePackage } from '../../../../../src-shared/formats/gf/package'
import { repackPackage, verifyRepack, inferAlignment } from '../../../../../src-shared/formats/gf/repack'
import { repackSet, ReplacementError } from '../../../../../src-shared/formats/gf/replace'
import { decodeGfTexture } from '../../../../../src-shared/formats/gf/texture'
import { encodePica } from '../../../../../src-shared/formats/pica/texture-codec'
import { downsample2x } from '../../../../../src-shared/formats/pica/image'
import { FormatError } from '../../../../../src-shared/binary/errors'

const same = (a: Uint8Array, b: Uint8Array) => a.byteLength === b.byteLength && a.every((v, i) => v === b[i])

describe('GF set parsing', () => {
  const s = buildSyntheticSet(1)
  const set = parseGfSet(s.files)

  it('classifies entries of every file and reads nested shader packages', () => {
    expect(set.missing).toEqual([])
    const f0 = set.files[0]!
    expect(f0.entries.map((e) => e.kind)).toEqual(['model', 'model', 'package', 'package'])
    expect(f0.entries[2]!.children!.length).toBe(2)
    expect(f0.entries[2]!.children![0]!.offset).toBe(f0.entries[2]!.offset + 16)
    expect(set.files[4]!.entries.map((e) => e.kind)).toEqual(['motion', 'unknown', 'motion'])
    expect(set.files[8]!.entries.map((e) => e.kind)).toEqual(['bch', 'unknown'])
    expect(set.warnings).toEqual([])
  })

  it('lists every texture the builder wrote, with name, size, format and mips', () => {
    const list = listTextures(set)
    expect(list.map((t) => [t.file, t.entry, t.header.name, t.header.width, t.header.height, t.header.format, t.header.mipmaps])).toEqual(
      s.textures.map((t) => [t.file, t.entry, t.spec.name, t.spec.width, t.spec.height, t.spec.format, t.spec.mipmaps ?? 1]),
    )
    expect(new Set(list.map((t) => t.header.format)).size).toBe(14)
  })

  it('lenient parsing records a bad texture instead of throwing', () => {
    const b = s.files.get('3.bin')!.slice()
    const p = parsePackage(b)
    b[p.entries[1]!.offset + 0x6c] = 0x77
    expect(() => parseGfFile('3.bin', b)).toThrow(FormatError)
    const f = parseGfFile('3.bin', b, { lenient: true })
    expect(f.entries[1]!.error).toMatch(/unknown texture format id 0x77/)
    expect(f.entries[1]!.texture).toBeUndefined()
  })

  it('reports a missing file without failing', () => {
    const m = new Map(s.files)
    m.delete('8.bin')
    expect(parseGfSet(m).missing).toEqual(['8.bin'])
  })

  it('warns on a model entry that is not 16-aligned (pk3DS-style 4-byte layout) and still parses', () => {
    const f0 = set.files[0]!
    const entries = f0.pkg.entries.map((e) => f0.bytes.subarray(e.offset, e.offset + e.length))
    const pk = buildPackage(entries, { align: 4 }) // minimal header 0x18: entry 0 at 0x18
    const f = parseGfFile('0.bin', pk)
    expect(f.entries[0]!.kind).toBe('model')
    expect(f.warnings.some((w) => /entry 0 \(model\) starts at 0x18, not a multiple of 16/.test(w))).toBe(true)
  })
})

describe('repack', () => {
  const s = buildSyntheticSet(1)
  const set = parseGfSet(s.files)

  it('no replacement → every file identical byte for byte', () => {
    const r = repackSet(set, [])
    for (const [name, bytes] of s.files) expect(same(r.files.get(name)!, bytes)).toBe(true)
  })

  it('same-size replacement rewrites only that texture\'s pixel bytes', () => {
    for (const target of [{ file: '1.bin', entry: 0 }, { file: '1.bin', entry: 2 }, { file: '3.bin', entry: 6 }]) {
      const ref = findTexture(set, target.file, target.entry)
      const { width: w, height: h } = ref.header
      const img = gradientPicture(w, h, 99, 30)
      const r = repackSet(set, [{ ...target, rgba: img, width: w, height: h }])
      const before = s.files.get(target.file)!
      const after = r.files.get(target.file)!
      expect(after.byteLength).toBe(before.byteLength)
      const start = ref.bytes.byteOffset - before.byteOffset + 0x80
      const end = start + ref.header.dataLength
      let changedInside = 0
      for (let i = 0; i < before.byteLength; i++) {
        if (i >= start && i < end) changedInside += before[i] !== after[i] ? 1 : 0
        else if (before[i] !== after[i]) throw new Error(`byte ${i} outside the pixels changed`)
      }
      expect(changedInside).toBeGreaterThan(0)
      for (const [name, bytes] of s.files) if (name !== target.file) expect(same(r.files.get(name)!, bytes)).toBe(true)
      expect(r.report[0]).toMatchObject({ file: target.file, entry: target.entry, name: ref.header.name })
    }
  })

  it('the replaced texture decodes to the new picture (lossless format)', () => {
    const ref = findTexture(set, '1.bin', 2) // RGBA8
    const img = gradientPicture(32, 32, 5)
    const r = repackSet(set, [{ file: '1.bin', entry: 2, rgba: img, width: 32, height: 32 }])
    const again = findTexture(parseGfSet(r.files), '1.bin', 2)
    expect(same(decodeGfTexture(again.bytes, again.header), img)).toBe(true)
    expect(r.report[0]!.psnr).toBe(Infinity)
    expect(ref.header.format).toBe('RGBA8')
  })

  it('regenerates the mip levels of a texture that has them', () => {
    const ref = findTexture(set, '1.bin', 4) // ETC1 32×32, 3 levels
    expect(ref.header.levels).toBe(3)
    const img = gradientPicture(32, 32, 8)
    const r = repackSet(set, [{ file: '1.bin', entry: 4, rgba: img, width: 32, height: 32 }])
    const again = findTexture(parseGfSet(r.files), '1.bin', 4)
    const lvl1 = again.bytes.subarray(0x80 + 512, 0x80 + 512 + 128)
    expect(same(lvl1, encodePica(downsample2x(img, 32, 32), 16, 16, 'ETC1'))).toBe(true)
  })

  it('a picture of the wrong size is refused', () => {
    expect(() => repackSet(set, [{ file: '1.bin', entry: 0, rgba: new Uint8Array(32 * 32 * 4), width: 32, height: 32 }])).toThrow(ReplacementError)
    expect(() => repackSet(set, [{ file: '4.bin', entry: 0, rgba: new Uint8Array(4), width: 1, height: 1 }])).toThrow(/motion entry, not a texture/)
  })

  it('relayout path: a longer entry moves the following entries, keeps the header and untouched entries', () => {
    const orig = s.files.get('3.bin')!
    const pkg = parsePackage(orig)
    expect(inferAlignment(pkg)).toBe(0x80)
    const bigger = new Uint8Array(pkg.entries[2]!.length + 5).fill(7)
    const out = repackPackage(orig, pkg, new Map([[2, bigger]]))
    const p2 = parsePackage(out)
    expect(p2.entries[2]!.length).toBe(pkg.entries[2]!.length + 0x80)
    expect(p2.entries[3]!.offset % 0x80).toBe(0)
    expect(out.byteLength).toBe(orig.byteLength + 0x80)
    verifyRepack(orig, pkg, out, new Map([[2, bigger]]), '3.bin')
    // the padding after the 0x80-byte header (table slots beyond N+1) is kept
    expect(same(out.subarray(4 + 4 * (pkg.entries.length + 1), 0x80), orig.subarray(4 + 4 * (pkg.entries.length + 1), 0x80))).toBe(true)
  })

  it('verification catches a damaged untouched entry', () => {
    const orig = s.files.get('4.bin')!
    const pkg = parsePackage(orig)
    const out = repackPackage(orig, pkg, new Map())
    out[pkg.entries[2]!.offset + 5] ^= 1
    expect(() => verifyRepack(orig, pkg, out, new Map(), '4.bin')).toThrow(/untouched entry 2 differs/)
  })
})

describe('relayout padding', () => {
  it('pads a changed entry with the fill byte found after the texture pixels', async () => {
    const { buildGfTexture, checkerPicture } = await import('../../../../fixtures/gf/build-set')
    const { inferFill } = await import('../../../../../src-shared/formats/gf/repack')
    const t = (name: string) => buildGfTexture({ name, width: 8, height: 8, format: 'L4', rgba: checkerPicture(8, 8) }) // 0x80 + 32 bytes
    const pk = buildPackage([t('a'), t('b'), t('c')], { headerSize: 0x80, align: 0x80, fill: 0xaa })
    const pkg = parsePackage(pk)
    expect(inferFill(pk, pkg)).toBe(0xaa)
    const longer = new Uint8Array(0x80 + 0x90).fill(1)
    const out = repackPackage(pk, pkg, new Map([[1, longer]]))
    const p2 = parsePackage(out)
    expect(p2.entries[1]!.length).toBe(0x100 + 0x80)
    expect(Array.from(out.subarray(p2.entries[1]!.offset + longer.length, p2.entries[2]!.offset)).every((b) => b === 0xaa)).toBe(true)
    expect(inferFill(buildPackage([t('a')], { align: 4 }), parsePackage(buildPackage([t('a')], { align: 4 })))).toBe(0)
  })
})

describe('advanced path: another size and format', () => {
  it('rebuilds the entry, relays the package out and keeps every other entry', () => {
    const s = buildSyntheticSet(1)
    const set = parseGfSet(s.files)
    const img = gradientPicture(64, 32, 2)
    const r = repackSet(set, [{ file: '3.bin', entry: 3, rgba: img, width: 64, height: 32, reformat: { format: 'RGBA8' } }])
    const out = parseGfSet(r.files)
    const t = findTexture(out, '3.bin', 3)
    expect(t.header).toMatchObject({ width: 64, height: 32, format: 'RGBA8', dataLength: 64 * 32 * 4 })
    expect(same(decodeGfTexture(t.bytes, t.header), img)).toBe(true)
    const before = set.files[3]!, after = out.files[3]!
    for (const e of before.entries) {
      if (e.index === 3) continue
      const a = s.files.get('3.bin')!.subarray(e.offset, e.offset + e.length)
      const b = after.bytes.subarray(after.entries[e.index]!.offset, after.entries[e.index]!.offset + after.entries[e.index]!.length)
      expect(same(a, b)).toBe(true)
      expect(after.entries[e.index]!.offset % 0x80).toBe(0)
    }
    for (const name of ['0.bin', '1.bin', '2.bin', '4.bin']) expect(same(r.files.get(name)!, s.files.get(name)!)).toBe(true)
  })
})
