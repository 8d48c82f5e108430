import { describe, expect, it } from 'vitest'
import { matchPngs, safeName } from '../../../../../src-shared/formats/gf/png-names'

/**
 * Matching a folder of PNGs to a set's textures by name. The cases are written by hand: a set
 * whose 1.bin and 2.bin (normal and shiny) share texture names, as USUM sets do.
 */
const T = (file: string, entry: number, name: string, width = 32, height = 32) => ({ file, entry, name, width, height })
const textures = [T('1.bin', 0, 'Body', 64, 64), T('1.bin', 1, 'Eye'), T('2.bin', 0, 'Body', 64, 64), T('2.bin', 1, 'Eye'), T('3.bin', 0, 'Rim', 16, 8), T('3.bin', 1, 'a/b')]
const P = (rel: string, width = 32, height = 32) => ({ rel, width, height })

describe('matchPngs', () => {
  it('matches the gf extract layout <file>/<entry>_<name>.png exactly, normal and shiny apart', () => {
    const r = matchPngs(textures, [P('1/0_Body.png', 64, 64), P('2/0_Body.png', 64, 64), P('2/1_Eye.png')])
    expect(r.matched).toEqual([
      { png: '1/0_Body.png', file: '1.bin', entry: 0, name: 'Body' },
      { png: '2/0_Body.png', file: '2.bin', entry: 0, name: 'Body' },
      { png: '2/1_Eye.png', file: '2.bin', entry: 1, name: 'Eye' },
    ])
    expect(r.ambiguous).toEqual([])
    expect(r.unmatched).toEqual([])
  })

  it('a bare <name>.png matches a unique name; a shared one is ambiguous with its candidates', () => {
    const r = matchPngs(textures, [P('Rim.png', 16, 8), P('Eye.png'), P('0_Body.png', 64, 64)])
    expect(r.matched).toEqual([{ png: 'Rim.png', file: '3.bin', entry: 0, name: 'Rim' }])
    expect(r.ambiguous).toEqual([
      { png: '0_Body.png', candidates: ['1.bin #0', '2.bin #0'] },
      { png: 'Eye.png', candidates: ['1.bin #1', '2.bin #1'] },
    ])
  })

  it('reports a wrong size with both sizes and does not match it', () => {
    const r = matchPngs(textures, [P('3/Rim.png', 8, 8)])
    expect(r.matched).toEqual([])
    expect(r.wrongSize).toEqual([{ png: '3/Rim.png', file: '3.bin', entry: 0, name: 'Rim', width: 8, height: 8, expectedWidth: 16, expectedHeight: 8 }])
  })

  it('unknown names, wrong folders, wrong entries and non-PNG files match nothing', () => {
    const r = matchPngs(textures, [P('Nose.png'), P('4/0_Body.png', 64, 64), P('3/7_Rim.png', 16, 8), P('Rim.txt')])
    // 3/7_Rim.png names entry 7, which holds no Rim; no texture is called "7_Rim" either
    expect(r.matched).toEqual([])
    expect(r.unmatched).toEqual(['3/7_Rim.png', '4/0_Body.png', 'Nose.png'])
  })

  it('two PNGs for one texture: the more specific name wins, the other is reported unmatched', () => {
    const r = matchPngs(textures, [P('Rim.png', 16, 8), P('3/0_Rim.png', 16, 8)])
    expect(r.matched).toEqual([{ png: '3/0_Rim.png', file: '3.bin', entry: 0, name: 'Rim' }])
    expect(r.unmatched).toEqual(['Rim.png'])
  })

  it('names with path characters are matched in their safe form (as gf extract writes them)', () => {
    expect(safeName('a/b')).toBe('a_b')
    const r = matchPngs(textures, [P('3/1_a_b.png')])
    expect(r.matched).toEqual([{ png: '3/1_a_b.png', file: '3.bin', entry: 1, name: 'a/b' }])
  })
})
