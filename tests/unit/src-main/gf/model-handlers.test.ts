import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { gfModelHandlers } from '../../../../src-main/domains/gf/model-handlers'
import type { ServiceContext } from '../../../../src-main/plugin/context'
import { encodePng } from '../../../../src-main/domains/gf/png'
import { buildPackage, buildSyntheticSet } from '../../../fixtures/gf/build-set'
import { buildGfMotion } from '../../../fixtures/gf/build-motion'

let tmp: string, setDir: string
const events: { e: string; p: any }[] = []
const ctx = { catalog: null as never, emit: (e: string, p: unknown) => events.push({ e, p }), allowPath: (p: string) => path.resolve(p), grantPath: () => {} } as unknown as ServiceContext
const call = (k: keyof typeof gfModelHandlers, req: unknown) => (gfModelHandlers[k] as (r: unknown, c: ServiceContext) => Promise<any>)(req, ctx)

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gf-model-svc-'))
  setDir = path.join(tmp, 'set')
  mkdirSync(setDir)
  const files = buildSyntheticSet(1).files
  files.set('7.bin', buildPackage([buildGfMotion({ frameCount: 4, visibility: [{ mesh: 'Body', visible: [1] }] }).subarray(0, 20)], { align: 4 }))
  for (const [n, b] of files) writeFileSync(path.join(setDir, n), b)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('gf:model', () => {
  it('the model opens with a broken motion marked, and shows a pending replacement before any repack', async () => {
    const r = await call('gf:model', { set: setDir })
    expect(r.lod).toBe('high')
    expect(r.scene.meshes.map((m: any) => m.name)).toEqual(['Body', 'Eye'])
    expect(r.motions.find((m: any) => m.file === '7.bin')).toMatchObject({ entry: 0, error: expect.stringMatching(/^7\.bin: entry 0 GFMotion/) })
    expect(r.scene.animations.map((a: any) => a.name)).not.toContain('7.bin/0')
    expect(r.scene.variants.map((v: any) => v.name)).toEqual(['normal', 'shiny'])
    // A 32×32 red PNG for the 64×64 body texture: resampled and shown on the body material.
    const red = new Uint8Array(32 * 32 * 4).map((_, i) => (i % 4 === 0 || i % 4 === 3 ? 255 : 0))
    const p = await call('gf:model', { set: setDir, replacements: [{ file: '1.bin', entry: 0, png: encodePng(red, 32, 32) }] })
    const tex = p.scene.textures[p.scene.materials[0].texture]
    expect([tex.width, tex.height]).toEqual([64, 64])
    expect(Array.from(tex.rgba.subarray(0, 4))).toEqual([255, 0, 0, 255])
    const before = r.scene.textures[r.scene.materials[0].texture]
    expect(Array.from(before.rgba.subarray(0, 4))).not.toEqual([255, 0, 0, 255])
    // the shiny texture is untouched
    expect(p.scene.textures[p.scene.materials[3].texture].rgba).toEqual(r.scene.textures[r.scene.materials[3].texture].rgba)
  })
  it('low LOD', async () => {
    expect((await call('gf:model', { set: setDir, lod: 'low' })).scene.meshes.map((m: any) => m.name)).toEqual(['BodyLow'])
  })
})

describe('gf:exportSets', () => {
  it('exports a folder with progress events and a manifest', async () => {
    const dump = path.join(tmp, 'dump')
    for (const n of ['x', 'y']) {
      mkdirSync(path.join(dump, n), { recursive: true })
      for (const [f, b] of buildSyntheticSet(1).files) writeFileSync(path.join(dump, n, f), b)
    }
    const out = path.join(tmp, 'out')
    const r = await call('gf:exportSets', { dir: dump, out, jobId: 'j1' })
    expect(r.manifest.map((m: any) => [m.set, m.glb])).toEqual([['x', 'x.glb'], ['y', 'y.glb']])
    expect(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))).toEqual(r.manifest)
    const prog = events.filter((e) => e.e === 'gf:progress' && e.p.jobId === 'j1').map((e) => [e.p.done, e.p.total])
    expect(prog).toEqual([[0, 2], [1, 2], [2, 2]])
    expect((await call('gf:cancelJob', { jobId: 'j1' })).cancelled).toBe(false)
  })
  it('a cancelled job writes nothing', async () => {
    const out = path.join(tmp, 'out-cancel')
    const run = call('gf:exportSets', { dir: path.join(tmp, 'dump'), out, jobId: 'j2' })
    expect((await call('gf:cancelJob', { jobId: 'j2' })).cancelled).toBe(true)
    await expect(run).rejects.toThrow('cancelled')
    expect(existsSync(out)).toBe(false)
  })
})
