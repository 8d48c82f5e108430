import { describe, expect, it } from 'vitest'
import type { AssetRow, SourceRow } from '../../../src-shared/api'
import { assetRow, folderRow, sourceRow } from '../../../src-renderer/stores/catalog-tree'
import { rowPath, treeActions } from '../../../src-renderer/tree-actions'

/** The tree's context menus: which entries each node gets, the kind-specific ones from the manifests. */
const src = (kind: string, path = '/m/x'): SourceRow => ({ id: 1, path, size: 1, mtime: 0, hash: 'h', kind: kind as SourceRow['kind'], status: 'indexed', error: null, indexedAt: 0 })
const asset = (kind: AssetRow['kind']) => assetRow({ id: 5, sourceId: 1, parent: null, kind, name: 'n', locator: {}, metadata: {}, childCount: 0 }, 2)
const ids = (r: Parameters<typeof treeActions>[0]) => treeActions(r).map((a) => a.id)

describe('treeActions', () => {
  it('a source: Open, its kind’s entries, Re-index, Remove, Reveal, Copy path', () => {
    expect(ids(sourceRow(src('gf-set')))).toEqual(['open', 'extract', 'reindex', 'remove', 'reveal', 'copy-path'])
    expect(ids(sourceRow(src('snap-rom')))).toEqual(['open', 'reindex', 'remove', 'reveal', 'copy-path'])
    // a failed source can be removed too
    expect(ids(sourceRow({ ...src('unknown'), status: 'error', error: 'bad' }))).toContain('remove')
  })

  it('an asset: the manifest’s entries (a texture: Replace…, Extract PNGs), never Remove', () => {
    expect(ids(asset('gf-texture'))).toEqual(['open', 'replace', 'extract', 'reindex', 'reveal', 'copy-path'])
    expect(treeActions(asset('gf-texture')).map((a) => a.label)).toEqual(['Open', 'Replace…', 'Extract PNGs', 'Re-index', 'Reveal in folder', 'Copy path'])
    expect(ids(asset('snap-stage'))).toEqual(['open', 'export', 'reindex', 'reveal', 'copy-path'])
  })

  it('a folder group and a "Load more" row', () => {
    const f = folderRow({ folder: '/m', sources: [src('gf-set')] }, true)
    expect(treeActions(f).map((a) => a.label)).toEqual(['Collapse', 'Index this folder again', 'Reveal in folder', 'Copy path'])
    expect(treeActions({ ...f, type: 'more' })).toEqual([])
  })

  it('the path a row stands for', () => {
    const sources = [{ id: 1, path: '/m/x.z64' }]
    expect(rowPath(folderRow({ folder: '/m', sources: [] }, true), sources)).toBe('/m')
    expect(rowPath(sourceRow(src('snap-rom', '/m/y.z64')), sources)).toBe('/m/y.z64')
    expect(rowPath(asset('snap-stage'), sources)).toBe('/m/x.z64')
  })
})
