import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { Services } from '../../../../src-main/services/index'
import { readMotlist, sampleMot, eulerToQuat, quatAngle, parseEmvPoses, type Quat } from '../../../../src-shared/formats/re'
import { buildTemplateMotlist } from '../../../fixtures/re/template'
import { fixtureSkeleton } from '../../../fixtures/re/skeleton'
import { twoPoseFile } from '../../../fixtures/re/poses'

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
