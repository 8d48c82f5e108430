import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { gfModelHandlers } from '../../../../src-main/domains/gf/model-handlers'
import { gfHandlers } from '../../../../src-main/domains/gf/handlers'
import { cancelJob } from '../../../../src-main/domains/gf/jobs'
import type { ServiceContext } from '../../../../src-main/plugin/context'
import { encodePng } from '../../../../src-main/domains/gf/png'
import { GarcFile } from '../../../../src-main/domains/gf/garc-file'
import { buildModelArchive } from '../../../fixtures/gf/build-garc'
import { oracleReadGarc } from '../../../oracles/garc-reader'
import { findTexture, parseGfSet } from '../../../../src-shared/formats/gf/gf-set'
import { decodeGfTexture } from '../../../../src-shared/formats/gf/texture'

/**
 * "Write mod…" (`gf:writeMod`, issue 22 item 4): pending replacements of two sets of one model
 * archive written in one new archive, to a file or a LayeredFS folder for the chosen title; every
 * other entry byte for byte (checked with the second-hand reader of tests/oracles); never over the
 * dump; an existing target only when confirmed; a cancel writes nothing. And the texture services
 * read a set inside the archive (`ARCHIVE#N`) as they read a folder.
 */
let tmp: string, archive: string
let cancelOn = '', cancelled = false
const events: { e: string; p: any }[] = []
const ctx = {
  catalog: null as never,
  emit: (e: string, p: any) => {
    events.push({ e, p })
    if (p.jobId === cancelOn) cancelled = cancelJob(p.jobId) // the user's Cancel, while the job runs
  },
  allowPath: (p: string, purpose: string, o: { overwrite?: boolean } = {}) => {
    if (purpose === 'write' && !o.overwrite && existsSync(p)) throw Object.assign(new Error(`${p} exists`), { code: 'exists' })
    return path.resolve(p)
  },
  grantPath: () => {},
} as unknown as ServiceContext
const call = (k: string, req: unknown) => ((gfModelHandlers as any)[k] ?? (gfHandlers as any)[k])(req, ctx) as Promise<any>
const solid = (w: number, h: number, rgba: number[]) => encodePng(new Uint8Array(w * h * 4).map((_, i) => rgba[i % 4]!), w, h)
const red = () => solid(32, 32, [255, 0, 0, 255]) // pm…_Eye1 (1.bin #2) is 32×32 RGBA8: exact
const blue = () => solid(32, 32, [0, 0, 255, 255])
const built = buildModelArchive(6)

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gf-write-mod-'))
  archive = path.join(tmp, 'dump', 'romfs', 'a', '0', '9', '4')
  mkdirSync(path.dirname(archive), { recursive: true })
  writeFileSync(archive, built.bytes)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

async function texel(file: string, set: number, member: string, entry: number): Promise<number[]> {
  const s = await GarcFile.with(file, (g) => g.readSet(set))
  const t = findTexture(parseGfSet(s.files), member, entry)
  return Array.from(decodeGfTexture(t.bytes, t.header).subarray(0, 4))
}

describe('texture services on ARCHIVE#N', () => {
  it('gf:textures and gf:texture read set 1 of the archive as a folder set', async () => {
    const list = await call('gf:textures', { set: `${archive}#1` })
    expect(list.textures.map((t: any) => t.name)).toContain('pm0025_00_Eye1')
    const t = await call('gf:texture', { set: `${archive}#1`, file: '1.bin', entry: 2 })
    expect(Array.from(t.rgba.subarray(0, 4))).toEqual([20, 20, 220, 255]) // the builder's disc marker
  })
})

describe('gf:exportSets on the archive', () => {
  it('the batch export of the model view takes the archive file: every set, named, the empty one listed broken', async () => {
    const out = path.join(tmp, 'glbs')
    const r = await call('gf:exportSets', { dir: archive, out, jobId: 'b1' })
    expect(r.manifest.map((m: any) => [m.set, m.glb, m.name, !!m.error])).toEqual([
      [`${archive}#0`, '0000.glb', 'pm0999_00', false], [`${archive}#1`, '0001.glb', 'Pikachu', false], [`${archive}#2`, '0002.glb', 'Pikachu (form 3)', false], [`${archive}#3`, null, 'set 3', true],
    ])
    expect(readdirSync(out).sort()).toEqual(['0000.glb', '0001.glb', '0002.glb', 'manifest.json'])
  })
})

describe('gf:writeMod', () => {
  const sets = () => [
    { set: 1, replacements: [{ file: '1.bin', entry: 2, png: red() }] },
    { set: 2, replacements: [{ file: '2.bin', entry: 2, png: blue() }] },
  ]

  it('two sets in one LayeredFS archive for Ultra Moon; every other entry byte for byte', async () => {
    const sd = path.join(tmp, 'sd')
    const r = await call('gf:writeMod', { archive, sets: sets(), target: { layeredfs: sd, title: '00040000001b5100' }, jobId: 'm1' })
    const out = path.join(sd, 'luma', 'titles', '00040000001B5100', 'romfs', 'a', '0', '9', '4')
    expect(r.out).toBe(out)
    expect(r.sets).toEqual([{ set: 1, changed: ['1.bin'], replaced: 1 }, { set: 2, changed: ['2.bin'], replaced: 1 }])
    const before = oracleReadGarc(new Uint8Array(readFileSync(archive)))
    const after = oracleReadGarc(new Uint8Array(readFileSync(out)))
    expect(after.version).toBe(before.version)
    expect(after.entries.length).toBe(before.entries.length)
    const changed = after.entries.map((e, i) => (Buffer.compare(Buffer.from(e.bytes), Buffer.from(before.entries[i]!.bytes)) === 0 ? null : i)).filter((i) => i !== null)
    expect(changed).toEqual([1 * 9 + 1, 2 * 9 + 2])
    expect(await texel(out, 1, '1.bin', 2)).toEqual([255, 0, 0, 255])
    expect(await texel(out, 2, '2.bin', 2)).toEqual([0, 0, 255, 255])
    expect(await texel(out, 2, '1.bin', 2)).toEqual(await texel(archive, 2, '1.bin', 2))
    const prog = events.filter((e) => e.e === 'gf:progress' && e.p.jobId === 'm1')
    expect(prog[0]!.p).toMatchObject({ done: 0, total: 3, detail: 'set 1: encoding 1 texture' })
    expect(prog.at(-1)!.p).toMatchObject({ done: 3, total: 3, detail: 'done' })
    expect(readFileSync(archive).equals(Buffer.from(built.bytes))).toBe(true) // the dump is untouched
  })

  it('to a new archive file; an existing one only when confirmed', async () => {
    const out = path.join(tmp, 'mod', 'a094.garc')
    await call('gf:writeMod', { archive, sets: sets().slice(0, 1), target: { out }, jobId: 'm2' })
    expect(await texel(out, 1, '1.bin', 2)).toEqual([255, 0, 0, 255])
    await expect(call('gf:writeMod', { archive, sets: sets().slice(1), target: { out }, jobId: 'm3' })).rejects.toMatchObject({ code: 'exists' })
    expect(await texel(out, 2, '2.bin', 2)).not.toEqual([0, 0, 255, 255])
    await call('gf:writeMod', { archive, sets: sets().slice(1), target: { out }, jobId: 'm4', overwrite: true })
    expect(await texel(out, 2, '2.bin', 2)).toEqual([0, 0, 255, 255])
  })

  it('never over the dump: the archive itself or anything in its romfs folder is refused, even confirmed', async () => {
    for (const out of [archive, path.join(tmp, 'dump', 'romfs', 'a', '0', '9', '4-mod'), path.join(tmp, 'dump')]) {
      await expect(call('gf:writeMod', { archive, sets: sets(), target: { out }, jobId: 'm5', overwrite: true })).rejects.toThrow(/input/)
    }
    await expect(call('gf:writeMod', { archive, sets: sets(), target: { layeredfs: path.join(tmp, 'dump', 'romfs'), title: '00040000001B5000' }, jobId: 'm6', overwrite: true })).rejects.toThrow(/input/)
    // not confirmed: still the input refusal (never the "confirm replacing" question)
    await expect(call('gf:writeMod', { archive, sets: sets(), target: { out: archive }, jobId: 'm6' })).rejects.toThrow(/is an input of this command/) // the shared guard's words (node/output-guard.ts)
    await expect(call('gf:writeMod', { archive, sets: sets(), target: { layeredfs: path.join(tmp, 'sd2'), title: 'USUM' }, jobId: 'm7' })).rejects.toThrow(/16 hex digits/)
    expect(readFileSync(archive).equals(Buffer.from(built.bytes))).toBe(true)
    expect(readdirSync(path.dirname(archive))).toEqual(['4'])
  })

  it('a cancel writes nothing', async () => {
    const sd = path.join(tmp, 'sd-cancel')
    cancelOn = 'm8'
    await expect(call('gf:writeMod', { archive, sets: sets(), target: { layeredfs: sd, title: '00040000001B5000' }, jobId: 'm8' })).rejects.toMatchObject({ code: 'cancelled' })
    expect(cancelled).toBe(true)
    const target = path.join(sd, 'luma', 'titles', '00040000001B5000', 'romfs', 'a', '0', '9')
    expect(existsSync(target) ? readdirSync(target) : []).toEqual([])
  })
})
