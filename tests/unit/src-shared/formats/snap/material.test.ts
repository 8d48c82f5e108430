import { describe, expect, it } from 'vitest'
import { materialSetupCommands, type SnapMaterial } from '../../../../../src-shared/formats/snap/material'
import { AddressMap } from '../../../../../src-shared/formats/snap/address-map'

// images list at 0x80000100: [0x80001000, 0x80002000, 0x80003000]; palettes at 0x80000200: [0x80004000]
const bytes = new Uint8Array(0x400)
const dv = new DataView(bytes.buffer)
;[0x80001000, 0x80002000, 0x80003000].forEach((a, i) => dv.setUint32(0x100 + i * 4, a))
dv.setUint32(0x200, 0x80004000)
const map = new AddressMap('test', [{ archive: 't', kind: 'Data', start: 0x80000000, bytes, romStart: 0 }])

const base: SnapMaterial = {
  addr: 0x80000300, fmt: 2, siz: 0, images: 0x80000100, scale: 32, shift: 0, widthMain: 32, heightMain: 32, halve: 0,
  offS0: 0, offT0: 0, scaleS: 1, scaleT: 1, palettes: 0x80000200, flags: 0, fmt2: 2, siz2: 0, blockWidth: 32, blockHeight: 32,
  widthAux: 32, heightAux: 32, offS1: 0, offT1: 0, initOffS1: 0, primColor: 0x11223344, primLOD: 0, minLOD: 7,
  envColor: 0x55667788, blendColor: 0x99aabbcc, lightColor1: 0xff800000, lightColor2: 0x40404000,
}
const op = (c: [number, number]) => c[0] >>> 24

describe('material setup (§4.5) against hand computation', () => {
  it('flipbook (0x10): lodLevel 1.5 → image 1 as texture 0, image 2 loaded into tile 6, LOD fraction 128', () => {
    const cmds = materialSetupCommands(map, { ...base, flags: 0x0010 | 0x0001 }, { imageIndex: 0, nextImageIndex: 0, lodLevel: 1.5, paletteIndex: 0 })
    expect(cmds.map(op)).toEqual([0xfa, 0xfd, 0xf3, 0xfd])
    expect(cmds[0]![0] & 0xffff).toBe((7 << 8) | 128)
    expect(cmds[0]![1]).toBe(0x11223344)
    // texture 1: SETTIMG fmt2 CI, 16b load size, images[2]
    expect(cmds[1]![0]).toBe(((0xfd << 24) | (2 << 21) | (2 << 19)) >>> 0)
    expect(cmds[1]![1]).toBe(0x80003000)
    // LOADBLOCK tile 6, 32×32 CI4 → 256 16-bit units − 1 = 255, dxt 0x400
    expect(cmds[2]![1]).toBe(((6 << 24) | (255 << 12) | 0x400) >>> 0)
    // texture 0: images[1]
    expect(cmds[3]![1]).toBe(0x80002000)
  })
  it('lights, env and blend colours', () => {
    const cmds = materialSetupCommands(map, { ...base, flags: 0x1000 | 0x2000 | 0x0400 | 0x0800 })
    expect(cmds.map(op)).toEqual([0xdb, 0xdb, 0xfb, 0xf9])
    expect(cmds[0]![0] & 0xffffff).toBe(0x0a0000)
    expect(cmds[1]![0] & 0xffffff).toBe(0x0a0018)
    expect(cmds[0]![1]).toBe(0xff800000)
    expect(cmds[2]![1]).toBe(0x55667788)
    expect(cmds[3]![1]).toBe(0x99aabbcc)
  })
  it('prim LOD (0x08): lodFrac = lodLevel × 255 from primLOD/255', () => {
    const cmds = materialSetupCommands(map, { ...base, flags: 0x0008, primLOD: 200 })
    expect(cmds[0]![0] & 0xff).toBe(200)
  })
  it('tile-0 scroll with offsets, scales and halve mode', () => {
    // offS0 0.25, scaleS 2 → uls = (0.25·32 + 0)/2 · 4 = 16; offT0 0.5, scaleT 0.5 → ult = ((1 − 0.5 − 0.5)·32 + 0)/0.5 · 4 = 0
    let cmds = materialSetupCommands(map, { ...base, flags: 0x0020, offS0: 0.25, scaleS: 2, offT0: 0.5, scaleT: 0.5 })
    expect(cmds.map(op)).toEqual([0xf2])
    expect((cmds[0]![0] >>> 12) & 0xfff).toBe(16)
    expect(cmds[0]![0] & 0xfff).toBe(0)
    expect((cmds[0]![1] >>> 12) & 0xfff).toBe(16 + 31 * 4)
    // halve: S = 0.5·scaleS; o0 = (o0 − initOffS0 + 1 − scaleS·0.5)·0.5 = (0 + 1 − 0.5)·0.5 = 0.25 → uls = 0.25·32/0.5·4 = 64
    cmds = materialSetupCommands(map, { ...base, flags: 0x0020, halve: 1 })
    expect((cmds[0]![0] >>> 12) & 0xfff).toBe(64)
  })
  it('texture scale (0x80): 2^21 / scale / S, clamped to 0xFFFF', () => {
    const cmds = materialSetupCommands(map, { ...base, flags: 0x0080, scale: 64, scaleS: 1, scaleT: 2 })
    expect(cmds[0]![1] >>> 16).toBe(32768)
    expect(cmds[0]![1] & 0xffff).toBe(16384)
  })
  it('palette only (0x04): SETTIMG of the palette, no TLUT load without Tex1/Tex2', () => {
    const cmds = materialSetupCommands(map, { ...base, flags: 0x0004 })
    expect(cmds.map(op)).toEqual([0xfd])
    expect(cmds[0]![1]).toBe(0x80004000)
  })
  it('a list pointer outside every chunk names the material', () => {
    expect(() => materialSetupCommands(map, { ...base, images: 0x80900000, flags: 0x0001 })).toThrow(/material 0x80000300\.images\[0\] → 0x80900000 is in no mapped chunk/)
  })
})
