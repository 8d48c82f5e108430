import { describe, expect, it } from 'vitest'
import { PICA_FORMATS, levelSize, mipChain, picaFormatId } from '../../../../../src-shared/formats/pica/texture-format'
import { GF_TEXTURE_FORMATS } from '../../../../../src-shared/formats/gf/texture'
import { encodePicaWithMips } from '../../../../../src-shared/formats/pica/texture-codec'

describe('PICA formats (spec §9.2)', () => {
  it('hardware ids 0–13 in the order of the spec table', () => {
    expect(picaFormatId('RGBA8')).toBe(0)
    expect(picaFormatId('RGB565')).toBe(3)
    expect(picaFormatId('HILO8')).toBe(6)
    expect(picaFormatId('ETC1A4')).toBe(13)
  })

  it('level-0 bytes per the spec table for a 64×32 level', () => {
    const expected: Record<string, number> = { RGBA8: 8192, RGB8: 6144, RGBA5551: 4096, RGB565: 4096, RGBA4: 4096, LA8: 4096, HILO8: 4096, L8: 2048, A8: 2048, LA4: 2048, L4: 1024, A4: 1024, ETC1: 1024, ETC1A4: 2048 }
    for (const f of PICA_FORMATS) expect(levelSize(f, 64, 32)).toBe(expected[f])
  })

  it('GF format ids map onto all 14 formats', () => {
    expect([...GF_TEXTURE_FORMATS.keys()]).toEqual([0x02, 0x03, 0x04, 0x16, 0x17, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b])
    expect(new Set(GF_TEXTURE_FORMATS.values()).size).toBe(14)
  })

  it('mip chain: halves each level, stops below 8 texels', () => {
    expect(mipChain('RGBA8', 32, 16, 4)).toEqual([
      { width: 32, height: 16, offset: 0, size: 2048 },
      { width: 16, height: 8, offset: 2048, size: 512 },
    ])
    expect(mipChain('ETC1', 64, 64, 3).map((l) => l.offset)).toEqual([0, 2048, 2560])
    expect(encodePicaWithMips(new Uint8Array(64 * 64 * 4), 64, 64, 'L8', 3).byteLength).toBe(4096 + 1024 + 256)
  })
})
