import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { gfModelHandlers } from '../../../../src-main/domains/gf/model-handlers'
import type { ServiceContext } from '../../../../src-main/plugin/context'
import { decodePng, encodePng } from '../../../../src-main/domains/gf/png'
import { buildPackage, buildSyntheticSet } from '../../../fixtures/gf/build-set'
import { buildGfMotion } from '../../../fixtures/gf/build-motion'
import { glbImageBytes, glbJson } from '../../../helpers/glb'

/**
 * `gf:exportGlb`, the model view's Export .glb (issue 22 item 5): the pending replacements are in
 * the glb when the request carries them, the stored textures otherwise, and the reply says how many
 * it holds; the LOD shown is exported; a broken motion is left out (the view lists it), an existing
 * file is refused unless the user confirmed.
 */
let tmp: string, setDir: string
const ctx = {
  catalog: null as never,
  emit: () => {},
  // as the services do: an existing output is refused with code `exists` unless `overwrite`
  allowPath: (p: string, purpose: string, o: { overwrite?: boolean } = {}) => {
    if (purpose === 'write' && !o.overwrite && existsSync(p)) throw Object.assign(new Error(`${p} exists`), { code: 'exists' })
    return path.resolve(p)
  },
  grantPath: () => {},
} as unknown as ServiceContext
const exportGlb = (req: unknown) => (gfModelHandlers['gf:exportGlb'] as (r: unknown, c: ServiceContext) => Promise<{ out: string; bytes: number; replaced: number; warnings: number }>)(req, ctx)

/** RGBA of the glb image named `name`. */
const image = (file: string, name: string) => decodePng(glbImageBytes(new Uint8Array(readFileSync(file)), name)).rgba

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gf-export-glb-'))
  setDir = path.join(tmp, 'pm0999')
  mkdirSync(setDir)
  const files = buildSyntheticSet(1).files
  files.set('7.bin', buildPackage([buildGfMotion({ frameCount: 4, visibility: [{ mesh: 'Body', visible: [1] }] }).subarray(0, 20)], { align: 4 })) // unreadable
  for (const [n, b] of files) writeFileSync(path.join(setDir, n), b)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('gf:exportGlb', () => {
  const red = encodePng(new Uint8Array(32 * 32 * 4).map((_, i) => (i % 4 === 0 || i % 4 === 3 ? 255 : 0)), 32, 32)

  it('with the pending replacements: their pixels (resampled) instead of the stored texture, and says so', async () => {
    const r = await exportGlb({ set: setDir, out: path.join(tmp, 'with.glb'), replacements: [{ file: '1.bin', entry: 0, png: red }] })
    expect(r).toMatchObject({ out: path.join(tmp, 'with.glb'), replaced: 1, warnings: expect.any(Number) })
    expect(r.bytes).toBe(statSync(r.out).size)
    const body = image(r.out, '1_0_pm0999_00_BodyA1')
    expect(body.byteLength).toBe(64 * 64 * 4)
    expect(Array.from(body.subarray(0, 4))).toEqual([255, 0, 0, 255])
  })

  it('without: the stored textures; the low LOD when asked; the broken 7.bin motion left out', async () => {
    const r = await exportGlb({ set: setDir, out: path.join(tmp, 'plain'), lod: 'low' })
    expect(r).toMatchObject({ out: path.join(tmp, 'plain.glb'), replaced: 0 })
    expect(r.warnings).toBeGreaterThan(0)
    const json = glbJson(new Uint8Array(readFileSync(r.out)))
    expect(json.meshes.map((m: { name: string }) => m.name)).toEqual(['BodyLow'])
    expect(json.animations.map((a: { name: string }) => a.name)).not.toContain('7.bin/0')
    expect(Array.from(image(r.out, '1_0_pm0999_00_BodyA1').subarray(0, 4))).not.toEqual([255, 0, 0, 255])
  })

  it('an existing file is refused (code exists) unless overwrite; then replaced', async () => {
    const out = path.join(tmp, 'taken.glb')
    writeFileSync(out, 'x')
    await expect(exportGlb({ set: setDir, out })).rejects.toMatchObject({ code: 'exists' })
    expect(readFileSync(out, 'utf8')).toBe('x')
    await exportGlb({ set: setDir, out, overwrite: true })
    expect(readFileSync(out).subarray(0, 4).toString('latin1')).toBe('glTF')
  })

  it('never an input, even confirmed: a file of the set, a path inside its folder, a replacement PNG (code input); nothing written', async () => {
    const png = path.join(tmp, 'red.glb') // a PNG whose name ends in .glb, so the out names it as given
    writeFileSync(png, red)
    const set0 = readFileSync(path.join(setDir, '0.bin'))
    for (const [out, reps] of [[path.join(setDir, '0.bin'), []], [path.join(setDir, 'model.glb'), []], [png, [{ file: '1.bin', entry: 0, path: png }]]] as const) {
      await expect(exportGlb({ set: setDir, out, overwrite: true, replacements: reps })).rejects.toMatchObject({ code: 'input' })
    }
    expect(readFileSync(path.join(setDir, '0.bin')).equals(set0)).toBe(true)
    expect(existsSync(path.join(setDir, 'model.glb'))).toBe(false)
    expect(readFileSync(png).equals(Buffer.from(red))).toBe(true)
  })
})
