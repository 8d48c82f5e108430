/**
 * Black-box contract test of the Pokémon Snap work (issue 6), written from
 * ../shared/specs/pokemon-snap.md and docs/CLI.md only. A small ROM builder here (not the
 * project's fixture builder) lays out Beach and Tunnel by the spec — header, overlay table at
 * 0x57580 (entry k = Data, k+1 = Code), WorldSetup at the fixed §2.2 header address,
 * WorldBlockSetup, path / non-path room lists, WorldBlockDescriptor, WorldBlockGFX with a road of
 * root + two control lines, movement tracks (command 13 + a path-channel ramp) with their
 * InterpData placed right before the command stream, a skybox, spawns with a path — and leaves
 * the other five stages out (their overlay entries zero). Expected values are computed here by
 * hand from the spec formulas (§9, §14.3, §14.5), not from the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { spawnSync } from 'node:child_process'
import { PNG } from 'pngjs'
import { validateBytes } from 'gltf-validator'
import { runCli } from '../../src-main/cli/main'
import { F3dex2 } from '../../src-shared/formats/n64/f3dex2'
import { decodePalette, decodeTexture } from '../../src-shared/formats/n64/texture'

// ---------------------------------------------------------------- CLI helpers

async function cli(...argv: string[]) {
  let out = ''
  let err = ''
  const code = await runCli(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } } as never)
  return { code, out, err }
}

// ---------------------------------------------------------------- an independent Snap-layout ROM builder

type V3 = [number, number, number]

const OVERLAY_TABLE = 0x57580
const IMAGE_SIZE = 0x180000

/** A ROM range loaded at a RAM address, with a bump allocator. */
class Seg {
  cursor: number
  constructor(readonly img: DataView, readonly rom: number, readonly vram: number, readonly size: number, start = 0) {
    this.cursor = vram + start
  }
  alloc(n: number, align = 8): number {
    this.cursor = Math.ceil(this.cursor / align) * align
    const a = this.cursor
    this.cursor += n
    if (this.cursor > this.vram + this.size) throw new Error('segment full')
    return a
  }
  off(addr: number): number {
    if (addr < this.vram || addr >= this.vram + this.size) throw new Error(`0x${addr.toString(16)} outside segment`)
    return this.rom + (addr - this.vram)
  }
  u32(addr: number, v: number) { this.img.setUint32(this.off(addr), v >>> 0) }
  f32(addr: number, v: number) { this.img.setFloat32(this.off(addr), v) }
  u16(addr: number, v: number) { this.img.setUint16(this.off(addr), v) }
  u8(addr: number, v: number) { this.img.setUint8(this.off(addr), v) }
  words(ws: number[], align = 8): number {
    const a = this.alloc(ws.length * 4, align)
    ws.forEach((w, i) => this.u32(a + i * 4, w))
    return a
  }
  floats(fs: number[]): number {
    const a = this.alloc(fs.length * 4, 4)
    fs.forEach((f, i) => this.f32(a + i * 4, f))
    return a
  }
  bytes(bs: number[], align = 8): number {
    const a = this.alloc(bs.length, align)
    bs.forEach((b, i) => this.u8(a + i, b))
    return a
  }
}

function writeOverlay(dv: DataView, k: number, rom: number, size: number, vram: number) {
  const o = OVERLAY_TABLE + k * 0x24
  const vals = [rom, rom + size, vram, vram, vram + size / 2, vram + size / 2, vram + size, vram + size, vram + size]
  vals.forEach((v, i) => dv.setUint32(o + i * 4, v >>> 0))
}

/** Big-endian vertices (§5.3): position, flag 0, s, t, and nx ny nz a. */
function vtxBytes(vs: { p: V3; st?: [number, number] }[]): number[] {
  const out: number[] = []
  for (const v of vs) {
    const b = new DataView(new ArrayBuffer(16))
    b.setInt16(0, v.p[0]); b.setInt16(2, v.p[1]); b.setInt16(4, v.p[2])
    b.setInt16(8, v.st?.[0] ?? 0); b.setInt16(10, v.st?.[1] ?? 0)
    b.setUint8(12, 0); b.setUint8(13, 127); b.setUint8(14, 0); b.setUint8(15, 255)
    for (let i = 0; i < 16; i++) out.push(b.getUint8(i))
  }
  return out
}

/** A quad of side `size` at height y: G_VTX 4, G_TRI2 (0,1,2)(0,2,3), after `pre` commands. */
function quadDl(seg: Seg, size: number, y: number, pre: number[] = []): number {
  const vtx = seg.bytes(vtxBytes([
    { p: [0, y, 0], st: [0, 0] }, { p: [0, y, size], st: [0, 64] },
    { p: [size, y, size], st: [128, 64] }, { p: [size, y, 0], st: [128, 0] },
  ]))
  return seg.words([...pre, 0x01004008, vtx, 0x06000204, 0x00000406, 0xdf000000, 0])
}

interface LineSpec { points: V3[]; noCmd13?: boolean }

/** InterpData (§8.1) type 2 followed directly by its command stream (command 13, a 0→1 ramp, END). */
function controlTrack(seg: Seg, line: LineSpec, duration: number): number {
  const n = line.points.length - 2
  const pts = seg.floats(line.points.flat())
  const pp = seg.floats(Array.from({ length: n }, (_, i) => i / (n - 1)))
  const interp = seg.alloc(0x18, 4)
  seg.u8(interp, 2); seg.u8(interp + 1, 0); seg.u16(interp + 2, n)
  seg.f32(interp + 4, 0); seg.u32(interp + 8, pts); seg.f32(interp + 0x0c, 10 * n); seg.u32(interp + 0x10, pp); seg.u32(interp + 0x14, 0)
  const cmd = (c: number, mask: number, dur: number) => ((c << 25) | (mask << 15) | dur) >>> 0
  const f = new DataView(new ArrayBuffer(4))
  f.setFloat32(0, 1)
  const setPath = line.noCmd13 ? [] : [cmd(13, 0x008, 0), interp]
  const stream = seg.words([...setPath, cmd(3, 0x008, duration), f.getUint32(0), cmd(0, 0, 0)], 4)
  expect(stream).toBe(interp + 0x18) // the path record sits right before the command stream (§9)
  return stream
}

/** Road node list (§4.1): root + control-line nodes, then the 0x12 end marker. */
function road(seg: Seg, lines: number): number {
  const a = seg.alloc(0x2c * (lines + 2), 4)
  for (let i = 0; i <= lines; i++) {
    const n = a + i * 0x2c
    seg.u32(n, i === 0 ? 0 : 1)
    seg.u32(n + 4, 0)
    // node translations are replaced by the path channel; give them junk that must not leak in
    seg.f32(n + 8, i * 858.8); seg.f32(n + 12, 0.075); seg.f32(n + 16, 249.96)
    seg.f32(n + 0x14, 0); seg.f32(n + 0x18, i * 0.432); seg.f32(n + 0x1c, 0)
    seg.f32(n + 0x20, 1); seg.f32(n + 0x24, 1); seg.f32(n + 0x28, 1)
  }
  seg.u32(a + (lines + 1) * 0x2c, 0x12)
  return a
}

interface RoomSpec {
  worldPos: V3
  yaw?: number
  reversed?: boolean
  lines?: LineSpec[]
  spawns?: { id: number; t: V3; path?: V3[] }[]
  dl: (seg: Seg) => number
}

function room(data: Seg, code: Seg, r: RoomSpec): number {
  const gfx = data.alloc(0x24, 4)
  data.u32(gfx, r.dl(data))
  data.u32(gfx + 4, 0) // no material list
  data.u32(gfx + 8, 0)
  data.u32(gfx + 0x0c, 0x80014d60) // renRenderModelTypeA
  if (r.lines) {
    const nodes = road(data, r.lines.length)
    const tracks = r.lines.map((l) => controlTrack(code, l, 120))
    data.u32(gfx + 0x10, nodes)
    data.u32(gfx + 0x14, r.lines.length + 1)
    data.u32(gfx + 0x18, data.words([0, ...tracks], 4))
    data.u32(gfx + 0x1c, 120)
  }
  let spawns = 0
  if (r.spawns) {
    spawns = data.alloc(0x30 * r.spawns.length + 4, 4)
    r.spawns.forEach((s, i) => {
      const o = spawns + i * 0x30
      data.u32(o, s.id); data.u32(o + 4, 1)
      s.t.forEach((v, c) => data.f32(o + 8 + c * 4, v))
      for (let c = 0; c < 3; c++) { data.f32(o + 0x14 + c * 4, 0); data.f32(o + 0x20 + c * 4, 1) }
      let p = 0
      if (s.path) {
        const pts = code.floats(s.path.flat())
        p = code.alloc(0x18, 4)
        code.u8(p, 0); code.u16(p + 2, s.path.length); code.u32(p + 8, pts); code.f32(p + 0x0c, 1)
        code.u32(p + 0x10, code.floats(s.path.map((_, k) => k / (s.path!.length - 1))))
      }
      data.u32(o + 0x2c, p)
    })
    data.u32(spawns + 0x30 * r.spawns.length, 0xffffffff)
  }
  const d = data.alloc(0x24, 4)
  data.u32(d, gfx)
  r.worldPos.forEach((v, c) => data.f32(d + 4 + c * 4, v))
  data.f32(d + 0x10, r.yaw ?? 0)
  data.u32(d + 0x14, r.reversed ? 1 : 0)
  data.u32(d + 0x18, 0)
  data.u32(d + 0x1c, spawns)
  data.u32(d + 0x20, 0)
  return d
}

interface StageLayout {
  k: number
  header: number
  dataRom: number; dataVram: number; dataSize: number
  codeRom: number; codeVram: number; codeSize: number
  pathRooms: RoomSpec[]
  nonPathRooms: RoomSpec[]
  skybox: boolean
}

function stage(dv: DataView, s: StageLayout): void {
  writeOverlay(dv, s.k, s.dataRom, s.dataSize, s.dataVram)
  writeOverlay(dv, s.k + 1, s.codeRom, s.codeSize, s.codeVram)
  const data = new Seg(dv, s.dataRom, s.dataVram, s.dataSize, s.header - s.dataVram + 0x40)
  const code = new Seg(dv, s.codeRom, s.codeVram, s.codeSize)
  const list = (ptrs: number[]) => data.words([...ptrs, 0], 4)
  const blocks = data.alloc(0x0c, 4)
  data.u32(blocks, list(s.pathRooms.map((r) => room(data, code, r))))
  data.u32(blocks + 4, list(s.nonPathRooms.map((r) => room(data, code, r))))
  if (s.skybox) {
    const sky = data.alloc(0x14, 4)
    data.u32(sky, quadDl(data, 4000, 3000))
    data.u32(sky + 4, 0x800e1ca4) // drawSkyBox1Cycle
    data.u32(sky + 8, 0); data.u32(sky + 0x0c, 0); data.f32(sky + 0x10, 1)
    data.u32(blocks + 8, sky)
  } else data.u32(blocks + 8, 0)
  // WorldSetup at the fixed header address (§2.2, §3.1)
  const h = s.header
  data.u32(h, blocks); data.u32(h + 4, 0); data.u32(h + 8, 0); data.u32(h + 0x0c, 0); data.f32(h + 0x10, 1)
  data.u16(h + 0x14, 900); data.u16(h + 0x16, 1000)
  ;[10, 20, 30, 40, 50, 60].forEach((c, i) => data.u8(h + 0x18 + i, c))
}

// §14.2: 4×2 CI4 texture, RGBA5551 palette
const PALETTE = [0x0000, 0xf801, 0x07c1, 0x003f, 0x8421, 0xffff, 0x0842, 0, 0, 0, 0, 0, 0, 0, 0, 0]
const CI4_BYTES = [0x01, 0x23, 0x45, 0x60]
const CI4_RGBA = [
  [0, 0, 0, 0], [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255],
  [132, 132, 132, 255], [255, 255, 255, 255], [8, 8, 8, 0], [0, 0, 0, 0],
]

/** A DL that loads the §14.2 texture the way §14.1's commands do, then draws a quad. */
function texturedQuad(seg: Seg): number {
  const pal = seg.bytes(PALETTE.flatMap((p) => [p >> 8, p & 0xff]))
  const tex = seg.bytes(CI4_BYTES)
  return quadDl(seg, 100, 0, [
    0xe3001001, 0x00008000, // SETOTHERMODE_H: TEXTLUT = RGBA16
    0xd7000002, 0xffffffff, // G_TEXTURE on, tile 0
    0xfd100000, pal, // SETTIMG RGBA 16b
    0xf5100100, 0x05000000, // SETTILE tile 5, tmem 0x100
    0xf0000000, 0x0503c000, // LOADTLUT tile 5, 16 entries
    0xfd500000, tex, // SETTIMG CI 16b (load size)
    0xf5500000, 0x07000000, // SETTILE load tile 7
    0xf3000000, 0x07001800, // LOADBLOCK tile 7, 2 units, dxt 0x800
    0xf5400000, 0x00004020, // SETTILE tile 0: CI 4b, line 0 (packed), maskt 1, masks 2
    0xf2000000, 0x0000c004, // SETTILESIZE (0,0)-(3,1) texels
  ])
}

const LINE_Q: V3[] = [[0, 0, 0], [6, 0, 0], [12, 6, 0], [18, 0, 0]] // §14.3
const add = (ps: V3[], d: V3): V3[] => ps.map((p) => [p[0] + d[0], p[1] + d[1], p[2] + d[2]])
const BASE1: V3[] = [[100, 5, 200], [100, 5, 200], [100, 5, 200], [150, 5, 260], [200, 5, 300]]
const BLOCK2: V3[] = [[0, 0, -100], [0, 0, 0], [30, 0, 100], [0, 10, 200], [-40, 0, 300]]

const BEACH: StageLayout = {
  k: 0x10, header: 0x8011b914,
  dataRom: 0x100000, dataVram: 0x80110000, dataSize: 0x20000,
  codeRom: 0x120000, codeVram: 0x802c0000, codeSize: 0x10000,
  pathRooms: [
    {
      worldPos: [10, 0, 20], lines: [{ points: LINE_Q }, { points: add(LINE_Q, [0, 0, 10]) }],
      spawns: [{ id: 25, t: [1, 0, 2], path: [[0, 0, 0], [10, 0, 0]] }, { id: 7, t: [3, 0, 4] }],
      dl: texturedQuad,
    },
    { worldPos: [40, 0, 80], yaw: Math.PI / 2, lines: [{ points: add(BASE1, [-10, 0, 0]) }, { points: add(BASE1, [10, 0, 0]) }], dl: (s) => quadDl(s, 200, 0) },
    { worldPos: [0, 0, 100], reversed: true, lines: [{ points: BLOCK2 }], dl: (s) => quadDl(s, 300, 0) },
  ],
  nonPathRooms: [{ worldPos: [0, -5, 0], spawns: [{ id: 129, t: [0, 0, 0] }], dl: (s) => quadDl(s, 500, 0) }],
  skybox: true,
}

const TUNNEL: StageLayout = {
  k: 0x12, header: 0x8011e6cc,
  dataRom: 0x160000, dataVram: 0x80118000, dataSize: 0x10000,
  codeRom: 0x170000, codeVram: 0x802e0000, codeSize: 0x8000,
  pathRooms: [{ worldPos: [0, 0, 0], lines: [{ points: LINE_Q }, { points: LINE_Q }], dl: (s) => quadDl(s, 100, 0) }],
  nonPathRooms: [],
  skybox: false,
}

function buildRom(opts: { name?: string; stages?: StageLayout[] } = {}): Uint8Array {
  const img = new Uint8Array(IMAGE_SIZE)
  const dv = new DataView(img.buffer)
  dv.setUint32(0, 0x80371240)
  dv.setUint32(4, 0x0f)
  dv.setUint32(8, 0x80000400)
  const name = (opts.name ?? 'POKEMON SNAP').padEnd(20, ' ')
  for (let i = 0; i < 20; i++) img[0x20 + i] = name.charCodeAt(i)
  img.set([0x4e, 0x50, 0x46, 0x45], 0x3b) // NPFE
  for (const s of opts.stages ?? [BEACH, TUNNEL]) stage(dv, s)
  return img
}

const toV64 = (z: Uint8Array) => { const o = new Uint8Array(z.length); for (let i = 0; i < z.length; i += 2) { o[i] = z[i + 1]!; o[i + 1] = z[i]! } return o }
const toN64 = (z: Uint8Array) => { const o = new Uint8Array(z.length); for (let i = 0; i < z.length; i += 4) { o[i] = z[i + 3]!; o[i + 1] = z[i + 2]!; o[i + 2] = z[i + 1]!; o[i + 3] = z[i]! } return o }

// ---------------------------------------------------------------- hand computations from the spec

/** §8.3 uniform cubic B-spline weights, written out. */
function bspline(q: V3[], i: number, u: number): V3 {
  const w = [(1 - u) ** 3 / 6, (3 * u ** 3 - 6 * u ** 2 + 4) / 6, (-3 * u ** 3 + 3 * u ** 2 + 3 * u + 1) / 6, u ** 3 / 6]
  const o: V3 = [0, 0, 0]
  for (let k = 0; k < 4; k++) for (let c = 0; c < 3; c++) o[c] += w[k]! * q[i + k]![c]!
  return o
}
/** §9 steps 6–7 / §14.5. */
function place(p: V3, pos: V3, yaw: number): V3 {
  return [pos[0] + Math.cos(yaw) * p[0] + Math.sin(yaw) * p[2], pos[1] + p[1], pos[2] - Math.sin(yaw) * p[0] + Math.cos(yaw) * p[2]]
}
function expectV3(a: number[] | undefined, b: number[], digits = 3) {
  expect(a).toBeDefined()
  for (let c = 0; c < 3; c++) expect(a![c]).toBeCloseTo(b[c]!, digits)
}

// ---------------------------------------------------------------- glb reading

function readGlb(bytes: Uint8Array): { json: Record<string, any>; bin: Uint8Array } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  expect(dv.getUint32(0, true)).toBe(0x46546c67)
  const jsonLen = dv.getUint32(12, true)
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLen)))
  const binLen = dv.getUint32(20 + jsonLen, true)
  const bin = bytes.subarray(28 + jsonLen, 28 + jsonLen + binLen)
  return { json, bin }
}

// ---------------------------------------------------------------- tests

let dir = ''
let romPath = ''
let rom: Uint8Array
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'contract-snap-'))
  rom = buildRom()
  romPath = path.join(dir, 'snap.z64')
  writeFileSync(romPath, rom)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

type StageRow = { name: string; sceneId: number; pathRooms: number; nonPathRooms: number; hasSkybox: boolean; objects: number }
type TrackJson = { blocks: { room: number; position: number[]; yaw: number; controlPoints: number[][] }[]; world: number[][] }

describe('snap stages --json on a partial image (Beach and Tunnel laid out)', () => {
  it('lists the stages present with the CLI.md keys; absent stages are left out, exit 0', async () => {
    const r = await cli('snap', 'stages', romPath, '--json')
    expect(r.err).not.toMatch(/error/i)
    expect(r.code).toBe(0)
    const list = JSON.parse(r.out) as StageRow[]
    expect(list.map((s) => s.name)).toEqual(['beach', 'tunnel'])
    const pick = (s: StageRow) => ({ name: s.name, sceneId: s.sceneId, pathRooms: s.pathRooms, nonPathRooms: s.nonPathRooms, hasSkybox: s.hasSkybox, objects: s.objects })
    expect(list.map(pick)).toEqual([
      { name: 'beach', sceneId: 0x10, pathRooms: 3, nonPathRooms: 1, hasSkybox: true, objects: 3 },
      { name: 'tunnel', sceneId: 0x12, pathRooms: 1, nonPathRooms: 0, hasSkybox: false, objects: 0 },
    ])
    expect(r.err).toMatch(/unverified/)
  })
  it('a full seven-stage image lists every stage name and overlay index in order', async () => {
    const names = ['beach', 'tunnel', 'cave', 'river', 'volcano', 'valley', 'rainbow']
    const headers = [0x8011b914, 0x8011e6cc, 0x8012a0e8, 0x8012ac90, 0x800fffb8, 0x80100720, 0x800f5da0]
    const layouts = headers.map((h, i): StageLayout => {
      const dataVram = (h & ~0xffff) >>> 0
      return { ...TUNNEL, k: 0x10 + 2 * i, header: h, dataRom: 0x060000 + i * 0x28000, dataVram, dataSize: 0x20000, codeRom: 0x060000 + i * 0x28000 + 0x20000, codeVram: 0x80300000, codeSize: 0x8000 }
    })
    const p = path.join(dir, 'seven.z64')
    writeFileSync(p, buildRom({ stages: layouts }))
    const r = await cli('snap', 'stages', p, '--json')
    expect(r.code).toBe(0)
    const list = JSON.parse(r.out) as StageRow[]
    expect(list.map((s) => s.name)).toEqual(names)
    expect(list.map((s) => s.sceneId)).toEqual([0x10, 0x12, 0x14, 0x16, 0x18, 0x1a, 0x1c])
    for (const s of list) expect([s.pathRooms, s.nonPathRooms, s.hasSkybox, s.objects]).toEqual([1, 0, false, 0])
  })
  it('.z64, .v64 and .n64 give identical output', async () => {
    const v = path.join(dir, 'snap.v64'), n = path.join(dir, 'snap.n64')
    writeFileSync(v, toV64(rom))
    writeFileSync(n, toN64(rom))
    for (const args of [['stages'], ['track', '--stage', 'beach', '--samples', '5']]) {
      const a = await cli('snap', args[0]!, romPath, ...args.slice(1), '--json')
      expect(a.code).toBe(0)
      expect((await cli('snap', args[0]!, v, ...args.slice(1), '--json')).out).toBe(a.out)
      expect((await cli('snap', args[0]!, n, ...args.slice(1), '--json')).out).toBe(a.out)
    }
  })
  it('an image whose header does not name the game but has the layout opens with a warning', async () => {
    const p = path.join(dir, 'noname.z64')
    writeFileSync(p, buildRom({ name: '' }))
    const r = await cli('snap', 'stages', p, '--json')
    expect(r.code).toBe(0)
    expect((JSON.parse(r.out) as StageRow[]).length).toBe(2)
    expect(r.err).toMatch(/header name/)
  })
})

describe('snap track --json (§9, §14.3, §14.5)', () => {
  let t: TrackJson
  beforeAll(async () => {
    const r = await cli('snap', 'track', romPath, '--stage', 'beach', '--samples', '3', '--json')
    expect(r.code).toBe(0)
    t = JSON.parse(r.out) as TrackJson
  })
  it('blocks in path-room order with worldPos × 100 and the block yaw', () => {
    expect(t.blocks.map((b) => b.room)).toEqual([0, 1, 2])
    expect(t.blocks[0]!.position).toEqual([1000, 0, 2000])
    expect(t.blocks[1]!.position).toEqual([4000, 0, 8000])
    expect(t.blocks[2]!.position).toEqual([0, 0, 10000])
    expect(t.blocks[0]!.yaw).toBe(0)
    expect(t.blocks[1]!.yaw).toBeCloseTo(Math.PI / 2, 6)
  })
  it('controlPoints are the two control lines blended at cpTime 0.5, block-local, stored order', () => {
    const b0 = t.blocks[0]!.controlPoints
    expect(b0.length).toBe(4)
    LINE_Q.forEach((q, k) => expectV3(b0[k], [q[0], q[1], q[2] + 5], 5))
    BASE1.forEach((q, k) => expectV3(t.blocks[1]!.controlPoints[k], q, 4))
    // one control line (numControlLines 2): the line itself
    BLOCK2.forEach((q, k) => expectV3(t.blocks[2]!.controlPoints[k], q, 4))
  })
  it('world: N points per B-spline segment; --samples 3 gives the §14.3 vectors u = 0, 0.5, 1', () => {
    // segments: 1 + 2 + 2 = 5, 3 samples each
    expect(t.world.length).toBe(15)
    expectV3(t.world[0], [1000 + 6, 1, 2000 + 5])
    expectV3(t.world[1], [1000 + 9, 2.875, 2000 + 5])
    expectV3(t.world[2], [1000 + 12, 4, 2000 + 5])
    // block 1: the first sample is the §14.5 point (100, 5, 200) at worldPos (40, 0, 80) m, yaw π/2
    expectV3(t.world[3], [4200, 5, 7900], 2)
    const us = [0, 0.5, 1]
    let k = 3
    for (let seg = 0; seg < 2; seg++) for (const u of us) expectV3(t.world[k++], place(bspline(BASE1, seg, u), [4000, 0, 8000], Math.PI / 2), 2)
    // block 2 is reversed: walked from the end of its last segment back to its start
    const fwd: V3[] = []
    for (let seg = 0; seg < 2; seg++) for (const u of us) fwd.push(place(bspline(BLOCK2, seg, u), [0, 0, 10000], 0))
    fwd.reverse().forEach((p) => expectV3(t.world[k++], p, 3))
  })
  it('default is 8 samples per segment; the track reaches the end of its last segment', async () => {
    const r = await cli('snap', 'track', romPath, '--stage', 'beach', '--json')
    const d = JSON.parse(r.out) as TrackJson
    expect(d.world.length).toBe(5 * 8)
    expectV3(d.world[7], [1012, 4, 2005])
    expectV3(d.world[39], place(bspline(BLOCK2, 0, 0), [0, 0, 10000], 0))
    expectV3(d.world[1], [1000 + bspline(LINE_Q, 0, 1 / 7)[0], bspline(LINE_Q, 0, 1 / 7)[1], 2005])
  })
  it('tunnel: one block, equal control lines blend to themselves', async () => {
    const r = await cli('snap', 'track', romPath, '--stage', 'tunnel', '--samples', '2', '--json')
    const d = JSON.parse(r.out) as TrackJson
    expect(d.blocks.length).toBe(1)
    expect(d.world.length).toBe(2)
    expectV3(d.world[0], [6, 1, 0])
    expectV3(d.world[1], [12, 4, 0])
  })
  it("a track without command 13 falls back on the InterpData right before the stream (the seed's trailer)", async () => {
    const noSet: StageLayout = { ...BEACH, pathRooms: BEACH.pathRooms.map((r) => ({ ...r, lines: r.lines?.map((l) => ({ ...l, noCmd13: true })) })) }
    const p = path.join(dir, 'nocmd13.z64')
    writeFileSync(p, buildRom({ stages: [noSet] }))
    const r = await cli('snap', 'track', p, '--stage', 'beach', '--samples', '3', '--json')
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/no command 13/)
    expect(JSON.parse(r.out)).toEqual(t)
  })
  it('usage errors exit 2', async () => {
    expect((await cli('snap', 'track', romPath, '--json')).code).toBe(2)
    expect((await cli('snap', 'track', romPath, '--stage', 'moon')).code).toBe(2)
    expect((await cli('snap', 'track', romPath, '--stage', 'beach', '--samples', 'x')).code).toBe(2)
    expect((await cli('snap', 'track', romPath, '--stage', 'beach', '--samples', '0')).code).toBe(2)
    expect((await cli('snap', 'track', '--stage', 'beach')).code).toBe(2)
    expect((await cli('snap', 'export', romPath, '--stage', 'beach')).code).toBe(2)
    expect((await cli('snap', 'export', romPath, '--out', path.join(dir, 'x.glb'))).code).toBe(2)
    expect((await cli('snap', 'stages')).code).toBe(2)
  })
  it('a stage absent from the image is bad input for track (exit 1, names the overlay entry)', async () => {
    const r = await cli('snap', 'track', romPath, '--stage', 'cave', '--json')
    expect(r.code).toBe(1)
    expect(r.out).toBe('')
    expect(r.err).toMatch(/Overlay\[0x14\]/)
  })
})

describe('snap export --out FILE.glb', () => {
  let json: Record<string, any>
  let bin: Uint8Array
  beforeAll(async () => {
    const out = path.join(dir, 'beach.glb')
    const r = await cli('snap', 'export', romPath, '--stage', 'beach', '--out', out)
    expect(r.code).toBe(0)
    const bytes = new Uint8Array(readFileSync(out))
    const report = await validateBytes(bytes)
    expect(report.issues.numErrors).toBe(0)
    ;({ json, bin } = readGlb(bytes))
  })
  it('places every room at worldPos × 100 (no yaw on kind-A rooms, §3.4)', () => {
    const nodes = json.nodes as { translation?: number[]; rotation?: number[]; mesh?: number }[]
    for (const pos of [[1000, 0, 2000], [4000, 0, 8000], [0, 0, 10000], [0, -500, 0]]) {
      const n = nodes.find((x) => x.mesh !== undefined && x.translation && x.translation.every((v, c) => Math.abs(v - pos[c]!) < 1e-3))
      expect(n, `a mesh node at ${pos}`).toBeDefined()
      if (n!.rotation) expect(Math.abs(n!.rotation[3]!)).toBeCloseTo(1, 6)
    }
  })
  it('decodes the §14.2 CI4 texture through the display list into the glb image', () => {
    const images = json.images as { bufferView: number }[]
    const views = json.bufferViews as { byteOffset?: number; byteLength: number }[]
    const decoded = images.map((im) => {
      const v = views[im.bufferView]!
      return PNG.sync.read(Buffer.from(bin.subarray(v.byteOffset ?? 0, (v.byteOffset ?? 0) + v.byteLength)))
    })
    const tex = decoded.find((p) => p.width === 4 && p.height === 2)
    expect(tex).toBeDefined()
    for (let i = 0; i < 8; i++) {
      const px = [...tex!.data.subarray(i * 4, i * 4 + 4)]
      const want = CI4_RGBA[i]!
      expect(px[3]).toBe(want[3])
      if (want[3]) expect(px).toEqual(want)
    }
  })
})

describe('bad input: exit 1, a message with the place, no output file', () => {
  const bad = async (name: string, image: Uint8Array, pattern: RegExp, cmds: string[][] = [['export'], ['stages'], ['track']]) => {
    const p = path.join(dir, name)
    writeFileSync(p, image)
    const before = new Uint8Array(readFileSync(p))
    for (const c of cmds) {
      const out = path.join(dir, `${name}.glb`)
      const args = c[0] === 'export' ? ['--stage', 'beach', '--out', out] : c[0] === 'track' ? ['--stage', 'beach', '--json'] : ['--json']
      const r = await cli('snap', c[0]!, p, ...args)
      if (process.env.SNAP_DEBUG) console.log(name, c[0], r.err.trim())
      expect(r.code, `${c[0]} ${r.err}`).toBe(1)
      expect(r.out).toBe('')
      expect(r.err).toMatch(pattern)
      expect(existsSync(out)).toBe(false)
    }
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([])
    expect(readFileSync(p).equals(Buffer.from(before))).toBe(true)
  }
  it('truncated ROM', async () => bad('trunc.z64', rom.slice(0, 0x110000), /0x[0-9A-F]{4,}/i))
  it('truncated inside the overlay table', async () => bad('trunc2.z64', rom.slice(0, 0x57600), /0x[0-9A-F]{4,}/i))
  it('zeroed overlay table', async () => {
    const img = rom.slice()
    img.fill(0, OVERLAY_TABLE, OVERLAY_TABLE + 0x24 * 0x1e)
    await bad('zeroed.z64', img, /Overlay\[0x10\]/)
  })
  it('a pointer outside every chunk', async () => {
    const img = rom.slice()
    const dv = new DataView(img.buffer)
    // WorldSetup.blocksSetup → WorldBlockSetup; break its modelBlocks pointer
    const blocks = dv.getUint32(BEACH.dataRom + (BEACH.header - BEACH.dataVram))
    dv.setUint32(BEACH.dataRom + (blocks - BEACH.dataVram), 0x80712340)
    await bad('badptr.z64', img, /0x80712340/)
  })
  it('a texture pointer outside every chunk (SETTIMG in a room DL)', async () => {
    const img = rom.slice()
    const dv = new DataView(img.buffer)
    let at = -1
    for (let o = BEACH.dataRom; o < BEACH.dataRom + BEACH.dataSize; o += 4) if (dv.getUint32(o) === 0xfd500000) { at = o; break }
    expect(at).toBeGreaterThan(0)
    dv.setUint32(at + 4, 0x80712340)
    await bad('badtex.z64', img, /0x80712340/, [['export']])
  })
  it('a display list that loops (branch to itself)', async () => {
    const img = rom.slice()
    const dv = new DataView(img.buffer)
    // the skybox DL: WorldBlockSetup.skybox → SkyBox.gfxData; replace its first command by a branch to itself
    const blocks = dv.getUint32(BEACH.dataRom + (BEACH.header - BEACH.dataVram))
    const sky = dv.getUint32(BEACH.dataRom + (blocks - BEACH.dataVram) + 8)
    const dl = dv.getUint32(BEACH.dataRom + (sky - BEACH.dataVram))
    dv.setUint32(BEACH.dataRom + (dl - BEACH.dataVram), 0xde010000)
    dv.setUint32(BEACH.dataRom + (dl - BEACH.dataVram) + 4, dl)
    const romOff = (BEACH.dataRom + (dl - BEACH.dataVram)).toString(16)
    await bad('loop.z64', img, new RegExp(`loop\\.z64.*SkyBox.*at 0x${romOff}.*(loop|never ends)`, 'i'), [['export']])
  })
  it('a display list that calls itself (runaway nesting)', async () => {
    const img = rom.slice()
    const dv = new DataView(img.buffer)
    const blocks = dv.getUint32(BEACH.dataRom + (BEACH.header - BEACH.dataVram))
    const sky = dv.getUint32(BEACH.dataRom + (blocks - BEACH.dataVram) + 8)
    const dl = dv.getUint32(BEACH.dataRom + (sky - BEACH.dataVram))
    dv.setUint32(BEACH.dataRom + (dl - BEACH.dataVram), 0xde000000)
    dv.setUint32(BEACH.dataRom + (dl - BEACH.dataVram) + 4, dl)
    const romOff = (BEACH.dataRom + (dl - BEACH.dataVram)).toString(16)
    await bad('recurse.z64', img, new RegExp(`recurse\\.z64.*SkyBox.*at 0x${romOff}.*nest`, 'i'), [['export']])
  })
  it('not an N64 image', async () => bad('junk.z64', new Uint8Array(0x1000).fill(0x11), /80 37 12 40/))
})

describe('spawned CLI exit codes', () => {
  it('0 on success, 1 on bad input, 2 on usage', () => {
    const bin = path.join(import.meta.dirname, '..', '..', 'bin', 'modbench.mjs')
    const ok = spawnSync(process.execPath, [bin, 'snap', 'stages', romPath, '--json'], { encoding: 'utf8' })
    expect(ok.status).toBe(0)
    expect((JSON.parse(ok.stdout) as StageRow[]).map((s) => s.name)).toEqual(['beach', 'tunnel'])
    const trunc = path.join(dir, 'trunc-spawn.z64')
    writeFileSync(trunc, rom.slice(0, 0x58000))
    expect(spawnSync(process.execPath, [bin, 'snap', 'stages', trunc], { encoding: 'utf8' }).status).toBe(1)
    expect(spawnSync(process.execPath, [bin, 'snap', 'track', romPath], { encoding: 'utf8' }).status).toBe(2)
  })
})

// ---------------------------------------------------------------- §14.1 / §14.2 vectors, independently

describe('§14.1 display-list vectors through the interpreter', () => {
  const mem = (bytes: Record<number, number[]>) => ({
    read(addr: number, len: number) {
      for (const [a, b] of Object.entries(bytes)) {
        const base = Number(a)
        if (addr >= base && addr + len <= base + b.length) return new Uint8Array(b.slice(addr - base, addr - base + len))
      }
      throw new Error(`unmapped 0x${addr.toString(16)}`)
    },
  })
  it('G_VTX 01004008 loads 4 vertices into slots 0–3; TRI2 / TRI1 / QUAD index them', () => {
    const vs = vtxBytes([{ p: [0, 0, 0] }, { p: [1, 0, 0] }, { p: [1, 1, 0] }, { p: [0, 1, 0] }, { p: [2, 2, 2] }, { p: [3, 3, 3] }])
    const m = mem({ 0x80123450: vs })
    const it = new F3dex2()
    it.exec(0x01004008, 0x80123450, m)
    expect(it.vertices.slice(0, 4).map((v) => v?.x)).toEqual([0, 1, 1, 0])
    expect(it.vertices[4]).toBeNull()
    it.exec(0x06000204, 0x00000406, m)
    it.exec(0x01002008, 0x80123460, m) // n = 2, end 8/2 = 4 → v0 = 2: slots 2, 3 ← vertices 1, 2
    it.exec(0x01006012, 0x80123450, m) // n = 6, v0 = 9 − 6 = 3: slots 3..8
    it.exec(0x05060810, 0, m) // TRI1 (3, 4, 8)
    it.exec(0x07000204, 0x00000406, m) // QUAD (0,1,2) (0,2,3)
    const d = it.takeDrawCalls()
    const tris = d.flatMap((dc) => { const o: number[][] = []; for (let i = 0; i < dc.indices.length; i += 3) o.push([0, 1, 2].map((k) => dc.vertices[dc.indices[i + k]!]!.x)); return o })
    expect(tris).toEqual([[0, 1, 1], [0, 1, 0], [0, 1, 3], [0, 1, 1], [0, 1, 0]])
  })
  it('G_TEXTURE, SETTIMG, SETTILE, LOADBLOCK, SETTILESIZE, LOADTLUT, GEOMETRYMODE decode as listed', () => {
    const it = new F3dex2()
    const m = mem({})
    it.exec(0xd7000002, 0xffffffff, m)
    expect(it.texture).toEqual({ on: true, tile: 0, level: 0, sScale: 0xffff / 65536, tScale: 0xffff / 65536 })
    it.exec(0xfd500000, 0x80200000, m)
    expect(it.timg).toEqual({ fmt: 2, siz: 2, width: 1, addr: 0x80200000 })
    it.exec(0xf5500000, 0x07000000, m)
    expect(it.tiles[7]).toMatchObject({ fmt: 2, siz: 2, line: 0, tmem: 0 })
    it.exec(0xf3000000, 0x070ff400, m)
    expect(it.tmem.get(0)).toMatchObject({ addr: 0x80200000, kind: 'block', dxt: 0x400, count: 256 })
    it.exec(0xf5400400, 0x00014050, m)
    expect(it.tiles[0]).toMatchObject({ fmt: 2, siz: 0, line: 2, tmem: 0, palette: 0, cms: 0, cmt: 0, masks: 5, maskt: 5 })
    it.exec(0xf2000000, 0x0007c07c, m)
    expect(it.tiles[0]).toMatchObject({ uls: 0, ult: 0, lrs: 0x7c, lrt: 0x7c })
    expect(((it.tiles[0]!.lrs - it.tiles[0]!.uls) >> 2) + 1).toBe(32)
    it.exec(0xfd100000, 0x80210000, m)
    it.exec(0xf5100100, 0x05000000, m)
    it.exec(0xf0000000, 0x0503c000, m)
    expect(it.tmem.get(0x100)).toMatchObject({ addr: 0x80210000, count: 16 })
    it.geometryMode = 0x200 | 0x4
    it.exec(0xd9fffdff, 0x00000400, m)
    expect(it.geometryMode).toBe(0x400 | 0x4)
  })
  it('G_DL to segment 0x0E reaches the hook with material slot 2; G_DL 01 branches without return', () => {
    const seen: number[] = []
    const it = new F3dex2({ hooks: { onCall: (t) => { if (t >>> 24 === 0x0e) { seen.push((t & 0xffffff) >>> 3); return true } return false } } })
    const m = mem({
      0x80100000: [0xde, 0, 0, 0, 0x0e, 0, 0, 0x10, 0xde, 1, 0, 0, 0x80, 0x1a, 0x2b, 0x30, 0xfa, 0, 0, 0, 1, 1, 1, 1],
      0x801a2b30: [0xfb, 0, 0, 0, 0x11, 0x22, 0x33, 0x44, 0xdf, 0, 0, 0, 0, 0, 0, 0],
    })
    it.run(0x80100000, m)
    expect(seen).toEqual([2])
    expect(it.envColor).toEqual([0x11, 0x22, 0x33, 0x44])
    expect(it.primColor).toEqual([255, 255, 255, 255]) // the command after the branch never runs
  })
  it('the §14.1 vertex record decodes as listed (lit normal and unlit colour)', () => {
    const m = mem({ 0x80000000: [0xff, 0x9c, 0x00, 0x64, 0, 0, 0, 0, 0x04, 0x00, 0xfc, 0x00, 0xff, 0x80, 0x40, 0xff] })
    const it = new F3dex2()
    it.exec(0x01001002, 0x80000000, m)
    const v = it.vertices[0]!
    expect([v.x, v.y, v.z, v.s / 32, v.t / 32]).toEqual([-100, 100, 0, 32, -32])
    expect([v.c0, v.c1, v.c2, v.a]).toEqual([255, 128, 64, 255])
    const s8 = [v.c0, v.c1, v.c2].map((b) => (b << 24) >> 24)
    const l = Math.hypot(...s8)
    expect(s8.map((x) => x / l).map((x) => Math.round(x * 1e4) / 1e4)).toEqual([-0.007, -0.8944, 0.4472])
  })
})

describe('§14.2 CI4 with an RGBA5551 palette, and I4', () => {
  it('decodes the palette and the 4×2 texture as listed', () => {
    const palBytes = new Uint8Array(PALETTE.flatMap((p) => [p >> 8, p & 0xff]))
    const pal = decodePalette(palBytes, 16)
    const rgba = decodeTexture({ fmt: 2, siz: 0, width: 4, height: 2, data: new Uint8Array(CI4_BYTES), palette: pal })
    expect(Array.from({ length: 8 }, (_, i) => [...rgba.subarray(i * 4, i * 4 + 4)])).toEqual(CI4_RGBA)
    const i4 = decodeTexture({ fmt: 4, siz: 0, width: 4, height: 2, data: new Uint8Array(CI4_BYTES) })
    expect(Array.from({ length: 8 }, (_, i) => i4[i * 4])).toEqual([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x00])
    expect(Array.from({ length: 8 }, (_, i) => i4[i * 4 + 3])).toEqual([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x00])
  })
})
