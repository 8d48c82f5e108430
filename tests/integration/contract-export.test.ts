/**
 * Independent contract review of issue 3 (neutral scene model + glTF export), written from the
 * issue text, ../shared/DESIGN.md and docs/CLI.md (`modbench export ID --out FILE.glb`,
 * `modbench export demo --out demo.glb`):
 * 1. the demo through the real binary: a skinned, textured, animated model, a texture-swap track
 *    and a curve in documented extras, one animation per clip in seconds, node names; the Khronos
 *    validator finds no error and no warning; joint world matrices of the read-back file equal
 *    the neutral scene's at five times per clip (≤ 1e-5), with TRS→matrix, hierarchy and
 *    keyframe sampling written here from the glTF 2.0 specification (not src-shared/scene/math
 *    or sample), themselves checked against hand-computed poses;
 * 2. every scene-bearing asset of resources/samples indexed into a temporary catalog and exported
 *    through the CLI (valid glb, same joint matrices as the builder's neutral scene); kinds
 *    without a scene, missing ids, usage errors, a missing catalog and failing outputs (exit
 *    codes, messages, no file, no partial file, inputs untouched, parent folders created);
 * 3. every scene builder's output passes `validateScene` (edge cases of the validator itself are
 *    in tests/unit/src-shared/scene/validate.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { WebIO, type Document, type Node as GNode } from '@gltf-transform/core'
import { KHRMaterialsUnlit } from '@gltf-transform/extensions'
import { validateBytes, type ValidationReport } from 'gltf-validator'
import { PNG } from 'pngjs'
import { runCli } from '../../src-main/cli/main'
import { openCatalog } from '../../src-main/catalog/catalog'
import { buildAssetScene, sceneKinds } from '../../src-main/services/scene-builders'
import { demoScene } from '../../src-shared/scene/demo'
import { sceneProblems } from '../../src-shared/scene/validate'
import type { Scene } from '../../src-shared/scene/types'
import { glbJson } from '../helpers/glb'

const repo = path.resolve(import.meta.dirname, '../..')
const bin = path.join(repo, 'bin', 'modbench.mjs')
const samples = path.join(repo, 'resources', 'samples')

// ------------------------------------------------------------------ helpers

async function cli(argv: string[]) {
  let out = ''
  let err = ''
  const code = await runCli(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } })
  return { code, out, err }
}
function spawn(argv: string[]) {
  const r = spawnSync(process.execPath, [bin, ...argv], { encoding: 'utf8', cwd: repo })
  return { code: r.status, out: r.stdout, err: r.stderr }
}
const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex')
const readIo = () => new WebIO().registerExtensions([KHRMaterialsUnlit])


/** Khronos validator: no error, no warning (infos are listed by the caller). */
async function validate(glb: Uint8Array, what: string): Promise<ValidationReport> {
  const r = await validateBytes(glb, { maxIssues: 500 })
  const serious = r.issues.messages.filter((m) => m.severity <= 1)
  expect(serious, `${what}: ${JSON.stringify(serious.slice(0, 5))}`).toEqual([])
  expect(r.issues.numErrors).toBe(0)
  expect(r.issues.numWarnings).toBe(0)
  return r
}

// ------------------------------------------------------------------ independent math (glTF 2.0 spec)
// Column-major 4×4 (element [col*4+row]); a node's local matrix is T·R·S; world = parent·local.

type M = number[]
function trsMatrix(t: ArrayLike<number>, q: ArrayLike<number>, s: ArrayLike<number>): M {
  const [x, y, z, w] = [q[0], q[1], q[2], q[3]]
  // Rotation matrix of a unit quaternion, rows r0..r2.
  const r = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ]
  const m = new Array<number>(16).fill(0)
  for (let col = 0; col < 3; col++) for (let row = 0; row < 3; row++) m[col * 4 + row] = r[row][col] * s[col]
  m[12] = t[0]
  m[13] = t[1]
  m[14] = t[2]
  m[15] = 1
  return m
}
function mul(a: M, b: M): M {
  const o = new Array<number>(16).fill(0)
  for (let col = 0; col < 4; col++) for (let row = 0; row < 4; row++) for (let k = 0; k < 4; k++) o[col * 4 + row] += a[k * 4 + row] * b[col * 4 + k]
  return o
}

interface Pose {
  parent: number[]
  t: number[][]
  r: number[][]
  s: number[][]
}
function worldOf(p: Pose): M[] {
  const out: (M | undefined)[] = new Array(p.parent.length)
  const get = (i: number, depth: number): M => {
    if (depth > p.parent.length) throw new Error('cycle')
    const have = out[i]
    if (have) return have
    const local = trsMatrix(p.t[i], p.r[i], p.s[i])
    const w = p.parent[i] >= 0 ? mul(get(p.parent[i], depth + 1), local) : local
    out[i] = w
    return w
  }
  return p.parent.map((_, i) => get(i, 0))
}

interface Track {
  node: number
  path: string
  times: ArrayLike<number>
  values: ArrayLike<number>
  interpolation: string
}
/** glTF 2.0 §"Animations" + Appendix C: STEP, LINEAR (slerp for rotations), CUBICSPLINE (Hermite, tangents × Δt). */
function sampleTrack(tr: Track, t: number): number[] {
  const n = tr.path === 'rotation' ? 4 : 3
  const cubic = tr.interpolation === 'CUBICSPLINE'
  const stride = cubic ? 3 * n : n
  const at = (k: number, part = 1) => Array.from({ length: n }, (_, c) => tr.values[k * stride + (cubic ? part * n : 0) + c])
  const last = tr.times.length - 1
  const norm = (q: number[]) => {
    const l = Math.hypot(...q)
    return q.map((v) => v / l)
  }
  const fin = (v: number[]) => (tr.path === 'rotation' ? norm(v) : v)
  if (t <= tr.times[0]) return fin(at(0))
  if (t >= tr.times[last]) return fin(at(last))
  let k = 0
  while (k < last && tr.times[k + 1] <= t) k++
  if (tr.interpolation === 'STEP') return fin(at(k))
  const t0 = tr.times[k]
  const dt = tr.times[k + 1] - t0
  const u = (t - t0) / dt
  if (tr.interpolation === 'LINEAR') {
    const a = at(k)
    let b = at(k + 1)
    if (tr.path !== 'rotation') return a.map((v, c) => v + (b[c] - v) * u)
    let d = a.reduce((s, v, c) => s + v * b[c], 0)
    if (d < 0) {
      b = b.map((v) => -v)
      d = -d
    }
    if (d > 0.9999995) return norm(a.map((v, c) => v + (b[c] - v) * u))
    const th = Math.acos(d)
    const wa = Math.sin((1 - u) * th) / Math.sin(th)
    const wb = Math.sin(u * th) / Math.sin(th)
    return norm(a.map((v, c) => wa * v + wb * b[c]))
  }
  const p0 = at(k, 1)
  const m0 = at(k, 2)
  const p1 = at(k + 1, 1)
  const m1 = at(k + 1, 0)
  const u2 = u * u
  const u3 = u2 * u
  return fin(p0.map((v, c) => (2 * u3 - 3 * u2 + 1) * v + (u3 - 2 * u2 + u) * dt * m0[c] + (-2 * u3 + 3 * u2) * p1[c] + (u3 - u2) * dt * m1[c]))
}
function posed(rest: Pose, tracks: Track[], t: number): Pose {
  const p: Pose = { parent: rest.parent, t: rest.t.map((v) => [...v]), r: rest.r.map((v) => [...v]), s: rest.s.map((v) => [...v]) }
  for (const tr of tracks) {
    const v = sampleTrack(tr, t)
    if (tr.path === 'translation') p.t[tr.node] = v
    else if (tr.path === 'rotation') p.r[tr.node] = v
    else p.s[tr.node] = v
  }
  return p
}

// Neutral side.
const neutralRest = (s: Scene): Pose => ({
  parent: s.nodes.map((n) => n.parent),
  t: s.nodes.map((n) => [...n.translation]),
  r: s.nodes.map((n) => [...n.rotation]),
  s: s.nodes.map((n) => [...n.scale]),
})
// Read-back side (@gltf-transform/core).
function glbRest(doc: Document): Pose {
  const nodes = doc.getRoot().listNodes()
  const parent = nodes.map(() => -1)
  nodes.forEach((n, i) => n.listChildren().forEach((c) => (parent[nodes.indexOf(c)] = i)))
  return { parent, t: nodes.map((n) => n.getTranslation()), r: nodes.map((n) => n.getRotation()), s: nodes.map((n) => n.getScale()) }
}
function glbTracks(doc: Document, ai: number): Track[] {
  const nodes = doc.getRoot().listNodes()
  return doc
    .getRoot()
    .listAnimations()
    [ai].listChannels()
    .map((ch) => {
      const sm = ch.getSampler()!
      return { node: nodes.indexOf(ch.getTargetNode() as GNode), path: ch.getTargetPath()!, times: sm.getInput()!.getArray()!, values: sm.getOutput()!.getArray()!, interpolation: sm.getInterpolation() }
    })
}

/** Five times spread over a clip, most between keys. */
const fiveTimes = (d: number) => [0, 0.23, 0.5, 0.77, 1].map((f) => f * d)

/** Compares every skin joint's world matrix, neutral vs read back, at five times of every clip; returns the count compared. */
function compareJointWorlds(scene: Scene, doc: Document, what: string): number {
  const gSkins = doc.getRoot().listSkins()
  const gNodes = doc.getRoot().listNodes()
  expect(gSkins.length, what).toBe(scene.skins.length)
  expect(doc.getRoot().listAnimations().length, `${what}: one glTF animation per clip`).toBe(scene.animations.length)
  const pairs: [number, number][] = []
  scene.skins.forEach((s, si) => {
    const gj = gSkins[si].listJoints()
    expect(gj.length).toBe(s.joints.length)
    s.joints.forEach((j, k) => {
      expect(gj[k].getName()).toBe(scene.nodes[j].name)
      pairs.push([j, gNodes.indexOf(gj[k])])
    })
  })
  const nRest = neutralRest(scene)
  const gRest = glbRest(doc)
  let compared = 0
  const check = (ours: M[], theirs: M[], label: string) => {
    for (const [a, b] of pairs) {
      for (let e = 0; e < 16; e++) {
        const d = Math.abs(ours[a][e] - theirs[b][e])
        if (!(d <= 1e-5)) throw new Error(`${what} ${label}: joint ${scene.nodes[a].name} element ${e}: neutral ${ours[a][e]} vs glb ${theirs[b][e]}`)
        compared++
      }
    }
  }
  check(worldOf(nRest), worldOf(gRest), 'rest pose')
  scene.animations.forEach((a, ai) => {
    const nt: Track[] = a.channels.map((c) => ({ node: c.node, path: c.path, times: c.times, values: c.values, interpolation: c.interpolation }))
    const gt = glbTracks(doc, ai)
    for (const t of fiveTimes(a.duration)) check(worldOf(posed(nRest, nt, t)), worldOf(posed(gRest, gt, t)), `${a.name} t=${t.toFixed(4)}`)
  })
  return compared
}

let dir = ''
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'contract-export-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// ------------------------------------------------------------------ the independent math itself

describe('independent TRS / sampling used by this review', () => {
  it('matches hand-computed poses of the demo (LINEAR slerp, STEP, CUBICSPLINE)', () => {
    const scene = demoScene()
    const rest = neutralRest(scene)
    const tracks = (ai: number) => scene.animations[ai].channels.map((c) => ({ ...c }))
    // (Key values are float32, hence 1e-6.) bend at t = 0.25: bones 3, 4, 5 each turn 0.25 rad about +Z (half-way from 0 to 0.5), each 1 unit above its parent.
    const w = worldOf(posed(rest, tracks(0), 0.25))
    const up = (a: number) => [-Math.sin(a), Math.cos(a)]
    const tip = [0 + up(0.25)[0] + up(0.5)[0], 1 + up(0.25)[1] + up(0.5)[1]]
    expect(w[5][12]).toBeCloseTo(tip[0], 6)
    expect(w[5][13]).toBeCloseTo(tip[1], 6)
    expect(w[5][0]).toBeCloseTo(Math.cos(0.75), 6) // column 0 = Rz(0.75)·x̂
    expect(w[5][1]).toBeCloseTo(Math.sin(0.75), 6)
    // hop at t = 0.6: node 2 translation is STEP (key 0.5 → y 0.6), rotation LINEAR 0 → π/2 about +Y over 1 s.
    const h = worldOf(posed(rest, tracks(2), 0.6))
    expect([h[2][12], h[2][13], h[2][14]].map((v) => +v.toFixed(6))).toEqual([0, 0.6, 0])
    expect(h[2][0]).toBeCloseTo(Math.cos(0.3 * Math.PI), 6) // Ry(θ)·x̂ = (cos θ, 0, −sin θ)
    expect(h[2][2]).toBeCloseTo(-Math.sin(0.3 * Math.PI), 6)
    // hop scale on node 5 is STEP (1,1,1) then (1.4,0.8,1.4) from 0.5 s.
    expect(posed(rest, tracks(2), 0.49).s[5]).toEqual([1, 1, 1])
    expect(posed(rest, tracks(2), 0.5).s[5].map((v) => +v.toFixed(6))).toEqual([1.4, 0.8, 1.4])
    // wave: node 2 bobs y = 0.25·sin(2πt/3) as a CUBICSPLINE (keys every 0.75 s, exact tangents).
    // Mid-interval of the first key pair by hand: y = (p0 + p1)/2 + Δt·(m0 − m1)/8 with p0 = 0,
    // p1 = 0.25, m0 = 0.25·2π/3 = π/6, m1 = 0, Δt = 0.75.
    expect(posed(rest, tracks(1), 0.375).t[2][1]).toBeCloseTo(0.125 + (0.75 * Math.PI) / 6 / 8, 6)
    // Elsewhere close to the sine it samples (cubic Hermite error ≤ Δt⁴/384·max|y''''| ≈ 4e-3).
    for (const t of [1.1, 2.6]) expect(Math.abs(posed(rest, tracks(1), t).t[2][1] - 0.25 * Math.sin((2 * Math.PI * t) / 3))).toBeLessThan(4e-3)
  })
})

// ------------------------------------------------------------------ 1. the demo, black box

describe('modbench export demo --out demo.glb (real binary)', () => {
  let glb: Uint8Array
  let json: any // eslint-disable-line @typescript-eslint/no-explicit-any
  let doc: Document
  let report: ValidationReport
  const scene = demoScene()
  beforeAll(async () => {
    const out = path.join(dir, 'demo.glb')
    const r = spawn(['export', 'demo', '--out', out, '--json'])
    expect(r.code, r.err).toBe(0)
    const summary = JSON.parse(r.out)
    glb = new Uint8Array(readFileSync(out))
    expect(summary).toMatchObject({ id: 'demo', out, bytes: glb.byteLength })
    json = glbJson(glb)
    doc = await readIo().readBinary(glb)
    report = await validate(glb, 'demo.glb')
  })

  it('passes the Khronos validator with 0 errors and 0 warnings (infos are only unused swap images / UVs)', () => {
    expect(report.issues.numErrors).toBe(0)
    expect(new Set(report.issues.messages.map((m) => m.code))).toEqual(new Set(report.issues.numInfos ? ['UNUSED_OBJECT'] : []))
    // The unused images are exactly texture-swap targets that no material shows at rest.
    const unusedImages = report.issues.messages.filter((m) => m.pointer?.startsWith('/images/')).map((m) => Number(m.pointer!.split('/')[2]))
    const swapImages = new Set(scene.animations.flatMap((a) => (a.textureSwaps ?? []).flatMap((t) => Array.from(t.textures))))
    for (const i of unusedImages) expect(swapImages.has(i)).toBe(true)
  })

  it('keeps node names (in order) and puts the scene roots in the scene', () => {
    expect(json.nodes.slice(0, scene.nodes.length).map((n: { name: string }) => n.name)).toEqual(scene.nodes.map((n) => n.name))
    expect(json.scenes).toHaveLength(1)
    expect(json.scene ?? 0).toBe(0)
    for (const [i, n] of scene.nodes.entries()) if (n.parent < 0) expect(json.scenes[0].nodes).toContain(i)
  })

  it('is skinned: a mesh node with a skin of four joints and inverse binds, JOINTS_0/WEIGHTS_0 summing to 1', () => {
    const skinned = doc.getRoot().listNodes().filter((n) => n.getSkin() && n.getMesh())
    expect(skinned).toHaveLength(1)
    const skin = skinned[0].getSkin()!
    expect(skin.listJoints().map((j) => j.getName())).toEqual(['bone0', 'bone1', 'bone2', 'bone3'])
    expect(skin.getInverseBindMatrices()!.getCount()).toBe(4)
    for (const prim of skinned[0].getMesh()!.listPrimitives()) {
      const w = prim.getAttribute('WEIGHTS_0')!.getArray()!
      const j = prim.getAttribute('JOINTS_0')!.getArray()!
      expect(w.length).toBe(j.length)
      for (let v = 0; v < w.length; v += 4) expect(Math.abs(w[v] + w[v + 1] + w[v + 2] + w[v + 3] - 1)).toBeLessThan(1e-5)
      expect(Math.max(...j)).toBeLessThan(4)
    }
  })

  it('is textured: PNG images with the demo’s pixels, top row first; materials reference them with their samplers', () => {
    const textures = doc.getRoot().listTextures()
    expect(textures.map((t) => t.getName())).toEqual(scene.textures.map((t) => t.name))
    textures.forEach((t, i) => {
      expect(t.getMimeType()).toBe('image/png')
      const png = PNG.sync.read(Buffer.from(t.getImage()!))
      expect([png.width, png.height]).toEqual([scene.textures[i].width, scene.textures[i].height])
      expect(new Uint8Array(png.data)).toEqual(scene.textures[i].rgba)
    })
    const textured = scene.materials.filter((m) => m.texture !== undefined)
    expect(textured.length).toBeGreaterThan(0)
    scene.materials.forEach((m, i) => {
      const g = json.materials[i]
      if (m.texture === undefined) return expect(g.pbrMetallicRoughness?.baseColorTexture).toBeUndefined()
      const tex = json.textures[g.pbrMetallicRoughness.baseColorTexture.index]
      expect(json.images[tex.source].name).toBe(scene.textures[m.texture].name)
      const sampler = json.samplers[tex.sampler]
      const wrap = { repeat: 10497, clamp: 33071, mirror: 33648 }
      expect([sampler.wrapS ?? 10497, sampler.wrapT ?? 10497]).toEqual([wrap[scene.textures[m.texture].wrapS], wrap[scene.textures[m.texture].wrapT]])
      expect(g.alphaMode ?? 'OPAQUE').toBe(m.alphaMode)
      expect(g.doubleSided ?? false).toBe(m.doubleSided)
    })
  })

  it('is animated: one animation per clip, named, key times in seconds (last key = clip duration), all three interpolations', () => {
    expect(json.animations.map((a: { name: string }) => a.name)).toEqual(scene.animations.map((a) => a.name))
    const interps = new Set<string>()
    scene.animations.forEach((a, ai) => {
      const ga = json.animations[ai]
      let last = 0
      for (const s of ga.samplers) {
        interps.add(s.interpolation ?? 'LINEAR')
        last = Math.max(last, json.accessors[s.input].max[0])
        expect(json.accessors[s.input].min[0]).toBeGreaterThanOrEqual(0)
      }
      expect(last).toBeCloseTo(a.duration, 6)
      expect(ga.extras.modbench).toMatchObject({ version: 1, duration: a.duration, frameRate: a.frameRate })
    })
    expect(interps).toEqual(new Set(['STEP', 'LINEAR', 'CUBICSPLINE']))
  })

  it('documents the texture-swap track and the curves in extras', () => {
    let swaps = 0
    scene.animations.forEach((a, ai) => {
      const x = json.animations[ai].extras.modbench
      for (const [k, t] of (a.textureSwaps ?? []).entries()) {
        const g = x.textureSwaps[k]
        expect(g.material).toBe(t.material)
        expect(json.materials[g.material].name).toBe(scene.materials[t.material].name)
        expect(new Float32Array(g.times)).toEqual(t.times)
        expect(g.images.map((i: number) => json.images[i].name)).toEqual(Array.from(t.textures, (i) => scene.textures[i].name))
        swaps++
      }
    })
    expect(swaps).toBeGreaterThan(0)
    const curves = json.scenes[0].extras.modbench.curves
    expect(curves.map((c: { name: string }) => c.name)).toEqual(scene.curves.map((c) => c.name))
    scene.curves.forEach((c, i) => {
      expect(new Float32Array(curves[i].points)).toEqual(c.points)
      expect(curves[i].closed).toBe(c.closed ?? false)
      expect(curves[i].node).toBe(c.node ?? -1)
    })
  })

  it('joint world matrices equal the neutral scene’s at five times of every clip (≤ 1e-5)', () => {
    const n = compareJointWorlds(scene, doc, 'demo')
    expect(n).toBe((1 + scene.animations.length * 5) * 4 * 16)
  })

  it('the comparison notices a joint that moved by 1e-4 in the file', async () => {
    const moved = await readIo().readBinary(glb)
    const bone2 = moved.getRoot().listNodes().find((n) => n.getName() === 'bone2')!
    const [x, y, z] = bone2.getTranslation()
    bone2.setTranslation([x + 1e-4, y, z])
    expect(() => compareJointWorlds(scene, moved, 'moved')).toThrow(/joint bone2 element 12/)
  })

  it('my world matrices agree with gltf-transform’s own at rest', () => {
    const mine = worldOf(glbRest(doc))
    doc.getRoot().listNodes().forEach((n, i) => {
      const theirs = n.getWorldMatrix()
      for (let e = 0; e < 16; e++) expect(Math.abs(mine[i][e] - theirs[e])).toBeLessThan(1e-6)
    })
  })
})

// ------------------------------------------------------------------ 2. samples through the catalog

interface Row {
  id: number
  kind: string
  name: string
  source: string
  parent: number | null
}

describe('modbench export ID on the indexed samples', () => {
  let db = ''
  let rows: Row[] = []
  const kinds = sceneKinds()
  beforeAll(() => {
    db = path.join(dir, 'samples.db')
    const ix = spawn(['index', samples, '--db', db, '--json'])
    expect(ix.code, ix.err).toBe(0)
    expect(JSON.parse(ix.out).sources.every((s: { status: string }) => s.status === 'indexed')).toBe(true)
    const ls = spawn(['ls', '--db', db, '--json'])
    expect(ls.code, ls.err).toBe(0)
    rows = JSON.parse(ls.out)
  })

  it('the samples hold assets of scene-bearing kinds from both N64 games', () => {
    const present = new Set(rows.map((r) => r.kind).filter((k) => kinds.includes(k)))
    expect(present.has('snap-stage')).toBe(true)
    expect(present.has('stadium-model')).toBe(true)
  })

  it('every scene-bearing asset: its builder’s scene validates, the glb passes the validator, joint matrices match', async () => {
    const out = path.join(dir, 'all')
    let exported = 0
    let comparedSkinned = 0
    for (const r of rows.filter((x) => kinds.includes(x.kind))) {
      const catalog = openCatalog(db)
      let scene: Scene
      try {
        scene = (await buildAssetScene(catalog, r.id)).scene
      } finally {
        catalog.close()
      }
      expect(sceneProblems(scene), `${r.kind} ${r.id}`).toEqual([])
      const file = path.join(out, `${r.id}.glb`)
      const res = await cli(['export', String(r.id), '--db', db, '--out', file, '--json'])
      expect(res.code, `${r.kind} ${r.id}: ${res.err}`).toBe(0)
      expect(JSON.parse(res.out)).toMatchObject({ kind: r.kind, name: r.name, out: file, nodes: scene.nodes.length, animations: scene.animations.length })
      const glb = new Uint8Array(readFileSync(file))
      await validate(glb, `${r.kind} ${r.id} '${r.name}'`)
      const json = glbJson(glb)
      expect(json.nodes.slice(0, scene.nodes.length).map((n: { name: string }) => n.name)).toEqual(scene.nodes.map((n) => n.name))
      expect((json.animations ?? []).length).toBe(scene.animations.length)
      if (scene.skins.length) {
        compareJointWorlds(scene, await readIo().readBinary(glb), `${r.kind} ${r.id}`)
        comparedSkinned++
      }
      exported++
    }
    expect(exported).toBe(rows.filter((x) => kinds.includes(x.kind)).length)
    expect(comparedSkinned).toBeGreaterThan(0)
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([])
  }, 300_000)

  it('one asset of every scene kind through the real binary: exit 0 and a valid glb', async () => {
    for (const kind of new Set(rows.map((r) => r.kind).filter((k) => kinds.includes(k)))) {
      const r = rows.find((x) => x.kind === kind)!
      const file = path.join(dir, 'spawned', kind, 'x.glb') // parent folders do not exist yet: created
      const res = spawn(['export', String(r.id), '--db', db, '--out', file])
      expect(res.code, res.err).toBe(0)
      expect(res.out).toMatch(/wrote /)
      await validate(new Uint8Array(readFileSync(file)), `${kind} (spawned)`)
    }
  }, 120_000)

  it('asset kinds without a scene: exit 1 naming the asset and its kind, no file', async () => {
    const others = [...new Set(rows.map((r) => r.kind).filter((k) => !kinds.includes(k)))]
    expect(others.length).toBeGreaterThan(0)
    for (const kind of others) {
      const r = rows.find((x) => x.kind === kind)!
      const file = path.join(dir, 'none', `${r.id}.glb`)
      const res = await cli(['export', String(r.id), '--db', db, '--out', file])
      expect(res.code, kind).toBe(1)
      expect(res.err).toContain(`asset ${r.id}`)
      expect(res.err).toContain(kind)
      expect(res.err).toMatch(/no 3D scene/)
      expect(res.out).toBe('')
      expect(existsSync(file)).toBe(false)
    }
    const spawned = spawn(['export', String(rows.find((x) => x.kind === others[0])!.id), '--db', db, '--out', path.join(dir, 'none', 's.glb')])
    expect(spawned.code).toBe(1)
    expect(existsSync(path.join(dir, 'none', 's.glb'))).toBe(false)
  })

  it('a missing id → exit 1 with a clear message and no file (0 included)', async () => {
    const max = Math.max(...rows.map((r) => r.id))
    for (const id of [String(max + 1000), '0']) {
      const file = path.join(dir, `missing-${id}.glb`)
      const res = await cli(['export', id, '--db', db, '--out', file])
      expect(res.code).toBe(1)
      expect(res.err).toMatch(new RegExp(`no asset with id ${id}\\b`))
      expect(existsSync(file)).toBe(false)
    }
    const s = spawn(['export', String(max + 1), '--db', db, '--out', path.join(dir, 'm.glb')])
    expect(s.code).toBe(1)
  })

  it('usage errors → exit 2, no file', async () => {
    const file = path.join(dir, 'usage.glb')
    for (const argv of [
      ['export'],
      ['export', 'demo'],
      ['export', 'demo', '--out'],
      ['export', '--out', file],
      ['export', 'abc', '--out', file],
      ['export', '1.5', '--out', file, '--db', db],
      ['export', '1', '2', '--out', file, '--db', db],
      ['export', 'demo', '--out', file, '--bogus'],
    ]) {
      const res = await cli(argv)
      expect(res.code, argv.join(' ')).toBe(2)
      expect(res.err).toMatch(/Usage: modbench export/)
    }
    expect(spawn(['export', 'demo']).code).toBe(2)
    expect(existsSync(file)).toBe(false)
  })

  it('a missing catalog → exit 1, and export does not create one', async () => {
    const nodb = path.join(dir, 'nowhere', 'catalog.db')
    const res = await cli(['export', '1', '--db', nodb, '--out', path.join(dir, 'nodb.glb')])
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/no catalog at .*catalog\.db/)
    expect(existsSync(path.join(dir, 'nowhere'))).toBe(false)
    expect(existsSync(path.join(dir, 'nodb.glb'))).toBe(false)
  })

  it('atomic output: a failed export leaves an existing file as it was; a successful one replaces it whole', async () => {
    const file = path.join(dir, 'keep.glb')
    writeFileSync(file, 'old bytes')
    const nonScene = rows.find((r) => !kinds.includes(r.kind))!
    expect((await cli(['export', String(nonScene.id), '--db', db, '--out', file])).code).toBe(1)
    expect(readFileSync(file, 'utf8')).toBe('old bytes')
    const scene = rows.find((r) => kinds.includes(r.kind))!
    const refused = await cli(['export', String(scene.id), '--db', db, '--out', file])
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(/keep\.glb already exists; pass --force to replace it/)
    expect(readFileSync(file, 'utf8')).toBe('old bytes')
    expect((await cli(['export', String(scene.id), '--db', db, '--out', file, '--force'])).code).toBe(0)
    await validate(new Uint8Array(readFileSync(file)), 'replaced')
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('bad outputs: a folder, a path under a file, the catalog itself → exit 1, nothing written', async () => {
    const scene = rows.find((r) => kinds.includes(r.kind))!
    const folder = path.join(dir, 'a-folder')
    mkdirSync(folder)
    let res = await cli(['export', String(scene.id), '--db', db, '--out', folder])
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/is a folder/)
    expect(readdirSync(folder)).toEqual([])
    const blocker = path.join(dir, 'a-file')
    writeFileSync(blocker, 'x')
    res = await cli(['export', String(scene.id), '--db', db, '--out', path.join(blocker, 'x.glb')])
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/a file is in the way/)
    expect(readFileSync(blocker, 'utf8')).toBe('x')
    res = await cli(['export', String(scene.id), '--db', db, '--out', db, '--force'])
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/is an input of this command/)
    expect(readFileSync(db).subarray(0, 15).toString()).toBe('SQLite format 3')
    expect(spawn(['ls', '--db', db, '--json']).code).toBe(0)
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('a source changed or removed since indexing → exit 1 naming the file, no output', async () => {
    const own = path.join(dir, 'stale')
    mkdirSync(own)
    const rom = path.join(own, 'stadium.z64.gz')
    copyFileSync(path.join(samples, 'stadium-sample.z64.gz'), rom)
    const ownDb = path.join(own, 'c.db')
    expect(spawn(['index', rom, '--db', ownDb]).code).toBe(0)
    const model = (JSON.parse(spawn(['ls', '--db', ownDb, '--json', '--kind', 'stadium-model']).out) as Row[])[0]
    expect(model).toBeDefined()
    // Cut the image in half (still a valid gzip stream).
    const whole = gunzipSync(readFileSync(rom))
    writeFileSync(rom, gzipSync(whole.subarray(0, whole.length >> 1)))
    const out = path.join(own, 'out.glb')
    let res = await cli(['export', String(model.id), '--db', ownDb, '--out', out])
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/stadium\.z64\.gz/)
    expect(existsSync(out)).toBe(false)
    rmSync(rom)
    res = await cli(['export', String(model.id), '--db', ownDb, '--out', out])
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/stadium\.z64\.gz.*gone/)
    expect(readdirSync(own).filter((f) => f.endsWith('.glb') || f.endsWith('.tmp'))).toEqual([])
  })

  it('never overwrites the source file it reads (a copy of the Snap sample indexed on its own)', async () => {
    const own = path.join(dir, 'own')
    mkdirSync(own)
    const rom = path.join(own, 'snap.z64.gz')
    copyFileSync(path.join(samples, 'snap-sample.z64.gz'), rom)
    const before = sha(rom)
    const mtime = statSync(rom).mtimeMs
    const ownDb = path.join(own, 'c.db')
    expect(spawn(['index', rom, '--db', ownDb]).code).toBe(0)
    const ls = JSON.parse(spawn(['ls', '--db', ownDb, '--json', '--kind', 'snap-stage']).out) as Row[]
    expect(ls.length).toBeGreaterThan(0)
    const res = await cli(['export', String(ls[0].id), '--db', ownDb, '--out', rom, '--force'])
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/is a source file of the catalog/)
    expect(sha(rom)).toBe(before)
    expect(statSync(rom).mtimeMs).toBe(mtime)
  })
})
