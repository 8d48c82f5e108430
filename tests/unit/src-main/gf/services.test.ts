import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync, readFileSync, existsSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { gfHandlers } from '../../../../src-main/domains/gf/handlers'
import { gfModelHandlers } from '../../../../src-main/domains/gf/model-handlers'
import type { ServiceContext } from '../../../../src-main/services/context'
import { buildSyntheticSet, gradientPicture } from '../../../fixtures/gf/build-set'
import { encodePng, decodePng } from '../../../../src-main/domains/gf/png'

let tmp: string, setDir: string
const events: { e: string; p: unknown }[] = []
const ctx = {
  catalog: null as never,
  emit: (e: string, p: unknown) => events.push({ e, p }),
  allowPath: (p: string) => path.resolve(p),
  grantPath: () => {},
} as unknown as ServiceContext
const call = <K extends keyof typeof gfHandlers>(k: K, req: unknown) => (gfHandlers[k] as (r: unknown, c: ServiceContext) => Promise<never>)(req, ctx)

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gf-svc-'))
  setDir = path.join(tmp, 'set')
  mkdirSync(setDir)
  for (const [n, b] of buildSyntheticSet(1).files) writeFileSync(path.join(setDir, n), b)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('gf services', () => {
  it('gf:textures and gf:texture', async () => {
    const list = (await call('gf:textures', { set: setDir })) as { textures: { name: string }[] }
    expect(list.textures.length).toBe(20)
    const t = (await call('gf:texture', { set: setDir, file: '1.bin', entry: 2 })) as { info: { width: number }; rgba: Uint8Array }
    expect(t.rgba).toBeInstanceOf(Uint8Array)
    expect(t.rgba.byteLength).toBe(32 * 32 * 4)
    expect(Array.from(t.rgba.subarray(0, 4))).toEqual([20, 20, 220, 255])
  })

  it('gf:previewReplace re-encodes, reports PSNR and resamples other sizes with a warning', async () => {
    const png = encodePng(gradientPicture(64, 64, 3), 64, 64)
    const r = (await call('gf:previewReplace', { set: setDir, file: '1.bin', entry: 0, png })) as { psnr: number; rgba: Uint8Array; resized: boolean }
    expect(r.psnr).toBeGreaterThan(30)
    expect(r.resized).toBe(false)
    const small = (await call('gf:previewReplace', { set: setDir, file: '1.bin', entry: 0, png: encodePng(gradientPicture(32, 32, 3), 32, 32) })) as { resized: boolean; warnings: string[]; rgba: Uint8Array }
    expect(small.resized).toBe(true)
    expect(small.warnings[0]).toMatch(/resampled to 64×64/)
    expect(small.rgba.byteLength).toBe(64 * 64 * 4)
    await expect(call('gf:previewReplace', { set: setDir, file: '1.bin', entry: 0, png: encodePng(gradientPicture(32, 32, 3), 32, 32), resize: false })).rejects.toThrow(/32×32/)
  })

  it('gf:repack writes a new set and emits progress; gf:exportPng / gf:exportAll write PNGs', async () => {
    const png = encodePng(gradientPicture(16, 16, 3), 16, 16)
    const out = path.join(tmp, 'out')
    const r = (await call('gf:repack', { set: setDir, out, replacements: [{ file: '1.bin', entry: 3, png }], jobId: 'j1' })) as { files: { file: string; changed: boolean }[]; replaced: { name: string }[] }
    expect(r.files.filter((f) => f.changed).map((f) => f.file)).toEqual(['1.bin'])
    expect(r.replaced[0]!.name).toBe('pm0999_00_Mouth1')
    expect(events.some((x) => x.e === 'gf:progress' && (x.p as { jobId: string }).jobId === 'j1')).toBe(true)
    expect(readFileSync(path.join(out, '0.bin')).equals(readFileSync(path.join(setDir, '0.bin')))).toBe(true)
    const one = (await call('gf:exportPng', { set: setDir, file: '3.bin', entry: 0, out: path.join(tmp, 'rim') })) as { path: string }
    expect(decodePng(readFileSync(one.path)).width).toBe(16)
    const all = (await call('gf:exportAll', { set: setDir, out: path.join(tmp, 'all') })) as { count: number }
    expect(all.count).toBe(20)
    expect(existsSync(path.join(tmp, 'all', '2', '4_pm0999_00_BodyC1.png'))).toBe(true)
  })

  it('gf:previewReplace with a jobId reports ETC encoding progress and stops on gf:cancelJob', async () => {
    const big = path.join(tmp, 'big')
    mkdirSync(big)
    for (const [n, b] of buildSyntheticSet(4).files) writeFileSync(path.join(big, n), b)
    const png = encodePng(gradientPicture(256, 256, 3), 256, 256) // 1.bin entry 0: ETC1 256×256
    const ok = (await call('gf:previewReplace', { set: big, file: '1.bin', entry: 0, png, jobId: 'p1' })) as { psnr: number }
    expect(ok.psnr).toBeGreaterThan(30)
    const mine = events.filter((x) => x.e === 'gf:progress' && (x.p as { jobId: string }).jobId === 'p1').map((x) => x.p as { done: number; total: number })
    expect(mine.length).toBeGreaterThan(1)
    expect(mine.at(-1)).toMatchObject({ done: 32, total: 32 }) // 256 / 8 tile rows
    // cancel as soon as the first part is done
    const cancelling = { ...ctx, emit: (e: string, p: { jobId: string }) => { if (e === 'gf:progress' && p.jobId === 'p2') void (gfModelHandlers['gf:cancelJob'] as (r: unknown) => Promise<unknown>)({ jobId: 'p2' }) } } as unknown as ServiceContext
    const run = (gfHandlers['gf:previewReplace'] as (r: unknown, c: ServiceContext) => Promise<unknown>)({ set: big, file: '1.bin', entry: 0, png, jobId: 'p2' }, cancelling)
    await expect(run).rejects.toMatchObject({ code: 'cancelled' })
    expect(await (gfModelHandlers['gf:cancelJob'] as (r: unknown) => Promise<unknown>)({ jobId: 'p2' })).toEqual({ cancelled: false })
  })
})
