import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync, readFileSync, existsSync, rmSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { gfHandlers } from '../../../../src-main/domains/gf/handlers'
import { gfModelHandlers } from '../../../../src-main/domains/gf/model-handlers'
import type { ServiceContext } from '../../../../src-main/plugin/context'
import { buildSyntheticSet, gradientPicture } from '../../../fixtures/gf/build-set'
import { encodePng, decodePng } from '../../../../src-main/domains/gf/png'
import { cancelJob } from '../../../../src-main/domains/gf/jobs'
import { readdirSync } from 'node:fs'
import { createHash } from 'node:crypto'

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

  it('gf:repack answers only after the new folder is complete; while it works the folder does not exist (issue 27)', async () => {
    const png = encodePng(gradientPicture(16, 16, 3), 16, 16)
    const out = path.join(tmp, 'order-out')
    const seenWhileWorking: boolean[] = []
    const live = ctx as unknown as { emit: (e: string, p: unknown) => void }
    const emit = live.emit
    // at every progress event of this job: is the output folder there yet?
    live.emit = (e, p) => {
      if (e === 'gf:progress' && (p as { jobId: string }).jobId === 'order') seenWhileWorking.push(existsSync(out))
      emit(e, p)
    }
    let r: { out: string; files: { file: string; size: number; sha256: string }[] }
    try {
      r = (await call('gf:repack', { set: setDir, out, replacements: [{ file: '1.bin', entry: 3, png }], jobId: 'order' })) as typeof r
    } finally {
      live.emit = emit
    }
    expect(seenWhileWorking.length).toBeGreaterThan(2)
    expect(seenWhileWorking.every((x) => !x)).toBe(true)
    // the moment the answer arrives, every file it reports is in place, whole
    expect(r.out).toBe(out)
    expect(r.files.map((f) => f.file).sort()).toEqual(readdirSync(out).sort())
    for (const f of r.files) {
      const b = readFileSync(path.join(out, f.file))
      expect(b.byteLength).toBe(f.size)
      expect(createHash('sha256').update(b).digest('hex')).toBe(f.sha256)
    }
  })

  it('gf:repack cancelled through its job id leaves no folder, not even a temporary one', async () => {
    const out = path.join(tmp, 'cancelled')
    const png = encodePng(gradientPicture(16, 16, 3), 16, 16)
    const onWriting = (p: { jobId: string; detail?: string }) => p.jobId === 'jc' && p.detail === 'writing' && cancelJob('jc')
    // the progress callback is synchronous: cancel from inside it, as a click arriving mid-write would
    const emit = ctx.emit
    ;(ctx as { emit: unknown }).emit = (e: string, p: { jobId: string; detail?: string }) => {
      emit(e as never, p as never)
      onWriting(p)
    }
    try {
      await expect(call('gf:repack', { set: setDir, out, replacements: [{ file: '1.bin', entry: 3, png }], jobId: 'jc' })).rejects.toThrow(/cancelled/)
    } finally {
      ;(ctx as { emit: unknown }).emit = emit
    }
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(tmp).filter((n) => n.includes('cancelled'))).toEqual([])
    expect(cancelJob('jc')).toBe(false)
  })

  it('gf:matchFolder matches PNGs by name, reports wrong sizes, ambiguous and unknown names', async () => {
    const folder = path.join(tmp, 'pngs')
    mkdirSync(path.join(folder, '1'), { recursive: true })
    writeFileSync(path.join(folder, '1', '0_pm0999_00_BodyA1.png'), encodePng(gradientPicture(64, 64, 1), 64, 64))
    writeFileSync(path.join(folder, 'pm0999_00_Rim.png'), encodePng(gradientPicture(16, 8, 1), 16, 8))
    writeFileSync(path.join(folder, 'pm0999_00_Mask.png'), encodePng(gradientPicture(8, 8, 1), 8, 8))
    writeFileSync(path.join(folder, 'pm0999_00_Eye1.png'), encodePng(gradientPicture(32, 32, 1), 32, 32))
    writeFileSync(path.join(folder, 'nobody.png'), encodePng(gradientPicture(4, 4, 1), 4, 4))
    writeFileSync(path.join(folder, 'broken.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]))
    const r = (await call('gf:matchFolder', { set: setDir, folder })) as {
      matched: { png: string; file: string; entry: number; path: string }[]
      wrongSize: { png: string; width: number; expectedWidth: number }[]
      ambiguous: { png: string; candidates: string[] }[]
      unmatched: string[]
      unreadable: { png: string; error: string }[]
    }
    // 1.bin and 2.bin (normal and shiny) both hold pm0999_00_Eye1: a bare name is the normal one
    expect(r.matched.map((m) => [m.png, m.file, m.entry])).toEqual([['1/0_pm0999_00_BodyA1.png', '1.bin', 0], ['pm0999_00_Eye1.png', '1.bin', 2], ['pm0999_00_Rim.png', '3.bin', 0]])
    expect(r.matched[0]!.path).toBe(path.join(folder, '1', '0_pm0999_00_BodyA1.png'))
    expect(r.wrongSize).toMatchObject([{ png: 'pm0999_00_Mask.png', width: 8, expectedWidth: 16 }])
    expect(r.ambiguous).toEqual([])
    expect(r.unmatched).toEqual(['nobody.png'])
    expect(r.unreadable[0]!.png).toBe('broken.png')
    expect(r.unreadable[0]!.error).toMatch(/broken\.png: PNG header at 0x4: not a PNG/)
  })
})
