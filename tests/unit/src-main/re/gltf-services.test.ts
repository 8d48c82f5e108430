import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { unzipSync, strFromU8 } from 'fflate'
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { Services } from '../../../../src-main/services/index'
import { guessGamePath } from '../../../../src-main/domains/re/gltf-services'
import { sampleChannel } from '../../../../src-shared/scene/sample'
import { readMotionFile, motionsOf, sampleMot } from '../../../../src-shared/formats/re'
import { buildTemplateMotlist } from '../../../fixtures/re/template'

let dir: string
let cat: Catalog
let svc: Services
let template: string

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-regltf-svc-'))
  cat = openCatalog(path.join(dir, 'c.sqlite'))
  svc = new Services(cat)
  fs.mkdirSync(path.join(dir, 'natives', 'stm', 'anim'), { recursive: true })
  template = path.join(dir, 'natives', 'stm', 'anim', 'tmpl.motlist.663')
  fs.writeFileSync(template, buildTemplateMotlist())
  svc.ctx.grantPath(dir)
})
afterEach(() => {
  svc.dispose()
  cat.close()
  fs.rmSync(dir, { recursive: true, force: true })
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

  it('re:packMod remembers the game path per template; re:modGamePath guesses one from a natives/ folder', async () => {
    expect(guessGamePath('/x/y/natives/stm/_chainsaw/a/b.motlist.663')).toBe('natives/stm/_chainsaw/a/')
    expect(guessGamePath('/x/y/b.motlist.663')).toBeNull()
    expect((await svc.invoke('re:modGamePath', { template })).gamePath).toBe('natives/stm/anim/')
    const out = path.join(dir, 'mod.zip')
    const r = await svc.invoke('re:packMod', { file: template, gamePath: 'natives/stm/_chainsaw/pose/', name: 'P', out, template })
    expect(r.entries).toEqual(['modinfo.ini', 'natives/stm/_chainsaw/pose/tmpl.motlist.663'])
    expect(strFromU8(unzipSync(new Uint8Array(fs.readFileSync(out)))['modinfo.ini']!)).toBe('name=P\r\nversion=1.0\r\ndescription=\r\nauthor=\r\n')
    expect((await svc.invoke('re:modGamePath', { template })).gamePath).toBe('natives/stm/_chainsaw/pose/')
    await expect(svc.invoke('re:packMod', { file: template, gamePath: 'natives/stm/x', name: 'P', out, template })).rejects.toThrow(/already exists/)
    await expect(svc.invoke('re:packMod', { file: template, gamePath: '../x', name: 'P', out: path.join(dir, 'b.zip') })).rejects.toThrow(/contains ".."/)
  })
})
