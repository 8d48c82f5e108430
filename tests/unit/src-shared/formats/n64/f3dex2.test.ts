import { describe, expect, it } from 'vitest'
import { F3dex2, computeUV, decodeTextureRef, vertexNormal, wrapMode } from '../../../../../src-shared/formats/n64/f3dex2'
import { LimitError, FormatError } from '../../../../../src-shared/binary'
import { ChunkMemory, dl, vtx } from '../../../../fixtures/n64/memory'

const DL = 0x80100000
const VTX = 0x80123450

function run(cmds: (string | [number, number])[], extra?: (m: ChunkMemory) => void, interp = new F3dex2()) {
  const mem = new ChunkMemory().add(DL, dl(...cmds, 'DF000000 00000000'))
  mem.add(VTX, vtx([0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0], [5, 5, 5], [6, 6, 6]))
  extra?.(mem)
  interp.run(DL, mem)
  return { interp, calls: interp.takeDrawCalls(), mem }
}

describe('F3DEX2 interpreter: spec §14.1 command vectors', () => {
  it('G_VTX 01004008 loads 4 vertices into slots 0-3 from 0x80123450', () => {
    const { interp } = run(['01004008 80123450'])
    expect(interp.vertices.slice(0, 4).map((v) => v && [v.x, v.y])).toEqual([[0, 0], [10, 0], [10, 10], [0, 10]])
    expect(interp.vertices[4]).toBeNull()
    expect(interp.vertices[0]!.addr).toBe(VTX)
  })

  it('G_TRI2 06000204 00000406 gives (0,1,2) and (0,2,3); G_TRI1 0506080A gives (3,4,5); G_QUAD like TRI2', () => {
    const ids = (calls: ReturnType<typeof run>['calls']) => calls[0]!.indices.map((i) => calls[0]!.vertices[i]!.x * 100 + calls[0]!.vertices[i]!.y)
    const tri2 = run(['0100600C 80123450', '06000204 00000406']).calls
    // slot positions: 0 (0,0) 1 (10,0) 2 (10,10) 3 (0,10)
    expect(ids(tri2)).toEqual([0, 1000, 1010, 0, 1010, 10])
    const quad = run(['0100600C 80123450', '07000204 00000406']).calls
    expect(ids(quad)).toEqual(ids(tri2))
    const tri1 = run(['0100600C 80123450', '0506080A 00000000']).calls
    expect(tri1[0]!.indices.map((i) => tri1[0]!.vertices[i]!.x)).toEqual([0, 5, 6])
  })

  it('G_TEXTURE D7000002 FFFFFFFF: on, tile 0, level 0, scale 0xFFFF/65536', () => {
    const { interp } = run(['D7000002 FFFFFFFF'])
    expect(interp.texture).toEqual({ on: true, tile: 0, level: 0, sScale: 0xffff / 65536, tScale: 0xffff / 65536 })
  })

  it('G_SETTIMG / SETTILE / LOADBLOCK / SETTILE / SETTILESIZE / LOADTLUT decode as the spec says', () => {
    const { interp } = run([
      'FD500000 80200000', 'F5500000 07000000', 'F3000000 070FF400', 'F5400400 00014050', 'F2000000 0007C07C',
      'FD100000 80300000', 'F5000100 05000000', 'F0000000 0503C000',
    ])
    expect(interp.timg).toEqual({ fmt: 0, siz: 2, width: 1, addr: 0x80300000 })
    expect(interp.tiles[7]).toMatchObject({ fmt: 2, siz: 2, line: 0, tmem: 0 })
    expect(interp.tiles[0]).toMatchObject({ fmt: 2, siz: 0, line: 2, tmem: 0, palette: 0, cms: 0, cmt: 0, masks: 5, maskt: 5, uls: 0, ult: 0, lrs: 0x7c, lrt: 0x7c })
    expect(interp.tmem.get(0)).toMatchObject({ addr: 0x80200000, kind: 'block', dxt: 0x400, count: 256 })
    expect(interp.tmem.get(0x100)).toMatchObject({ addr: 0x80300000, kind: 'tlut', count: 16 })
    const ref = interp.textureFor(0)!
    expect([ref.width, ref.height, ref.rowBytes, ref.paletteAddr, ref.paletteCount, ref.deinterleave]).toEqual([32, 32, 16, 0x80300000, 16, false])
  })

  it('G_DL to segment 0x0E goes to the hook with the material index 0x10 >> 3 = 2; a branch (DE01) does not return', () => {
    const seen: number[] = []
    const interp = new F3dex2({ hooks: { onCall: (t) => ((t >>> 24) === 0x0e ? (seen.push((t & 0xffffff) >> 3), true) : false) } })
    const { mem } = run(['DE000000 0E000010', 'DE010000 801A2B30', '01004008 80123450'], (m) => m.add(0x801a2b30, dl('D9FFFDFF 00000400', 'DF000000 00000000')), interp)
    expect(seen).toEqual([2])
    expect(mem).toBeTruthy()
    // the branch target ran (geometry mode changed) and the list stopped there: no vertices were loaded
    expect(interp.vertices[0]).toBeNull()
  })

  it('G_GEOMETRYMODE D9FFFDFF 00000400 clears G_CULL_FRONT and sets G_CULL_BACK', () => {
    const interp = new F3dex2()
    interp.geometryMode = 0x200 | 0x4
    run(['D9FFFDFF 00000400'], undefined, interp)
    expect(interp.geometryMode).toBe(0x400 | 0x4)
  })

  it('decodes the §14.1 vertex record (position, S10.5 st, colour, normal)', () => {
    const rec = Uint8Array.from([0xff, 0x9c, 0x00, 0x64, 0, 0, 0, 0, 0x04, 0x00, 0xfc, 0x00, 0xff, 0x80, 0x40, 0xff])
    const mem = new ChunkMemory().add(DL, dl('01001002 80400000', 'DF000000 00000000')).add(0x80400000, rec)
    const i = new F3dex2()
    i.run(DL, mem)
    const v = i.vertices[0]!
    expect([v.x, v.y, v.z, v.s / 32, v.t / 32]).toEqual([-100, 100, 0, 32, -32])
    expect([v.c0, v.c1, v.c2, v.a]).toEqual([255, 128, 64, 255])
    const n = vertexNormal(v)
    expect(n[0]).toBeCloseTo(-0.007, 3)
    expect(n[1]).toBeCloseTo(-0.8944, 3)
    expect(n[2]).toBeCloseTo(0.4472, 3)
  })
})

describe('F3DEX2 interpreter: state, bones, splitting', () => {
  it('tags each vertex with the bone current at its G_VTX, and keeps cached slots across nodes', () => {
    const mem = new ChunkMemory()
      .add(0x80100000, dl('01002004 80123450', 'DF000000 00000000')) // slots 0,1 under bone A
      .add(0x80100100, dl('01001006 80123470', '05000204 00000000', 'DF000000 00000000')) // slot 2 under bone B, tri uses 0,1,2
      .add(VTX, vtx([0, 0, 0], [10, 0, 0], [10, 10, 0]))
    const i = new F3dex2()
    i.setBone(3)
    i.run(0x80100000, mem)
    i.setBone(5)
    i.run(0x80100100, mem)
    const [dc] = i.takeDrawCalls()
    expect(dc!.indices.map((k) => dc!.vertices[k]!.bone)).toEqual([3, 3, 5])
  })

  it('starts a new draw call on a render-state change and merges identical state', () => {
    const { calls } = run([
      '0100600C 80123450', '05000204 00000000',
      'FA000000 FF0000FF', '05000406 00000000',
      'FA000000 FF0000FF', '05020406 00000000',
    ])
    expect(calls.length).toBe(2)
    expect(calls[0]!.indices.length).toBe(3)
    expect(calls[1]!.indices.length).toBe(6)
    expect(calls[1]!.state.primColor).toEqual([255, 0, 0, 255])
  })

  it('deduplicates vertices per load event, not per position', () => {
    const { calls } = run(['01004008 80123450', '05000204 00000000', '01004008 80123450', '05000204 00000000'])
    expect(calls[0]!.vertices.length).toBe(6)
  })

  it('resolves segmented addresses through G_MW_SEGMENT', () => {
    const { interp } = run(['DB060014 00123450', '01002004 05000000'])
    expect(interp.segments[5]).toBe(0x00123450)
    expect(interp.vertices[0]!.addr).toBe(VTX)
  })

  it('applies SETOTHERMODE_H / _L masks', () => {
    const { interp } = run(['E3001201 00002000', 'E200001C 0C192078'])
    // TEXTFILT: shift 12, len 2 → 32 − 0x12 − 2 = 12
    expect((interp.otherModeH >>> 12) & 3).toBe(2)
    expect(interp.otherModeL).toBe(0x0c192078 & ~0x7)
  })

  it('decodes a block-loaded texture from a draw call', () => {
    const pal = new Uint8Array(32)
    pal[2] = 0xf8; pal[3] = 0x01
    const tex = new Uint8Array(16 * 2).fill(0x11)
    const { calls, mem } = run([
      'D7000002 FFFFFFFF', 'FD100000 80300000', 'F5000100 05000000', 'F0000000 0503C000',
      'FD500000 80200000', 'F5500000 07000000', 'F3000000 0701F800',
      'F5400200 00000000', 'F2000000 0001C004',
      '0100600C 80123450', '05000204 00000000',
    ], (m) => m.add(0x80200000, tex).add(0x80300000, pal))
    const ref = calls[0]!.state.textures[0]!
    expect([ref.width, ref.height, ref.rowBytes]).toEqual([8, 2, 8])
    const rgba = decodeTextureRef(ref, mem)
    expect([...rgba.subarray(0, 4)]).toEqual([255, 0, 0, 255])
    expect(rgba.length).toBe(8 * 2 * 4)
  })

  it('computes UVs with tile origin and shift, and wrap modes', () => {
    const tile = { uls: 8, ult: 0, shifts: 1, shiftt: 0 } as never
    // s = 64 (2 texels) * 1 * 1/2 − 2 → -1 texel / 4 wide
    expect(computeUV(64, 32, { on: true, tile: 0, level: 0, sScale: 1, tScale: 1 }, { tile, width: 4, height: 4 })).toEqual([-0.25, 0.25])
    expect(wrapMode(0, 5)).toBe('repeat')
    expect(wrapMode(1, 5)).toBe('mirror')
    expect(wrapMode(2, 5)).toBe('clamp')
    expect(wrapMode(0, 0)).toBe('clamp')
  })
})

describe('F3DEX2 interpreter: more commands', () => {
  it('G_LOADTILE records the rectangle source and the DRAM row pitch', () => {
    // 64-texel-wide RGBA16 image; load the 8×4 rectangle at (16, 2)
    const { interp } = run(['FD10003F 80200000', 'F5100000 07000000', `F4${(16 << 2).toString(16).padStart(3, '0')}${(2 << 2).toString(16).padStart(3, '0')} 07${((23 << 2) & 0xfff).toString(16).padStart(3, '0')}${(5 << 2).toString(16).padStart(3, '0')}`])
    expect(interp.tmem.get(0)).toMatchObject({ kind: 'tile', pitch: 128, addr: 0x80200000 + (2 * 64 + 16) * 2 })
  })
  it('CI8 tiles take a 256-entry palette at TMEM 0x100', () => {
    const { interp } = run(['FD100000 80300000', 'F5000100 05000000', 'F0000000 053FC000', 'FD500000 80200000', 'F5500000 07000000', 'F3000000 0701F800', 'F5480200 00000000', 'F2000000 0001C004'])
    const ref = interp.textureFor(0)!
    expect([ref.fmt, ref.siz, ref.paletteAddr, ref.paletteCount, ref.tlut]).toEqual([2, 1, 0x80300000, 256, 'RGBA16'])
  })
  it('a second texture is sampled from tile+1 when the combiner reads TEXEL1 (unset tile → texture 0)', () => {
    // combine with TEXEL1 in cycle 0 A: a0 = 2
    const base = ['D7000002 FFFFFFFF', 'FD500000 80200000', 'F5500000 07000000', 'F3000000 0701F800', 'F5400200 00000000', 'F2000000 0001C004', 'E3001801 00100000']
    const both = run([...base, 'FC2FFFFF FFFFFFFF', '0100600C 80123450', '05000204 00000000']).calls[0]!.state.textures
    expect(both.length).toBe(2)
    expect(both[1]).toBe(both[0])
    const one = run([...base, 'FC1FFFFF FFFFFFFF', '0100600C 80123450', '05000204 00000000']).calls[0]!.state.textures
    expect(one.length).toBe(1)
  })
  it('G_BRANCH_Z follows the RDPHALF_1 target and stops the current list', () => {
    const mem = new ChunkMemory()
      .add(DL, dl('E1000000 80100100', '04000000 00000000', '01004008 80123450', 'DF000000 00000000'))
      .add(0x80100100, dl('01002004 80123450', 'DF000000 00000000'))
      .add(VTX, vtx([0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]))
    const i = new F3dex2()
    i.run(DL, mem)
    expect(i.vertices[1]).not.toBeNull()
    expect(i.vertices[2]).toBeNull()
  })
  it('G_MODIFYVTX ST changes the texture coordinates as a new vertex version', () => {
    const { calls } = run(['01004008 80123450', '02140002 00400020', '05000204 00000000'])
    const v = calls[0]!.vertices.find((x) => x.x === 10 && x.y === 0)!
    expect([v.s, v.t]).toEqual([0x40, 0x20])
  })
})

describe('F3DEX2 interpreter: guards', () => {
  it('stops a DL that branches to itself with a LimitError naming the address', () => {
    const mem = new ChunkMemory().add(DL, dl('DE010000 80100000'))
    expect(() => new F3dex2({ maxCommands: 1000 }).run(DL, mem)).toThrow(LimitError)
    expect(() => new F3dex2({ maxCommands: 1000 }).run(DL, mem)).toThrow(/0x80100000/)
  })

  it('stops a DL that calls itself (depth limit)', () => {
    const mem = new ChunkMemory().add(DL, dl('DE000000 80100000', 'DF000000 00000000'))
    expect(() => new F3dex2().run(DL, mem)).toThrow(/nest deeper than 18/)
  })

  it('a list that runs off its memory without G_ENDDL is a FormatError', () => {
    const mem = new ChunkMemory().add(DL, dl('E7000000 00000000', 'E7000000 00000000'))
    const e = (() => { try { new F3dex2().run(DL, mem) } catch (x) { return x } })()
    expect(e).toBeInstanceOf(FormatError)
    expect(String((e as Error).message)).toMatch(/0x80100010/)
  })

  it('rejects G_VTX beyond the cache and drops triangles on empty slots with a warning', () => {
    expect(() => run(['01020090 80123450'])).toThrow(/outside the 64-slot cache/)
    const warnings: string[] = []
    const i = new F3dex2({ hooks: { warn: (m) => warnings.push(m) } })
    const { calls } = run(['05000204 00000000'], undefined, i)
    expect(calls.length).toBe(0)
    expect(warnings[0]).toMatch(/empty vertex slot/)
  })
})
