import { describe, expect, it, beforeAll, afterAll } from 'vitest'
import { mkdtempSync, writeFileSync, readFileSync, existsSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { WebIO } from '@gltf-transform/core'
import { validateBytes } from 'gltf-validator'
import { unzipSync, strFromU8 } from 'fflate'
import { encode as encodePng } from 'fast-png'
import { cli as runCli, repoRoot } from '../../../helpers/cli'
import { readMotionFile, skeletonOf, writeMot, writeMotlist, motionsOf, sampleMot, boneHash } from '../../../../src-shared/formats/re'
import { buildTemplateMotlist } from '../../../fixtures/re/template'
import { fixtureSkeleton } from '../../../fixtures/re/skeleton'
import { splitGlb } from '../../../fixtures/scene/glb-container'

const cli = (...argv: string[]) => runCli(argv)

let dir: string
let template: string
const p = (name: string) => path.join(dir, name)
/** Files of the folder, temp files included (a failed write must leave none). */
const files = () => readdirSync(dir).sort()

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'modbench-regltf-'))
  template = p('template.motlist.663')
  writeFileSync(template, buildTemplateMotlist())
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))


describe('re export', () => {
  it('each animation carries the contract\'s extras.modbench = {motlist, index, motionId, name, frameCount, frameRate}', async () => {
    const r = await cli('re', 'export', template, '--out', p('extras.glb'))
    expect(r.code, r.stderr).toBe(0)
    const j = splitGlb(new Uint8Array(readFileSync(p('extras.glb')))).json
    const file = readMotionFile(new Uint8Array(readFileSync(template)))
    const motions = motionsOf(file).filter((m) => m.mot)
    expect(j.animations).toHaveLength(motions.length)
    motions.forEach((m, i) => {
      const mb = j.animations[i].extras.modbench
      expect({ motlist: mb.motlist, index: mb.index, motionId: mb.motionId, name: mb.name, frameCount: mb.frameCount, frameRate: mb.frameRate }).toEqual({
        motlist: file.kind === 'motlist' ? file.motlist.name : file.mot.name,
        index: m.index,
        motionId: m.id,
        name: m.mot!.name,
        frameCount: m.mot!.header.frameCount,
        frameRate: m.mot!.header.frameRate,
      })
    })
  })

  it('writes what Blender\'s importer needs for an armature with actions; the Khronos validator finds 0 errors', async () => {
    const r = await cli('re', 'export', template, '--out', p('all.glb'), '--json')
    expect(r.code, r.stderr).toBe(0)
    const glb = new Uint8Array(readFileSync(p('all.glb')))
    const report = await validateBytes(glb)
    expect(report.issues.numErrors).toBe(0)
    expect(report.issues.numWarnings).toBe(0)

    // Blender's importer (KhronosGroup/glTF-Blender-IO, io_import_scene_gltf2 `vnode.py`,
    // mark_bones_and_armas) makes one armature per entry of `skins` (used by a mesh or not): its
    // joints become bones, the armature sits at their deepest common ancestor (named after the
    // skin); each glTF animation becomes an action, its channels keyed to the joint bones by node.
    const j = splitGlb(glb).json
    const sk = skeletonOf(readMotionFile(new Uint8Array(readFileSync(template))))!
    // one node per bone, named after it
    const nodeOf = new Map<string, number>(j.nodes.map((n: any, i: number) => [n.name, i]))
    for (const b of sk) expect(nodeOf.has(b.name), b.name).toBe(true)
    // the skin's joints are exactly the bone nodes; the bone tree is the node tree
    expect(j.skins).toHaveLength(1)
    const joints: number[] = j.skins[0].joints
    expect(new Set(joints)).toEqual(new Set(sk.map((b) => nodeOf.get(b.name))))
    for (const b of sk) {
      const kids = (j.nodes[nodeOf.get(b.name)!].children ?? []).map((c: number) => j.nodes[c].name).sort()
      expect(kids, b.name).toEqual(sk.filter((c) => c.parent === b.index).map((c) => c.name).sort())
      // rest pose = the bone header's reference pose (float32), scale 1
      const n = j.nodes[nodeOf.get(b.name)!]
      expect(n.translation ?? [0, 0, 0]).toEqual(b.translation.map(Math.fround))
      ;(n.rotation ?? [0, 0, 0, 1]).forEach((v: number, k: number) => expect(v).toBeCloseTo(b.rotation[k]!, 6))
      expect(n.scale ?? [1, 1, 1]).toEqual([1, 1, 1])
    }
    // the skeleton root is in the scene; the skin names it
    expect(j.scenes[0].nodes).toContain(nodeOf.get('root'))
    expect(j.skins[0].skeleton).toBe(nodeOf.get('root'))
    // inverse bind matrices: MAT4 floats, one per joint, inverse of the rest world matrix
    // (world matrices from @gltf-transform's own node math)
    const ibmAcc = j.accessors[j.skins[0].inverseBindMatrices]
    expect([ibmAcc.type, ibmAcc.componentType, ibmAcc.count]).toEqual(['MAT4', 5126, joints.length])
    const doc = await new WebIO().readBinary(glb)
    const gNodes = doc.getRoot().listNodes()
    const ibm = doc.getRoot().listSkins()[0]!.getInverseBindMatrices()!
    joints.forEach((node, ji) => {
      const w = gNodes[node]!.getWorldMatrix()
      const inv = ibm.getElement(ji, [])
      for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 4; c++) {
          let s = 0
          for (let k = 0; k < 4; k++) s += inv[k * 4 + r]! * w[c * 4 + k]!
          expect(s).toBeCloseTo(r === c ? 1 : 0, 5)
        }
      }
    })
    // one animation per motion, named after its mot; channels target joints, one per node and path
    expect(j.animations.map((a: any) => a.name)).toEqual(['fixture_idle', 'fixture_idle [1]', 'fixture_wave'])
    for (const a of j.animations) {
      const seen = new Set<string>()
      for (const ch of a.channels) {
        expect(joints).toContain(ch.target.node)
        expect(['translation', 'rotation', 'scale']).toContain(ch.target.path)
        const key = `${ch.target.node}/${ch.target.path}`
        expect(seen.has(key)).toBe(false)
        seen.add(key)
        const s = a.samplers[ch.sampler]
        expect(s.interpolation).toBe('LINEAR')
        const input = j.accessors[s.input]
        // 30 frames at 60 fps: 31 keys from 0 to 0.5 s
        expect([input.count, input.min[0], input.max[0]]).toEqual([31, 0, 0.5])
        expect(j.accessors[s.output].count).toBe(31)
      }
    }
    expect(r.json().animations.map((a: any) => [a.index, a.id, a.frames, a.frameRate])).toEqual([[0, 155, 30, 60], [1, 160, 30, 60], [2, 162, 30, 60]])
  })

  it('the bundled samples (a motlist and a standalone mot) export with 0 validator errors', async () => {
    for (const f of ['sample.motlist.663', 'sample_walk.mot.613']) {
      const out = p(`${f}.glb`)
      const r = await cli('re', 'export', path.join(repoRoot, 'resources', 'samples', 're', f), '--out', out, '--json')
      expect(r.code, r.stderr).toBe(0)
      const report = await validateBytes(new Uint8Array(readFileSync(out)))
      expect(report.issues.numErrors, f).toBe(0)
      expect(r.json().animations.length).toBeGreaterThan(0)
    }
  })

  it('--motion I exports only that motion; its rotations are the file\'s quaternions at key frames', async () => {
    const r = await cli('re', 'export', template, '--out', p('one.glb'), '--motion', '2')
    expect(r.code, r.stderr).toBe(0)
    const doc = await new WebIO().readBinary(new Uint8Array(readFileSync(p('one.glb'))))
    const anims = doc.getRoot().listAnimations()
    expect(anims.map((a) => a.getName())).toEqual(['fixture_wave'])
    const f = readMotionFile(new Uint8Array(readFileSync(template)))
    const m = motionsOf(f)[2]!
    const want = sampleMot(m.mot!, m.skeleton, 10)
    for (const ch of anims[0]!.listChannels().filter((c) => c.getTargetPath() === 'rotation')) {
      const bone = ch.getTargetNode()!.getName()
      const q = ch.getSampler()!.getOutput()!.getElement(10, [])
      const w = want.find((b) => b.bone === bone)!.rotation
      const sign = q.reduce((s, v, k) => s + v * w[k]!, 0) < 0 ? -1 : 1
      q.forEach((v, k) => expect(v * sign).toBeCloseTo(w[k]!, 6))
    }
  })

  it('usage errors exit 2; a motion that does not exist or a non-finite key exits 1 and writes nothing', async () => {
    expect((await cli('re', 'export', template)).code).toBe(2)
    expect((await cli('re', 'export', template, '--out', p('x.glb'), '--motion', '-1')).code).toBe(2)
    expect((await cli('re', 'export', template, '--out', p('x.glb'), '--skeleton')).code).toBe(2)
    // a --skeleton that is not there: exit 1 naming it (tests/integration/contract-remesh.test.ts covers the mesh)
    const missing = await cli('re', 'export', template, '--out', p('x.glb'), '--skeleton', p('a.mesh.221108797'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('a.mesh.221108797: file not found')
    const before = files()
    let r = await cli('re', 'export', template, '--out', p('x.glb'), '--motion', '7')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/template\.motlist\.663: MotionIDs: motion 7 does not exist; the file has 3/)
    const sk = fixtureSkeleton()
    const nanMot = writeMot({ version: 613, name: 'bad', frameCount: 2, blending: -1, frameRate: 60, bones: sk, motSize: 'owner', clips: [{ boneIndex: 1, boneHash: boneHash('Hip'), translation: { channel: 'translation', compression: 0, frames: [0, 2], values: [0, 1, 0, 0, NaN, 0] } }] })
    writeFileSync(p('nan.motlist.663'), writeMotlist({ version: 663, name: 'bad', mots: [nanMot], entries: [{ mot: 0, motNumber: 1, type: 1 }] }))
    r = await cli('re', 'export', p('nan.motlist.663'), '--out', p('x.glb'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/nan\.motlist\.663: BoneClip \(bone 1\) translation track at 0x[0-9A-F]+: mot "bad": bone "Hip" translation key at frame 1 is NaN or infinite/)
    expect(files()).toEqual([...before, 'nan.motlist.663'].sort())
  })
})

describe('re import', () => {
  it('export → import gives the template version, the recorded ID and every frame within 1e-4', async () => {
    expect((await cli('re', 'export', template, '--out', p('rt.glb'))).code).toBe(0)
    const r = await cli('re', 'import', '--template', template, '--gltf', p('rt.glb'), '--animation', 'fixture_wave', '--out', p('wave'), '--json')
    expect(r.code, r.stderr).toBe(0)
    const j = r.json()
    expect(Object.keys(j)).toEqual(['out', 'motions', 'warnings'])
    expect(j.out).toBe(p('wave.motlist.663'))
    expect(j.motions.map((m: any) => [m.animation, m.mot, m.motionId, m.frameCount])).toEqual([['fixture_wave', 'fixture_wave', 162, 30]])
    expect(j.motions[0].maxError).toBeLessThan(1e-6)
    for (const t of j.motions[0].tracks) expect(Object.keys(t)).toEqual(['bone', 'channel', 'codec', 'compression', 'keys', 'maxError'])
    const orig = motionsOf(readMotionFile(new Uint8Array(readFileSync(template))))[2]!
    const back = motionsOf(readMotionFile(new Uint8Array(readFileSync(j.out))))[0]!
    expect(back.mot!.name).toBe('fixture_wave')
    for (let f = 0; f <= 30; f++) {
      const b = new Map(sampleMot(back.mot!, back.skeleton, f).map((x) => [x.bone, x]))
      for (const x of sampleMot(orig.mot!, orig.skeleton, f)) {
        const y = b.get(x.bone)!
        const sign = x.rotation.reduce((s, v, k) => s + v * y.rotation[k]!, 0) < 0 ? -1 : 1
        x.rotation.forEach((v, k) => expect(Math.abs(v - sign * y.rotation[k]!)).toBeLessThan(1e-4))
        x.translation.forEach((v, k) => expect(Math.abs(v - y.translation[k]!)).toBeLessThan(1e-4))
      }
    }
  })

  it('several animations: one mot each (NAME=MOT renames); none chosen is a usage error listing them', async () => {
    let r = await cli('re', 'import', '--template', template, '--gltf', p('rt.glb'), '--out', p('all'))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/holds 3 animations; choose with --animation \(repeatable\): "fixture_idle", "fixture_idle \[1\]", "fixture_wave"/)
    r = await cli('re', 'import', '--template', template, '--gltf', p('rt.glb'), '--animation', 'fixture_wave', '--animation', 'fixture_idle [1]=idle_b', '--out', p('two'), '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().motions.map((m: any) => [m.animation, m.mot, m.motionId])).toEqual([['fixture_wave', 'fixture_wave', 162], ['fixture_idle [1]', 'idle_b', 1]])
    const ml = readMotionFile(new Uint8Array(readFileSync(p('two.motlist.663'))))
    expect(motionsOf(ml).map((m) => [m.id, m.mot!.name])).toEqual([[162, 'fixture_wave'], [1, 'idle_b']])
  })

  it('--into ORIGINAL replaces the mot named after the animation, keeps the rest byte for byte; --into with --template or --id is a usage error', async () => {
    const r = await cli('re', 'import', '--gltf', p('rt.glb'), '--into', template, '--animation', 'fixture_wave', '--out', p('into'), '--json')
    expect(r.code, r.stderr).toBe(0)
    const j = r.json()
    expect(j.out).toBe(p('into.motlist.663'))
    expect(j.motions.map((m: any) => [m.animation, m.mot, m.motionId, m.frameCount])).toEqual([['fixture_wave', 'fixture_wave', 162, 30]])
    const orig = readMotionFile(new Uint8Array(readFileSync(template)))
    const back = readMotionFile(new Uint8Array(readFileSync(j.out)))
    expect(motionsOf(back).map((m) => [m.id, m.mot!.name])).toEqual(motionsOf(orig).map((m) => [m.id, m.mot!.name]))
    expect((await cli('re', 'import', '--gltf', p('rt.glb'), '--into', template, '--template', template, '--out', p('x'))).code).toBe(2)
    expect((await cli('re', 'import', '--gltf', p('rt.glb'), '--into', template, '--id', '3', '--out', p('x'))).code).toBe(2)
  })

  it('bad input exits 1 naming the file and the structure, and writes no output', async () => {
    const glb = new Uint8Array(readFileSync(p('rt.glb')))
    writeFileSync(p('cut.glb'), glb.subarray(0, glb.length - 100))
    const before = files()
    let r = await cli('re', 'import', '--template', template, '--gltf', p('cut.glb'), '--out', p('out1'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/cut\.glb: GLB header\.length at 0x8: truncated GLB/)

    // a glTF with nodes but no animation
    const noAnim = await new WebIO().readBinary(glb)
    for (const a of noAnim.getRoot().listAnimations()) a.dispose()
    writeFileSync(p('still.glb'), await new WebIO().writeBinary(noAnim))
    r = await cli('re', 'import', '--template', template, '--gltf', p('still.glb'), '--out', p('out2'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/still\.glb: animations: the glTF holds no animation/)

    // a NaN key
    const nan = await new WebIO().readBinary(glb)
    const out = nan.getRoot().listAnimations()[0]!.listChannels()[3]!.getSampler()!.getOutput()!
    out.setElement(5, out.getElement(5, []).map(() => NaN))
    writeFileSync(p('nan.glb'), await new WebIO().writeBinary(nan))
    r = await cli('re', 'import', '--template', template, '--gltf', p('nan.glb'), '--out', p('out4'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/nan\.glb: animations\[0\] "fixture_idle" channels\[3\] \(\w+ of node "\w+"\): key 5: value is NaN or infinite/)

    // a template without a skeleton
    writeFileSync(p('nobones.mot.613'), writeMot({ version: 613, name: 'x', frameCount: 1, blending: -1, frameRate: 60, bones: [], clips: [], motSize: 'end' }))
    r = await cli('re', 'import', '--template', p('nobones.mot.613'), '--gltf', p('rt.glb'), '--out', p('out3'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/nobones\.mot\.613: BoneHeaders: the template has no skeleton/)
    expect(files()).toEqual([...before, 'nan.glb', 'nobones.mot.613', 'still.glb'].sort())
    expect((await cli('re', 'import', '--template', template, '--out', p('o'))).code).toBe(2)
  })
})

describe('re pack-mod', () => {
  const png = () => encodePng({ width: 2, height: 1, data: new Uint8Array([255, 0, 0, 255, 0, 0, 255, 255]), channels: 4 })

  it('writes modinfo.ini, the screenshot and the file at its natives/ path', async () => {
    writeFileSync(p('shot.png'), png())
    const r = await cli('re', 'pack-mod', '--file', template, '--game-path', 'natives\\stm\\_chainsaw\\animation\\pose\\', '--name', 'Arms down', '--author', 'me', '--version', '2.1', '--description', 'a pose\nfor Leon', '--screenshot', p('shot.png'), '--out', p('mod.zip'), '--json')
    expect(r.code, r.stderr).toBe(0)
    const zip = unzipSync(new Uint8Array(readFileSync(p('mod.zip'))))
    const game = 'natives/stm/_chainsaw/animation/pose/template.motlist.663'
    expect(Object.keys(zip).sort()).toEqual(['modinfo.ini', game, 'screenshot.png'].sort())
    expect(strFromU8(zip['modinfo.ini']!)).toBe('name=Arms down\r\nversion=2.1\r\ndescription=a pose\\nfor Leon\r\nauthor=me\r\nscreenshot=screenshot.png\r\n')
    expect(Buffer.from(zip[game]!).equals(readFileSync(template))).toBe(true)
    expect(Buffer.from(zip['screenshot.png']!).equals(readFileSync(p('shot.png')))).toBe(true)
    expect(r.json().gamePath).toBe(game)
  })

  it('a path outside natives/ or with .. is a usage error; an existing OUT is refused; nothing is written', async () => {
    const before = files()
    for (const gp of ['stm/x.motlist.663', '../natives/stm/x.motlist.663', 'natives/stm/../../x.motlist.663', '/natives/stm/x', 'natives//x']) {
      const r = await cli('re', 'pack-mod', '--file', template, '--game-path', gp, '--name', 'n', '--out', p('bad.zip'))
      expect(r.code, gp).toBe(2)
      expect(r.stderr).toMatch(/--game-path/)
    }
    const old = readFileSync(p('mod.zip'))
    let r = await cli('re', 'pack-mod', '--file', template, '--game-path', 'natives/stm/a.motlist.663', '--name', 'n', '--out', p('mod.zip'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/mod\.zip already exists; pass --force to replace it/)
    expect(readFileSync(p('mod.zip')).equals(old)).toBe(true)
    r = await cli('re', 'pack-mod', '--file', template, '--game-path', 'natives/stm/a.motlist.663', '--name', 'n', '--screenshot', template, '--out', p('bad.zip'))
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/template\.motlist\.663: PNG signature at 0x0: the screenshot is not a PNG/)
    expect(files()).toEqual(before)
    expect(existsSync(p('bad.zip'))).toBe(false)
  })
})
