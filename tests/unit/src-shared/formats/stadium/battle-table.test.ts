/** §15.5 labelling details settled against the pipeline's build.py, and §15.1 table lookup. */
import { describe, expect, it } from 'vitest'
import { labelAnimations, readBattleTable, type BattleTable } from '../../../../../src-shared/formats/stadium/battle-table'
import { modelSlug, modelDisplayName } from '../../../../../src-shared/formats/stadium/names'

function table(rows: [anim: number, aux: number][]): BattleTable {
  return { entry: 0, romOffset: 0, entries: rows.map(([anim, aux]) => ({ anim, aux, attach: 0, triggerFrame: 0, effect: 0, startFrameBoth: 0, playStartFrame: 0, raw: [] })) }
}

describe('labelAnimations', () => {
  it('pairs the most common texture animation; a tie goes to the one met first in entry order (Counter.most_common)', () => {
    const rows: [number, number][] = Array.from({ length: 185 }, () => [0, -1])
    rows[3] = [1, 2] // aux 2 met first
    rows[4] = [1, 0]
    rows[5] = [1, 0]
    rows[6] = [1, 2]
    rows[7] = [1, 7] // ≥ texture-animation count: not valid
    rows[8] = [1, 7]
    rows[9] = [1, 7]
    const l = labelAnimations(table(rows), 2, 3)
    expect(l.labels[1]!.pairedTextureAnimation).toBe(2)
    rows[4] = [1, 2]
    rows[3] = [1, 0] // now aux 0 is met first, still a 2–2 tie
    rows[6] = [1, 0]
    rows[5] = [1, 2]
    expect(labelAnimations(table(rows), 2, 3).labels[1]!.pairedTextureAnimation).toBe(0)
  })
})

describe('readBattleTable', () => {
  const rom = new Uint8Array(0x70d3a0 + 3 * 0xb90)
  rom[0x70d3a0 + 2 * 0xb90] = 9
  it('uses the pointer table when it is there', () => {
    new DataView(rom.buffer).setUint32(0x767d0 + 4, 2 * 0xb90)
    const t = readBattleTable(rom, 1)!
    expect(t.romOffset).toBe(0x70d3a0 + 2 * 0xb90)
    expect(t.entries[0]!.anim).toBe(9)
    expect(t.warning).toBeUndefined()
  })
  it('a zero pointer past entry 0 means no pointer table: the US stride, with a warning', () => {
    new DataView(rom.buffer).setUint32(0x767d0 + 8, 0)
    const t = readBattleTable(rom, 2)!
    expect(t.romOffset).toBe(0x70d3a0 + 2 * 0xb90)
    expect(t.warning).toMatch(/D_80075BD0\[2\]/)
    expect(readBattleTable(rom, 0)!.romOffset).toBe(0x70d3a0)
  })
})

describe('model names', () => {
  it('species slugs NNN_lowercasename, every other file x<NNN>_model', () => {
    expect(modelSlug(24)).toBe('025_pikachu')
    expect(modelSlug(121)).toBe('122_mrmime')
    expect(modelDisplayName(121)).toBe('Mr. Mime')
    expect(modelDisplayName(28)).toBe('Nidoran♀')
    expect([151, 152, 153, 214].map(modelSlug)).toEqual(['x151_model', 'x152_model', 'x153_model', 'x214_model'])
    expect(modelDisplayName(151)).toBe('Substitute doll')
    expect(modelDisplayName(152)).toBe('Surfing Pikachu')
  })
})
