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

  it('a flat folder: a bare name shared by 1.bin and 2.bin is the normal texture, <name>_shiny.png the shiny one', () => {
    // The folder that replaced 0 textures before: every name fitted both copies and was refused as ambiguous.
    const r = matchPngs(textures, [P('Rim.png', 16, 8), P('Eye.png'), P('0_Body.png', 64, 64), P('Body_shiny.png', 64, 64), P('1_Eye_SHINY.png')])
    expect(r.matched).toEqual([
      { png: '0_Body.png', file: '1.bin', entry: 0, name: 'Body' },
      { png: 'Eye.png', file: '1.bin', entry: 1, name: 'Eye' },
      { png: 'Body_shiny.png', file: '2.bin', entry: 0, name: 'Body' },
      { png: '1_Eye_SHINY.png', file: '2.bin', entry: 1, name: 'Eye' },
      { png: 'Rim.png', file: '3.bin', entry: 0, name: 'Rim' },
    ])
    expect(r.ambiguous).toEqual([])
    expect(r.unmatched).toEqual([])
  })

  it('1/ and 2/ folders (also 1.bin/, normal/, shiny/) pick the file; _shiny outside 2.bin names nothing', () => {
    const r = matchPngs(textures, [P('1.bin/Eye.png'), P('shiny/0_Body.png', 64, 64), P('normal/Body.png', 64, 64), P('2/Eye.png'), P('1/Body_shiny.png', 64, 64), P('Rim_shiny.png', 16, 8)])
    expect(r.matched).toEqual([
      { png: 'normal/Body.png', file: '1.bin', entry: 0, name: 'Body' },
      { png: '1.bin/Eye.png', file: '1.bin', entry: 1, name: 'Eye' },
      { png: 'shiny/0_Body.png', file: '2.bin', entry: 0, name: 'Body' },
      { png: '2/Eye.png', file: '2.bin', entry: 1, name: 'Eye' },
    ])
    expect(r.unmatched).toEqual(['1/Body_shiny.png', 'Rim_shiny.png'])
  })

  it('a name two entries of one file share stays ambiguous, with its candidates; a texture really named *_shiny is matched as such', () => {
    const more = [...textures, T('3.bin', 2, 'Rim', 16, 8), T('1.bin', 2, 'Fin_shiny'), T('2.bin', 2, 'Fin')]
    const r = matchPngs(more, [P('Rim.png', 16, 8), P('Fin_shiny.png')])
    expect(r.ambiguous).toEqual([{ png: 'Rim.png', candidates: ['3.bin #0', '3.bin #2'] }])
    expect(r.matched).toEqual([{ png: 'Fin_shiny.png', file: '1.bin', entry: 2, name: 'Fin_shiny' }])
  })

  it('a folder PNG beats a bare one for the same texture', () => {
    const r = matchPngs(textures, [P('Eye.png'), P('1/Eye.png'), P('Eye_shiny.png'), P('2/1_Eye.png')])
    expect(r.matched).toEqual([
      { png: '1/Eye.png', file: '1.bin', entry: 1, name: 'Eye' },
      { png: '2/1_Eye.png', file: '2.bin', entry: 1, name: 'Eye' },
    ])
    expect(r.unmatched).toEqual(['Eye.png', 'Eye_shiny.png'])
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
