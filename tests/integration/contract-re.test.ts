/**
 * Black-box contract tests for the RE Engine motion commands (CLI.md "RE Engine motions",
 * spec shared/specs/re-motlist.md). Every input is assembled here by hand from the spec's
 * tables (offsets, sizes, flag words, key encodings) — none of the project's fixture builders
 * or writers is used — and every expected value is computed here from the spec's formulas.
 * Only the CLI is exercised (in process through runCli, plus spawns for exit codes).
 *
 * Bone names are limited to the spec's §6 hash table, so the hashes written into the files
 * are the spec's own test vectors (no hash code of ours is involved).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest'
import { createHash } from 'node:crypto'
import { promises as fsp, mkdtempSync, rmSync, readdirSync, statSync } from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { cli, spawnCli } from '../helpers/cli'
import { boneHash } from '../../src-shared/formats/re'

// ---- spec §6 hash table ---------------------------------------------------------------------

const HASH: Record<string, number> = {
  root: 2879905340,
  Hip: 1549972489,
  COG: 3425867754,
  Null_Offset: 1573792880,
  Spine_0: 3992101857,
  Head: 935285574,
  L_Forearm: 581854075,
  R_Toe: 829768755,
}

describe('bone hash (spec §6)', () => {
  it('MurmurHash3 x86_32 of the UTF-16LE name, seed 0xFFFFFFFF: the spec table', () => {
    for (const [name, h] of Object.entries(HASH)) expect(boneHash(name), name).toBe(h)
    expect(boneHash('root')).toBe(0xaba7de3c)
    expect(boneHash('root')).not.toBe(0x32339186) // the UTF-8 hash the spec warns about
    expect(boneHash('Root')).not.toBe(HASH.root) // case-sensitive
  })
})

// ---- spec §10.3: the 680-byte minimal RE4R motlist (hex dump copied from the spec) ----------

const SPEC_10_3_HEX = `
00000000: 9702 0000 6d6c 7374 0000 0000 0000 0000
00000010: 4000 0000 0000 0000 6002 0000 0000 0000
00000020: 3600 0000 0000 0000 0000 0000 0000 0000
00000030: 0100 0000 0000 7000 6f00 7300 6500 0000
00000040: 5000 0000 0000 0000 0000 0000 0000 0000
00000050: 6502 0000 6d6f 7420 0000 0000 0000 0000
00000060: 4001 0000 0000 0000 8000 0000 0000 0000
00000070: 0000 0000 0000 0000 0000 0000 0000 0000
00000080: 0000 0000 0000 0000 0000 0000 0000 0000
00000090: 0000 0000 0000 0000 0000 0000 0000 0000
000000a0: 0000 0000 0000 0000 3001 0000 0000 0000
000000b0: 0000 803f 0000 0000 0000 0000 0000 803f
000000c0: 0200 0200 0000 0000 3c00 0000 0000 0000
000000d0: 0000 02ff 3cde a7ab a000 0000 0100 03ff
000000e0: 09b4 625c b400 0000 0000 0000 0000 0000
000000f0: 1201 2c00 0200 0000 dc00 0000 e000 0000
00000100: 0000 0000 f200 2000 0200 0000 f800 0000
00000110: fc00 0000 0000 0000 1201 2c00 0200 0000
00000120: 1401 0000 1801 0000 0000 0000 0001 0000
00000130: 0000 0000 0000 0000 0000 0000 0000 0000
00000140: 0000 0000 0000 0000 0001 0000 0000 0000
00000150: 0000 803f 0000 0000 0000 0000 0000 803f
00000160: 0000 0000 0001 0000 0000 0000 f304 353f
00000170: 0000 0000 0000 0000 f304 353f 0000 0000
00000180: 7000 6f00 7300 6500 0000 0000 0000 0000
00000190: 5001 0000 0000 0000 0200 0000 0000 0000
000001a0: f001 0000 0000 0000 0000 0000 0000 0000
000001b0: a001 0000 0000 0000 0000 0000 0000 0000
000001c0: 0000 0000 0000 0000 0000 0000 0000 0000
000001d0: 0000 0000 0000 0000 0000 0000 0000 803f
000001e0: 0000 0000 3cde a7ab 0000 0000 0000 0000
000001f0: fa01 0000 0000 0000 5001 0000 0000 0000
00000200: 0000 0000 0000 0000 0000 0000 0000 0000
00000210: 0000 0000 0000 803f 0000 0000 0000 0000
00000220: 0000 0000 0000 0000 0000 0000 0000 803f
00000230: 0100 0000 09b4 625c 0000 0000 0000 0000
00000240: 7200 6f00 6f00 7400 0000 4800 6900 7000
00000250: 0000 0000 0000 0000 0000 0000 0000 0000
00000260: 0000 0000 0000 0000 0000 0000 0000 0000
00000270: 0000 0000 0100 0000 0000 0000 0000 0000
00000280: 0000 0000 0000 0000 0000 0000 0000 0000
00000290: 0000 0000 0000 0000 0000 0000 0000 0000
000002a0: 0000 0000 0000 0000
`
const SPEC_10_3_SHA256 = '49887b3afec4693a5ba8a492e4bb8a769515607721e588844667d0beda5dbb36'

function fromHexDump(dump: string): Uint8Array {
  const out: number[] = []
  for (const line of dump.trim().split('\n')) {
    const [addr, rest] = line.split(': ')
    expect(parseInt(addr!, 16)).toBe(out.length)
    for (const group of rest!.trim().split(/\s+/)) for (let i = 0; i < group.length; i += 2) out.push(parseInt(group.slice(i, i + 2), 16))
  }
  return Uint8Array.from(out)
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

// ---- a hand assembler: fields at explicit offsets --------------------------------------------

class Bin {
  readonly b: Uint8Array
  readonly dv: DataView
  end = 0
  constructor(size: number) {
    this.b = new Uint8Array(size)
    this.dv = new DataView(this.b.buffer)
  }
  private mark(o: number, n: number) {
    this.end = Math.max(this.end, o + n)
  }
  u8(o: number, v: number) { this.dv.setUint8(o, v); this.mark(o, 1) }
  u16(o: number, v: number) { this.dv.setUint16(o, v, true); this.mark(o, 2) }
  u32(o: number, v: number) { this.dv.setUint32(o, v >>> 0, true); this.mark(o, 4) }
  i32(o: number, v: number) { this.dv.setInt32(o, v, true); this.mark(o, 4) }
  u64(o: number, v: number) { this.dv.setBigUint64(o, BigInt(v), true); this.mark(o, 8) }
  f32(o: number, v: number) { this.dv.setFloat32(o, v, true); this.mark(o, 4) }
  ascii(o: number, s: string) { for (let i = 0; i < s.length; i++) this.u8(o + i, s.charCodeAt(i)) }
  bytes(o: number, d: Uint8Array) { this.b.set(d, o); this.mark(o, d.length) }
  /** UTF-16LE + 2-byte NUL; returns the end offset. */
  utf16z(o: number, s: string): number {
    for (let i = 0; i < s.length; i++) this.u16(o + i * 2, s.charCodeAt(i))
    this.u16(o + s.length * 2, 0)
    return o + s.length * 2 + 2
  }
  finish(size = this.end): Uint8Array { return this.b.slice(0, size) }
}

const align = (n: number, a: number) => Math.ceil(n / a) * a
const f = Math.fround

/** Little-endian f32 bytes. */
function f32s(...v: number[]): Uint8Array {
  const b = new Uint8Array(v.length * 4)
  const dv = new DataView(b.buffer)
  v.forEach((x, i) => dv.setFloat32(i * 4, x, true))
  return b
}
function u16s(...v: number[]): Uint8Array {
  const b = new Uint8Array(v.length * 2)
  v.forEach((x, i) => { b[i * 2] = x & 0xff; b[i * 2 + 1] = x >>> 8 })
  return b
}
/** An n-byte unsigned integer, big-endian (first byte most significant, spec §5.6). */
function beInt(v: bigint, n: number): Uint8Array {
  const b = new Uint8Array(n)
  for (let i = n - 1; i >= 0; i--) { b[i] = Number(v & 0xffn); v >>= 8n }
  return b
}
function leInt(v: bigint, n: number): Uint8Array {
  const b = new Uint8Array(n)
  for (let i = 0; i < n; i++) { b[i] = Number(v & 0xffn); v >>= 8n }
  return b
}
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0))
  let o = 0
  for (const p of parts) { out.set(p, o); o += p.length }
  return out
}

interface HTrack {
  /** The whole track flags word (§4.4): index size << 20 | compression | value type. */
  flags: number
  keys: number
  /** Frame numbers, or null for no index array (frameIndexOffset = 0). */
  frames: number[] | null
  data: Uint8Array
  unpack?: number[]
}
interface HClip { bone: number; name: keyof typeof HASH; T?: HTrack; R?: HTrack; S?: HTrack }
interface HBone { name: keyof typeof HASH; parent: number; t: number[]; q: number[] }
interface HMot {
  version: number
  name: string
  frameCount: number
  frameRate: number
  /** mot ≥ 458: the u16 at 0x76 (written non-zero to prove FrameRate is read at 0x78). */
  at76?: number
  bones: HBone[] | null
  clips: HClip[]
  /** Bone-owning mot inside a motlist: motSize = 0 (§3.3). Otherwise motSize = end of data. */
  owner: boolean
}

/**
 * A mot image laid out as spec §4 / §4.8 / §4.5 describe (header → align16 → clip headers →
 * align16 → track headers → per track indices, align4, data, align4, unpack → name →
 * [motSize] → align16 → bone block → names). All offsets mot-relative.
 */
function handMot(m: HMot): Uint8Array {
  const B = new Bin(1 << 16)
  const v = m.version
  const old = v < 456 // 0x74-byte header: no 0x48 field and no 0x76 u16 (§4.8)
  const headerSize = old ? 0x74 : v < 458 ? 0x7c : 0x7e
  const clipSize = v <= 65 ? 24 : 12
  const trackSize = v < 78 ? 40 : 20
  B.u32(0x00, v)
  B.ascii(0x04, 'mot ')
  B.u32(0x08, 0)
  let p = align(headerSize, 16)
  const clipAt = p
  p = align(p + clipSize * m.clips.length, 16)
  type Pending = { hdr: number; t: HTrack }
  const pending: Pending[] = []
  const clipTrackAt: number[] = []
  for (const c of m.clips) {
    clipTrackAt.push(p)
    for (const t of [c.T, c.R, c.S]) if (t) { pending.push({ hdr: p, t }); p += trackSize }
  }
  for (const { hdr, t } of pending) {
    const idxSize = t.flags >>> 20
    const w = idxSize === 2 ? 1 : idxSize === 4 ? 2 : 4
    let idxAt = 0
    if (t.frames) {
      idxAt = p
      t.frames.forEach((fr, i) => (w === 1 ? B.u8(p + i, fr) : w === 2 ? B.u16(p + i * 2, fr) : B.u32(p + i * 4, fr)))
      p += t.frames.length * w
    }
    p = align(p, 4)
    const dataAt = p
    B.bytes(p, t.data)
    p += t.data.length
    p = align(p, 4)
    let unpackAt = 0
    if (t.unpack) {
      unpackAt = p
      t.unpack.forEach((x, i) => B.f32(p + i * 4, x))
      p += t.unpack.length * 4
    }
    B.u32(hdr + 0x00, t.flags)
    B.i32(hdr + 0x04, t.keys)
    if (trackSize === 20) {
      B.u32(hdr + 0x08, idxAt)
      B.u32(hdr + 0x0c, dataAt)
      B.u32(hdr + 0x10, unpackAt)
    } else {
      B.u32(hdr + 0x08, m.frameRate)
      B.f32(hdr + 0x0c, m.frameCount)
      B.u64(hdr + 0x10, idxAt)
      B.u64(hdr + 0x18, dataAt)
      B.u64(hdr + 0x20, unpackAt)
    }
  }
  m.clips.forEach((c, i) => {
    const o = clipAt + i * clipSize
    B.u16(o + 0x0, c.bone)
    B.u8(o + 0x2, (c.T ? 1 : 0) | (c.R ? 2 : 0) | (c.S ? 4 : 0))
    B.u8(o + 0x3, clipSize === 12 ? 0xff : 0)
    B.u32(o + 0x4, HASH[c.name]!)
    if (clipSize === 12) B.u32(o + 0x8, clipTrackAt[i]!)
    else { B.f32(o + 0x8, 1); B.u32(o + 0xc, 0); B.u64(o + 0x10, clipTrackAt[i]!) }
  })
  const nameAt = p
  p = B.utf16z(p, m.name)
  const motEnd = p
  p = align(p, 16)
  let boneBlock = 0
  if (m.bones) {
    boneBlock = p
    const first = p + 0x10
    B.u64(p, first)
    B.u64(p + 8, m.bones.length)
    const at = (i: number) => first + i * 0x50
    let s = first + m.bones.length * 0x50
    m.bones.forEach((b, i) => {
      const o = at(i)
      B.u64(o + 0x00, s)
      s = B.utf16z(s, b.name)
      B.u64(o + 0x08, b.parent >= 0 ? at(b.parent) : 0)
      const child = m.bones!.findIndex((c) => c.parent === i)
      B.u64(o + 0x10, child >= 0 ? at(child) : 0)
      const sib = m.bones!.findIndex((c, k) => k > i && c.parent === b.parent)
      B.u64(o + 0x18, sib >= 0 ? at(sib) : 0)
      b.t.forEach((x, k) => B.f32(o + 0x20 + k * 4, x))
      B.f32(o + 0x2c, 0)
      b.q.forEach((x, k) => B.f32(o + 0x30 + k * 4, x))
      B.i32(o + 0x40, i)
      B.u32(o + 0x44, HASH[b.name]!)
      B.u64(o + 0x48, 0)
    })
    p = align(s, 16)
  }
  B.u32(0x0c, m.owner ? 0 : motEnd)
  B.u64(0x10, m.bones ? boneBlock : motEnd) // no own list: boneHeaderOffsetStart ≥ motSize
  B.u64(0x18, m.clips.length ? clipAt : 0)
  const n = old ? 0x50 : 0x58 // nameOffset; the fields after it follow in order
  B.u64(n, nameAt)
  B.f32(n + 0x08, m.frameCount)
  B.f32(n + 0x0c, 0) // blending
  B.f32(n + 0x10, 0) // startFrame
  B.f32(n + 0x14, m.frameCount) // endFrame
  B.u16(n + 0x18, m.bones?.length ?? 0)
  B.u16(n + 0x1a, m.clips.length)
  B.u8(n + 0x1c, 0)
  B.u8(n + 0x1d, 0)
  const frameRateAt = old ? 0x6e : v < 458 ? 0x76 : 0x78
  if (v >= 458) B.u16(0x76, m.at76 ?? 0)
  B.u16(frameRateAt, m.frameRate)
  return B.finish(align(Math.max(p, B.end), 16))
}

interface HEntry { mot: number; id: number }

/** A motlist laid out per spec §3 (header per version, name, pointers, mots, MotIndex table). */
function handMotlist(version: number, name: string, mots: Uint8Array[], entries: HEntry[]): Uint8Array {
  const B = new Bin(1 << 17)
  B.u32(0x00, version)
  B.ascii(0x04, 'mlst')
  const headerEnd = version <= 60 ? 0x2c : version < 528 ? 0x34 : version < 1036 ? 0x36 : 0x3e
  if (version <= 60) B.i32(0x28, entries.length)
  else if (version < 1036) {
    B.u64(0x28, 0)
    B.i32(0x30, entries.length)
    if (version >= 528) B.u16(0x34, 0)
  } else {
    B.u64(0x28, 0)
    B.u64(0x30, 0)
    B.i32(0x38, entries.length)
    B.u16(0x3c, 0)
  }
  B.u64(0x20, headerEnd)
  let p = B.utf16z(headerEnd, name)
  p = align(p, 16)
  B.u64(0x10, p)
  const ptrAt = p
  p = align(p + entries.length * 8, 16)
  const motAt: number[] = []
  for (const m of mots) {
    p = align(p, 16)
    motAt.push(p)
    B.bytes(p, m)
    p += m.length
  }
  p = align(p, 16)
  B.u64(0x18, p)
  const size = version <= 60 ? 4 : version <= 486 ? 24 : 72
  entries.forEach((e, i) => {
    B.u64(ptrAt + i * 8, e.mot >= 0 ? motAt[e.mot]! : 0)
    const o = p + i * size
    if (size === 4) { B.u16(o, e.id); B.u16(o + 2, 0); return }
    B.u64(o + 0x00, 0)
    B.u16(o + 0x08, e.id)
    B.u16(o + 0x0a, 0)
    if (version >= 486) B.u8(o + 0x14, 1)
    B.u32(o + size - 4, 0)
  })
  return B.finish(p + entries.length * size)
}

// ---- expected-value helpers (spec formulas) ---------------------------------------------------

type Q = [number, number, number, number]
const wOf = (x: number, y: number, z: number) => Math.sqrt(Math.max(0, 1 - x * x - y * y - z * z))
const axisQ = (axis: 0 | 1 | 2, angle: number): Q => {
  const q: Q = [0, 0, 0, Math.cos(angle / 2)]
  q[axis] = Math.sin(angle / 2)
  return q
}

/** Spec §7.3, written out: q = qY(y) ⊗ qX(x) ⊗ qZ(z), negated when w < 0. */
function specEuler(x: number, y: number, z: number): Q {
  const cx = Math.cos(x / 2), sx = Math.sin(x / 2)
  const cy = Math.cos(y / 2), sy = Math.sin(y / 2)
  const cz = Math.cos(z / 2), sz = Math.sin(z / 2)
  const q: Q = [sx * cy * cz + cx * sy * sz, cx * sy * cz - sx * cy * sz, cx * cy * sz - sx * sy * cz, cx * cy * cz + sx * sy * sz]
  return q[3] < 0 ? (q.map((v) => -v) as Q) : q
}

function slerp(a: Q, b: Q, t: number): Q {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
  let bb = b
  if (d < 0) { d = -d; bb = b.map((v) => -v) as Q }
  const om = Math.acos(Math.min(1, d))
  if (om < 1e-9) return a
  const s0 = Math.sin((1 - t) * om) / Math.sin(om), s1 = Math.sin(t * om) / Math.sin(om)
  return [0, 1, 2, 3].map((i) => s0 * a[i]! + s1 * bb[i]!) as Q
}

/** Same rotation (q ~ −q) within tol, component-wise. */
function expectQuat(got: number[], want: number[], tol: number, label = '') {
  expect(got, label).toHaveLength(4)
  const dot = got.reduce((s, v, i) => s + v * want[i]!, 0)
  const g = dot < 0 ? got.map((v) => -v) : got
  g.forEach((v, i) => expect(Math.abs(v - want[i]!), `${label} [${i}] ${v} vs ${want[i]}`).toBeLessThanOrEqual(tol))
}
function expectVec(got: number[], want: number[], tol: number, label = '') {
  expect(got, label).toHaveLength(want.length)
  got.forEach((v, i) => expect(Math.abs(v - want[i]!), `${label} [${i}] ${v} vs ${want[i]}`).toBeLessThanOrEqual(tol))
}

// ---- fixtures on disk -------------------------------------------------------------------------

let dir = ''
const P = (name: string) => path.join(dir, name)
async function put(name: string, b: Uint8Array | string): Promise<string> {
  await fsp.mkdir(path.dirname(P(name)), { recursive: true })
  await fsp.writeFile(P(name), b)
  return P(name)
}
const fileHash = async (p: string) => sha256(new Uint8Array(await fsp.readFile(p)))

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'contract-re-'))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

type Row = { bone: string; translation: number[]; rotation: number[]; scale: number[] }
async function sample(file: string, motion: number, frame: number): Promise<Map<string, Row>> {
  const r = await cli(['re', 'sample', file, '--motion', String(motion), '--frame', String(frame), '--json'])
  expect(r.code, r.stderr).toBe(0)
  const rows = r.json() as Row[]
  expect(Array.isArray(rows)).toBe(true)
  for (const row of rows) {
    expect(Object.keys(row)).toEqual(expect.arrayContaining(['bone', 'translation', 'rotation', 'scale']))
    expect(row.translation).toHaveLength(3)
    expect(row.rotation).toHaveLength(4)
    expect(row.scale).toHaveLength(3)
  }
  return new Map(rows.map((x) => [x.bone, x]))
}
async function info(file: string) {
  const r = await cli(['re', 'info', file, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return r.json()
}

// ===============================================================================================

describe('§10.3 minimal RE4R motlist (from the spec hex dump)', () => {
  const bytes = fromHexDump(SPEC_10_3_HEX)
  let file = ''
  beforeAll(async () => {
    file = await put('spec103/pose.motlist.663', bytes)
  })

  it('is the spec file (680 bytes, spec SHA-256)', () => {
    expect(bytes.length).toBe(680)
    expect(sha256(bytes)).toBe(SPEC_10_3_SHA256)
  })

  it('re info lists every key of CLI.md with the spec values', async () => {
    const j = await info(file)
    expect(j).toMatchObject({ kind: 'motlist', version: 663, name: 'pose' })
    expect(j.motions).toHaveLength(1)
    const m = j.motions[0]
    expect(m).toMatchObject({ index: 0, id: 0, name: 'pose', frameCount: 1, frameRate: 60 })
    expect(m.bones).toEqual([
      { name: 'root', hash: 2879905340, parent: null },
      { name: 'Hip', hash: 1549972489, parent: 'root' },
    ])
    expect(m.tracks).toEqual([
      expect.objectContaining({ bone: 'root', hash: 2879905340, channels: ['rotation'], keys: 2 }),
      expect.objectContaining({ bone: 'Hip', hash: 1549972489, channels: ['translation'], keys: 2 }),
      expect.objectContaining({ bone: 'Hip', hash: 1549972489, channels: ['rotation'], keys: 2 }),
    ])
  })

  it('re sample gives the spec content at frames 0, 0.5, 1 and clamps after the last key', async () => {
    for (const fr of [0, 0.5, 1, 30]) {
      const s = await sample(file, 0, fr)
      expect([...s.keys()]).toEqual(['root', 'Hip'])
      expectVec(s.get('root')!.translation, [0, 0, 0], 1e-7)
      expectQuat(s.get('root')!.rotation, [0, 0, 0, 1], 1e-7)
      expectVec(s.get('root')!.scale, [1, 1, 1], 0)
      expectVec(s.get('Hip')!.translation, [0, 1, 0], 1e-7)
      expectQuat(s.get('Hip')!.rotation, [0, Math.SQRT1_2, 0, Math.SQRT1_2], 1e-6, `Hip @${fr}`)
      expectVec(s.get('Hip')!.scale, [1, 1, 1], 0)
    }
  })

  it('pose2motlist with this file as template and Hip = Euler(0, π/2, 0) reproduces it byte for byte', async () => {
    const pose = await put('spec103/pose.json', JSON.stringify({ pose: { Hip: { _LocalEulerAngle: `vec:0 ${Math.PI / 2} 0` } } }))
    const r = await cli(['re', 'pose2motlist', '--template', file, '--pose', pose, '--out', P('spec103/out/pose')])
    expect(r.code, r.stderr).toBe(0)
    const out = new Uint8Array(await fsp.readFile(P('spec103/out/pose.motlist.663')))
    expect(out.length).toBe(680)
    expect(sha256(out)).toBe(SPEC_10_3_SHA256)
    expect(await fileHash(file)).toBe(SPEC_10_3_SHA256)
  })
})

// ---- RE4R 663/613: three IDs sharing one mot, u8/u16/u32 indices, several codecs --------------

const SIN01 = Math.sin(0.1), COS01 = Math.cos(0.1)
const RE4_BONES: HBone[] = [
  { name: 'root', parent: -1, t: [0, 0, 0], q: [0, 0, 0, 1] },
  { name: 'Hip', parent: 0, t: [0, 0.95, 0.01], q: [0, 0, 0, 1] },
  { name: 'L_Forearm', parent: 1, t: [0.25, 0, 0], q: [0, 0, SIN01, COS01] },
]
const S45 = f(Math.SQRT1_2)
const U_SEED = [0.1369131, -0.4289638] // spec §10.2
function re4Mot(version: number, owner: boolean, bones: HBone[] | null): Uint8Array {
  return handMot({
    version,
    name: 'wait_mot',
    frameCount: 300,
    frameRate: 60,
    at76: 1,
    owner,
    bones,
    clips: [
      {
        bone: 1, name: 'Hip',
        T: { flags: 0x004000f2, keys: 2, frames: [0, 300], data: f32s(0, 1, 0, 0, 1.5, 0.2) }, // Full, u16 indices
        R: { flags: 0x005c0112, keys: 2, frames: [0, 300], data: f32s(0, 0, 0, 0, S45, 0) }, // 3Component, u32 indices
      },
      {
        bone: 2, name: 'L_Forearm',
        R: { flags: 0x00422112, keys: 3, frames: [0, 100, 300], data: u16s(0, 56868, 65535), unpack: U_SEED }, // the seed's flags
        S: { flags: 0x002440f2, keys: 1, frames: null, data: f32s(1.25) }, // XYZ uniform float, no index array
      },
    ],
  })
}

describe('RE4R motlist 663 / mot 613 built by hand', () => {
  let file = ''
  let motFile = ''
  const yKey = (raw: number) => f(U_SEED[0]!) * (raw / 65535) + f(U_SEED[1]!)
  const yQ = (y: number): Q => [0, y, 0, wOf(0, y, 0)]

  beforeAll(async () => {
    file = await put('re4/cha1_wait.motlist.663', handMotlist(663, 'cha1_wait', [re4Mot(613, true, RE4_BONES)], [
      { mot: 0, id: 155 },
      { mot: 0, id: 160 },
      { mot: 0, id: 162 },
    ]))
    motFile = await put('re4/wait_mot.mot.613', re4Mot(613, false, RE4_BONES))
  })

  it('spec §10.2: the seed key decodes to y = −0.3101574, w = 0.9506852', () => {
    expect(yKey(56868)).toBeCloseTo(-0.3101574, 6)
    expect(wOf(0, yKey(56868), 0)).toBeCloseTo(0.9506852, 6)
  })

  it('re info: one motion per MotionIDs entry (72-byte entries), shared mot, tracks per bone and channel', async () => {
    const j = await info(file)
    expect(j).toMatchObject({ kind: 'motlist', version: 663, name: 'cha1_wait' })
    expect(j.motions.map((m: { index: number; id: number }) => [m.index, m.id])).toEqual([[0, 155], [1, 160], [2, 162]])
    for (const m of j.motions) {
      expect(m).toMatchObject({ name: 'wait_mot', frameCount: 300, frameRate: 60 })
      expect(m.bones).toEqual([
        { name: 'root', hash: HASH.root, parent: null },
        { name: 'Hip', hash: HASH.Hip, parent: 'root' },
        { name: 'L_Forearm', hash: HASH.L_Forearm, parent: 'Hip' },
      ])
      expect(m.tracks).toHaveLength(4)
      expect(m.tracks).toEqual(expect.arrayContaining([
        expect.objectContaining({ bone: 'Hip', hash: HASH.Hip, channels: ['translation'], keys: 2 }),
        expect.objectContaining({ bone: 'Hip', hash: HASH.Hip, channels: ['rotation'], keys: 2 }),
        expect.objectContaining({ bone: 'L_Forearm', hash: HASH.L_Forearm, channels: ['rotation'], keys: 3 }),
        expect.objectContaining({ bone: 'L_Forearm', hash: HASH.L_Forearm, channels: ['scale'], keys: 1 }),
      ]))
    }
  })

  it('re sample lists only the animated bones, with keys decoded per codec and interpolated', async () => {
    const k0 = yQ(yKey(0)), k1 = yQ(yKey(56868)), k2 = yQ(yKey(65535))
    const hipR1: Q = [0, S45, 0, wOf(0, S45, 0)]
    for (const motion of [0, 1, 2]) {
      const s0 = await sample(file, motion, 0)
      expect([...s0.keys()]).toEqual(['Hip', 'L_Forearm']) // root has no clip
      expectVec(s0.get('Hip')!.translation, [0, 1, 0], 1e-7)
      expectQuat(s0.get('Hip')!.rotation, [0, 0, 0, 1], 1e-7)
      expectVec(s0.get('Hip')!.scale, [1, 1, 1], 0)
      expectQuat(s0.get('L_Forearm')!.rotation, k0, 1e-6)
      expectVec(s0.get('L_Forearm')!.translation, [0.25, 0, 0], 1e-7) // no T track: the bone header's
      expectVec(s0.get('L_Forearm')!.scale, [1.25, 1.25, 1.25], 0) // constant key, no index array
    }
    const s100 = await sample(file, 1, 100)
    expectQuat(s100.get('L_Forearm')!.rotation, k1, 1e-6)
    expectVec(s100.get('Hip')!.translation, [0, 1 + 0.5 / 3, f(0.2) / 3], 1e-6)

    const s150 = await sample(file, 0, 150)
    expectVec(s150.get('Hip')!.translation, [0, 1.25, f(0.2) / 2], 1e-6)
    expectQuat(s150.get('Hip')!.rotation, slerp([0, 0, 0, 1], hipR1, 0.5), 1e-6) // midpoint: slerp = nlerp
    expectQuat(s150.get('L_Forearm')!.rotation, slerp(k1, k2, 0.25), 1e-5)
    const s50 = await sample(file, 0, 50)
    expectQuat(s50.get('L_Forearm')!.rotation, slerp(k0, k1, 0.5), 1e-6)

    for (const fr of [300, 1000]) {
      const s = await sample(file, 2, fr)
      expectVec(s.get('Hip')!.translation, [0, 1.5, f(0.2)], 1e-7)
      expectQuat(s.get('Hip')!.rotation, hipR1, 1e-6)
      expectQuat(s.get('L_Forearm')!.rotation, k2, 1e-6)
    }
  })

  it('--motion is the index; an I beyond the indices that is one entry\'s motion ID picks that entry', async () => {
    const byIndex = await cli(['re', 'sample', file, '--motion', '1', '--frame', '150', '--json'])
    const byId = await cli(['re', 'sample', file, '--motion', '160', '--frame', '150', '--json'])
    expect(byId.code, byId.stderr).toBe(0)
    expect(byId.json()).toEqual(byIndex.json())
    const none = await cli(['re', 'sample', file, '--motion', '7', '--frame', '0', '--json'])
    expect(none.code).toBe(1)
    expect(none.stderr).toContain(file)
  })

  it('a standalone mot wrapped as it is (the seed\'s "fake motlist", motSize ≠ 0) still gives its skeleton, with a warning', async () => {
    const wrapped = await put('re4/fake.motlist.663', handMotlist(663, 'fake', [re4Mot(613, false, RE4_BONES)], [{ mot: 0, id: 0 }]))
    const r = await cli(['re', 'info', wrapped, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/warning/)
    const m = r.json().motions[0]
    expect(m.bones.map((b: { name: string }) => b.name)).toEqual(['root', 'Hip', 'L_Forearm'])
    expect(m.tracks.map((t: { bone: string }) => t.bone)).toEqual(['Hip', 'Hip', 'L_Forearm', 'L_Forearm'])
  })

  it('a standalone .mot.613 (motSize ≠ 0, bone block after it) reads as kind "mot"', async () => {
    const j = await info(motFile)
    expect(j).toMatchObject({ kind: 'mot', version: 613, name: 'wait_mot' })
    expect(j.motions).toHaveLength(1)
    expect(j.motions[0]).toMatchObject({ index: 0, name: 'wait_mot', frameCount: 300, frameRate: 60 })
    expect(j.motions[0].bones.map((b: { name: string }) => b.name)).toEqual(['root', 'Hip', 'L_Forearm'])
    expect(j.motions[0].tracks).toHaveLength(4)
    const s = await sample(motFile, 0, 150)
    expectVec(s.get('Hip')!.translation, [0, 1.25, f(0.2) / 2], 1e-6)
  })
})

// ---- RE2 85/65: 0x74 mot header, 24-byte clip and 40-byte track headers, DMC5 codecs ----------

describe('RE2 motlist 85 / mot 65 built by hand', () => {
  let file = ''
  const S15 = Math.sin(Math.PI / 12) // 30° about X: x = sin 15°
  const headX = (raw: number) => f(0.5) * (raw / 65535) + f(-0.25)
  beforeAll(async () => {
    const bones: HBone[] = [
      { name: 'COG', parent: -1, t: [0.003, 0.998, 0.001], q: [0, 0, 0, 1] },
      { name: 'Head', parent: 0, t: [0, 0.6, 0.02], q: [SIN01, 0, 0, COS01] },
    ]
    const nod = handMot({
      version: 65, name: 'nod', frameCount: 10, frameRate: 30, owner: true, bones,
      clips: [
        {
          bone: 0, name: 'COG',
          T: { flags: 0x002000f2, keys: 2, frames: [0, 10], data: f32s(0, 0.998, 0, 0.1, 1, 0) },
          R: { flags: 0x002b0112, keys: 2, frames: [0, 10], data: f32s(0, 0, 0, S15, 0, 0) }, // 0xB0000 3Component (mot 65)
        },
        {
          bone: 1, name: 'Head',
          R: { flags: 0x00421112, keys: 3, frames: [0, 5, 10], data: u16s(0, 32768, 65535), unpack: [0.5, -0.25] }, // X axis 16-bit
          S: { flags: 0x002340f2, keys: 1, frames: null, data: f32s(0.5) }, // 0x34000 uniform float
        },
      ],
    })
    const idle = handMot({
      version: 65, name: 'idle', frameCount: 20, frameRate: 30, owner: false, bones: null,
      clips: [{ bone: 1, name: 'Head', R: { flags: 0x002b0112, keys: 1, frames: null, data: f32s(0.2, 0, 0) } }],
    })
    file = await put('re2/moves.motlist.85', handMotlist(85, 'moves', [nod, idle], [
      { mot: 0, id: 3 },
      { mot: 1, id: 7 },
      { mot: 0, id: 9 },
    ]))
  })

  it('re info: header 0x34, 24-byte MotIndex, FrameRate at 0x6E, shared skeleton for the mot without bones', async () => {
    const j = await info(file)
    expect(j).toMatchObject({ kind: 'motlist', version: 85, name: 'moves' })
    expect(j.motions.map((m: { id: number; name: string }) => [m.id, m.name])).toEqual([[3, 'nod'], [7, 'idle'], [9, 'nod']])
    const [a, b] = j.motions
    expect(a).toMatchObject({ frameCount: 10, frameRate: 30 })
    expect(b).toMatchObject({ frameCount: 20, frameRate: 30 })
    for (const m of [a, b]) expect(m.bones).toEqual([{ name: 'COG', hash: HASH.COG, parent: null }, { name: 'Head', hash: HASH.Head, parent: 'COG' }])
    expect(a.tracks).toEqual([
      expect.objectContaining({ bone: 'COG', channels: ['translation'], keys: 2 }),
      expect.objectContaining({ bone: 'COG', channels: ['rotation'], keys: 2 }),
      expect.objectContaining({ bone: 'Head', channels: ['rotation'], keys: 3 }),
      expect.objectContaining({ bone: 'Head', channels: ['scale'], keys: 1 }),
    ])
    expect(b.tracks).toEqual([expect.objectContaining({ bone: 'Head', hash: HASH.Head, channels: ['rotation'], keys: 1 })])
  })

  it('re sample decodes 3Component (0xB0000), X-axis 16-bit and uniform float scale', async () => {
    const s5 = await sample(file, 0, 5)
    expectVec(s5.get('COG')!.translation, [0.05, 0.999, 0], 1e-6)
    expectQuat(s5.get('COG')!.rotation, axisQ(0, Math.PI / 12), 1e-6) // midpoint of 0° and 30°
    const x = headX(32768)
    expectQuat(s5.get('Head')!.rotation, [x, 0, 0, wOf(x, 0, 0)], 1e-6)
    expectVec(s5.get('Head')!.scale, [0.5, 0.5, 0.5], 0)
    expectVec(s5.get('Head')!.translation, [0, 0.6, 0.02], 1e-7)
    const s10 = await sample(file, 2, 10)
    expectQuat(s10.get('Head')!.rotation, [0.25, 0, 0, wOf(0.25, 0, 0)], 1e-6)
    const idle = await sample(file, 1, 7)
    expect([...idle.keys()]).toEqual(['Head'])
    expectQuat(idle.get('Head')!.rotation, [f(0.2), 0, 0, wOf(f(0.2), 0, 0)], 1e-6)
  })
})

// ---- RE3 99/78: 0x74 header, 12/20-byte headers, RE3+ packed codecs ----------------------------

describe('RE3 motlist 99 / mot 78 built by hand (packed codecs)', () => {
  let file = ''
  // root T 0x40000 10BitB: raws (1023, 0, 511), scale U0..2 = (2, 4, 8), base U3..5 = (−1, 0.5, −4)
  const rootT = [2 * 1 - 1, 0.5, 8 * (511 / 1023) - 4]
  // root R 0x30000 8Bit: bytes x=255, y=0, z=128; scale U0..2 = (0.2, 0.4, 0.6), base U4..6 = (−0.1, −0.2, 0.05)
  const rx = f(0.2) - f(0.1), ry = f(-0.2), rz = f(0.6) * (128 / 255) + f(0.05)
  // Spine_0 R 0x50000 13Bit, big-endian 40-bit: raws (8191, 4096, 0); scale (0.1, 0.2, 0.3), base (0, −0.1, 0.05)
  const sx = f(0.1), sy = f(0.2) * (4096 / 8191) + f(-0.1), sz = f(0.05)
  beforeAll(async () => {
    const v13 = 8191n | (4096n << 13n) | (0n << 26n)
    const mot = handMot({
      version: 78, name: 'walk', frameCount: 1, frameRate: 60, owner: true,
      bones: [
        { name: 'root', parent: -1, t: [0, 0, 0], q: [0, 0, 0, 1] },
        { name: 'Spine_0', parent: 0, t: [0, 1.1, 0], q: [0, 0, 0, 1] },
      ],
      clips: [
        {
          bone: 0, name: 'root',
          T: { flags: 0x002400f2, keys: 1, frames: [0], data: leInt(1023n | (0n << 10n) | (511n << 20n), 4), unpack: [2, 4, 8, -1, 0.5, -4] },
          R: { flags: 0x00230112, keys: 1, frames: [0], data: Uint8Array.of(255, 0, 128), unpack: [0.2, 0.4, 0.6, 0, -0.1, -0.2, 0.05, 0] },
        },
        {
          bone: 1, name: 'Spine_0',
          R: { flags: 0x00250112, keys: 1, frames: [0], data: beInt(v13, 5), unpack: [0.1, 0.2, 0.3, 0, 0, -0.1, 0.05, 0] },
          S: { flags: 0x002210f2, keys: 1, frames: [0], data: u16s(65535), unpack: [0.5, 1, 1, 1] }, // X axis 16-bit
        },
      ],
    })
    file = await put('re3/walk.motlist.99', handMotlist(99, 'walk', [mot], [{ mot: 0, id: 42 }]))
  })

  it('re info reads the v99 header and 24-byte MotIndex', async () => {
    const j = await info(file)
    expect(j).toMatchObject({ kind: 'motlist', version: 99, name: 'walk' })
    expect(j.motions).toEqual([expect.objectContaining({ index: 0, id: 42, name: 'walk', frameCount: 1, frameRate: 60 })])
    expect(j.motions[0].tracks.map((t: { bone: string; channels: string[] }) => `${t.bone}.${t.channels[0]}`)).toEqual([
      'root.translation', 'root.rotation', 'Spine_0.rotation', 'Spine_0.scale',
    ])
  })

  it('re sample decodes 10BitB, 8Bit (three plain bytes), 13Bit (big-endian) and X-axis 16-bit', async () => {
    const s = await sample(file, 0, 0)
    expectVec(s.get('root')!.translation, rootT, 1e-6)
    expectQuat(s.get('root')!.rotation, [rx, ry, rz, wOf(rx, ry, rz)], 1e-6)
    expectQuat(s.get('Spine_0')!.rotation, [sx, sy, sz, wOf(sx, sy, sz)], 1e-6)
    expectVec(s.get('Spine_0')!.scale, [1.5, 1, 1], 1e-6)
    expectVec(s.get('Spine_0')!.translation, [0, 1.1, 0], 1e-6)
  })
})

// ---- RE8 486/458, Sunbreak 528/495, Onimusha 1036/973 -----------------------------------------

function re8Mot(version: number): Uint8Array {
  // root R 0x43000 Z axis float; Hip T 0x55000 XY Axis20Bit (big-endian 40-bit, X low);
  // Hip R 0x80000 21Bit (u64 LE, fields at 0/21/42).
  const t20 = 0xfffffn | (0x80000n << 20n)
  const r21 = 0n | (2097151n << 21n) | (1048576n << 42n)
  return handMot({
    version, name: 'stand', frameCount: 1, frameRate: 30, at76: 1, owner: true,
    bones: [
      { name: 'root', parent: -1, t: [0, 0, 0], q: [0, 0, 0, 1] },
      { name: 'Hip', parent: 0, t: [0, 0.9, 0], q: [0, 0, 0, 1] },
    ],
    clips: [
      { bone: 0, name: 'root', R: { flags: 0x00243112, keys: 1, frames: [0], data: f32s(0.3) } },
      {
        bone: 1, name: 'Hip',
        T: { flags: 0x002550f2, keys: 1, frames: [0], data: beInt(t20, 5), unpack: [0.4, 0.2, -0.2, 0.9, 0.05] },
        R: { flags: 0x00280112, keys: 1, frames: [0], data: leInt(r21, 8), unpack: [0.2, 0.2, 0.2, 0, -0.1, -0.1, -0.1, 0] },
      },
    ],
  })
}

describe('RE8 486/458 and later headers built by hand', () => {
  const hipT = [f(0.4) - f(0.2), f(0.2) * (0x80000 / 0xfffff) + f(0.9), f(0.05)]
  const hx = f(-0.1), hy = f(0.2) + f(-0.1), hz = f(0.2) * (1048576 / 2097151) + f(-0.1)
  // mot 456 (MH Rise demo): 0x7C header, FrameRate at 0x76; mot ≥ 458: 0x7E, FrameRate at 0x78.
  const cases: [number, number][] = [[484, 456], [486, 458], [528, 495], [1036, 973]]
  for (const [ml, mv] of cases) {
    it(`motlist ${ml} / mot ${mv}: header, MotIndex, FrameRate (0x76 holds 1 from mot 458), codecs`, async () => {
      const file = await put(`re8/stand.motlist.${ml}`, handMotlist(ml, 'stand', [re8Mot(mv)], [{ mot: 0, id: 12 }, { mot: 0, id: 13 }]))
      const j = await info(file)
      expect(j).toMatchObject({ kind: 'motlist', version: ml, name: 'stand' })
      expect(j.motions.map((m: { id: number }) => m.id)).toEqual([12, 13])
      expect(j.motions[0]).toMatchObject({ name: 'stand', frameCount: 1, frameRate: 30 })
      const s = await sample(file, 1, 0)
      expectQuat(s.get('root')!.rotation, [0, 0, f(0.3), wOf(0, 0, f(0.3))], 1e-6)
      expectVec(s.get('Hip')!.translation, hipT, 1e-6)
      expectQuat(s.get('Hip')!.rotation, [hx, hy, hz, wOf(hx, hy, hz)], 1e-6)
    })
  }
})

describe('RE7 motlist 60 header built by hand', () => {
  it('numMots at 0x28, 4-byte MotIndex entries (u16 motNumber, u16 switch); null pointers are motions without a mot', async () => {
    const file = await put('re7/empty.motlist.60', handMotlist(60, 're7list', [], [{ mot: -1, id: 5 }, { mot: -1, id: 600 }]))
    const j = await info(file)
    expect(j).toMatchObject({ kind: 'motlist', version: 60, name: 're7list' })
    expect(j.motions.map((m: { index: number; id: number }) => [m.index, m.id])).toEqual([[0, 5], [1, 600]])
    const r = await cli(['re', 'sample', file, '--motion', '1', '--frame', '0', '--json'])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(file)
  })
})

// ---- EMV Poser JSON → motlist -----------------------------------------------------------------

describe('re pose2motlist (EMV Poser JSON)', () => {
  let tmpl663 = ''
  let tmplMot = ''
  let tmpl85 = ''
  let tmpl486 = ''
  const adams = [0.11111450195312, -1.8742032370511e-9, 0.059826150536537] as const
  beforeAll(async () => {
    tmpl663 = await put('pose/tmpl/cha1_wait.motlist.663', handMotlist(663, 'cha1_wait', [re4Mot(613, true, RE4_BONES)], [{ mot: 0, id: 1 }]))
    tmplMot = await put('pose/tmpl/wait_mot.mot.613', re4Mot(613, false, RE4_BONES))
    tmpl486 = await put('pose/tmpl/stand.motlist.486', handMotlist(486, 'stand', [re8Mot(458)], [{ mot: 0, id: 0 }]))
    tmpl85 = await put('pose/tmpl/nod.motlist.85', handMotlist(85, 'nod', [handMot({
      version: 65, name: 'nod', frameCount: 10, frameRate: 30, owner: true,
      bones: [
        { name: 'COG', parent: -1, t: [0, 1, 0], q: [0, 0, 0, 1] },
        { name: 'Head', parent: 0, t: [0, 0.6, 0], q: [SIN01, 0, 0, COS01] },
      ],
      clips: [{ bone: 1, name: 'Head', R: { flags: 0x002b0112, keys: 1, frames: null, data: f32s(0.2, 0, 0) } }],
    })], [{ mot: 0, id: 0 }]))
  })

  it('spec §10.1 vectors (the formula this file checks against)', () => {
    expectQuat(specEuler(0.3, 0.5, 0.7), [0.2198958, 0.1801459, 0.2937772, 0.9126271], 1e-6)
    expectQuat(specEuler(...adams), [0.0555038, -0.0016608, 0.0298625, 0.9980104], 1e-6)
    expectQuat(specEuler(-0.036831300705671, 0.0036867388989776, -0.099788509309292), [-0.0184836, 0.0009224, -0.0498311, 0.9985862], 1e-6)
    expectQuat(specEuler(0, -Math.PI, -Math.PI), [1, 0, 0, 0], 1e-7)
  })

  it('one pose: output keeps the suffix, reads back to 1e-6 with R = Ry·Rx·Rz, unknown bones on stderr, template untouched', async () => {
    const before = await fileHash(tmpl663)
    const mtime = statSync(tmpl663).mtimeMs
    const pose = await put('pose/one.json', JSON.stringify({
      MyPose: {
        Hip: { _LocalEulerAngle: 'vec:0.3 0.5 0.7' },
        L_Forearm: { _LocalEulerAngle: `vec:${adams.join(' ')}`, _LocalScale: 'vec:1.0 1.0 1.0' },
        Tail_0: { _LocalEulerAngle: 'vec:0.1 0.2 0.3' },
        'ch3a8z0_face.Jaw': { _LocalEulerAngle: 'vec:1.0 0.0 0.0' },
      },
    }, null, 4))
    const r = await cli(['re', 'pose2motlist', '--template', tmpl663, '--pose', pose, '--out', P('pose/out1/mypose')])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('Tail_0')
    expect(r.stderr).toContain('ch3a8z0_face.Jaw')
    expect(r.stderr).not.toContain('L_Forearm')
    expect(readdirSync(P('pose/out1'))).toEqual(['mypose.motlist.663'])
    expect(await fileHash(tmpl663)).toBe(before)
    expect(statSync(tmpl663).mtimeMs).toBe(mtime)

    const out = P('pose/out1/mypose.motlist.663')
    const j = await info(out)
    expect(j).toMatchObject({ kind: 'motlist', version: 663 })
    expect(j.motions).toHaveLength(1)
    expect(j.motions[0].bones).toEqual([
      { name: 'root', hash: HASH.root, parent: null },
      { name: 'Hip', hash: HASH.Hip, parent: 'root' },
      { name: 'L_Forearm', hash: HASH.L_Forearm, parent: 'Hip' },
    ])
    const rotTracks = j.motions[0].tracks.filter((t: { channels: string[] }) => t.channels[0] === 'rotation').map((t: { bone: string }) => t.bone)
    expect(rotTracks).toEqual(expect.arrayContaining(['Hip', 'L_Forearm']))
    for (const fr of [0, 0.5, 1]) {
      const s = await sample(out, 0, fr)
      expectQuat(s.get('Hip')!.rotation, specEuler(0.3, 0.5, 0.7), 1e-6, `Hip @${fr}`)
      expectQuat(s.get('L_Forearm')!.rotation, specEuler(...adams), 1e-6, `L_Forearm @${fr}`)
      // translations stay the reference ones
      expectVec(s.get('Hip')!.translation, [0, f(0.95), f(0.01)], 1e-7)
      expectVec(s.get('L_Forearm')!.translation, [0.25, 0, 0], 1e-7)
      // an unmentioned bone that is animated keeps the bone header's reference rotation
      expect([...s.keys()]).toContain('root')
      expectQuat(s.get('root')!.rotation, [0, 0, 0, 1], 1e-7)
    }
  })

  it('many poses: the first by default, --pose-name picks one, an unknown name fails with no output', async () => {
    const pose = await put('pose/many.json', JSON.stringify({
      first: { Hip: { _LocalEulerAngle: 'vec:0.0 1.5707963267949 0.0' } },
      second: { Hip: { _LocalEulerAngle: 'vec:-0.4 0.2 -1.2' }, L_Forearm: { _LocalEulerAngle: 'vec:0.0 0.0 -0.5' } },
      third: { Hip: { _LocalEulerAngle: 'vec:1.7 0 0' } },
    }))
    let r = await cli(['re', 'pose2motlist', '--template', tmpl663, '--pose', pose, '--out', P('pose/out2/a.motlist.663')])
    expect(r.code, r.stderr).toBe(0)
    let s = await sample(P('pose/out2/a.motlist.663'), 0, 0)
    expectQuat(s.get('Hip')!.rotation, specEuler(0, 1.5707963267949, 0), 1e-6)

    r = await cli(['re', 'pose2motlist', '--template', tmpl663, '--pose', pose, '--pose-name', 'second', '--out', P('pose/out2/b')])
    expect(r.code, r.stderr).toBe(0)
    s = await sample(P('pose/out2/b.motlist.663'), 0, 1)
    expectQuat(s.get('Hip')!.rotation, specEuler(-0.4, 0.2, -1.2), 1e-6)
    expectQuat(s.get('L_Forearm')!.rotation, specEuler(0, 0, -0.5), 1e-6)

    r = await cli(['re', 'pose2motlist', '--template', tmpl663, '--pose', pose, '--pose-name', 'third', '--out', P('pose/out2/c')])
    expect(r.code, r.stderr).toBe(0)
    s = await sample(P('pose/out2/c.motlist.663'), 0, 0)
    expectQuat(s.get('Hip')!.rotation, [0.7512804, 0, 0, 0.6599831], 1e-6) // spec §10.1 (1.7, 0, 0)

    r = await cli(['re', 'pose2motlist', '--template', tmpl663, '--pose', pose, '--pose-name', 'nope', '--out', P('pose/out2/d')])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('nope')
    expect(readdirSync(P('pose/out2')).sort()).toEqual(['a.motlist.663', 'b.motlist.663', 'c.motlist.663'])
  })

  it('"the first pose" is the first in the file, also for integer-like names (JS objects reorder those)', async () => {
    const text = '{"2": {"Hip": {"_LocalEulerAngle": "vec:0.5 0 0"}}, "1": {"Hip": {"_LocalEulerAngle": "vec:0 0 0.5"}}}'
    const pose = await put('pose/numbered.json', text)
    const r = await cli(['re', 'pose2motlist', '--template', tmpl663, '--pose', pose, '--out', P('pose/out6/n')])
    expect(r.code, r.stderr).toBe(0)
    const s = await sample(P('pose/out6/n.motlist.663'), 0, 0)
    expectQuat(s.get('Hip')!.rotation, specEuler(0.5, 0, 0), 1e-6)
  })

  it('the template version decides the suffix and the layout (standalone mot 613 → 663, 486, 85, 528, 1036)', async () => {
    const pose = await put('pose/p.json', JSON.stringify({ p: { Hip: { _LocalEulerAngle: 'vec:0.2 -0.3 0.4' }, Head: { _LocalEulerAngle: 'vec:-0.2 0.1 0.05' } } }))
    const tmpl528 = await put('pose/tmpl/stand.motlist.528', handMotlist(528, 'stand', [re8Mot(495)], [{ mot: 0, id: 0 }]))
    const tmpl1036 = await put('pose/tmpl/stand.motlist.1036', handMotlist(1036, 'stand', [re8Mot(973)], [{ mot: 0, id: 0 }]))
    // the RE2 (85) template has no Hip bone, the others no Head: stderr names the pose's bone the
    // template lacks, and the other one is posed
    type Want = [missing: string, posed: string, euler: [number, number, number]]
    const noHip: Want = ['Hip', 'Head', [-0.2, 0.1, 0.05]]
    const noHead: Want = ['Head', 'Hip', [0.2, -0.3, 0.4]]
    const runs: [string, string, number, Want][] = [[tmplMot, 'm', 663, noHead], [tmpl486, 'r8', 486, noHead], [tmpl85, 'r2', 85, noHip], [tmpl528, 'sb', 528, noHead], [tmpl1036, 'on', 1036, noHead]]
    for (const [tmpl, name, version, [missing, posed, euler]] of runs) {
      const r = await cli(['re', 'pose2motlist', '--template', tmpl, '--pose', pose, '--out', P(`pose/out3/${name}`)])
      expect(r.code, r.stderr).toBe(0)
      const out = P(`pose/out3/${name}.motlist.${version}`)
      const j = await info(out)
      expect(j).toMatchObject({ kind: 'motlist', version })
      const s = await sample(out, 0, 0)
      expect(r.stderr, tmpl).toContain(missing)
      expectQuat(s.get(posed)!.rotation, specEuler(...euler), 1e-6)
    }
    expect(readdirSync(P('pose/out3')).sort()).toEqual(['m.motlist.663', 'on.motlist.1036', 'r2.motlist.85', 'r8.motlist.486', 'sb.motlist.528'])
  })

  it('malformed JSON and vec strings: exit 1, file and offset or JSON path named, no output file', async () => {
    const bad: [string, string, RegExp][] = [
      ['trunc.json', '{"p": {"Hip": {"_LocalEulerAngle": "vec:0 1', /0x[0-9A-Fa-f]+/],
      ['eof.json', '{"p":', /0x[0-9A-Fa-f]+/],
      ['syntax.json', '{"p" {}}', /0x[0-9A-Fa-f]+/],
      ['badnum.json', JSON.stringify({ p: { Hip: { _LocalEulerAngle: 'vec:0 x 0' } } }), /Hip.*_LocalEulerAngle/],
      ['noprefix.json', JSON.stringify({ p: { Hip: { _LocalEulerAngle: '0 1 0' } } }), /Hip.*_LocalEulerAngle/],
      ['short.json', JSON.stringify({ p: { Hip: { _LocalEulerAngle: 'vec:0 1' } } }), /Hip.*_LocalEulerAngle/],
      ['number.json', JSON.stringify({ p: { Hip: { _LocalEulerAngle: 5 } } }), /Hip.*_LocalEulerAngle/],
      ['array.json', '[1, 2]', /./],
    ]
    for (const [name, text, where] of bad) {
      const pose = await put(`pose/bad/${name}`, text)
      const r = await cli(['re', 'pose2motlist', '--template', tmpl663, '--pose', pose, '--out', P('pose/out4/x')])
      expect(r.code, name).toBe(1)
      expect(r.stderr, name).toContain(pose)
      expect(r.stderr, name).toMatch(where)
    }
    expect(() => readdirSync(P('pose/out4'))).toThrow()
  })

  it('a bad template: exit 1, no output file', async () => {
    const pose = await put('pose/ok.json', JSON.stringify({ p: { Hip: { _LocalEulerAngle: 'vec:0 0 0' } } }))
    const junk = await put('pose/junk.motlist.663', Uint8Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff))
    const r = await cli(['re', 'pose2motlist', '--template', junk, '--pose', pose, '--out', P('pose/out5/x')])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(junk)
    expect(() => readdirSync(P('pose/out5'))).toThrow()
  })

  it('never overwrites the template, even when --out names it', async () => {
    const pose = await put('pose/ok2.json', JSON.stringify({ p: { Hip: { _LocalEulerAngle: 'vec:0.4 0 0' } } }))
    const before = await fileHash(tmpl663)
    const r = await cli(['re', 'pose2motlist', '--template', tmpl663, '--pose', pose, '--out', tmpl663.replace(/\.motlist\.663$/, '')])
    expect(r.code).toBe(1)
    expect(await fileHash(tmpl663)).toBe(before)
  })
})

// ---- bad input ----------------------------------------------------------------------------------

describe('bad motion files', () => {
  const good = fromHexDump(SPEC_10_3_HEX)

  it('unsupported motlist version: the exact message form', async () => {
    const b = good.slice()
    new DataView(b.buffer).setUint32(0, 999, true)
    const file = await put('bad/v999.motlist.663', b)
    const r = await cli(['re', 'info', file, '--json'])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/motlist version 999 is not supported; supported: [0-9, ]*\b663\b/)
    expect(r.stderr).toContain(file)
  })

  it('wrong magic, foreign file, unsupported mot version, empty file', async () => {
    const magic = good.slice()
    magic.set([0x6d, 0x6c, 0x73, 0x78], 4) // 'mlsx'
    const motv = good.slice()
    new DataView(motv.buffer).setUint32(0x50, 777, true)
    const png = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(64).fill(0))
    const cases: [string, Uint8Array, RegExp][] = [
      ['bad/magic.motlist.663', magic, /magic|mlst/i],
      ['bad/image.png', png, /magic|mlst|mot/i],
      ['bad/motv.motlist.663', motv, /777/],
      ['bad/empty.motlist.663', new Uint8Array(0), /./],
    ]
    for (const [name, bytes, msg] of cases) {
      const file = await put(name, bytes)
      for (const argv of [['re', 'info', file, '--json'], ['re', 'sample', file, '--motion', '0', '--frame', '0', '--json']]) {
        const r = await cli(argv)
        expect(r.code, name).toBe(1)
        expect(r.stdout, name).toBe('')
        expect(r.stderr, name).toContain(file)
        expect(r.stderr, name).toMatch(msg)
      }
    }
  })

  it('every truncation of the §10.3 file fails cleanly with the file and an offset named', async () => {
    for (let n = 0; n < good.length; n += 7) {
      const file = await put(`bad/trunc/t${n}.motlist.663`, good.slice(0, n))
      const r = await cli(['re', 'info', file, '--json'])
      expect(r.code, `${n} bytes`).toBe(1)
      expect(r.stderr, `${n} bytes`).toContain(`error: ${file}`)
      expect(r.stderr, `${n} bytes`).toMatch(/0x[0-9A-Fa-f]+/)
    }
  })

  it('a truncated standalone mot fails cleanly', async () => {
    const mot = re4Mot(613, false, RE4_BONES)
    for (const n of [0x10, 0x7d, 0x90, 0xf8, 0x140, mot.length - 40]) {
      const file = await put(`bad/mtrunc/m${n}.mot.613`, mot.slice(0, n))
      const r = await cli(['re', 'sample', file, '--motion', '0', '--frame', '0', '--json'])
      expect(r.code, `${n} bytes`).toBe(1)
      expect(r.stderr, `${n} bytes`).toContain(`error: ${file}`)
    }
  })

  it('single corrupted bytes never crash or hang: exit 0 with a sample, or exit 1 naming the file', async () => {
    const codes = [0, 0]
    for (let i = 0; i < good.length; i++) {
      const b = good.slice()
      b[i] = b[i]! ^ 0xa5
      const file = await put(`bad/flip/f${i}.motlist.663`, b)
      const r = await cli(['re', 'sample', file, '--motion', '0', '--frame', '1', '--json'])
      expect([0, 1], `byte ${i}`).toContain(r.code)
      const outcome = r.code === 0 ? `${Array.isArray(JSON.parse(r.stdout))}` : r.stderr.includes(`error: ${file}`) ? 'named' : r.stderr
      expect(outcome, `byte ${i}`).toBe(r.code === 0 ? 'true' : 'named')
      codes[r.code]!++
    }
    // flips in counts and offsets fail, flips in key values still sample: both must occur
    expect(codes[0], 'flips that still sample').toBeGreaterThan(0)
    expect(codes[1], 'flips that fail').toBeGreaterThan(0)
  })
})

describe('exit codes from node bin/modbench.mjs', () => {
  it('0 on success, 1 on bad input with no output file, 2 on usage errors', async () => {
    const tmpl = await put('exit/pose.motlist.663', fromHexDump(SPEC_10_3_HEX))
    const pose = await put('exit/p.json', JSON.stringify({ p: { Hip: { _LocalEulerAngle: 'vec:0.1 0.2 0.3' }, Nope: { _LocalEulerAngle: 'vec:0 0 0' } } }))
    const badPose = await put('exit/bad.json', '{"p": {"Hip": {"_LocalEulerAngle": "vec:a b c"}}}')
    let r = await spawnCli(['re', 'pose2motlist', '--template', tmpl, '--pose', pose, '--out', P('exit/ok/out')])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('Nope')
    expect(readdirSync(P('exit/ok'))).toEqual(['out.motlist.663'])
    r = await spawnCli(['re', 'pose2motlist', '--template', tmpl, '--pose', badPose, '--out', P('exit/fail/out')])
    expect(r.code).toBe(1)
    expect(() => readdirSync(P('exit/fail'))).toThrow()
    r = await spawnCli(['re', 'pose2motlist', '--pose', pose, '--out', P('exit/usage/out')])
    expect(r.code).toBe(2)
    r = await spawnCli(['re', 'info'])
    expect(r.code).toBe(2)
    r = await spawnCli(['re', 'info', P('exit/missing.motlist.663'), '--json'])
    expect(r.code).toBe(1)
  }, 60_000)
})
