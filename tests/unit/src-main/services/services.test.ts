import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { AccessDenied, Services } from '../../../../src-main/services/index'

let dir: string
let cat: Catalog
let svc: Services

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-svc-'))
  cat = openCatalog(path.join(dir, 'c.sqlite'))
  svc = new Services(cat)
})
afterEach(() => {
  svc.dispose()
  cat.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('Services.allowPath', () => {
  it('allows indexed sources and what is inside a set folder, refuses the rest', () => {
    const set = path.join(dir, 'set')
    fs.mkdirSync(set)
    fs.writeFileSync(path.join(set, '0.bin'), 'x')
    cat.replaceSource({ path: set, size: 1, mtime: 1, hash: 'h', kind: 'gf-set' }, [])
    expect(svc.allowPath(path.join(set, '0.bin'), 'read')).toBe(path.join(set, '0.bin'))
    expect(() => svc.allowPath('/etc/passwd', 'read')).toThrow(AccessDenied)
    expect(() => svc.allowPath(path.join(set, '..', '..', 'etc', 'passwd'), 'read')).toThrow(AccessDenied)
    expect(() => svc.allowPath(`${set}-evil/0.bin`, 'read')).toThrow(AccessDenied)
  })

  it('allows a chosen path, and writing a new file in a chosen folder', () => {
    const out = path.join(dir, 'out')
    expect(() => svc.allowPath(path.join(out, 'pose.motlist.663'), 'write')).toThrow(AccessDenied)
    svc.ctx.grantPath(out)
    expect(svc.allowPath(path.join(out, 'pose.motlist.663'), 'write')).toBe(path.join(out, 'pose.motlist.663'))
    expect(() => svc.allowPath(path.join(dir, 'elsewhere.bin'), 'read')).toThrow(AccessDenied)
  })
})

describe('Services dispatch', () => {
  it('answers catalog channels and rejects unknown ones', async () => {
    cat.replaceSource({ path: path.join(dir, 'a.z64'), size: 1, mtime: 1, hash: 'h', kind: 'n64-rom' }, [{ key: 'r', kind: 'n64-rom', name: 'Rom One', locator: {} }])
    const sources = await svc.invoke('catalog:sources', {})
    expect(sources.map((s) => s.kind)).toEqual(['n64-rom'])
    const kids = await svc.invoke('catalog:children', { sourceId: sources[0]!.id, parent: null })
    expect(kids.map((k) => k.name)).toEqual(['Rom One'])
    expect((await svc.invoke('catalog:search', { query: 'rom' })).length).toBe(1)
    expect(svc.has('catalog:sources')).toBe(true)
    expect(svc.has('nope:nothing')).toBe(false)
  })
})

describe('Services.allowPath for writes', () => {
  it('refuses writes outside every chosen or indexed place', () => {
    const src = path.join(dir, 'tpl', 'a.motlist.663')
    fs.mkdirSync(path.dirname(src))
    fs.writeFileSync(src, 'x')
    cat.replaceSource({ path: src, size: 1, mtime: 1, hash: 'h', kind: 're-motlist' }, [])
    expect(() => svc.allowPath('/root/x', 'write')).toThrow(AccessDenied)
    expect(() => svc.allowPath(path.join(dir, 'other', 'x.bin'), 'write')).toThrow(AccessDenied)
    // Next to an indexed file (same folder) is allowed: Save As… beside the template.
    expect(svc.allowPath(path.join(dir, 'tpl', 'pose.motlist.663'), 'write')).toBe(path.join(dir, 'tpl', 'pose.motlist.663'))
  })
})
