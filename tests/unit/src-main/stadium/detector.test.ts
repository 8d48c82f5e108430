import { describe, expect, it } from 'vitest'
import { enumerateStadiumRom } from '../../../../src-main/domains/stadium/detector'
import { openRom } from '../../../../src-shared/formats/n64/rom'
import { buildStadiumRom } from '../../../fixtures/stadium/rom-builder'
import { fixtureFiles } from '../../../fixtures/stadium/models'
import { openStadiumRom, loadModel } from '../../../../src-shared/formats/stadium/model'
import { buildStadiumScene } from '../../../../src-shared/formats/stadium/scene'
import { validateScene } from '../../../../src-shared/scene/validate'

describe('Stadium catalog enumeration', () => {
  const rom = buildStadiumRom({ files: fixtureFiles(4) })
  it('game → models in file order → animations', () => {
    const drafts = enumerateStadiumRom(openRom(rom, 'fx.z64'))
    expect(drafts[0]).toMatchObject({ key: 'game', kind: 'stadium-game' })
    const models = drafts.filter((d) => d.kind === 'stadium-model')
    expect(models.map((m) => m.name)).toEqual(['001 Bulbasaur', '002 Ivysaur', '003 Venusaur', '004 Charmander'])
    expect(models.every((m) => m.parentKey === 'game')).toBe(true)
    const anims = drafts.filter((d) => d.kind === 'stadium-animation' && d.parentKey === 'model:0')
    expect(anims.map((a) => a.name)).toEqual(['00 idle', '01 sleep', '02 attack_default', '03 faint', '04 hit'])
    expect(anims[0]!.locator).toEqual({ file: 0, animation: 0 })
  })
  it('lists an unreadable model with its error instead of failing the ROM', () => {
    const bad = rom.slice()
    const v = new DataView(bad.buffer)
    const f1 = 0x920000 + v.getUint32(0x920010 + 16)
    v.setUint32(f1 + v.getUint32(f1 + 8) + 0x10, 0)
    const drafts = enumerateStadiumRom(openRom(bad, 'bad.z64'))
    const m1 = drafts.find((d) => d.key === 'model:1')!
    expect(m1.name).toMatch(/unreadable/)
    expect(String(m1.metadata!.error)).toMatch(/back-reference/)
    expect(drafts.filter((d) => d.kind === 'stadium-model').length).toBe(4)
  })
  it('every model scene passes validateScene', () => {
    const sr = openStadiumRom(rom, 'fx.z64')
    for (let i = 0; i < 4; i++) expect(() => validateScene(buildStadiumScene(loadModel(sr, i)))).not.toThrow()
  })
})

describe('looksLikeStadiumImage', () => {
  it('recognises the archive at 0x920000 whatever the header says, and nothing else', async () => {
    const { looksLikeStadiumImage } = await import('../../../../src-main/domains/stadium/detector')
    const { handRom } = await import('../../../fixtures/stadium/contract-rom')
    expect(looksLikeStadiumImage(handRom({ name: '' }))).toBe(true)
    expect(looksLikeStadiumImage(new Uint8Array(0x930000))).toBe(false)
    expect(looksLikeStadiumImage(handRom().subarray(0, 0x920008))).toBe(false)
  })
})
