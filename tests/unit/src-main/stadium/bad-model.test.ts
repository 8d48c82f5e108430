/**
 * One bad model in a good Stadium ROM is one failed item, not a failed ROM (issue 24): `stadium
 * list` lists it with its error, `stadium export` writes the other models and lists it in
 * manifest.json's `failed` (exit 1, CLI.md's batch convention as `gf export-all`), and the
 * catalog's tree shows it as an unreadable model beside the others. The ROM is our own fixture
 * (tests/fixtures/stadium/models.ts `makeRomWithBadModel`): file 1 holds a module of zeros.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { makeRomWithBadModel } from '../../../fixtures/stadium/models'
import { cli } from '../../../helpers/cli'
import { openCatalog } from '../../../../src-main/catalog/catalog'
import { Services } from '../../../../src-main/services/index'

let dir = ''
let romPath = ''
/** What the reader says of file 1 (a module without the FRAGMENT magic at its offset 8, §4). */
const BAD = /bad\.z64 \[model file 1\]: Fragment at 0x8: missing "FRAGMENT" magic/

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mb-stadium-bad-'))
  romPath = path.join(dir, 'bad.z64')
  writeFileSync(romPath, makeRomWithBadModel(4, 1))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('stadium list', () => {
  it('lists every model, the bad one with its error, and exits 1', async () => {
    const r = await cli(['stadium', 'list', romPath, '--json'])
    expect(r.code).toBe(1)
    const rows = r.json() as { file: number; name: string; bones: number; error?: string }[]
    expect(rows.map((x) => x.file)).toEqual([0, 1, 2, 3])
    expect(rows.map((x) => x.name)).toEqual(['Bulbasaur', 'file 1 (unreadable)', 'Venusaur', 'Charmander'])
    expect(rows[1]!.error).toMatch(BAD)
    expect(rows[1]!.bones).toBe(0)
    for (const i of [0, 2, 3]) expect(rows[i]!.error).toBeUndefined()
    expect(r.stderr).toMatch(/modbench stadium list: error: .*bad\.z64 \[model file 1\]/)
    expect(r.stderr).toContain('1 of 4 models failed')
    const text = await cli(['stadium', 'list', romPath])
    expect(text.code).toBe(1)
    expect(text.stdout).toMatch(/^\s+1 {2}file 1 \(unreadable\): .*FRAGMENT/m)
    expect(text.stdout).toMatch(/Charmander/)
  })
})

describe('stadium export', () => {
  it('writes the other models, lists the bad one in manifest.json "failed", exits 1', async () => {
    const parent = path.join(dir, 'export')
    mkdirSync(parent)
    const out = path.join(parent, 'out')
    const r = await cli(['stadium', 'export', romPath, '--out', out, '--json'])
    expect(r.code).toBe(1)
    expect(readdirSync(parent)).toEqual(['out']) // no temporary leftovers
    expect(readdirSync(path.join(out, 'glb')).sort()).toEqual(['001_bulbasaur.glb', '003_venusaur.glb', '004_charmander.glb'])
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as { pokemon: { sourceFile: string }[]; failed: { file: number; sourceFile: string; error: string }[] }
    expect(manifest.pokemon.map((e) => e.sourceFile)).toEqual(['0.bin', '2.bin', '3.bin'])
    expect(manifest.failed).toHaveLength(1)
    expect(manifest.failed[0]).toMatchObject({ file: 1, sourceFile: '1.bin' })
    expect(manifest.failed[0]!.error).toMatch(BAD)
    expect(existsSync(path.join(out, 'moves.json'))).toBe(true)
    const doc = r.json() as { models: number; failed: { file: number }[] }
    expect(doc.models).toBe(3)
    expect(doc.failed.map((f) => f.file)).toEqual([1])
    expect(r.stderr).toMatch(/modbench stadium export: error: .*bad\.z64 \[model file 1\]/)
  })

  it('a manifest without failures has no "failed" key', async () => {
    const out = path.join(dir, 'good-only')
    const r = await cli(['stadium', 'export', romPath, '--out', out, '--only', '0,2'])
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))).not.toHaveProperty('failed')
  })

  it('when every model asked for fails, nothing is written', async () => {
    const out = path.join(dir, 'bad-only')
    const r = await cli(['stadium', 'export', romPath, '--out', out, '--only', '1'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(BAD)
    expect(existsSync(out)).toBe(false)
  })
})

describe('the tree and the app', () => {
  it('the ROM is indexed with the bad model as an unreadable item beside the others', async () => {
    const db = path.join(dir, 'catalog.sqlite')
    const ix = await cli(['index', romPath, '--db', db, '--json'])
    expect(ix.code, ix.stderr).toBe(0)
    expect(ix.json().sources[0]).toMatchObject({ status: 'indexed' })
    const catalog = openCatalog(db)
    const services = new Services(catalog)
    try {
      const source = catalog.sources()[0]!
      const game = catalog.children(source.id, null)[0]!
      const models = catalog.children(source.id, game.id)
      expect(models.map((m) => m.name)).toEqual(['001 Bulbasaur', 'file 1 (unreadable)', '003 Venusaur', '004 Charmander'])
      expect(String(models[1]!.metadata.error)).toMatch(BAD)
      expect(models[1]!.childCount).toBe(0)
      expect(models[0]!.childCount).toBeGreaterThan(0)
      // The app: a good model opens with its siblings (the bad one among them); the bad one says why.
      const info = await services.invoke('stadium:model', { id: models[2]!.id })
      expect(info.name).toBe('Venusaur')
      expect(info.siblings.map((s) => s.id)).toEqual(models.map((m) => m.id))
      await expect(services.invoke('stadium:model', { id: models[1]!.id })).rejects.toThrow(BAD)
      services.ctx.grantPath(dir)
      const res = await services.invoke('stadium:export', { id: models[0]!.id, out: path.join(dir, 'from-app') })
      expect(res.models).toBe(3)
      expect(res.failed.map((f) => f.file)).toEqual([1])
    } finally {
      services.dispose()
      catalog.close()
    }
  })
})
