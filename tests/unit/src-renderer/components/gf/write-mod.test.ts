import { describe, expect, it } from 'vitest'
import { defaultTarget, modFile, romfsPath, writeModReq, writtenLine } from '../../../../../src-renderer/components/gf/write-mod'
import { archiveSet, besideDump, gfSetPath } from '../../../../../src-renderer/components/gf/set-path'
import type { AssetRow } from '../../../../../src-shared/api'

/** Write mod's paths and request (issue 22 item 4), and how a view names a set inside the archive. */
describe('write mod helpers', () => {
  const archive = '/home/me/usum/romfs/a/0/9/4'

  it('the LayeredFS file mirrors the path below romfs under luma/titles/<id>/romfs (spec §19.8)', () => {
    expect(romfsPath(archive)).toBe('a/0/9/4')
    expect(romfsPath('/x/model.garc')).toBe('model.garc')
    expect(modFile(archive, { kind: 'layeredfs', dir: '/sd/', title: '00040000001b5100' })).toBe('/sd/luma/titles/00040000001B5100/romfs/a/0/9/4')
    expect(modFile(archive, { kind: 'archive', out: '/mods/a094' })).toBe('/mods/a094')
  })

  it('defaults beside the dump, never inside it; Ultra Sun first', () => {
    expect(defaultTarget(archive)).toEqual({ kind: 'layeredfs', dir: '/home/me/usum-mod', title: '00040000001B5000' })
    expect(besideDump('/x/model.garc', 'png')).toBe('/x/model.garc-png')
  })

  it('one request for every set with a list; sets without replacements are left out', () => {
    const p = (set: string, file: string, entry: number, extra: object) => ({ set, file, entry, name: 'T', psnr: null, resized: false, ...extra })
    const lists = new Map([
      [`${archive}#12`, [p(`${archive}#12`, '1.bin', 0, { path: '/p/a.png' }), p(`${archive}#12`, '2.bin', 0, { png: new Uint8Array([1]) })]],
      [`${archive}#3`, []],
    ])
    expect(writeModReq(archive, lists, { kind: 'layeredfs', dir: '/sd', title: '00040000001B5000' }, 'j')).toEqual({
      archive, jobId: 'j', resize: true,
      target: { layeredfs: '/sd', title: '00040000001B5000' },
      sets: [{ set: 12, replacements: [{ file: '1.bin', entry: 0, path: '/p/a.png' }, { file: '2.bin', entry: 0, png: new Uint8Array([1]) }] }],
    })
    expect(writeModReq(archive, lists, { kind: 'archive', out: '/m' }, 'j', true)).toMatchObject({ target: { out: '/m' }, overwrite: true })
    expect(writtenLine({ out: '/m', sets: [{ set: 12, changed: ['1.bin', '2.bin'], replaced: 2 }, { set: 3, changed: [], replaced: 1 }], warnings: [] })).toBe('Wrote /m: set 12 (2 textures, 1.bin, 2.bin); set 3 (1 texture)')
  })

  it('a gf-garc-set asset names ARCHIVE#N; a folder set its folder', () => {
    const asset = { id: 2, sourceId: 1, parent: null, kind: 'gf-garc-set', name: 'Pikachu', locator: { set: 25, first: 225 }, metadata: {}, childCount: 0 } as AssetRow
    expect(gfSetPath(asset, null, [{ id: 1, path: archive }])).toBe(`${archive}#25`)
    expect(gfSetPath({ ...asset, kind: 'gf-texture' }, null, [{ id: 1, path: '/sets/pm0025' }])).toBe('/sets/pm0025')
    expect(archiveSet(`${archive}#25`)).toEqual({ archive, set: 25 })
    expect(archiveSet('/sets/pm0025')).toBeNull()
  })
})
