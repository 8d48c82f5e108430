import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { Services } from '../../../../src-main/services/index'
import { readMotlist, readMotionFile, motionsOf, sampleMot, eulerToQuat, quatAngle, parseEmvPoses, type Quat } from '../../../../src-shared/formats/re'
import { buildTemplateMotlist } from '../../../fixtures/re/template'
import { fixtureSkeleton } from '../../../fixtures/re/skeleton'
import { twoPoseFile } from '../../../fixtures/re/poses'
import { unzipSync, strFromU8 } from 'fflate'
import { guessGamePath } from '../../../../src-main/domains/re/gltf-services'
import { sampleChannel } from '../../../../src-shared/scene/sample'
import { encode as encodePng } from 'fast-png'

let dir: string
let cat: Catalog
let svc: Services
let template: string

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-re-svc-'))
  cat = openCatalog(path.join(dir, 'c.sqlite'))
  svc = new Services(cat)
  template = path.join(dir, 'tmpl.motlist.663')
  fs.writeFileSync(template, buildTemplateMotlist())
  fs.writeFileSync(path.join(dir, 'poses.json'), twoPoseFile())
  svc.ctx.grantPath(dir)
})
afterEach(() => {
  svc.dispose()
  cat.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('re services', () => {
  it('re:openTemplate gives the skeleton (typed arrays) and motions', async () => {
    const t = await svc.invoke('re:openTemplate', { path: template })
    expect(t).toMatchObject({ kind: 'motlist', version: 663, motlistVersion: 663, name: 'fixture_template' })
    const sk = fixtureSkeleton()
    expect(t.skeleton.names).toEqual(sk.map((b) => b.name))
    expect(t.skeleton.parents).toBeInstanceOf(Int32Array)
    expect([...t.skeleton.parents]).toEqual(sk.map((b) => b.parent))
    expect(t.skeleton.rotations).toBeInstanceOf(Float64Array)
    const q = Array.from(t.skeleton.rotations.subarray(4 * 13, 4 * 14)) as Quat
    expect(quatAngle(q, sk[13]!.rotation)).toBeLessThan(1e-6)
    expect(t.motions.map((m) => m.id)).toEqual([155, 160, 162])
  })

  it('re:sampleMotion fills every bone (reference where not animated)', async () => {
    const r = await svc.invoke('re:sampleMotion', { path: template, motion: 2, frame: 4 })
    expect(r.rotations.length).toBe(40 * 4)
    expect([...r.animated].filter(Boolean).length).toBe(20)
    const sk = fixtureSkeleton()
    const i = r.animated.indexOf(0)
    expect(quatAngle(Array.from(r.rotations.subarray(i * 4, i * 4 + 4)) as Quat, sk[i]!.rotation)).toBeLessThan(1e-6)
  })

  it('re:motionScene: one motion as the skeleton scene, its clip at frame 4 equals re:sampleMotion', async () => {
    const r = await svc.invoke('re:motionScene', { path: template, motion: 2 })
    expect(r.scene.nodes).toHaveLength(40)
    expect(r.boneNodes).toHaveLength(40)
    expect(r.scene.animations).toHaveLength(1)
    const a = r.scene.animations[0]!
    const s = await svc.invoke('re:sampleMotion', { path: template, motion: 2, frame: 4 })
    let checked = 0
    for (const ch of a.channels) {
      if (ch.path !== 'rotation') continue
      const bone = r.boneNodes.indexOf(ch.node)
      const q = sampleChannel(ch, 4 / a.frameRate) as Quat
      expect(quatAngle(q, Array.from(s.rotations.subarray(bone * 4, bone * 4 + 4)) as Quat)).toBeLessThan(1e-5)
      checked++
    }
    expect(checked).toBeGreaterThan(0)
    await expect(svc.invoke('re:motionScene', { path: template, motion: 9 })).rejects.toThrow(/motion 9/)
  })

  it('re:openPose, re:savePose (read back), re:lastFolder, re:exportPose', async () => {
    const poses = await svc.invoke('re:openPose', { path: path.join(dir, 'poses.json') })
    expect(poses.poses.map((p) => p.name)).toEqual(['ArmsDown', 'Sit'])
    const q = eulerToQuat([0.2, 0.6, -0.1])
    const res = await svc.invoke('re:savePose', {
      template,
      out: path.join(dir, 'saved', 'mypose'),
      pose: { name: 'MyPose', bones: ['Head', 'Nope'], rotations: Float64Array.from([...q, 0, 0, 0, 1]) },
      motNumber: 5,
    })
    expect(res.path).toBe(path.join(dir, 'saved', 'mypose.motlist.663'))
    expect(res.unknownBones).toEqual(['Nope'])
    const ml = readMotlist(new Uint8Array(fs.readFileSync(res.path)))
    expect(ml.entries[0]!.motNumber).toBe(5)
    const head = sampleMot(ml.mots[0]!, ml.skeleton, 0).find((b) => b.bone === 'Head')!
    head.rotation.forEach((v, k) => expect(Math.abs(v - q[k]!)).toBeLessThan(1e-6))
    expect((await svc.invoke('re:lastFolder', {})).folder).toBe(path.join(dir, 'saved'))

    const ex = await svc.invoke('re:exportPose', { out: path.join(dir, 'saved', 'exported'), poses: [{ name: 'MyPose', bones: ['Head'], rotations: Float64Array.from(q) }] })
    expect(ex.path.endsWith('exported.json')).toBe(true)
    const [p] = parseEmvPoses(fs.readFileSync(ex.path, 'utf8'))
    expect(quatAngle(eulerToQuat(p!.joints[0]!.euler!), q)).toBeLessThan(1e-9)
  })

  it('refuses paths the user did not choose', async () => {
    await expect(svc.invoke('re:openTemplate', { path: '/etc/passwd' })).rejects.toThrow()
    await expect(svc.invoke('re:openPose', { path: path.join(os.tmpdir(), 'not-chosen.json') })).rejects.toThrow()
  })
})

describe('re glTF and mod services', () => {
  it('re:exportGlb then re:importGltf: the preview scene plays the imported motion before anything is saved', async () => {
    const glb = path.join(dir, 'm.glb')
    const e = await svc.invoke('re:exportGlb', { path: template, out: glb, motion: 2 })
    expect(e.animations).toEqual(['fixture_wave'])
    const before = fs.readdirSync(dir).sort()
    const r = await svc.invoke('re:importGltf', { template, gltf: glb })
    expect(fs.readdirSync(dir).sort()).toEqual(before) // preview writes nothing
    expect([r.animation, r.frameCount, r.frameRate, r.path]).toEqual(['fixture_wave', 30, 60, undefined])
    expect(r.scene.nodes).toHaveLength(40)
    expect(r.scene.animations).toHaveLength(1)
    // the preview's key at frame 12 equals the template motion's sample for the same bone
    const orig = motionsOf(readMotionFile(new Uint8Array(fs.readFileSync(template))))[2]!
    const want = sampleMot(orig.mot!, orig.skeleton, 12)
    const a = r.scene.animations[0]!
    for (const ch of a.channels.filter((c) => c.path === 'rotation')) {
      const q = sampleChannel(ch, 12 / 60)
      const w = want.find((b) => b.bone === r.scene.nodes[ch.node]!.name)!.rotation
      const sign = q.reduce((s, v, k) => s + v * w[k]!, 0) < 0 ? -1 : 1
      q.forEach((v, k) => expect(Math.abs(v * sign - w[k]!)).toBeLessThan(1e-4))
    }
    const saved = await svc.invoke('re:importGltf', { template, gltf: glb, out: path.join(dir, 'wave') })
    expect(saved.path).toBe(path.join(dir, 'wave.motlist.663'))
    expect(fs.statSync(saved.path!).size).toBe(saved.size)
  })

  it('re:packMod remembers the game path per template and the author; re:modGamePath guesses the game file from a natives/ folder', async () => {
    expect(guessGamePath('/x/y/natives/stm/_chainsaw/a/b.motlist.663')).toBe('natives/stm/_chainsaw/a/b.motlist.663')
    expect(guessGamePath('/x/y/b.motlist.663')).toBeNull()
    expect(await svc.invoke('re:modGamePath', { template })).toEqual({ gamePath: null, author: null })
    const nativesDir = path.join(dir, 'natives', 'stm', 'anim')
    fs.mkdirSync(nativesDir, { recursive: true })
    fs.copyFileSync(template, path.join(nativesDir, 'tmpl.motlist.663'))
    expect((await svc.invoke('re:modGamePath', { template: path.join(nativesDir, 'tmpl.motlist.663') })).gamePath).toBe('natives/stm/anim/tmpl.motlist.663')
    const out = path.join(dir, 'mod.zip')
    const r = await svc.invoke('re:packMod', { file: template, gamePath: 'natives/stm/_chainsaw/pose/', name: 'P', out, template })
    expect(r.entries).toEqual(['modinfo.ini', 'natives/stm/_chainsaw/pose/tmpl.motlist.663'])
    expect(strFromU8(unzipSync(new Uint8Array(fs.readFileSync(out)))['modinfo.ini']!)).toBe('name=P\r\nversion=1.0\r\ndescription=\r\nauthor=\r\n')
    expect((await svc.invoke('re:modGamePath', { template })).gamePath).toBe('natives/stm/_chainsaw/pose/')
    await expect(svc.invoke('re:packMod', { file: template, gamePath: 'natives/stm/x', name: 'P', out, template })).rejects.toThrow(/already exists/)
    // the app's view as PNG bytes; the author is remembered for the next mod
    const png = encodePng({ width: 1, height: 1, data: new Uint8Array([1, 2, 3, 255]), channels: 4 })
    const shot = await svc.invoke('re:packMod', { file: template, gamePath: 'natives/stm/_chainsaw/pose/tmpl.motlist.663', name: 'P', author: ' Ada ', screenshotPng: png, out: path.join(dir, 'shot.zip'), template })
    expect(shot.entries).toEqual(['modinfo.ini', 'screenshot.png', 'natives/stm/_chainsaw/pose/tmpl.motlist.663'])
    expect(Buffer.from(unzipSync(new Uint8Array(fs.readFileSync(shot.path)))['screenshot.png']!).equals(Buffer.from(png))).toBe(true)
    expect((await svc.invoke('re:modGamePath', { template })).author).toBe('Ada')
    await expect(svc.invoke('re:packMod', { file: template, gamePath: '../x', name: 'P', out: path.join(dir, 'b.zip') })).rejects.toThrow(/contains ".."/)
  })
})
