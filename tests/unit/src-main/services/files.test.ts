import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { samplesDir } from '../../../../src-main/catalog/paths'
import { Services } from '../../../../src-main/services/index'

/**
 * Browser mode's file browser service (`fs:list`: folders first, sizes from the disk, kinds from
 * the indexer's detectors, only inside the browsable roots), the overwrite rule of writes, and
 * removing a source (a failed one too) from the catalog.
 */
let dir: string
let cat: Catalog
let svc: Services

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-files-'))
  cat = openCatalog(path.join(dir, 'c.sqlite'))
  svc = new Services(cat)
})
afterEach(() => {
  svc.dispose()
  cat.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('fs:list', () => {
  it('lists the samples: folders first, real sizes, detected kinds', async () => {
    const l = await svc.invoke('fs:list', { path: samplesDir() })
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
    const set = await svc.invoke('fs:list', { path: path.join(samplesDir(), 'gf-set') })
    expect(set.kind).toBe('gf-set')
    expect(set.parent).toBe(samplesDir())
    expect(set.entries.filter((e) => e.type === 'file')).toHaveLength(9)
  })

  it('a file path lists its folder; outside every root is refused; a chosen folder becomes browsable', async () => {
    const l = await svc.invoke('fs:list', { path: path.join(samplesDir(), 'snap-sample.z64.gz') })
    expect(l.path).toBe(samplesDir())
    const outside = fs.mkdtempSync('/dev/shm/mb-outside-')
    try {
      fs.writeFileSync(path.join(outside, 'a.bin'), 'abc')
      await expect(svc.invoke('fs:list', { path: outside })).rejects.toThrow(/outside the folders/)
      await svc.invoke('fs:grant', { path: outside })
      const g = await svc.invoke('fs:list', { path: outside })
      expect(g.entries).toEqual([expect.objectContaining({ name: 'a.bin', type: 'file', size: 3, kind: null })])
      expect(g.parent, 'a root has no parent to climb to').toBeNull()
      expect(await svc.invoke('fs:stat', { path: path.join(outside, 'a.bin') })).toEqual({ type: 'file', size: 3 })
      expect(await svc.invoke('fs:stat', { path: path.join(outside, 'b.bin') })).toBeNull()
    } finally {
      fs.rmSync(outside, { recursive: true, force: true })
    }
  })
})

describe('writes ask before replacing', () => {
  it('an existing file is refused with code exists unless overwrite is true', () => {
    svc.ctx.grantPath(dir)
    const p = path.join(dir, 'out.png')
    expect(svc.allowPath(p, 'write')).toBe(p)
    fs.writeFileSync(p, 'old')
    let err: (Error & { code?: string }) | null = null
    try {
      svc.allowPath(p, 'write')
    } catch (e) {
      err = e as Error & { code?: string }
    }
    expect(err?.code).toBe('exists')
    expect(err?.message).toContain(p)
    expect(svc.allowPath(p, 'write', { overwrite: true })).toBe(p)
    expect(svc.allowPath(p, 'read')).toBe(p)
    expect(fs.readFileSync(p, 'utf8')).toBe('old')
  })
})

describe('catalog:removeSource', () => {
  it('forgets an indexed source with its assets, and a failed source, leaving files alone', async () => {
    const f = path.join(dir, 'a.z64')
    fs.writeFileSync(f, 'x')
    const { sourceId } = cat.replaceSource({ path: f, size: 1, mtime: 1, hash: 'h', kind: 'n64-rom' }, [{ key: 'r', kind: 'n64-rom', name: 'Rom', locator: {} }])
    const failed = cat.recordError({ path: path.join(dir, 'bad.z64'), size: 1, mtime: 1, hash: 'h2', kind: 'unknown' }, 'not a ROM')
    const events: string[] = []
    svc.on((e, p) => events.push(`${e} ${JSON.stringify(p)}`))
    expect(await svc.invoke('catalog:removeSource', { id: failed })).toEqual({ removed: true })
    expect(await svc.invoke('catalog:removeSource', { id: sourceId })).toEqual({ removed: true })
    expect(await svc.invoke('catalog:removeSource', { id: sourceId })).toEqual({ removed: false })
    expect(cat.sources()).toEqual([])
    expect(cat.assetCount()).toBe(0)
    expect(fs.existsSync(f)).toBe(true)
    expect(events).toEqual([`catalog:changed {"sourceIds":[${failed}]}`, `catalog:changed {"sourceIds":[${sourceId}]}`])
  })
})
