/**
 * Black-box contract of `gf models`, `gf motions` and `gf export` (CLI.md "GF package sets",
 * gf-packages.md §4.5, §6, §7.1, §11, §15.5–15.7, §15.9). The one-bone model below is written out
 * byte by byte in this file from the spec's tables (no fixture builder, no code of src-*), the
 * motion is spec §15.7's hex dump, and every expected number is computed here by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { cli } from '../helpers/cli'

const u8s = (...v: number[]) => v.map((x) => x & 0xff)
const u16 = (v: number) => [v & 0xff, (v >>> 8) & 0xff]
const u32 = (v: number) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff]
const f32 = (v: number) => Array.from(new Uint8Array(new Float32Array([v]).buffer))
const ascii = (s: string, n = s.length) => Array.from({ length: n }, (_, i) => (i < s.length ? s.charCodeAt(i) : 0))
const pad = (a: number[], n: number) => { while (a.length % n) a.push(0); return a }
/** A GF section (§4.1): name[8], body length, 0xFFFFFFFF, body. */
const section = (name: string, body: number[]) => [...ascii(name, 8), ...u32(body.length), ...u32(0xffffffff), ...body]
const shortName = (s: string) => [...u32(0), s.length, ...ascii(s)] // hash ignored by readers (§4.3)
const table = (names: string[]) => [...u32(names.length), ...names.flatMap((n) => [...u32(0), ...ascii(n, 0x40)])]
/** One PICA command (§4.5): param0, header, extras, padding to an even word count. */
const cmd = (reg: number, params: number[], seq = false) => {
  const w = [params[0]!, (reg | (0xf << 16) | ((params.length - 1) << 20) | (seq ? 0x80000000 : 0)) >>> 0, ...params.slice(1)]
  if (w.length % 2) w.push(0)
  return w.flatMap(u32)
}

/** The model: bone "Origin" at (0, 2, 0) scaled 1, material "Mat" on texture "Tex0", mesh "Mesh": one triangle. */
function model(): number[] {
  const gfmodel = [
    ...table(['Shader']), ...table(['Tex0']), ...table(['Mat']), ...table(['Mesh']),
    ...[-1, -1, -1, 1, 1, 1, 1, 1].flatMap(f32), ...[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1].flatMap(f32),
    ...u32(0), ...u32(0x10), ...new Array(8).fill(0), ...new Array(16).fill(0), // unknown block: skip 0x10 + 0
    ...u32(1), ...new Array(12).fill(0),
    6, ...ascii('Origin'), 0, 1, ...[1, 1, 1, 0, 0, 0, 0, 2, 0].flatMap(f32), // name, parent "", flags, S, R, T
  ]
  // 0x20 + gfmodel so far, align 16 from the entry start, then LUT count 0 / length 0, align 16.
  const head = 0x20
  while ((head + gfmodel.length) % 16) gfmodel.push(0)
  gfmodel.push(...u32(0), ...u32(0))
  while ((head + gfmodel.length) % 16) gfmodel.push(0)
  // §6.4's fixed run of 0xAC bytes: 3 LUT hashes, pad, bump unit −1, 6 constant slots, pad,
  // 12 RGBA colours, 96 bytes of edge/rim/phong/bake/shader parameters, the unit count (1).
  const fixed = [...new Array(16).fill(0), 0xff, ...new Array(7).fill(0), ...new Array(48).fill(255), ...new Array(96).fill(0), ...u32(1)]
  expect(fixed.length).toBe(0xac)
  const mat = [...shortName('Mat'), ...shortName('Shader'), ...shortName('Poke'), ...shortName('MatFS'), ...fixed]
  mat.push(...shortName('Tex0'), 0, 0, ...[1, 1, 0, 0, 0].flatMap(f32), ...u32(2), ...u32(2), ...u32(1), ...u32(1), ...u32(0))
  const cmds = [...cmd(0x040, [0]), ...cmd(0x23d, [1])] // cull none
  const matBody = (start: number) => { const b = [...mat]; while ((start + 16 + b.length) % 16) b.push(0); return [...b, ...u32(cmds.length), ...u32(0), ...u32(0), ...u32(0), ...new Array(16).fill(0), ...cmds, ...new Array(16).fill(0)] }
  // Mesh (§6.6): layout of §15.5 reduced to attribute 0 (f32×3 position), stride 12; u8 triangle list.
  const setup = [...cmd(0x201, [0x0000000b, 0x00000000], true), ...cmd(0x204, [0x00000000, 0x100c0000], true), ...cmd(0x2bb, [0, 0], true)]
  const draw = [...cmd(0x227, [0x00000000]), ...cmd(0x228, [3]), ...cmd(0x25e, [0])]
  const blocks = [setup, cmd(0x25f, [1]), draw].flatMap((b, i) => [...u32(b.length), ...u32(i), ...u32(3), ...u32(0), ...b])
  const verts = [[-1, 0, 0], [1, 0, 0], [0, 3, 0]].flat().flatMap(f32)
  const idx = pad(u8s(0, 1, 2), 16)
  const sub = [...u32(0), ...u32(4), ...ascii('Mat', 4), 1, ...new Array(31).fill(0), ...u32(3), ...u32(3), ...u32(verts.length), ...u32(idx.length)]
  const mesh = [...u32(0), ...ascii('Mesh', 0x40), ...u32(0), ...new Array(32).fill(0), ...u32(1), ...u32(1), ...new Array(16).fill(0xff), ...blocks, ...sub, ...verts, ...idx]
  const out = [...u32(0x15122117), ...u32(3), ...new Array(8).fill(0), ...section('gfmodel', gfmodel)]
  out.push(...section('material', matBody(out.length)))
  out.push(...section('mesh', pad(mesh, 16)))
  return out
}

/** Spec §15.7, verbatim. */
const MOTION = `00 00 06 00 02 00 00 00 00 00 00 00 24 00 00 00 20 00 00 00 01 00 00 00 34 00 00 00 44 00 00 00
0A 00 00 00 01 00 00 00 00 00 80 BF 00 00 80 BF 00 00 80 BF 00 00 80 3F 00 00 80 3F 00 00 80 3F
EF BE AD DE 01 00 00 00 08 00 00 00 06 4F 72 69 67 69 6E 00 00 06 14 80 1C 00 00 00 00 00 C0 3F
02 00 00 00 00 09 00 00 00 00 00 00 00 00 00 00 00 00 00 40 00 00 00 00`.split(/\s+/).map((h) => parseInt(h, 16))

/** A package (§2.1) with a minimal header and entries padded to 16. */
function pkg(entries: number[][]): Uint8Array {
  let cursor = 4 + 4 * (entries.length + 1)
  while (cursor % 16) cursor++
  const head = [...ascii('PC'), ...u16(entries.length)]
  const offs: number[] = []
  const body: number[] = []
  for (const e of entries) { offs.push(cursor); body.push(...pad([...e], 16)); cursor += pad([...e], 16).length }
  offs.push(cursor)
  const h = [...head, ...offs.flatMap(u32)]
  while (h.length < offs[0]!) h.push(0)
  return Uint8Array.from([...h, ...body])
}
/** An 8×8 RGB565 GFTexture, all white (§9.1, §15.4). */
const texture = () => [...u32(0x15041213), ...u32(1), ...ascii('texture', 8), ...u32(0xe8), ...u32(0xffffffff), ...u32(0x80), ...new Array(12).fill(0), ...ascii('Tex0', 0x40), ...u16(8), ...u16(8), ...u16(2), ...u16(1), ...new Array(16).fill(0xff), ...new Array(0x80).fill(0xff)]

let tmp: string, setDir: string
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'contract-gfm-'))
  setDir = path.join(tmp, 'set')
  mkdirSync(setDir)
  writeFileSync(path.join(setDir, '0.bin'), pkg([model()]))
  writeFileSync(path.join(setDir, '1.bin'), pkg([texture()]))
  writeFileSync(path.join(setDir, '4.bin'), pkg([MOTION]))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** The JSON chunk and the BIN chunk of a .glb (glTF 2.0 §4.4). */
function glb(file: string): { json: any; bin: Buffer } {
  const b = readFileSync(file)
  const jsonLen = b.readUInt32LE(12)
  return { json: JSON.parse(b.subarray(20, 20 + jsonLen).toString('utf8')), bin: b.subarray(20 + jsonLen + 8) }
}
function accessor(g: { json: any; bin: Buffer }, i: number): number[] {
  const a = g.json.accessors[i], v = g.json.bufferViews[a.bufferView]
  const n = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[a.type as 'SCALAR']! * a.count
  const at = (v.byteOffset ?? 0) + (a.byteOffset ?? 0)
  return Array.from({ length: n }, (_, k) => g.bin.readFloatLE(at + 4 * k))
}

describe('GF models and motions: the CLI contract on a hand-built set', () => {
  it('gf models --json', async () => {
    const r = await cli(['gf', 'models', setDir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toEqual([{ file: '0.bin', entry: 0, lod: 'high', name: expect.any(String), bones: [{ name: 'Origin', parent: null }], meshes: 1, vertices: 3, triangles: 1, materials: [{ name: 'Mat', textures: ['Tex0'] }] }])
  })
  it('gf motions --json: the §15.7 motion', async () => {
    const r = await cli(['gf', 'motions', setDir, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toEqual([{ file: '4.bin', entry: 0, frames: 10, loop: true, skeletal: 1, material: 0, visibility: 0, label: 'Idle' }])
  })
  it('gf export: joint "Origin", inverse bind of T(0,2,0), the clip 4.bin/0 over 0..10/30 s with §15.7 values', async () => {
    const out = path.join(tmp, 'x.glb')
    const r = await cli(['gf', 'export', setDir, '--out', out])
    expect(r.code, r.stderr).toBe(0)
    const g = glb(out)
    const skin = g.json.skins[0]
    expect(skin.joints.map((j: number) => g.json.nodes[j].name)).toEqual(['Origin'])
    expect(g.json.nodes[skin.joints[0]].translation).toEqual([0, 2, 0])
    const ibm = accessor(g, skin.inverseBindMatrices)
    expect(ibm).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -2, 0, 1])
    const anim = g.json.animations[0]
    expect(anim.name).toBe('4.bin/0')
    const byPath = Object.fromEntries(anim.channels.map((c: any) => [c.target.path, anim.samplers[c.sampler]]))
    expect(Object.keys(byPath).sort()).toEqual(['rotation', 'translation'])
    const times = accessor(g, byPath.translation.input)
    expect(times.length).toBe(11)
    expect(times[10]).toBeCloseTo(10 / 30, 6)
    const tx = accessor(g, byPath.translation.output)
    // transX keys (0, 0) and (9, 2), zero slopes: frame 3 → t = 1/3 → 2·(3t² − 2t³) = 2·(1/3 − 2/27) = 14/27; frame 10 holds 2
    expect(tx[3 * 3]).toBeCloseTo(14 / 27, 5)
    expect(tx[10 * 3]).toBeCloseTo(2, 6)
    expect(tx[3 * 3 + 1]).toBe(2) // Y keeps the bind value
    const q = accessor(g, byPath.rotation.output)
    // rotX constant 1.5 rad: q = (sin 0.75, 0, 0, cos 0.75) at every frame
    expect(q.slice(0, 4).map((x) => +x.toFixed(5))).toEqual([+Math.sin(0.75).toFixed(5), 0, 0, +Math.cos(0.75).toFixed(5)])
    expect(g.json.meshes[0].primitives[0].attributes.JOINTS_0).toBeDefined()
    expect(g.json.materials[0].doubleSided).toBe(true) // cull none
  })
  it('a motion cut short: gf export exits 1 naming 4.bin, entry and offset, and writes nothing', async () => {
    const bad = path.join(tmp, 'bad')
    mkdirSync(bad)
    writeFileSync(path.join(bad, '0.bin'), readFileSync(path.join(setDir, '0.bin')))
    writeFileSync(path.join(bad, '1.bin'), readFileSync(path.join(setDir, '1.bin')))
    writeFileSync(path.join(bad, '4.bin'), pkg([MOTION.slice(0, 0x60)]))
    const out = path.join(tmp, 'bad.glb')
    const r = await cli(['gf', 'export', bad, '--out', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/4\.bin: entry 0 GFMotion .*at 0x[0-9A-F]+/)
    expect(existsSync(out)).toBe(false)
  })
})
