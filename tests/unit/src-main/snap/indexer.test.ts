import { describe, expect, it } from 'vitest'
import { buildSnapRom } from '../../../fixtures/snap/build-rom'
import { openRom } from '../../../../src-shared/formats/n64/rom'
import { enumerateSnapRom } from '../../../../src-main/domains/snap/detector'
import '../../../../src-main/domains/index' // the N64 detector hands images to the registered games
import { n64Detector } from '../../../../src-main/domains/n64/detector'
import { OVERLAY_TABLE_ROM, hasSnapLayout } from '../../../../src-shared/formats/snap/overlay'

describe('enumerateSnapRom', () => {
  const image = buildSnapRom().image
  it('lists game → stages → room groups, rooms, skybox, track, spawns', () => {
    const assets = enumerateSnapRom(openRom(image, 'fixture.z64'))
    const keys = new Set(assets.map((a) => a.key))
    for (const a of assets) if (a.parentKey) expect(keys.has(a.parentKey)).toBe(true)
    expect(assets[0]).toMatchObject({ key: 'game', kind: 'snap-game', name: 'Pokémon Snap (unverified)' })
    const stages = assets.filter((a) => a.kind === 'snap-stage')
    expect(stages.map((s) => s.locator.stage)).toEqual(['beach', 'tunnel', 'cave', 'river', 'volcano', 'valley', 'rainbow'])
    expect(stages[0]!.metadata).toMatchObject({ sceneId: 0x10, pathRooms: 4, nonPathRooms: 1, hasSkybox: true, objects: 9, trackBlocks: 4 })
    const beachKids = assets.filter((a) => a.parentKey === 'stage:beach').map((a) => a.kind)
    expect(beachKids).toEqual(['snap-room-group', 'snap-room-group', 'snap-skybox', 'snap-track', 'snap-actors', 'snap-spawns'])
    expect(assets.filter((a) => a.parentKey === 'stage:beach:path').length).toBe(4)
    expect(assets.filter((a) => a.parentKey === 'stage:beach:spawns').length).toBe(9)
    expect(assets.find((a) => a.key === 'stage:beach:path:2')!.metadata).toMatchObject({ worldPos: [0, 0, 20], yaw: 0 })
  })
  it('a broken stage is listed with its error, the others still enumerate', () => {
    const img = image.slice()
    img.fill(0, OVERLAY_TABLE_ROM + 0x12 * 0x24, OVERLAY_TABLE_ROM + 0x13 * 0x24)
    const assets = enumerateSnapRom(openRom(img, 'fixture.z64'))
    const tunnel = assets.find((a) => a.key === 'stage:tunnel')!
    expect(String(tunnel.metadata!.error)).toMatch(/Overlay\[0x12\]/)
    expect(assets.find((a) => a.key === 'stage:beach')!.metadata!.error).toBeUndefined()
  })
  it('a stage whose two overlay entries are zero (a partial image) is left out', () => {
    const img = image.slice()
    img.fill(0, OVERLAY_TABLE_ROM + 0x14 * 0x24, OVERLAY_TABLE_ROM + 0x16 * 0x24)
    const stages = enumerateSnapRom(openRom(img, 'fixture.z64')).filter((a) => a.kind === 'snap-stage')
    expect(stages.map((s) => s.locator.stage)).toEqual(['beach', 'tunnel', 'river', 'volcano', 'valley', 'rainbow'])
    expect(stages.every((s) => s.metadata!.error === undefined)).toBe(true)
  })
  it('hasSnapLayout: the overlay table places a stage header inside its Data overlay', () => {
    expect(hasSnapLayout(image)).toBe(true)
    const img = image.slice()
    img.fill(0, OVERLAY_TABLE_ROM, OVERLAY_TABLE_ROM + 0x24 * 0x20)
    expect(hasSnapLayout(img)).toBe(false)
    expect(hasSnapLayout(image.subarray(0, 0x1000))).toBe(false)
  })
  it('the N64 detector refines the source to snap-rom', async () => {
    const res = await n64Detector.enumerate(image, { path: 'x.z64', name: 'x.z64', size: image.length, head: image.subarray(0, 64) })
    expect(res.kind).toBe('snap-rom')
    expect(res.assets.length).toBeGreaterThan(50)
  })
})
