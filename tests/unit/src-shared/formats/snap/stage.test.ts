import { describe, expect, it } from 'vitest'
import { buildSnapRom, defaultStage, type StageSpec } from '../../../../fixtures/snap/build-rom'
import { parseStage, stageObjectCount } from '../../../../../src-shared/formats/snap/stage'
import { buildStageMap } from '../../../../../src-shared/formats/snap/address-map'
import { STAGES, stageByName } from '../../../../../src-shared/formats/snap/stages'
import { buildModelDraws } from '../../../../../src-shared/formats/snap/room-model'
import { sampleTrackWorld, cartPose } from '../../../../../src-shared/formats/snap/main-track'
import { materialSetupCommands, readMaterial } from '../../../../../src-shared/formats/snap/material'
import { OVERLAY_TABLE_ROM } from '../../../../../src-shared/formats/snap/overlay'
import { FormatError, LimitError } from '../../../../../src-shared/binary'
import { openRom } from '../../../../../src-shared/formats/n64/rom'
import { snapRomId } from '../../../../../src-shared/formats/snap/rom-id'

const rom = buildSnapRom()

describe('Snap ROM fixture opens as an unverified Snap image', () => {
  it('header and game', () => {
    const r = openRom(rom.image, 'ROM', undefined, [snapRomId])
    expect(r.game).toBe('snap')
    expect(r.verified).toBe(false)
    expect(r.header.name).toBe('POKEMON SNAP')
  })
})

describe('address map (§2)', () => {
  it('builds Data, Code, Photo and common chunks in search order with the overlay table RAM bases', () => {
    const beach = stageByName('beach')!
    const map = buildStageMap(rom.image, beach)
    expect(map.chunks.map((c) => `${c.archive} ${c.kind}`)).toEqual(['beach Data', 'beach Code', 'beach Photo', 'common Data', 'common Code'])
    expect(map.chunks[0]!.start).toBe(rom.overlays.get(0x10)!.vram)
    expect(map.chunks[2]!.start).toBe(0x801b0310)
    expect(map.chunks[2]!.romStart).toBe(0x13c780)
    const o = map.romOffset(beach.header)
    expect(o).toBe(rom.overlays.get(0x10)!.romStart)
  })
  it('names the field and address when a pointer is in no chunk', () => {
    const map = buildStageMap(rom.image, stageByName('beach')!)
    expect(() => map.view(0x80412345, 4, 'WorldBlockSetup', 'StageHeader.pathRooms')).toThrow('StageHeader.pathRooms → 0x80412345 is in no mapped chunk')
  })
})

describe('stage structures (§3)', () => {
  it('lists rooms, skybox, spawns and the overlay index of all seven stages', () => {
    for (const info of STAGES) {
      const st = parseStage(rom.image, info.name)
      expect(st.info.overlayIndex).toBe(info.overlayIndex)
      expect(st.pathRooms.length).toBe(4)
      expect(st.nonPathRooms.length).toBe(1)
      expect(st.skybox).not.toBeNull()
      expect(stageObjectCount(st)).toBe(4 * 2 + 1)
      expect(st.track.length).toBe(4)
      expect(st.paths.map((p) => p.path.type).sort()).toEqual([0, 1, 2, 3])
    }
  })
  it('reads descriptors: world position in metres, yaw, spawn ids and positions', () => {
    const st = parseStage(rom.image, 'tunnel')
    const r2 = st.pathRooms[2]!
    expect(r2.desc.worldPos).toEqual([0, 0, 20])
    expect(r2.desc.spawns[0]!.id).toBe(0x19 + 2)
    expect(r2.desc.spawns[0]!.translation).toEqual([4, 0, 3])
    expect(r2.desc.drawnStatics).toEqual([{ id: 1, position: [1, 0, 1], rotation: [0, 0, 0], scale: [1, 1, 1] }])
    expect(r2.gfx!.numControlLines).toBe(3)
    expect(r2.gfx!.movementAnimDuration).toBe(300)
  })
})

describe('main track (§9) on the fixture', () => {
  function stageWithTrack(lines: [number, number, number][][], worldPos: [number, number, number], yaw: number): StageSpec {
    const s = defaultStage(1, 0, 2)
    s.pathRooms[0]!.worldPos = worldPos
    s.pathRooms[0]!.yaw = yaw
    s.pathRooms[0]!.track = { lines, duration: 100 }
    return s
  }
  it('places a block-local rail point like §14.5 (worldPos (40,0,80), yaw π/2)', () => {
    const same = Array.from({ length: 7 }, () => [100, 5, 200] as [number, number, number])
    const img = buildSnapRom({ stages: { beach: stageWithTrack([same, same], [40, 0, 80], Math.PI / 2) } }).image
    const st = parseStage(img, 'beach')
    const pts = sampleTrackWorld(st.track, 4)
    expect(pts.length).toBe(4 * 4)
    for (const p of pts) {
      expect(p[0]).toBeCloseTo(4200, 3)
      expect(p[1]).toBeCloseTo(5, 4)
      expect(p[2]).toBeCloseTo(7900, 3)
    }
    const yaw0 = parseStage(buildSnapRom({ stages: { beach: stageWithTrack([same, same], [40, 0, 80], 0) } }).image, 'beach')
    const p0 = sampleTrackWorld(yaw0.track, 1)[0]!
    expect(p0[0]).toBeCloseTo(4100, 3)
    expect(p0[2]).toBeCloseTo(8200, 3)
  })
  it('blends the two control lines at cpTime 0.5 and evaluates with the game timing', () => {
    const l1 = Array.from({ length: 7 }, (_, k) => [-100, 0, (k - 1) * 100] as [number, number, number])
    const l2 = Array.from({ length: 7 }, (_, k) => [100, 20, (k - 1) * 100] as [number, number, number])
    const st = parseStage(buildSnapRom({ stages: { beach: stageWithTrack([l1, l2], [0, 0, 0], 0) } }).image, 'beach')
    const b = st.track[0]!
    expect(b.controlPoints[3]).toEqual([0, 10, 200])
    // B-spline through evenly spaced collinear points: u=0 of segment 0 is at z = (−100 + 4·0 + 100)/6 = 0
    const w = sampleTrackWorld(st.track, 2)
    expect(w[0]![2]).toBeCloseTo(0, 4)
    // 2 samples per segment are its two ends: u = 1 of segment 0 is (0 + 4·100 + 200)/6 = 100
    expect(w[1]![2]).toBeCloseTo(100, 4)
    expect(w[2]![2]).toBeCloseTo(100, 4)
    // game timing: halfway through the track the cart is halfway along the (uniform) line: z = 200
    const mid = cartPose(b, 0.5)
    expect(mid.position[0]).toBeCloseTo(0, 3)
    expect(mid.position[1]).toBeCloseTo(10, 3)
    expect(mid.position[2]).toBeCloseTo(200, 1)
    expect(cartPose(b, 1).position[2]).toBeCloseTo(400, 1)
  })
  it('skips blocks whose control-line count the game rejects', () => {
    const s = defaultStage(2, 0, 2)
    s.pathRooms[1]!.track!.numControlLines = 4
    const st = parseStage(buildSnapRom({ stages: { beach: s } }).image, 'beach')
    expect(st.track.map((t) => t.room)).toEqual([0])
    expect(st.warnings.join('\n')).toMatch(/numControlLines 4/)
  })
})

describe('room models and material setup (§4.5, §5)', () => {
  it('material setup for a CI4 material with palette: TLUT 16 entries into tile 5, image, tile size, texture scale', () => {
    const st = parseStage(rom.image, 'beach')
    const mat = readMaterial(st.map, st.pathRooms[0]!.gfx!.textures[0]!, 'm')
    expect(mat.fmt).toBe(2)
    const cmds = materialSetupCommands(st.map, mat)
    const ops = cmds.map(([w0]) => (w0 >>> 24).toString(16))
    // flags 0xA5 = Tex1 | Palette | Tile0 | Scale: no colour commands
    expect(ops).toEqual(['fd', 'f5', 'f0', 'fd', 'f2', 'd7'])
    expect(cmds[2]![1]).toBe((5 << 24) | (15 << 14))
    // G_TEXTURE scale = min(0xFFFF, 2^21 / 32 / 1)
    expect(cmds[5]![1] >>> 16).toBe(0xffff)
    // tile 0 size 32×32 at origin: lrs = lrt = 31·4
    expect(cmds[4]![1] & 0xffffff).toBe((124 << 12) | 124)
  })
  it('room 0 decodes to 6×6×2 triangles with a 32×32 CI4 texture and vertex colours', () => {
    const st = parseStage(rom.image, 'beach')
    const d = buildModelDraws(st.map, st.pathRooms[0]!.gfx!, 'room0')
    const tris = d.drawCalls.reduce((a, c) => a + c.indices.length / 3, 0)
    expect(tris).toBe(72)
    const ref = d.drawCalls[0]!.state.textures[0]!
    expect([ref.fmt, ref.siz, ref.width, ref.height]).toEqual([2, 0, 32, 32])
    expect(ref.paletteAddr).toBeDefined()
    expect(d.drawCalls[0]!.state.geometryMode & 0x20000).toBe(0)
    expect(d.warnings).toEqual([])
  })
})

describe('bad input (§8 of the issue)', () => {
  it('a truncated ROM fails with the overlay or photo range that runs off the end', () => {
    const cut = rom.image.subarray(0, 0x300000)
    expect(() => parseStage(cut, 'beach')).toThrow(/runs past the end|truncated/)
  })
  it('a zeroed overlay table fails naming the entry offset', () => {
    const img = rom.image.slice()
    img.fill(0, OVERLAY_TABLE_ROM, OVERLAY_TABLE_ROM + 0x24 * 0x20)
    const e = (() => { try { parseStage(img, 'beach') } catch (x) { return x as FormatError } })()
    expect(e).toBeInstanceOf(FormatError)
    expect(e!.offset).toBe(OVERLAY_TABLE_ROM + 0x10 * 0x24)
    expect(e!.message).toMatch(/zeroed overlay table/)
  })
  it('a pointer outside every chunk names the field and address', () => {
    const img = rom.image.slice()
    const beach = stageByName('beach')!
    const dataRom = rom.overlays.get(0x10)!.romStart
    const dv = new DataView(img.buffer)
    // WorldSetup.blocksSetup → read the WorldBlockSetup and break its path-room list pointer
    const bs = dv.getUint32(dataRom) - beach.header + dataRom
    dv.setUint32(bs, 0x80412345)
    expect(() => parseStage(img, 'beach')).toThrow(/WorldBlockSetup\.modelBlocks \(path rooms\) → 0x80412345 is in no mapped chunk/)
  })
  it('a display list that loops, or runs on without G_ENDDL, fails with its address (no hang)', () => {
    const loop = defaultStage(1, 0, 2)
    loop.pathRooms[0]!.rawDl = [[0xe7000000, 0], [0xe7000000, 0], [0xde010000, 0]] // patched below to branch to itself
    const built = buildSnapRom({ stages: { beach: loop } })
    const st = parseStage(built.image, 'beach')
    const dl = st.pathRooms[0]!.gfx!.gfxData
    const off = st.map.romOffset(dl)!
    new DataView(built.image.buffer).setUint32(off + 20, dl)
    const st2 = parseStage(built.image, 'beach')
    expect(() => buildModelDraws(st2.map, st2.pathRooms[0]!.gfx!, 'room0', { maxCommands: 10_000 })).toThrow(LimitError)
    const runOn = defaultStage(1, 0, 2)
    runOn.pathRooms[0]!.rawDl = Array.from({ length: 4 }, () => [0xe7000000, 0] as [number, number])
    const st3 = parseStage(buildSnapRom({ stages: { beach: runOn } }).image, 'beach')
    // the list runs into the following data; either the command limit or an unknown structure stops it
    expect(() => buildModelDraws(st3.map, st3.pathRooms[0]!.gfx!, 'room0', { maxCommands: 10_000 })).toThrow(FormatError)
  })
})
