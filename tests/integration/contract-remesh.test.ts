/**
 * Contract tests of the `.mesh` commands (CLI.md "RE Engine motions": `re mesh`, `re export
 * --skeleton`, `re import --skeleton`, `re pose2motlist --skeleton`; spec re-motlist §15) on
 * synthetic meshes of three versions (RE2 non-RT `.mesh.1808312334` layout A, RE2/RE3 RT
 * `.mesh.2109108288` layout B, RE4R `.mesh.221108797` layout C) and a motlist laid out as the game
 * ships them (no bone headers). Expected numbers are the builders' inputs (bone TRS, strip sizes)
 * and spec §6 / §10.1 vectors, computed here; the glb is read by hand (tests/helpers/glb.ts) and by
 * the Khronos validator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { validateBytes } from 'gltf-validator'
import { cli, spawnCli } from '../helpers/cli'
import { glbFloats, glbJson } from '../helpers/glb'
import { characterBones, characterMesh, type MeshFixtureLayout } from '../fixtures/re/mesh'
import { buildGameMotlist } from '../fixtures/re/game-motlist'
import { buildTemplateMotlist } from '../fixtures/re/template'
import { buildFbxSkel } from '../fixtures/re/fbxskel'

/** spec §6 and §10.11 hashes of the fixture character's bone names. */
const HASH: Record<string, number> = { root: 2879905340, COG: 3425867754, Hip: 1549972489, Spine_0: 3992101857, Head: 935285574, L_Forearm: 581854075, l_arm_wrist: 0xeb6aaf75, R_Toe: 829768755 }
const NAMES = ['root', 'COG', 'Hip', 'Spine_0', 'Head', 'L_Forearm', 'l_arm_wrist', 'R_Toe']
const PARENTS = [null, 'root', 'COG', 'COG', 'Spine_0', 'Spine_0', 'L_Forearm', 'Hip']
const VERSIONS: { layout: MeshFixtureLayout; suffix: number }[] = [
  { layout: 'A', suffix: 1808312334 },
  { layout: 'B', suffix: 2109108288 },
  { layout: 'C', suffix: 221108797 },
]

let dir: string
const meshPath = (suffix: number) => path.join(dir, `pl0000.mesh.${suffix}`)
let game: string
let gameBytes: Uint8Array
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex')

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'contract-remesh-'))
  for (const v of VERSIONS) writeFileSync(meshPath(v.suffix), characterMesh(v.layout))
  writeFileSync(path.join(dir, 'pl0000.mesh.2109148288'), characterMesh('B'))
  gameBytes = buildGameMotlist()
  game = path.join(dir, 'game.motlist.663')
  writeFileSync(game, gameBytes)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('re mesh FILE.mesh.* --json', () => {
  for (const v of VERSIONS) {
    it(`.mesh.${v.suffix} (layout ${v.layout}): the CLI.md keys and the values built in`, async () => {
      const r = await cli(['re', 'mesh', meshPath(v.suffix), '--json'])
      expect(r.code, r.stderr).toBe(0)
      const j = r.json()
      expect(Object.keys(j)).toEqual(['version', 'bones', 'materials', 'lods'])
      expect(j.version).toBe(v.suffix)
      expect(j.bones.map((b: { name: string }) => b.name)).toEqual(NAMES)
      for (const b of j.bones) expect(Object.keys(b)).toEqual(['index', 'name', 'hash', 'parent', 'translation', 'rotation', 'scale'])
      expect(j.bones.map((b: { hash: number }) => b.hash)).toEqual(NAMES.map((n) => HASH[n]))
      expect(j.bones.map((b: { parent: string | null }) => b.parent)).toEqual(PARENTS)
      expect(j.bones.map((b: { index: number }) => b.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
      // L_Forearm: T (0.3, 0.4, 0), 0.5 rad about −Z → (0, 0, −sin 0.25, cos 0.25)
      const fa = j.bones[5]
      fa.translation.forEach((x: number, k: number) => expect(x).toBeCloseTo([0.3, 0.4, 0][k]!, 6))
      fa.rotation.forEach((x: number, k: number) => expect(x).toBeCloseTo([0, 0, -Math.sin(0.25), Math.cos(0.25)][k]!, 6))
      fa.scale.forEach((x: number) => expect(x).toBeCloseTo(1, 6))
      expect(j.materials).toEqual(['body_mat', 'head_mat'])
      // strips: 8 vertices → 6 triangles, 6 → 4, 4 → 2; 8 weight slots in every version
      expect(j.lods).toEqual([
        { meshes: [{ material: 'body_mat', vertices: 8, triangles: 6, weights: 8 }, { material: 'head_mat', vertices: 6, triangles: 4, weights: 8 }] },
        { meshes: [{ material: 'body_mat', vertices: 4, triangles: 2, weights: 8 }] },
      ])
    })
  }

  it('bad meshes: exit 1 naming the file, the structure and the offset; the file is not modified', async () => {
    const good = characterMesh('C')
    const cases: [string, Uint8Array, RegExp][] = [
      ['short.mesh.221108797', good.slice(0, 0x30), /MeshHeader at 0x20: MeshHeader\.lodHeaderOffset: offset 0x[0-9A-F]+ is beyond the end/],
      ['magic.mesh.221108797', Uint8Array.from(good, (b, i) => (i === 1 ? 0 : b)), /MeshHeader\.magic at 0x0: not an RE Engine mesh/],
      ['cut.mesh.221108797', good.slice(0, good.length - 40), /MeshBuffer at 0x[0-9A-F]+: MeshBuffer\.indexBufferSize/],
      ['sf6.mesh.230110883', good, /MeshHeader\.version at 0x4: .*SF6/],
    ]
    for (const [name, bytes, re] of cases) {
      const p = path.join(dir, name)
      writeFileSync(p, bytes)
      const before = sha(p)
      const r = await spawnCli(['re', 'mesh', p, '--json'])
      expect(r.code, `${name}: ${r.stderr}`).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(p)
      expect(r.stderr, name).toMatch(re)
      expect(sha(p)).toBe(before)
    }
  })
})

describe('re export FILE --skeleton SKEL', () => {
  it('a motlist without bone headers and no --skeleton: exit 1 naming --skeleton, nothing written', async () => {
    const out = path.join(dir, 'none.glb')
    const r = await spawnCli(['re', 'export', game, '--out', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('--skeleton')
    expect(r.stderr).toContain(game)
    expect(existsSync(out)).toBe(false)
  })

  for (const v of VERSIONS) {
    it(`with .mesh.${v.suffix}: bone nodes, LOD 0 skinned over them, one material per name, tracks by hash`, async () => {
      const out = path.join(dir, `game-${v.layout}.glb`)
      const before = [sha(game), sha(meshPath(v.suffix))]
      const r = await cli(['re', 'export', game, '--skeleton', meshPath(v.suffix), '--out', out, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect([sha(game), sha(meshPath(v.suffix))]).toEqual(before)
      const glb = new Uint8Array(readFileSync(out))
      const report = await validateBytes(glb, { maxIssues: 100 })
      expect(report.issues.numErrors, JSON.stringify(report.issues.messages.slice(0, 5))).toBe(0)
      const j = glbJson(glb)
      const nodeOf = (n: string) => j.nodes.findIndex((x: { name: string }) => x.name === n)
      for (const [i, n] of NAMES.entries()) {
        expect(nodeOf(n), n).toBeGreaterThanOrEqual(0)
        const parent = j.nodes.findIndex((x: { children?: number[] }) => x.children?.includes(nodeOf(n)))
        expect(parent < 0 ? null : j.nodes[parent].name, n).toBe(PARENTS[i])
      }
      expect(j.meshes).toHaveLength(1)
      expect(j.meshes[0].primitives).toHaveLength(2) // LOD 0: two submeshes
      expect(j.materials.map((m: { name: string }) => m.name)).toEqual(['body_mat', 'head_mat'])
      expect(j.materials.every((m: { pbrMetallicRoughness?: { baseColorTexture?: unknown } }) => !m.pbrMetallicRoughness?.baseColorTexture)).toBe(true)
      const prim = j.meshes[0].primitives
      expect(prim.map((p: { material: number }) => j.materials[p.material].name)).toEqual(['body_mat', 'head_mat'])
      expect(prim.map((p: { attributes: { POSITION: number } }) => j.accessors[p.attributes.POSITION].count)).toEqual([8, 6])
      expect(prim.map((p: { indices: number }) => j.accessors[p.indices].count)).toEqual([18, 12])
      // the mesh node's skin lists the bone nodes in mesh bone order
      const meshNode = j.nodes.find((n: { mesh?: number }) => n.mesh === 0)
      const skin = j.skins[meshNode.skin]
      expect(skin.joints.map((k: number) => j.nodes[k].name)).toEqual(NAMES)
      // its inverse bind matrices are the mesh's: COG world = T(0,1,0)·Ry(0.2) → inverse translation
      const ibm = glbFloats(glb, skin.inverseBindMatrices)
      const cog = ibm.slice(16, 32)
      expect(cog[12]).toBeCloseTo(0, 5)
      expect(cog[13]).toBeCloseTo(-1, 5)
      expect(cog[0]).toBeCloseTo(Math.cos(0.2), 5)
      // vertex 0 of the first primitive: weight 1 on remap[0] = COG (skin joint 1)
      const w = glbFloats(glb, prim[0].attributes.WEIGHTS_0).slice(0, 4)
      expect(w).toEqual([1, 0, 0, 0])
      // both motions, each animating every bone (the clips name them by hash only)
      expect(j.animations.map((a: { name: string }) => a.name)).toEqual(['game_motion_0', 'game_motion_1'])
      const targets = new Set(j.animations[0].channels.map((c: { target: { node: number } }) => j.nodes[c.target.node].name))
      expect([...targets].sort()).toEqual([...NAMES].sort())
      expect(r.json().mesh).toEqual({ primitives: 2, materials: 2 })
    })
  }

  it('the sampled rotations are the motlist\'s (re sample, matched by hash)', async () => {
    const out = path.join(dir, 'sampled.glb')
    expect((await cli(['re', 'export', game, '--skeleton', meshPath(221108797), '--out', out, '--motion', '1'])).code).toBe(0)
    const s = await cli(['re', 'sample', game, '--motion', '1', '--frame', '10', '--json'])
    expect(s.code, s.stderr).toBe(0)
    const head = s.json().find((b: { hash: number }) => b.hash === HASH.Head)
    const glb = new Uint8Array(readFileSync(out))
    const j = glbJson(glb)
    const ch = j.animations[0].channels.find((c: { target: { node: number; path: string } }) => j.nodes[c.target.node].name === 'Head' && c.target.path === 'rotation')
    const values = glbFloats(glb, j.animations[0].samplers[ch.sampler].output)
    const q = values.slice(40, 44)
    const sign = Math.sign(q[3]! * head.rotation[3]) || 1
    q.forEach((x, k) => expect(x * sign).toBeCloseTo(head.rotation[k], 5))
  })

  it('--no-mesh: the skeleton and motions only', async () => {
    const out = path.join(dir, 'nomesh.glb')
    const r = await cli(['re', 'export', game, '--skeleton', meshPath(1808312334), '--no-mesh', '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const j = glbJson(new Uint8Array(readFileSync(out)))
    expect(j.meshes ?? []).toHaveLength(0)
    expect(j.nodes.map((n: { name: string }) => n.name)).toEqual(expect.arrayContaining(NAMES))
    expect(r.json().mesh).toBeNull()
  })

  it('an .fbxskel as SKEL (both record layouts): the mesh\'s bones, parents and reference pose, no mesh', async () => {
    const viaMesh = path.join(dir, 'via-mesh.glb')
    expect((await cli(['re', 'export', game, '--skeleton', meshPath(221108797), '--no-mesh', '--out', viaMesh])).code).toBe(0)
    const want = glbJson(new Uint8Array(readFileSync(viaMesh)))
    const bones = characterBones()
    for (const [layout, suffix] of [[5, 7], [4, 3]] as const) {
      const skel = path.join(dir, `pl0000.fbxskel.${suffix}`)
      writeFileSync(skel, buildFbxSkel(bones, { layout }))
      const out = path.join(dir, `fbxskel${suffix}.glb`)
      const r = await cli(['re', 'export', game, '--skeleton', skel, '--out', out, '--json'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.json()).toMatchObject({ bones: 8, mesh: null })
      const j = glbJson(new Uint8Array(readFileSync(out)))
      const byName = (json: typeof j, n: string) => json.nodes.find((x: { name: string }) => x.name === n)
      for (const n of NAMES) {
        const a = byName(j, n), b = byName(want, n)
        ;(a.translation ?? [0, 0, 0]).forEach((v: number, k: number) => expect(v, `${n} t`).toBeCloseTo((b.translation ?? [0, 0, 0])[k], 5))
        ;(a.rotation ?? [0, 0, 0, 1]).forEach((v: number, k: number) => expect(v, `${n} r`).toBeCloseTo((b.rotation ?? [0, 0, 0, 1])[k], 5))
        expect((a.children ?? []).map((c: number) => j.nodes[c].name).sort(), n).toEqual((b.children ?? []).map((c: number) => want.nodes[c].name).sort())
      }
      expect(j.animations.map((a: { name: string }) => a.name)).toEqual(want.animations.map((a: { name: string }) => a.name))
    }
    // pose2motlist takes it too: every bone gets a track, no bone headers
    const pose = path.join(dir, 'fbx-pose.json')
    writeFileSync(pose, JSON.stringify({ tilt: { Head: { _LocalEulerAngle: 'vec:0.3 0.5 0.7' } } }))
    const out = path.join(dir, 'fbx-pose')
    const r = await cli(['re', 'pose2motlist', '--template', game, '--pose', pose, '--skeleton', path.join(dir, 'pl0000.fbxskel.7'), '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({ bones: 8, posed: 1, unknownBones: [] })
  })

  it('a damaged .fbxskel as SKEL: exit 1 naming it, the structure and the offset; nothing written', async () => {
    const bad = path.join(dir, 'cut.fbxskel.7')
    writeFileSync(bad, buildFbxSkel(characterBones()).slice(0, 0x60))
    const out = path.join(dir, 'cut.glb')
    const r = await spawnCli(['re', 'export', game, '--skeleton', bad, '--out', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(bad)
    expect(r.stderr).toMatch(/FbxSkel header at 0x10: 8 bones of 64 bytes at boneOffset 0x30 do not fit/)
    expect(existsSync(out)).toBe(false)
  })

  it('a motlist with bone headers as SKEL', async () => {
    const skel = path.join(dir, 'skel.motlist.663')
    writeFileSync(skel, buildTemplateMotlist())
    const out = path.join(dir, 'skel.glb')
    // the fixture template's 40 bones share root/Hip/Spine_0/Head/L_Forearm/R_Toe with the clips
    const r = await cli(['re', 'export', game, '--skeleton', skel, '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().bones).toBe(40)
    expect(r.json().mesh).toBeNull()
    // COG and l_arm_wrist are not in that skeleton: their clips are reported
    expect(r.stderr).toMatch(/match no bone/)
  })

  it('a motlist with its own bone headers and a mesh: the headers stay, the mesh bones it lacks are added, the mesh skinned', async () => {
    const tmpl = path.join(dir, 'own.motlist.663')
    writeFileSync(tmpl, buildTemplateMotlist())
    const out = path.join(dir, 'own.glb')
    const r = await cli(['re', 'export', tmpl, '--skeleton', meshPath(221108797), '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    // 40 fixture bones + COG and l_arm_wrist (the mesh bones whose hash the headers lack)
    expect(r.json().bones).toBe(42)
    expect(r.json().mesh).toEqual({ primitives: 2, materials: 2 })
    const glb = new Uint8Array(readFileSync(out))
    expect((await validateBytes(glb, { maxIssues: 100 })).issues.numErrors).toBe(0)
    const j = glbJson(glb)
    const skin = j.skins[j.nodes.find((n: { mesh?: number }) => n.mesh === 0).skin]
    expect(skin.joints.map((k: number) => j.nodes[k].name)).toEqual(NAMES)
    // the file's Hip keeps its own parent (root), the added COG hangs under root as in the mesh
    const parentOf = (name: string) => j.nodes.find((x: { children?: number[] }) => x.children?.some((c) => j.nodes[c].name === name))?.name ?? null
    expect(parentOf('Hip')).toBe('root')
    expect(parentOf('COG')).toBe('root')
    expect(parentOf('l_arm_wrist')).toBe('L_Forearm')
  })

  it('a bad --skeleton: exit 1 naming the mesh, nothing written, inputs unchanged', async () => {
    const bad = path.join(dir, 'bad.mesh.221108797')
    writeFileSync(bad, characterMesh('C').slice(0, 0x200))
    const out = path.join(dir, 'bad.glb')
    const before = sha(bad)
    const r = await spawnCli(['re', 'export', game, '--skeleton', bad, '--out', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(bad)
    expect(r.stderr).toMatch(/ at 0x[0-9A-F]+/)
    expect(existsSync(out)).toBe(false)
    expect(sha(bad)).toBe(before)
  })
})

describe('re import / re pose2motlist on a motlist without bone headers', () => {
  it('re import: exit 1 naming --skeleton without it; with a mesh the output has no bone headers and the motion comes back', async () => {
    const glbPath = path.join(dir, 'rt.glb')
    expect((await cli(['re', 'export', game, '--skeleton', meshPath(2109108288), '--out', glbPath, '--motion', '0'])).code).toBe(0)
    const out = path.join(dir, 'rt-out')
    const no = await spawnCli(['re', 'import', '--template', game, '--gltf', glbPath, '--out', out])
    expect(no.code).toBe(1)
    expect(no.stderr).toContain('--skeleton')
    expect(existsSync(`${out}.motlist.663`)).toBe(false)
    const before = [sha(game), sha(glbPath), sha(meshPath(2109108288))]
    const r = await cli(['re', 'import', '--template', game, '--gltf', glbPath, '--skeleton', meshPath(2109108288), '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect([sha(game), sha(glbPath), sha(meshPath(2109108288))]).toEqual(before)
    const info = (await cli(['re', 'info', `${out}.motlist.663`, '--json'])).json()
    expect(info.motions[0].bones).toEqual([]) // the template's layout: no bone headers
    expect(info.motions[0].id).toBe(100)
    for (const frame of ['0', '7', '30']) {
      const a = (await cli(['re', 'sample', game, '--motion', '0', '--frame', frame, '--json'])).json()
      const b = (await cli(['re', 'sample', `${out}.motlist.663`, '--motion', '0', '--frame', frame, '--json'])).json()
      for (const x of a) {
        const y = b.find((z: { hash: number }) => z.hash === x.hash)
        expect(y, `hash ${x.hash}`).toBeDefined()
        const sign = Math.sign(x.rotation[3] * y.rotation[3]) || 1
        x.rotation.forEach((v: number, k: number) => expect(y.rotation[k] * sign).toBeCloseTo(v, 4))
        x.translation.forEach((v: number, k: number) => expect(y.translation[k]).toBeCloseTo(v, 4))
      }
    }
  })

  it('re pose2motlist: exit 1 naming --skeleton without it; with a mesh every mesh bone gets a track, no bone headers', async () => {
    const pose = path.join(dir, 'pose.json')
    // spec §10.1: EMV (0.3, 0.5, 0.7) → (0.2199, 0.1801, 0.2938, 0.9126) with R = Ry·Rx·Rz
    writeFileSync(pose, JSON.stringify({ tilt: { Head: { _LocalEulerAngle: 'vec:0.3 0.5 0.7' } } }))
    const out = path.join(dir, 'pose-out')
    const no = await spawnCli(['re', 'pose2motlist', '--template', game, '--pose', pose, '--out', out])
    expect(no.code).toBe(1)
    expect(no.stderr).toContain('--skeleton')
    expect(existsSync(`${out}.motlist.663`)).toBe(false)
    const r = await cli(['re', 'pose2motlist', '--template', game, '--pose', pose, '--skeleton', meshPath(221108797), '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({ bones: 8, posed: 1, unknownBones: [] })
    const info = (await cli(['re', 'info', `${out}.motlist.663`, '--json'])).json()
    expect(info.motions[0].bones).toEqual([])
    expect(new Set(info.motions[0].tracks.map((t: { hash: number }) => t.hash))).toEqual(new Set(Object.values(HASH)))
    const s = (await cli(['re', 'sample', `${out}.motlist.663`, '--motion', '0', '--frame', '0', '--json'])).json()
    const head = s.find((b: { hash: number }) => b.hash === HASH.Head)
    head.rotation.forEach((v: number, k: number) => expect(v).toBeCloseTo([0.2199, 0.1801, 0.2938, 0.9126][k]!, 4))
    // an untouched bone keeps the mesh's reference rotation: COG = 0.2 rad about Y
    const cog = s.find((b: { hash: number }) => b.hash === HASH.COG)
    cog.rotation.forEach((v: number, k: number) => expect(v).toBeCloseTo([0, Math.sin(0.1), 0, Math.cos(0.1)][k]!, 5))
  })
})

