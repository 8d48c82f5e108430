/**
 * Joint world matrices of the exported glTF (pivot + scale nodes, baked animation samples) against
 * an INDEPENDENT implementation of the game's matrix chain (pokemon-stadium.md §11.3–§11.4,
 * §12.3–§12.4), written here from the spec's formulas with plain nested arrays, a 4096-entry
 * sine table and the fixture's own definitions (not the reader's decoded data).
 */
import { describe, expect, it } from 'vitest'
import { WebIO } from '@gltf-transform/core'
import { ALL_EXTENSIONS } from '@gltf-transform/extensions'
import { openStadiumRom, loadModel } from '../../../../../src-shared/formats/stadium/model'
import { buildStadiumScene } from '../../../../../src-shared/formats/stadium/scene'
import { exportGlb } from '../../../../../src-shared/export/gltf'
import { buildStadiumRom } from '../../../../fixtures/stadium/rom-builder'
import { richModel, plainModel } from '../../../../fixtures/stadium/models'
import type { FxAnim, FxBone, FxModel, HermiteSrc, PackedSrc, V3 } from '../../../../fixtures/stadium/model-builder'

type M = number[][]
const SIN = Array.from({ length: 4096 }, (_, i) => Math.sin((i * 2 * Math.PI) / 4096))
const sinA = (a: number) => SIN[((a & 0xffff) >> 4)]!
const cosA = (a: number) => SIN[(((a & 0xffff) >> 4) + 1024) & 4095]!
const s16 = (v: number) => ((v & 0xffff) << 16) >> 16

function mmul(a: M, b: M): M {
  return a.map((row) => [0, 1, 2, 3].map((j) => row[0]! * b[0]![j]! + row[1]! * b[1]![j]! + row[2]! * b[2]![j]! + row[3]! * b[3]![j]!))
}
/** §11.3 rows, translation in row 3. */
function joint(r: V3, t: V3): M {
  const [sx, cx, sy, cy, sz, cz] = [sinA(r[0]), cosA(r[0]), sinA(r[1]), cosA(r[1]), sinA(r[2]), cosA(r[2])]
  return [
    [cy * cz, cy * sz, -sy, 0],
    [sx * sy * cz - cx * sz, sx * sy * sz + cx * cz, sx * cy, 0],
    [cx * sy * cz + sx * sz, cx * sy * sz - sx * cz, cx * cy, 0],
    [t[0], t[1], t[2], 1],
  ]
}
const rowsScaled = (m: M, s: V3): M => m.map((row, i) => (i < 3 ? row.map((x) => x * s[i]!) : [...row]))

interface Pose { t: V3; r: V3; s: V3 }

/** The fixture's value of a component at frame f (§12.3 packed / §12.4 Hermite), from its definition. */
function packedAt(src: PackedSrc, f: number): number {
  return typeof src === 'number' ? src : src[Math.min(f, src.length - 1)]!
}
function hermiteAt(src: HermiteSrc, f: number): number {
  if (typeof src === 'number') return s16(src)
  const keys = 'keys' in src ? src.keys.map(([fr, v, tg]) => ({ fr, v, tin: tg, tout: tg })) : src.wide.map(([fr, v, ti, to]) => ({ fr, v, tin: ti, tout: to }))
  const n = keys.length
  if (f <= keys[0]!.fr) return keys[0]!.v
  if (f >= keys[n - 1]!.fr) return keys[n - 1]!.v
  let i = 0
  while (i < n - 2 && f >= keys[i + 1]!.fr) i++
  const a = keys[i]!, b = keys[i + 1]!
  const u = (f - a.fr) / (b.fr - a.fr)
  const dt = (b.fr - a.fr) / 30 // tangents are per second
  const h00 = 2 * u ** 3 - 3 * u ** 2 + 1, h01 = -2 * u ** 3 + 3 * u ** 2, h10 = u ** 3 - 2 * u ** 2 + u, h11 = u ** 3 - u ** 2
  return a.v * h00 + b.v * h01 + a.tout * dt * h10 + b.tin * dt * h11
}
function fixturePose(b: FxBone, anim: FxAnim | null, f: number): Pose {
  const ch = anim && b.channel >= 0 ? anim.channels[b.channel] : undefined
  if (!anim || !ch) return { t: b.t, r: b.r, s: b.s }
  if (anim.kind === 'hermite') {
    const c = ch as { t: HermiteSrc[]; r: HermiteSrc[]; s: HermiteSrc[] }
    const angle = (tenths: number) => {
      let deg = (tenths / 10) % 360
      if (deg < 0) deg += 360
      return s16(Math.trunc((deg / 360) * 65536))
    }
    return { t: [0, 1, 2].map((k) => hermiteAt(c.t[k]!, f)) as V3, r: [0, 1, 2].map((k) => angle(hermiteAt(c.r[k]!, f))) as V3, s: [0, 1, 2].map((k) => hermiteAt(c.s[k]!, f) / 100) as V3 }
  }
  const c = ch as { t: PackedSrc[]; r: PackedSrc[]; s: PackedSrc[] }
  return {
    t: [0, 1, 2].map((k) => packedAt(c.t[k]!, f)) as V3,
    r: [0, 1, 2].map((k) => s16((((packedAt(c.r[k]!, f) >> 4) & 0xfff) << 4))) as V3,
    s: [0, 1, 2].map((k) => Math.round(packedAt(c.s[k]!, f) * 1000) / 1000) as V3,
  }
}

/** §11.4, walking the fixture's bone tree with explicit M/U/isSepScale and a scale stack. */
function gameMatrices(model: FxModel, anim: FxAnim | null, f: number): Map<number, M> {
  const out = new Map<number, M>()
  const rs = model.rootScale ?? 1
  const root: M = [[rs, 0, 0, 0], [0, rs, 0, 0], [0, 0, rs, 0], [0, 0, 0, 1]]
  const visit = (b: FxBone, parentM: M, parentU: M | null, parentSep: boolean, accTop: V3) => {
    const { t, r, s } = fixturePose(b, anim, f)
    const mode0 = (b.flags & 1) === 1
    if (mode0) {
      const L = joint(r, [t[0] * accTop[0], t[1] * accTop[1], t[2] * accTop[2]])
      const U = mmul(L, parentSep ? parentU! : parentM)
      const acc: V3 = [accTop[0] * s[0], accTop[1] * s[1], accTop[2] * s[2]]
      const Mx = rowsScaled(U, acc)
      out.set(b.jointId, Mx)
      for (const c of b.children ?? []) visit(c, Mx, U, true, acc)
    } else {
      const Mx = mmul(rowsScaled(joint(r, t), s), parentM)
      out.set(b.jointId, Mx)
      for (const c of b.children ?? []) visit(c, Mx, null, false, accTop)
    }
  }
  visit(model.skeleton, root, null, false, [1, 1, 1])
  return out
}

// ---- glTF side: world matrices from the parsed .glb's TRS hierarchy and animation samples ----
function trs(t: number[], q: number[], s: number[]): number[] {
  const [x, y, z, w] = q
  const m = [
    1 - 2 * (y! * y! + z! * z!), 2 * (x! * y! + z! * w!), 2 * (x! * z! - y! * w!), 0,
    2 * (x! * y! - z! * w!), 1 - 2 * (x! * x! + z! * z!), 2 * (y! * z! + x! * w!), 0,
    2 * (x! * z! + y! * w!), 2 * (y! * z! - x! * w!), 1 - 2 * (x! * x! + y! * y!), 0,
    t[0]!, t[1]!, t[2]!, 1,
  ]
  for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) m[c * 4 + r]! *= s[c]!
  return m
}
function cmul(a: number[], b: number[]): number[] {
  const o = new Array(16).fill(0)
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) o[c * 4 + r] += a[k * 4 + r]! * b[c * 4 + k]!
  return o
}
function sample(times: ArrayLike<number>, vals: ArrayLike<number>, w: number, t: number): number[] {
  let i = 0
  while (i < times.length - 1 && times[i + 1]! <= t + 1e-6) i++
  const at = (k: number) => Array.from({ length: w }, (_, j) => vals[k * w + j]!)
  if (i >= times.length - 1 || Math.abs(times[i]! - t) < 1e-6) return at(i)
  const u = (t - times[i]!) / (times[i + 1]! - times[i]!)
  const a = at(i), b = at(i + 1)
  const v = a.map((x, j) => x + (b[j]! - x) * u)
  if (w === 4) { const l = Math.hypot(...v); return v.map((x) => x / l) }
  return v
}

async function gltfJointMatrices(glb: Uint8Array, animName: string | null, t: number): Promise<Map<string, number[]>> {
  const doc = await new WebIO().registerExtensions(ALL_EXTENSIONS).readBinary(glb)
  const nodes = doc.getRoot().listNodes()
  const local = new Map(nodes.map((n) => [n, { t: n.getTranslation() as number[], r: n.getRotation() as number[], s: n.getScale() as number[] }]))
  if (animName !== null) {
    const anim = doc.getRoot().listAnimations().find((a) => a.getName() === animName)!
    for (const ch of anim.listChannels()) {
      const s = ch.getSampler()!
      const path = ch.getTargetPath() as 'translation' | 'rotation' | 'scale'
      const v = sample(s.getInput()!.getArray()!, s.getOutput()!.getArray()!, path === 'rotation' ? 4 : 3, t)
      const l = local.get(ch.getTargetNode()!)!
      if (path === 'translation') l.t = v
      else if (path === 'rotation') l.r = v
      else l.s = v
    }
  }
  const parent = new Map<unknown, (typeof nodes)[number]>()
  for (const n of nodes) for (const c of n.listChildren()) parent.set(c, n)
  const world = (n: (typeof nodes)[number]): number[] => {
    const l = local.get(n)!
    const m = trs(l.t, l.r, l.s)
    const p = parent.get(n)
    return p ? cmul(world(p), m) : m
  }
  const out = new Map<string, number[]>()
  for (const n of nodes) if (/^bone\d\d_scale$/.test(n.getName())) out.set(n.getName(), world(n))
  return out
}

function expectClose(game: Map<number, M>, gltf: Map<string, number[]>, what: string) {
  expect(gltf.size).toBe(game.size)
  let worst = 0
  for (const [id, m] of game) {
    const g = gltf.get(`bone${String(id).padStart(2, '0')}_scale`)!
    const flat = m.flat() // row-major game MtxF == column-major glTF array
    for (let k = 0; k < 16; k++) worst = Math.max(worst, Math.abs(flat[k]! - g[k]!))
  }
  expect(worst, `${what}: worst joint-matrix difference`).toBeLessThan(1e-4)
}

describe('Stadium joint chain vs an independent implementation of the game maths', () => {
  const models = [richModel(1), plainModel(2)]
  const rom = buildStadiumRom({ files: models.map((model) => ({ model })) })
  const sr = openStadiumRom(rom, 'fixture.z64')

  for (let i = 0; i < models.length; i++) {
    it(`model ${i}: bind pose and sampled frames of every animation`, async () => {
      const fx = models[i]!
      const m = loadModel(sr, i)
      const glb = await exportGlb(buildStadiumScene(m))
      expectClose(gameMatrices(fx, null, 0), await gltfJointMatrices(glb, null, 0), 'bind pose')
      for (let a = 0; a < fx.anims.length; a++) {
        const an = fx.anims[a]!
        const name = m.labels.labels[a]!.name
        const frames = [...new Set([0, 1, an.loopStart, an.start, Math.floor(an.frames / 2), an.frames - 1].filter((f) => f >= 0 && f < an.frames))]
        for (const f of frames) expectClose(gameMatrices(fx, an, f), await gltfJointMatrices(glb, name, f / 30), `anim ${a} frame ${f}`)
      }
    })
  }

  it('the mode-0 chain differs from a naive TRS mapping for the non-uniformly scaled parent (so the test can fail)', () => {
    const fx = models[0]!
    const game = gameMatrices(fx, null, 0)
    // Naive: every joint as T·R·S with scale propagating (what a 1:1 node mapping gives).
    const naive = new Map<number, M>()
    const rs = fx.rootScale!
    const visit = (b: FxBone, parent: M) => {
      const Mx = mmul(rowsScaled(joint(b.r, b.t), b.s), parent)
      naive.set(b.jointId, Mx)
      for (const c of b.children ?? []) visit(c, Mx)
    }
    visit(fx.skeleton, [[rs, 0, 0, 0], [0, rs, 0, 0], [0, 0, rs, 0], [0, 0, 0, 1]])
    const d = Math.max(...[...game].map(([id, m]) => Math.max(...m.flat().map((x, k) => Math.abs(x - naive.get(id)!.flat()[k]!)))))
    expect(d).toBeGreaterThan(0.1)
  })
})
