/**
 * Black-box contract test of the Pokémon Stadium work (issue 7), written from
 * ../shared/specs/pokemon-stadium.md and docs/CLI.md only: a ROM assembled by hand
 * (tests/fixtures/stadium/contract-rom.ts: hand-written FRAGMENT modules, a hand-made Yay0
 * stream, a PERS-SZP header with one patch and a zero tail, a battle table), then
 * `stadium list --json`, `stadium export --out DIR`, bad input, usage errors, and the catalog
 * (`index`, `ls`, `export ID`). Joint world matrices in the glb are compared with an independent
 * implementation of §11.4 written here from the spec, at the bind pose and at every frame.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { spawnSync } from 'node:child_process'
import { PNG } from 'pngjs'
import { runCli } from '../../src-main/cli/main'
import { ARCHIVE, archiveFiles, file0Module, handRom, handYay0, handPersSzp, toN64, toV64, FILE0_SIZE, FILE0_TOTAL } from '../fixtures/stadium/contract-rom'

// ---------------------------------------------------------------- CLI helpers

async function cli(argv: string[]) {
  let out = ''
  let err = ''
  const code = await runCli(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } })
  return { code, out, err }
}

let dir = ''
let romPath = ''
let rom: Uint8Array
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'contract-stadium-'))
  rom = handRom()
  romPath = path.join(dir, 'hand.z64')
  writeFileSync(romPath, rom)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// ---------------------------------------------------------------- glb reading (independent)

interface Gltf {
  json: any // eslint-disable-line @typescript-eslint/no-explicit-any
  bin: Uint8Array
}
function readGlb(bytes: Uint8Array): Gltf {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  expect(v.getUint32(0, true)).toBe(0x46546c67)
  expect(v.getUint32(4, true)).toBe(2)
  expect(v.getUint32(8, true)).toBe(bytes.length)
  const jl = v.getUint32(12, true)
  expect(v.getUint32(16, true)).toBe(0x4e4f534a)
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jl)))
  const bo = 20 + jl
  const bl = v.getUint32(bo, true)
  expect(v.getUint32(bo + 4, true)).toBe(0x004e4942)
  return { json, bin: bytes.subarray(bo + 8, bo + 8 + bl) }
}
const NCOMP: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }
function accessor(g: Gltf, i: number): number[][] {
  const a = g.json.accessors[i]
  const bv = g.json.bufferViews[a.bufferView]
  const n = NCOMP[a.type]!
  const size = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 }[a.componentType as 5126]!
  const stride = bv.byteStride ?? n * size
  const dv = new DataView(g.bin.buffer, g.bin.byteOffset + (bv.byteOffset ?? 0) + (a.byteOffset ?? 0))
  const out: number[][] = []
  for (let k = 0; k < a.count; k++) {
    const row: number[] = []
    for (let c = 0; c < n; c++) {
      const o = k * stride + c * size
      let x: number
      switch (a.componentType) {
        case 5126: x = dv.getFloat32(o, true); break
        case 5123: x = dv.getUint16(o, true); if (a.normalized) x /= 65535; break
        case 5122: x = dv.getInt16(o, true); if (a.normalized) x = Math.max(x / 32767, -1); break
        case 5121: x = dv.getUint8(o); if (a.normalized) x /= 255; break
        case 5125: x = dv.getUint32(o, true); break
        default: throw new Error(`componentType ${a.componentType}`)
      }
      row.push(x)
    }
    out.push(row)
  }
  return out
}
type M16 = number[]
function trs(t: number[], q: number[], s: number[]): M16 {
  const [x, y, z, w] = q as [number, number, number, number]
  const r = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ]
  const m = new Array(16).fill(0)
  for (let c = 0; c < 3; c++) for (let rr = 0; rr < 3; rr++) m[c * 4 + rr] = r[rr]![c]! * s[c]!
  m[12] = t[0]!
  m[13] = t[1]!
  m[14] = t[2]!
  m[15] = 1
  return m
}
function mulCM(a: M16, b: M16): M16 {
  const o = new Array(16).fill(0)
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[c * 4 + r] += a[k * 4 + r]! * b[c * 4 + k]!
  return o
}
/** World matrices of every node with per-node TRS overrides (animation samples). */
function worlds(g: Gltf, over: Map<number, { t?: number[]; r?: number[]; s?: number[] }> = new Map()): M16[] {
  const nodes = g.json.nodes as { translation?: number[]; rotation?: number[]; scale?: number[]; children?: number[] }[]
  const parent = new Array(nodes.length).fill(-1)
  nodes.forEach((n, i) => (n.children ?? []).forEach((c) => (parent[c] = i)))
  const out: (M16 | undefined)[] = []
  const get = (i: number): M16 => {
    if (out[i]) return out[i]!
    const n = nodes[i]!
    const o = over.get(i) ?? {}
    const local = trs(o.t ?? n.translation ?? [0, 0, 0], o.r ?? n.rotation ?? [0, 0, 0, 1], o.s ?? n.scale ?? [1, 1, 1])
    return (out[i] = parent[i] < 0 ? local : mulCM(get(parent[i]), local))
  }
  return nodes.map((_, i) => get(i))
}
/** Samples every channel of animation `ai` at time t (linear between keys) into TRS overrides. */
function sampleAnimation(g: Gltf, ai: number, t: number) {
  const a = g.json.animations[ai]
  const over = new Map<number, { t?: number[]; r?: number[]; s?: number[] }>()
  for (const ch of a.channels) {
    const sm = a.samplers[ch.sampler]
    const times = accessor(g, sm.input).map((x) => x[0]!)
    const vals = accessor(g, sm.output)
    let v: number[]
    if (t <= times[0]! + 1e-6) v = vals[0]!
    else if (t >= times[times.length - 1]! - 1e-6) v = vals[times.length - 1]!
    else {
      let i = 0
      while (times[i + 1]! < t) i++
      const u = sm.interpolation === 'STEP' ? 0 : (t - times[i]!) / (times[i + 1]! - times[i]!)
      v = vals[i]!.map((x, k) => x + (vals[i + 1]![k]! - x) * u)
      if (ch.target.path === 'rotation') {
        const l = Math.hypot(...v)
        v = v.map((x) => x / l)
      }
    }
    const o = over.get(ch.target.node) ?? {}
    if (ch.target.path === 'translation') o.t = v
    else if (ch.target.path === 'rotation') o.r = v
    else if (ch.target.path === 'scale') o.s = v
    over.set(ch.target.node, o)
  }
  return over
}

// ---------------------------------------------------------------- §11.4, independently

type Row4 = [number, number, number, number]
type Mat = [Row4, Row4, Row4, Row4]
const I4 = (): Mat => [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
function mulRow(a: Mat, b: Mat): Mat {
  const o = I4()
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) o[i]![j] = a[i]![0]! * b[0]![j]! + a[i]![1]! * b[1]![j]! + a[i]![2]! * b[2]![j]! + a[i]![3]! * b[3]![j]!
  return o
}
/** §11.3 rows (binary angles), §11.4 translation row. */
function jointLocal(r: number[], row3: number[]): Mat {
  const A = (x: number) => (x / 32768) * Math.PI
  const [sx, cx, sy, cy, sz, cz] = [Math.sin(A(r[0]!)), Math.cos(A(r[0]!)), Math.sin(A(r[1]!)), Math.cos(A(r[1]!)), Math.sin(A(r[2]!)), Math.cos(A(r[2]!))]
  return [
    [cy * cz, cy * sz, -sy, 0],
    [sx * sy * cz - cx * sz, sx * sy * sz + cx * cz, sx * cy, 0],
    [cx * sy * cz + sx * sz, cx * sy * sz - sx * cz, cx * cy, 0],
    [row3[0]!, row3[1]!, row3[2]!, 1],
  ]
}
interface Pose { t: number[]; r: number[]; s: number[] }
/** Mode-0 chain A → B → C under a 0x1C root scale: the draw matrices M of the three joints. */
function gameChain(rootScale: number, poses: Pose[]): Mat[] {
  const S: Mat = [[rootScale, 0, 0, 0], [0, rootScale, 0, 0], [0, 0, rootScale, 0], [0, 0, 0, 1]]
  let P = S // the scale node is not a mode-0 level: its M
  let acc = [1, 1, 1]
  const out: Mat[] = []
  for (const p of poses) {
    const L = jointLocal(p.r, [p.t[0]! * acc[0]!, p.t[1]! * acc[1]!, p.t[2]! * acc[2]!])
    const U = mulRow(L, P)
    acc = [acc[0]! * p.s[0]!, acc[1]! * p.s[1]!, acc[2]! * p.s[2]!]
    const M = U.map((row, i) => (i < 3 ? row.map((x) => x * acc[i]!) : [...row])) as Mat
    out.push(M)
    P = U
  }
  return out
}
const flat = (m: Mat) => m.flat()
function expectClose(a: number[], b: number[], tol: number, what: string) {
  expect(a.length, what).toBe(b.length)
  const d = Math.max(...a.map((x, i) => Math.abs(x - b[i]!)))
  expect(d, `${what}: ${JSON.stringify(a.map((x) => +x.toFixed(5)))} vs ${JSON.stringify(b.map((x) => +x.toFixed(5)))}`).toBeLessThan(tol)
}
/** §12.4 Hermite (narrow keys), written from the spec. */
function hermite(keys: [number, number, number][], f: number): number {
  const n = keys.length
  if (f <= keys[0]![0]) return keys[0]![1]
  if (f >= keys[n - 1]![0]) return keys[n - 1]![1]
  let i = n - 2
  for (let k = 0; k <= n - 3; k++) if (f < keys[k + 1]![0]) { i = k; break }
  const x = (f - keys[i]![0]) / 30
  const y = 30 / (keys[i + 1]![0] - keys[i]![0])
  return keys[i]![1] * (2 * x ** 3 * y ** 3 - 3 * x ** 2 * y ** 2 + 1) + keys[i + 1]![1] * (-2 * x ** 3 * y ** 3 + 3 * x ** 2 * y ** 2) +
    keys[i]![2] * (x ** 3 * y ** 2 - 2 * x ** 2 * y + x) + keys[i + 1]![2] * (x ** 3 * y ** 2 - x ** 2 * y)
}

const BIND: Pose[] = [
  { t: [0, 10, 0], r: [0, 0, 0], s: [2, 1, 1] },
  { t: [5, 0, 0], r: [0, 0, 0x4000], s: [1, 3, 1] },
  { t: [0, 2, 0], r: [0, 0, 0], s: [1, 1, 1] },
]
/** What the hand-written animation data encode, per frame (see contract-rom.ts). */
function anim0Pose(f: number): Pose[] {
  return [
    { t: [0, [10, 11, 12][f]!, -2], r: [0, 0, 0], s: [2, 1, 1] },
    { t: [5, 0, 0], r: [0, 0, [0x4000, 0x4000, 0x2000][f]!], s: [1, [3, 3, 1.5][f]!, 1] },
    BIND[2]!,
  ]
}
function anim1Pose(f: number): Pose[] {
  return [{ t: [hermite([[0, 0, 0], [10, 100, 0], [20, 0, 0]], f), 10, 0], r: [0, 0, 0x4000], s: [2, 1, 1] }, BIND[1]!, BIND[2]!]
}

// ---------------------------------------------------------------- fixture sanity (the hand data follow the spec)

describe('hand-built inputs', () => {
  it('the hand Yay0 and PERS-SZP follow §3.2/§3.3 (decoded here independently)', () => {
    const files = archiveFiles()
    const f0 = files[0]!
    expect(new TextDecoder().decode(f0.subarray(0, 8))).toBe('PERS-SZP')
    const dv = new DataView(f0.buffer, f0.byteOffset)
    expect([dv.getUint32(8), dv.getUint32(12), dv.getUint32(16), dv.getUint32(20)]).toEqual([0x20, FILE0_SIZE, FILE0_TOTAL, 1])
    expect(new TextDecoder().decode(files[1]!.subarray(0, 4))).toBe('Yay0')
    // the hand encoder on a tiny input, byte by byte: literal 'A', literal 0, then a 40-byte zero run as a
    // distance-1 link with count nibble 0 and the extra chunk byte 40 − 0x12 = 0x16 (§3.3)
    const y = handYay0(new Uint8Array([0x41, 0, ...new Array(40).fill(0)]))
    expect([...y]).toEqual([0x59, 0x61, 0x79, 0x30, 0, 0, 0, 42, 0, 0, 0, 0x14, 0, 0, 0, 0x16, 0xc0, 0, 0, 0, 0, 0, 0x41, 0, 0x16])
    expect(handPersSzp(y, 42, 48, []).length).toBe(0x18 + y.length)
  })
})

// ---------------------------------------------------------------- stadium list

describe('stadium list --json', () => {
  it('one row per archive file with the CLI.md keys and exact types', async () => {
    const r = await cli(['stadium', 'list', romPath, '--json'])
    expect(r.code, r.err).toBe(0)
    const rows = JSON.parse(r.out)
    expect(Array.isArray(rows)).toBe(true)
    expect(rows).toHaveLength(2)
    for (const row of rows) {
      for (const k of ['file', 'species', 'bones', 'animations', 'textureAnimations']) expect(typeof row[k], k).toBe('number')
      expect(typeof row.name).toBe('string')
    }
    expect(rows[0]).toMatchObject({ file: 0, species: 1, name: 'Bulbasaur', bones: 3, animations: 2, textureAnimations: 1 })
    expect(rows[1]).toMatchObject({ file: 1, species: 2, name: 'Ivysaur', bones: 1, animations: 0, textureAnimations: 0 })
    // not the US 1.0 image: a warning on stderr, still loaded (§2)
    expect(r.err).toMatch(/unverified|MD5/i)
  })

  it('.v64 and .n64 byte orders give the same rows (§2)', async () => {
    const z = JSON.parse((await cli(['stadium', 'list', romPath, '--json'])).out)
    for (const [ext, conv] of [['v64', toV64], ['n64', toN64]] as const) {
      const p = path.join(dir, `hand.${ext}`)
      writeFileSync(p, conv(rom))
      const r = await cli(['stadium', 'list', p, '--json'])
      expect(r.code, r.err).toBe(0)
      expect(JSON.parse(r.out)).toEqual(z)
    }
  })

  it('an image whose header does not name the game still opens with the US layout, with a warning (§2: warn, still load)', async () => {
    const p = path.join(dir, 'noname.z64')
    writeFileSync(p, handRom({ name: '' }))
    const r = await cli(['stadium', 'list', p, '--json'])
    expect(r.code, r.err).toBe(0)
    expect(JSON.parse(r.out)[0]).toMatchObject({ file: 0, species: 1, name: 'Bulbasaur' })
    expect(r.err).toMatch(/warning/)
  })

  it('human output names the models', async () => {
    const r = await cli(['stadium', 'list', romPath])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/Bulbasaur/)
    expect(r.out).toMatch(/Ivysaur/)
  })
})

// ---------------------------------------------------------------- stadium export

describe('stadium export --out DIR', () => {
  let out = ''
  let manifest: any // eslint-disable-line @typescript-eslint/no-explicit-any
  let moves: any // eslint-disable-line @typescript-eslint/no-explicit-any
  let g0: Gltf
  beforeAll(async () => {
    out = path.join(dir, 'export')
    const r = await cli(['stadium', 'export', romPath, '--out', out])
    expect(r.code, r.err).toBe(0)
    manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    moves = JSON.parse(readFileSync(path.join(out, 'moves.json'), 'utf8'))
    g0 = readGlb(new Uint8Array(readFileSync(path.join(out, 'glb', '001_bulbasaur.glb'))))
  })

  it('writes DIR/glb/NNN_name.glb for every model, manifest.json and moves.json', () => {
    expect(readdirSync(path.join(out, 'glb')).sort()).toEqual(['001_bulbasaur.glb', '002_ivysaur.glb'])
    expect(existsSync(path.join(out, 'manifest.json'))).toBe(true)
    expect(existsSync(path.join(out, 'moves.json'))).toBe(true)
    // §16.3: textures/<slug>/<nn>_<w>x<h>.png, one per exported image (texture 0, and texture 1 from the eye animation)
    expect(readdirSync(path.join(out, 'textures', '001_bulbasaur')).sort()).toEqual(['00_8x8.png', '01_8x8.png'])
    const png = PNG.sync.read(readFileSync(path.join(out, 'textures', '001_bulbasaur', '01_8x8.png')))
    expect([...png.data.subarray(0, 4)]).toEqual([0, 0, 255, 255]) // texture 1: RGBA16 0x003F
  })

  it('every glb passes the Khronos glTF validator with 0 errors', async () => {
    const { validateBytes } = (await import('gltf-validator')) as { validateBytes(b: Uint8Array): Promise<{ issues: { numErrors: number; messages: unknown[] } }> }
    for (const f of readdirSync(path.join(out, 'glb'))) {
      const rep = await validateBytes(new Uint8Array(readFileSync(path.join(out, 'glb', f))))
      expect(rep.issues.numErrors, `${f}: ${JSON.stringify(rep.issues.messages.slice(0, 3))}`).toBe(0)
    }
  })

  it('manifest.json follows §16.5 field by field', () => {
    for (const k of ['source', 'romMd5', 'generator', 'coordinateSystem', 'generatedEffects', 'animationSlots', 'pokemon', 'extra']) expect(manifest, k).toHaveProperty(k)
    expect(manifest.frameRate).toBe(30)
    expect(manifest.romMd5).toMatch(/^[0-9a-f]{32}$/)
    expect(Array.isArray(manifest.pokemon) && Array.isArray(manifest.extra)).toBe(true)
    expect(manifest.extra).toEqual([])
    // corrected slot table (§15.4): our name, the pipeline's name, evidence
    const slots = manifest.animationSlots
    const want: Record<string, [string, string, string]> = {
      165: ['idle', 'idle', 'code'], 166: ['attack_default', 'attack_default', 'data'], 167: ['faint', 'faint', 'code+data'],
      168: ['hit', 'entrance', 'code'], 169: ['reaction_169', 'reaction_169', 'data'], 175: ['sleep', 'struggle', 'code'],
      176: ['idle_alt', 'idle_alt', 'code'], 177: ['faint_alt', 'faint_alt', 'code+data'], 178: ['hit_asleep', 'flinch', 'code'],
      182: ['reaction_182', 'reaction_182', 'data'], 183: ['hit_alt', 'entrance_alt', 'data'], 184: ['wake_eyes', 'idle_return', 'code'],
    }
    for (const [s, [name, pipe, ev]] of Object.entries(want)) {
      expect(slots[s], s).toMatchObject({ name, pipelineName: pipe, evidence: ev })
      expect(typeof slots[s].description).toBe('string')
    }
    expect(Object.keys(slots).sort()).toEqual(Array.from({ length: 20 }, (_, i) => String(165 + i)).sort())

    expect(manifest.pokemon).toHaveLength(2)
    const e = manifest.pokemon[0]
    expect(e).toMatchObject({
      species: 1, name: 'Bulbasaur', slug: '001_bulbasaur', group: 'pokemon', sourceFile: '0.bin', glb: 'glb/001_bulbasaur.glb',
      textureDir: 'textures/001_bulbasaur', triangles: 2, vertices: 4, bones: 3, textures: 2, generatedEffects: false,
    })
    expect(e.animations).toHaveLength(2)
    const [a0, a1] = e.animations
    expect(a0).toMatchObject({ index: 0, name: 'idle', frames: 3, endBehavior: 'wrap', loopStartFrame: 0, moveCount: 163 })
    expect(a0.seconds).toBeCloseTo(0.1, 9)
    expect(a0.contexts).toEqual(expect.arrayContaining(['idle', 'attack_default', 'sleep', 'wake_eyes']))
    expect(a0.contexts).not.toContain('faint')
    expect(a0.moves).toContain('Pound')
    expect(a0.moves).not.toContain('Tackle')
    expect(a0.moves).not.toContain('Teleport') // its entry names animation 5 ≥ 2: skipped (§15.5 rule 1)
    expect(a1).toMatchObject({ index: 1, name: 'faint', frames: 21, endBehavior: 'clamp', loopStartFrame: 1, moves: ['Tackle'], moveCount: 1 })
    expect(a1.seconds).toBeCloseTo(0.7, 9)
    expect([...a1.contexts].sort()).toEqual(['faint', 'hit'])
    // §16.5's recommended additions: our exporter writes all of them, and they agree with the data
    expect(a1.startFrame).toBe(2)
    expect([a0.hermite, a1.hermite]).toEqual([false, true])
    expect([a0.pairedTextureAnimation, a1.pairedTextureAnimation]).toEqual([-1, 0])
    expect(e.textureAnimations[0]).toMatchObject({ index: 0, frames: 4, channels: [[0, 1, 1, 1]] })
    expect(e.attachPoints).toEqual([{ id: 1, bone: 'bone00' }])
    expect(e.jointModes).toEqual([1, 1, 1])

    const e1 = manifest.pokemon[1]
    expect(e1).toMatchObject({ species: 2, name: 'Ivysaur', slug: '002_ivysaur', group: 'pokemon', sourceFile: '1.bin', glb: 'glb/002_ivysaur.glb', triangles: 1, vertices: 3, bones: 1, textures: 0, animations: [] })
  })

  it('moves.json follows §16.6: 165 moves, users with differsFromDefault, tallies', () => {
    expect(typeof moves.source).toBe('string')
    expect(typeof moves.note).toBe('string')
    expect(moves.moves).toHaveLength(165)
    expect(moves.moves.map((m: { id: number }) => m.id)).toEqual(Array.from({ length: 165 }, (_, i) => i + 1))
    expect(moves.moves[0].name).toBe('Pound')
    expect(moves.moves[93].name).toBe('Psychic')
    expect(moves.moves[164].name).toBe('Struggle')
    expect(moves.moves[2].name).toBe('Doubleslap')
    // species 2 (file 1) has no animations and an all-zero table: it is a user of every move with
    // animation 0 ("anim0"), which differs from its (absent) default; species 1 is the interesting one
    const sp1 = (m: { users: { species: number }[] }) => m.users.filter((u) => u.species === 1)
    for (const m of moves.moves) {
      expect(m.users.map((u: { species: number }) => u.species)).toEqual([1, 2])
      expect(m.users[1]).toMatchObject({ species: 2, animation: 0, animationName: 'anim0', differsFromDefault: true })
      expect(m.speciesWithOwnAnimation).toBe(m.users.filter((u: { differsFromDefault: boolean }) => u.differsFromDefault).length)
    }
    const tackle = moves.moves[32]
    expect(tackle).toMatchObject({ id: 33, name: 'Tackle', speciesWithOwnAnimation: 2 })
    expect(sp1(tackle)).toEqual([expect.objectContaining({ species: 1, animation: 1, animationName: 'faint', aux: 0, differsFromDefault: true })])
    expect(tackle.animationNames).toEqual([{ name: 'faint', species: 1 }, { name: 'anim0', species: 1 }]) // tie: first met first
    const pound = moves.moves[0]
    expect(pound.speciesWithOwnAnimation).toBe(1)
    expect(sp1(pound)).toEqual([expect.objectContaining({ species: 1, animation: 0, animationName: 'idle', aux: -1, differsFromDefault: false })])
    // the table is dense: a row naming an animation the model lacks keeps its index (§15.5 skips it only for labels)
    expect(sp1(moves.moves[99])).toEqual([expect.objectContaining({ species: 1, animation: 5, animationName: 'anim5', differsFromDefault: true })])
  })

  it('glb: two-node skeleton (boneNN pivot + boneNN_scale leaf), identity inverse binds, bind pose = §11.4 (§19.5 chain)', () => {
    const { json } = g0
    const names: string[] = json.nodes.map((n: { name: string }) => n.name)
    const leaf = ['bone00_scale', 'bone01_scale', 'bone02_scale'].map((n) => names.indexOf(n))
    expect(leaf.every((i) => i >= 0)).toBe(true)
    // §16.1: scene.nodes = [model_root (root scale from 0x1C), meshNode (mesh 0, skin 0)]
    const roots = json.scenes[json.scene ?? 0].nodes as number[]
    expect(roots.map((i) => names[i])[0]).toBe('model_root')
    expect(roots).toHaveLength(2)
    expect(json.nodes[roots[0]!].scale).toEqual([0.5, 0.5, 0.5])
    expect(json.nodes[roots[1]!]).toMatchObject({ mesh: 0, skin: 0 })
    expect(json.nodes[roots[0]!].children).toContain(names.indexOf('bone00'))
    const skin = json.skins[0]
    expect(skin.joints.slice(0, 3)).toEqual(leaf)
    const ibm = accessor(g0, skin.inverseBindMatrices)
    for (const m of ibm) expectClose(m, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 1e-7, 'inverse bind')
    const W = worlds(g0)
    const game = gameChain(0.5, BIND)
    leaf.forEach((n, k) => expectClose(W[n]!, flat(game[k]!), 1e-4, `bind M of bone ${k}`))
    // §19.5 by hand, × root scale 0.5: M_C rows (0,1,0), (−1.5,0,0), (0,0,0.5), (2,5,0)
    expectClose(W[leaf[2]!]!, [0, 1, 0, 0, -1.5, 0, 0, 0, 0, 0, 0.5, 0, 2, 5, 0, 1], 1e-5, 'M_C by hand')
    // attachment point 1: an empty node under bone00's pivot
    const att = names.indexOf('attach_1')
    expect(att).toBeGreaterThanOrEqual(0)
    expect(json.nodes[names.indexOf('bone00')].children).toContain(att)
  })

  it('glb without a 0x1C scale: model_root with scale 1 over a mode-1 joint', () => {
    const g = readGlb(new Uint8Array(readFileSync(path.join(out, 'glb', '002_ivysaur.glb'))))
    const names: string[] = g.json.nodes.map((n: { name: string }) => n.name)
    const roots = g.json.scenes[g.json.scene ?? 0].nodes as number[]
    expect(names[roots[0]!]).toBe('model_root')
    expect(g.json.nodes[roots[0]!].scale ?? [1, 1, 1]).toEqual([1, 1, 1])
    expect(names).toContain('bone00')
    expect(g.json.animations ?? []).toEqual([])
  })

  it('glb: skinned vertices land where the game puts them (shared vertex cache across bones A and C)', () => {
    const { json } = g0
    const W = worlds(g0)
    const joints = json.skins[0].joints as number[]
    const pts: string[] = []
    let tris = 0
    for (const p of json.meshes[0].primitives) {
      const pos = accessor(g0, p.attributes.POSITION)
      const j = accessor(g0, p.attributes.JOINTS_0)
      const w = accessor(g0, p.attributes.WEIGHTS_0)
      const idx = accessor(g0, p.indices).map((x) => x[0]!)
      tris += idx.length / 3
      for (const i of idx) {
        expect(w[i]).toEqual([1, 0, 0, 0])
        const m = W[joints[j[i]![0]!]!]!
        const [x, y, z] = pos[i] as [number, number, number]
        pts.push([0, 1, 2].map((c) => +(m[c]! * x + m[4 + c]! * y + m[8 + c]! * z + m[12 + c]!).toFixed(4)).join(','))
      }
    }
    expect(tris).toBe(2)
    // A's triangle (0,0,0) (10,0,0) (0,10,0) and the shared-cache triangle: two corners from A, (1,0,0) bound to C → (4,12,0)·0.5
    expect([...new Set(pts)].sort()).toEqual(['0,10,0', '0,5,0', '10,5,0', '2,6,0'])
    expect(pts.filter((p) => p === '2,6,0')).toHaveLength(1)
  })

  it('glb: material from preset 1 / layer 1 / back culling, RGBA16 texture decoded per §10.1, wrap from the render tile', () => {
    const { json } = g0
    const prim = json.meshes[0].primitives[0]
    const mat = json.materials[prim.material]
    expect(mat.doubleSided ?? false).toBe(false)
    expect(mat.pbrMetallicRoughness.baseColorFactor ?? [1, 1, 1, 1]).toEqual([1, 1, 1, 1]) // preset 1 forces white
    const tex = json.textures[mat.pbrMetallicRoughness.baseColorTexture.index]
    const sampler = json.samplers[tex.sampler]
    expect(sampler.wrapS).toBe(33071) // cms CLAMP
    expect(sampler.wrapT).toBe(33648) // cmt MIRROR
    const img = json.images[tex.source]
    expect(img.mimeType).toBe('image/png')
    const bv = json.bufferViews[img.bufferView]
    const png = PNG.sync.read(Buffer.from(g0.bin.subarray(bv.byteOffset ?? 0, (bv.byteOffset ?? 0) + bv.byteLength)))
    expect([png.width, png.height]).toEqual([8, 8])
    expect([...png.data.subarray(0, 12)]).toEqual([255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 255]) // §19.6
    // UVs: s/32 / width, no v flip (§9)
    const uv = accessor(g0, prim.attributes.TEXCOORD_0)
    const pos = accessor(g0, prim.attributes.POSITION)
    const k = pos.findIndex((p) => p[0] === 10 && p[1] === 0)
    expectClose(uv[k]!, [1, 0], 1e-6, 'uv of (10,0,0)')
    const k3 = pos.findIndex((p) => p[0] === 1 && p[1] === 0)
    expectClose(uv[k3]!, [0.5, 0.5], 1e-6, 'uv of (1,0,0)')
  })

  it('glb animations: 30 fps keys, baked §11.4 matrices within 1e-4 at every frame, §19.3 Hermite values', () => {
    const { json } = g0
    const names: string[] = json.nodes.map((n: { name: string }) => n.name)
    const leaf = ['bone00_scale', 'bone01_scale', 'bone02_scale'].map((n) => names.indexOf(n))
    expect(json.animations.map((a: { name: string }) => a.name)).toEqual(['idle', 'faint'])
    const cases: [number, number, (f: number) => Pose[]][] = [[0, 3, anim0Pose], [1, 21, anim1Pose]]
    for (const [ai, frames, pose] of cases) {
      const a = json.animations[ai]
      let maxT = 0
      for (const s of a.samplers) maxT = Math.max(maxT, ...accessor(g0, s.input).map((x) => x[0]!))
      expect(maxT).toBeCloseTo((frames - 1) / 30, 5)
      for (let f = 0; f < frames; f++) {
        const W = worlds(g0, sampleAnimation(g0, ai, f / 30))
        const game = gameChain(0.5, pose(f))
        leaf.forEach((n, k) => expectClose(W[n]!, flat(game[k]!), 1e-4, `animation ${ai} frame ${f} bone ${k}`))
      }
    }
    // §19.3: bone00's pivot translation x at frames 0, 5, 10, 15, 20 of the Hermite clip
    const over = (f: number) => sampleAnimation(g0, 1, f / 30).get(names.indexOf('bone00'))!.t![0]!
    expect([0, 5, 10, 15, 20].map((f) => +over(f).toFixed(3))).toEqual([0, 50, 100, 50, 0])
  })
})

// ---------------------------------------------------------------- other models, battle tables

describe('files past 150: other models; battle tables', () => {
  it('files 151–153 are "other" models named x<NNN>_model, in manifest.extra; species files keep dex names', async () => {
    const [f0, f1] = archiveFiles()
    const files = [f0!, ...Array.from({ length: 153 }, () => f1!)]
    const p = path.join(dir, 'many.z64')
    writeFileSync(p, handRom({ files }))
    const l = await cli(['stadium', 'list', p, '--json'])
    expect(l.code, l.err).toBe(0)
    const rows = JSON.parse(l.out)
    expect(rows).toHaveLength(154)
    expect(rows[24]).toMatchObject({ file: 24, species: 25, name: 'Pikachu' })
    expect(rows[28].name).toMatch(/^Nidoran/)
    expect(rows[150]).toMatchObject({ file: 150, species: 151, name: 'Mew' })
    const out = path.join(dir, 'many-out')
    const r = await cli(['stadium', 'export', p, '--out', out])
    expect(r.code, r.err).toBe(0)
    const glbs = readdirSync(path.join(out, 'glb'))
    expect(glbs).toHaveLength(154)
    expect(glbs).toEqual(expect.arrayContaining(['001_bulbasaur.glb', '025_pikachu.glb', '122_mrmime.glb', '151_mew.glb', 'x151_model.glb', 'x152_model.glb', 'x153_model.glb']))
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    expect(manifest.pokemon).toHaveLength(151)
    expect(manifest.extra.map((e: { slug: string }) => e.slug)).toEqual(['x151_model', 'x152_model', 'x153_model'])
    expect(manifest.extra[2]).toMatchObject({ group: 'extra', sourceFile: '153.bin', glb: 'glb/x153_model.glb' })
  })

  it('with the pointer table absent (zeros), species s still reads the table at 0x70D3A0 + (s−1)·0xB90', async () => {
    const [f0] = archiveFiles()
    const t2 = new Uint8Array(0xb90)
    for (let e = 0; e < 185; e++) (t2[e * 16] = 1), (t2[e * 16 + 1] = 0xff)
    const p = path.join(dir, 'noptr.z64')
    writeFileSync(p, handRom({ files: [f0!, f0!], noPointers: true, battle: new Map([[0, new Uint8Array(0xb90).fill(0)], [1, t2]]) }))
    const out = path.join(dir, 'noptr-out')
    const r = await cli(['stadium', 'export', p, '--out', out])
    expect(r.code, r.err).toBe(0)
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    expect(manifest.pokemon[1].animations.map((a: { name: string }) => a.name)).toEqual(['anim0', 'idle'])
    expect(manifest.pokemon[0].animations.map((a: { name: string }) => a.name)).toEqual(['idle', 'anim1'])
  })
})

// ---------------------------------------------------------------- bad input and usage

describe('bad input: exit 1, message with file and offset, no output folder, no hang', () => {
  const mutate = (f: (b: Uint8Array, v: DataView) => Uint8Array | void) => () => {
    const b = rom.slice()
    return f(b, new DataView(b.buffer)) ?? b
  }
  const rec = (v: DataView, i: number) => ARCHIVE + v.getUint32(ARCHIVE + 0x10 + 16 * i)
  // the message names a byte offset; a file that is no ROM at all names its first bytes
  const OFFSET = /0x[0-9a-f]+/i
  const cases: [string, () => Uint8Array, RegExp][] = [
    ['truncated before the archive', () => rom.slice(0, 0x800000), OFFSET],
    ['truncated in the record table', () => rom.slice(0, ARCHIVE + 0x18), OFFSET],
    ['truncated inside file 1', mutate((b, v) => b.slice(0, rec(v, 1) + 0x20)), OFFSET],
    ['archive entry past the end', mutate((b, v) => void v.setUint32(ARCHIVE + 0x10 + 16 + 4, 0x100000)), OFFSET],
    ['not an N64 ROM', () => new Uint8Array(0x1000), /not an N64 ROM.*00 00 00 00/],
  ]
  for (const [name, make, says] of cases) {
    it(name, async () => {
      const slug = name.replace(/\W+/g, '_')
      const p = path.join(dir, `${slug}.z64`)
      writeFileSync(p, make())
      const parent = path.join(dir, `bad_${slug}`)
      mkdirSync(parent)
      const out = path.join(parent, 'out')
      const r = await cli(['stadium', 'export', p, '--out', out])
      expect(r.code, r.err).toBe(1)
      expect(r.err).toContain(`${slug}.z64`)
      expect(r.err).toMatch(says)
      expect(existsSync(out)).toBe(false)
      expect(readdirSync(parent)).toEqual([]) // no temporary leftovers either
      const l = await cli(['stadium', 'list', p, '--json'])
      expect(l.code).toBe(1)
      expect(l.out).toBe('')
    })
  }
})

describe('a bad model in a good ROM is one failed item (issue 24): the other is written, exit 1', () => {
  const rec = (v: DataView, i: number) => ARCHIVE + v.getUint32(ARCHIVE + 0x10 + 16 * i)
  const cases: [string, bad: number, (v: DataView) => void][] = [
    ['corrupt Yay0 in the PERS-SZP file 0 (back-reference before the start)', 0, (v) => v.setUint32(rec(v, 0) + 0x20 + 0x10, 0)],
    ['corrupt bare Yay0 of file 1 (back-reference before the start)', 1, (v) => v.setUint32(rec(v, 1) + 0x10, 0)],
  ]
  for (const [name, bad, damage] of cases) {
    it(name, async () => {
      const b = rom.slice()
      damage(new DataView(b.buffer))
      const slug = name.replace(/\W+/g, '_')
      const p = path.join(dir, `${slug}.z64`)
      writeFileSync(p, b)
      const good = 1 - bad
      const l = await cli(['stadium', 'list', p, '--json'])
      expect(l.code).toBe(1)
      const rows = JSON.parse(l.out) as { file: number; name: string; error?: string }[]
      expect(rows.map((r) => r.file)).toEqual([0, 1])
      expect(rows[bad]!.error).toMatch(/back-reference before the start/)
      expect(rows[bad]!.error).toMatch(/0x[0-9a-f]+/i)
      expect(rows[good]!.error).toBeUndefined()
      expect(rows[good]!.name).toBe(good === 0 ? 'Bulbasaur' : 'Ivysaur')
      expect(l.err).toContain(`${slug}.z64`)
      expect(l.err).toMatch(/1 of 2 models failed/)
      const out = path.join(dir, `partial_${slug}`)
      const r = await cli(['stadium', 'export', p, '--out', out])
      expect(r.code).toBe(1)
      expect(r.err).toContain(`${slug}.z64`)
      expect(r.err).toMatch(/back-reference before the start/)
      expect(readdirSync(path.join(out, 'glb'))).toEqual([good === 0 ? '001_bulbasaur.glb' : '002_ivysaur.glb'])
      const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
      expect(manifest.pokemon.map((e: { sourceFile: string }) => e.sourceFile)).toEqual([`${good}.bin`])
      expect(manifest.failed).toEqual([{ file: bad, sourceFile: `${bad}.bin`, error: rows[bad]!.error }])
    })
  }
})

describe('usage errors: exit 2', () => {
  it('missing ROM, missing --out, extra arguments, unknown options', async () => {
    expect((await cli(['stadium', 'list'])).code).toBe(2)
    expect((await cli(['stadium', 'list', romPath, romPath])).code).toBe(2)
    expect((await cli(['stadium', 'list', romPath, '--frobnicate'])).code).toBe(2)
    expect((await cli(['stadium', 'export', romPath])).code).toBe(2)
    expect((await cli(['stadium', 'export', romPath, '--out'])).code).toBe(2)
    expect((await cli(['stadium', 'export'])).code).toBe(2)
  })

  it('the output folder must be new: an existing non-empty folder fails and is left as it was', async () => {
    const d = path.join(dir, 'existing')
    mkdirSync(d)
    writeFileSync(path.join(d, 'keep.txt'), 'x')
    const r = await cli(['stadium', 'export', romPath, '--out', d])
    expect(r.code).not.toBe(0)
    expect(readdirSync(d)).toEqual(['keep.txt'])
  })

  it('spawned: exit codes 0, 1, 2 from bin/modbench.mjs', () => {
    const bin = path.resolve(import.meta.dirname, '../../bin/modbench.mjs')
    const ok = spawnSync(process.execPath, [bin, 'stadium', 'list', romPath, '--json'], { encoding: 'utf8' })
    expect(ok.status, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)[0].name).toBe('Bulbasaur')
    const badPath = path.join(dir, 'spawn-bad.z64')
    writeFileSync(badPath, rom.slice(0, ARCHIVE + 0x18))
    const bad = spawnSync(process.execPath, [bin, 'stadium', 'export', badPath, '--out', path.join(dir, 'spawn-out')], { encoding: 'utf8' })
    expect(bad.status).toBe(1)
    expect(existsSync(path.join(dir, 'spawn-out'))).toBe(false)
    const usage = spawnSync(process.execPath, [bin, 'stadium', 'export', romPath], { encoding: 'utf8' })
    expect(usage.status).toBe(2)
  })
})

// ---------------------------------------------------------------- catalog

describe('catalog: index → game → models → animations; export ID', () => {
  it('indexes the ROM and exports a model asset to a valid glb', async () => {
    const db = path.join(dir, 'catalog.db')
    const ix = await cli(['index', romPath, '--db', db, '--json'])
    expect(ix.code, ix.err).toBe(0)
    const res = JSON.parse(ix.out)
    expect(res.sources[0]).toMatchObject({ status: 'indexed' })
    const ls = await cli(['ls', '--db', db, '--json'])
    expect(ls.code).toBe(0)
    const rows = JSON.parse(ls.out) as { id: number; kind: string; name: string; parent: number | null }[]
    const game = rows.find((r) => r.kind === 'stadium-game')!
    expect(game).toBeTruthy()
    const models = rows.filter((r) => r.parent === game.id)
    expect(models.map((m) => m.name)).toEqual([expect.stringMatching(/Bulbasaur/), expect.stringMatching(/Ivysaur/)])
    const anims = rows.filter((r) => r.parent === models[0]!.id)
    expect(anims.map((a) => a.name)).toEqual([expect.stringMatching(/idle/), expect.stringMatching(/faint/)])
    const glbPath = path.join(dir, 'catalog-export.glb')
    const ex = await cli(['export', String(models[0]!.id), '--out', glbPath, '--db', db])
    expect(ex.code, ex.err).toBe(0)
    const bytes = new Uint8Array(readFileSync(glbPath))
    const g = readGlb(bytes)
    expect(g.json.skins[0].joints.length).toBeGreaterThanOrEqual(3)
    const { validateBytes } = (await import('gltf-validator')) as { validateBytes(b: Uint8Array): Promise<{ issues: { numErrors: number; messages: unknown[] } }> }
    const rep = await validateBytes(bytes)
    expect(rep.issues.numErrors, JSON.stringify(rep.issues.messages.slice(0, 3))).toBe(0)
    // the same bind pose as the ROM export
    const names: string[] = g.json.nodes.map((n: { name: string }) => n.name)
    const W = worlds(g)
    expectClose(W[names.indexOf('bone02_scale')]!, flat(gameChain(0.5, BIND)[2]!), 1e-4, 'catalog export M_C')
  })
})

// keep the module builder referenced (documentation of what file 0 holds)
void file0Module
