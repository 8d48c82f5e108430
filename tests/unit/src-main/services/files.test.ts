import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { samplesDir } from '../../../../src-main/catalog/paths'
import { openCatalog } from '../../../../src-main/catalog/catalog'
import { useServices } from '../../../helpers/services'

/**
 * Browser mode's file browser service (`fs:list`: folders first, sizes from the disk, kinds from
 * the indexer's detectors; any folder, places checked), the overwrite rule of writes, and
 * removing a source (a failed one too) from the catalog.
 */
const t = useServices('mb-files-')

describe('fs:list', () => {
  it('lists the samples: folders first, real sizes, detected kinds', async () => {
    const l = await t.svc.invoke('fs:list', { path: samplesDir() })
    expect(l.path).toBe(samplesDir())
    expect(l.entries.map((e) => [e.name, e.type])).toEqual([
      ['gf-set', 'folder'], ['re', 'folder'], ['snap-sample.z64.gz', 'file'], ['stadium-sample.z64.gz', 'file'],
    ])
    const snap = l.entries.find((e) => e.name === 'snap-sample.z64.gz')!
    expect(snap.size).toBe(fs.statSync(path.join(samplesDir(), 'snap-sample.z64.gz')).size)
    // the ROM detector claims the unpacked head (a .z64 by its inner name); the set folder by its names
    expect(snap.kind).toBe('n64-rom')
    expect(l.entries.find((e) => e.name === 'gf-set')!.kind).toBe('gf-set')
    expect(l.entries.find((e) => e.name === 're')!.kind).toBeNull()
    expect(l.roots.map((r) => r.label)).toEqual(expect.arrayContaining(['Start folder', 'Samples', 'Home']))
    const set = await t.svc.invoke('fs:list', { path: path.join(samplesDir(), 'gf-set') })
    expect(set.kind).toBe('gf-set')
    expect(set.parent).toBe(samplesDir())
    expect(set.entries.filter((e) => e.type === 'file')).toHaveLength(9)
  })

  it('a file path lists its folder; any folder lists, up to the file system root; places that went are greyed with the reason', async () => {
    const l = await t.svc.invoke('fs:list', { path: path.join(samplesDir(), 'snap-sample.z64.gz') })
    expect(l.path).toBe(samplesDir())
    const outside = fs.mkdtempSync('/dev/shm/mb-outside-')
    try {
      fs.writeFileSync(path.join(outside, 'a.bin'), 'abc')
      fs.mkdirSync(path.join(outside, 'went'))
      const g = await t.svc.invoke('fs:list', { path: outside })
      expect(g.entries.filter((e) => e.type === 'file')).toEqual([expect.objectContaining({ name: 'a.bin', type: 'file', size: 3, kind: null })])
      expect(g.parent, 'the dialog climbs past its places').toBe('/dev/shm')
      expect((await t.svc.invoke('fs:list', { path: '/' })).parent).toBeNull()
      expect((await t.svc.invoke('fs:list', {})).path, 'no path: home').toBe(os.homedir())
      expect(await t.svc.invoke('fs:stat', { path: path.join(outside, 'a.bin') })).toEqual({ type: 'file', size: 3 })
      expect(await t.svc.invoke('fs:stat', { path: path.join(outside, 'b.bin') })).toBeNull()
      // a chosen file stands for its folder; a recent folder that went is kept, greyed with why
      await t.svc.invoke('fs:grant', { path: path.join(outside, 'a.bin') })
      fs.rmdirSync(path.join(outside, 'went'))
      const places = (await t.svc.invoke('fs:list', { path: outside, recent: [path.join(outside, 'went'), path.join(outside, 'a.bin')] })).roots
      expect(places[0]).toEqual({ label: 'Home', path: os.homedir() })
      expect(places.filter((r) => r.path.startsWith(outside))).toEqual([
        { label: 'Recent', path: path.join(outside, 'went'), unavailable: 'no longer exists' },
        { label: 'Recent', path: outside },
      ])
    } finally {
      fs.rmSync(outside, { recursive: true, force: true })
    }
  })

  it('listing the folder holding the catalog leaves its connection current (its files are not opened to detect a kind)', async () => {
    expect(t.cat.sources()).toEqual([])
    const l = await t.svc.invoke('fs:list', { path: t.dir })
    expect(l.entries.find((e) => e.name === 'c.sqlite')).toMatchObject({ type: 'file', kind: null })
    // another process (the indexer) adds a source: this connection must see it
    const other = openCatalog(t.cat.path)
    try {
      other.replaceSource({ path: path.join(t.dir, 'x.z64'), size: 1, mtime: 1, hash: 'h', kind: 'n64-rom' }, [])
    } finally {
      other.close()
    }
    expect(t.cat.sources().map((s) => path.basename(s.path))).toEqual(['x.z64'])
  })
})

describe('writes ask before replacing', () => {
  it('an existing file is refused with code exists unless overwrite is true', () => {
    t.svc.ctx.grantPath(t.dir)
    const p = path.join(t.dir, 'out.png')
    expect(t.svc.allowPath(p, 'write')).toBe(p)
    fs.writeFileSync(p, 'old')
    let err: (Error & { code?: string }) | null = null
    try {
      t.svc.allowPath(p, 'write')
    } catch (e) {
      err = e as Error & { code?: string }
    }
    expect(err?.code).toBe('exists')
    expect(err?.message).toContain(p)
    expect(t.svc.allowPath(p, 'write', { overwrite: true })).toBe(p)
    expect(t.svc.allowPath(p, 'read')).toBe(p)
    expect(fs.readFileSync(p, 'utf8')).toBe('old')
  })
})

describe('catalog:removeSource', () => {
  it('forgets an indexed source with its assets, and a failed source, leaving files alone', async () => {
    const f = path.join(t.dir, 'a.z64')
    fs.writeFileSync(f, 'x')
    const { sourceId } = t.cat.replaceSource({ path: f, size: 1, mtime: 1, hash: 'h', kind: 'n64-rom' }, [{ key: 'r', kind: 'n64-rom', name: 'Rom', locator: {} }])
    const failed = t.cat.recordError({ path: path.join(t.dir, 'bad.z64'), size: 1, mtime: 1, hash: 'h2', kind: 'unknown' }, 'not a ROM')
    const events: string[] = []
    t.svc.on((e, p) => events.push(`${e} ${JSON.stringify(p)}`))
    expect(await t.svc.invoke('catalog:removeSource', { id: failed })).toEqual({ removed: true })
    expect(await t.svc.invoke('catalog:removeSource', { id: sourceId })).toEqual({ removed: true })
    expect(await t.svc.invoke('catalog:removeSource', { id: sourceId })).toEqual({ removed: false })
    expect(t.cat.sources()).toEqual([])
    expect(t.cat.assetCount()).toBe(0)
    expect(fs.existsSync(f)).toBe(true)
    expect(events).toEqual([`catalog:changed {"sourceIds":[${failed}]}`, `catalog:changed {"sourceIds":[${sourceId}]}`])
  })
})

describe('catalog:reveal', () => {
  it('gives an asset and, top-down from its source, the children of each level above it; null for no asset', async () => {
    const f = path.join(t.dir, 'b.z64')
    fs.writeFileSync(f, 'x')
    const { sourceId } = t.cat.replaceSource({ path: f, size: 1, mtime: 1, hash: 'h', kind: 'n64-rom' }, [
      { key: 'g', kind: 'snap-game', name: 'Game', locator: {} },
      { key: 'other', kind: 'snap-game', name: 'Other', locator: {} },
      { key: 's1', parentKey: 'g', kind: 'snap-stage', name: 'Beach', locator: {} },
      { key: 's2', parentKey: 'g', kind: 'snap-stage', name: 'Tunnel', locator: {} },
      { key: 'r', parentKey: 's2', kind: 'snap-room', name: 'Room', locator: {} },
    ])
    const all = t.cat.children(sourceId, null, 0, 100)
    const game = all.find((a) => a.name === 'Game')!
    const tunnel = t.cat.children(sourceId, game.id, 0, 100).find((a) => a.name === 'Tunnel')!
    const room = t.cat.children(sourceId, tunnel.id, 0, 100)[0]!
    const r = await t.svc.invoke('catalog:reveal', { id: room.id })
    expect(r?.asset.name).toBe('Room')
    expect(r?.levels.map((l) => [l.parent, l.children.map((c) => c.name)])).toEqual([
      [null, ['Game', 'Other']],
      [game.id, ['Beach', 'Tunnel']],
      [tunnel.id, ['Room']],
    ])
    // a limit pages each level as catalog:children would
    expect((await t.svc.invoke('catalog:reveal', { id: room.id, limit: 1 }))?.levels.map((l) => l.children.length)).toEqual([1, 1, 1])
    expect(await t.svc.invoke('catalog:reveal', { id: 987654 })).toBeNull()
  })
})
