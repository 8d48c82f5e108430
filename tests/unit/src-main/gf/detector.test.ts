import { describe, expect, it } from 'vitest'
import { gfSetDetector } from '../../../../src-main/domains/gf/detector'
import { buildSyntheticSet } from '../../../fixtures/gf/build-set'
import { FormatError } from '../../../../src-shared/binary/errors'

describe('gf-set folder detector', () => {
  const s = buildSyntheticSet(1)

  it('matches a folder holding the set files, and only those members', () => {
    const names = ['0.bin', '1.bin', '2.bin', '3.bin', '4.bin', '5.bin', '6.bin', '7.bin', '8.bin', 'notes.txt']
    expect(gfSetDetector.matchFolder(names)).toBe(true)
    expect(gfSetDetector.members(names)).toEqual(names.slice(0, 9))
    expect(gfSetDetector.matchFolder(['0.bin', '1.bin', 'x.bin'])).toBe(false)
    expect(gfSetDetector.matchFolder(['2.bin', '3.bin', '4.bin', '5.bin', '6.bin', '7.bin', '8.bin'])).toBe(false)
    expect(gfSetDetector.members(['0.BIN', '1.bin'])).toEqual(['0.BIN', '1.bin'])
  })

  it('enumerates files → entries, textures with name, size, format, mipmaps and locator', async () => {
    const res = await gfSetDetector.enumerate(s.files, '/x/set')
    expect(res.kind).toBe('gf-set')
    const files = res.assets.filter((a) => a.kind === 'gf-file')
    expect(files.map((f) => f.name)).toEqual(['0.bin', '1.bin', '2.bin', '3.bin', '4.bin', '5.bin', '6.bin', '7.bin', '8.bin'])
    expect(files.every((f) => f.parentKey === undefined)).toBe(true)
    const tex = res.assets.filter((a) => a.kind === 'gf-texture')
    expect(tex.length).toBe(s.textures.length)
    const eye = tex.find((t) => t.name === 'pm0999_00_Eye1' && t.locator.file === '1.bin')!
    expect(eye).toMatchObject({ parentKey: '1.bin', locator: { file: '1.bin', entry: 2 }, metadata: { width: 32, height: 32, format: 'RGBA8', mipmaps: 1 } })
    const entries = res.assets.filter((a) => a.kind === 'gf-entry')
    expect(entries.find((e) => e.key === '4.bin#1')!.metadata).toMatchObject({ kind: 'unknown', note: 'empty' })
    // Models and motions are assets of their own (issue 11), under their file.
    const idle = res.assets.find((a) => a.key === '4.bin#0')!
    expect(idle).toMatchObject({ kind: 'gf-motion', name: '4.bin/0 Idle', parentKey: '4.bin', locator: { file: '4.bin', entry: 0 }, metadata: { frames: 20, loop: true, skeletal: 4, material: 1, visibility: 1, label: 'Idle' } })
    expect(idle.tags).toContain('Idle')
    const high = res.assets.find((a) => a.key === '0.bin#0')!
    expect(high).toMatchObject({ kind: 'gf-model', name: 'PM_HighPoly', parentKey: '0.bin', metadata: { lod: 'high', bones: 4, meshes: 2, vertices: 12, triangles: 6 } })
    expect(high.tags).toEqual(expect.arrayContaining(['model', 'high', 'Waist', 'EyeMat', 'pm0999_00_Eye1']))
    expect(res.assets.find((a) => a.key === '0.bin#1')).toMatchObject({ kind: 'gf-model', name: 'PM_LowPoly', metadata: { lod: 'low' } })
    expect(entries.find((e) => e.key === '0.bin#2')!.metadata).toMatchObject({ kind: 'package', entries: 2 })
    expect(entries.find((e) => e.key === '0.bin#2#1')!.parentKey).toBe('0.bin#2')
    // keys are unique within the source and every parent exists
    const keys = new Set(res.assets.map((a) => a.key))
    expect(keys.size).toBe(res.assets.length)
    for (const a of res.assets) if (a.parentKey) expect(keys.has(a.parentKey)).toBe(true)
  })

  it('records a bad texture on its entry; a file with a bad package header is listed as damaged, the others indexed', async () => {
    const m = new Map(s.files)
    const b = m.get('3.bin')!.slice()
    b[new DataView(b.buffer).getUint32(4, true) + 0x6c] = 0x66
    m.set('3.bin', b)
    const res = await gfSetDetector.enumerate(m, '/x')
    expect(res.assets.find((a) => a.key === '3.bin#0')).toMatchObject({ kind: 'gf-entry', metadata: { kind: 'texture' } })
    m.set('4.bin', Uint8Array.from([1, 2, 3, 4, 5]))
    const hurt = await gfSetDetector.enumerate(m, '/x')
    const bad = hurt.assets.find((a) => a.key === '4.bin')!
    expect(bad).toMatchObject({ kind: 'gf-file', name: '4.bin (damaged)', metadata: { size: 5 } })
    // what is wrong (the structure and offset), that the rest is usable, what to do
    expect(String(bad.metadata!.error)).toMatch(/^4\.bin is damaged and was left out \(.*Package.*0x0.*\); the set's other files are usable\. Replace 4\.bin with an intact copy/)
    expect(hurt.assets.some((a) => a.key.startsWith('4.bin#'))).toBe(false)
    // every texture of the other files is still there
    expect(hurt.assets.filter((a) => a.kind === 'gf-texture').length).toBe(res.assets.filter((a) => a.kind === 'gf-texture').length)
    expect((hurt.metadata as { warnings: string[] }).warnings).toContain(bad.metadata!.error)
  })

  it('a folder of set files that is no set says which file is damaged (structure, offset) or which files are missing, and what to do', async () => {
    const read = (files: Map<string, Uint8Array>) => async (n: string) => files.get(n)!
    const bad = new Map([['0.bin', new TextEncoder().encode('this is no GF package')]])
    // 't','h' (0x74 0x68) where the package's two-letter magic sits at offset 0
    const damaged = await gfSetDetector.explainPartial!(['0.bin', 'notes.txt'], read(bad))
    expect(damaged?.file).toBe('0.bin')
    expect(damaged?.message).toMatch(/^0\.bin is damaged: its Package at offset 0x0 is wrong \(magic 0x74 0x68 .*\).*Replace 0\.bin with an intact copy/)
    const lone = await gfSetDetector.explainPartial!(['0.bin'], read(new Map([['0.bin', s.files.get('0.bin')!]])))
    expect(lone).toEqual({ file: '0.bin', message: expect.stringMatching(/^0\.bin is part of a GF set, but 1\.bin, 2\.bin, 3\.bin, 4\.bin, 5\.bin, 6\.bin, 7\.bin, 8\.bin are missing .*Copy the set's other files beside 0\.bin/) })
    expect(await gfSetDetector.explainPartial!(['notes.txt', 'a.png'], read(new Map()))).toBeNull()
  })
})
