/** The shared manifest of Pokémon Ultra Sun/Moon GF package sets (see src-shared/domain.ts). */
import { count, defineDomain, num } from '../../domain'
import { romfsRelative } from './romfs-path'

/** `Pokémon models (a/0/9/4)`: the archive's path below the romfs folder of its dump (else its file name). */
export function garcSourceName(p: string): string {
  return `Pokémon models (${romfsRelative(p) ?? p.split(/[\\/]+/).filter(Boolean).pop() ?? p})`
}

export const gfDomain = defineDomain({
  id: 'gf',
  title: 'Pokémon Ultra Sun/Moon GF sets',
  about: { files: 'the romfs archive a/0/9/4 and its GF sets', does: 'replace textures from PNG and write a LayeredFS mod; models, shiny colours and motions; glTF export.' },
  sourceKinds: {
    'gf-set': { label: 'GF set folder', icon: '▦', editor: true, actions: ['extract'] },
    'gf-models': {
      label: 'Pokémon models', editor: true, icon: '◉', sourceName: garcSourceName,
      hint: 'The model archive of a Pokémon Ultra Sun/Moon romfs dump (a/0/9/4): one set per Pokémon and form, named from its textures.',
    },
    'gf-garc': { label: 'GARC archive', icon: '▤', hint: 'A GARC archive of a 3DS romfs that holds no Pokémon model sets: listed, not opened.' },
  },
  assetKinds: {
    'gf-file': { label: 'Set file', icon: '▤', editor: true },
    'gf-texture': { label: 'Texture', icon: '▨', editor: true, actions: ['replace', 'extract'] },
    'gf-garc-set': {
      actions: ['export'], label: 'Pokémon', editor: true, icon: '●', scene: true,
      hint: 'A nine-file GF set inside the model archive (entries 9N … 9N+8): its models, textures and motions; its scene and export are the high-poly model with every motion.',
      summary: (m) => [typeof m.set === 'number' ? `set ${m.set}` : null, typeof m.species === 'number' ? `#${m.species}` : null, typeof m.form === 'number' && m.form ? `form ${m.form}` : null],
    },
    'gf-garc-entry': { label: 'Archive entry', icon: '□', hint: 'An entry of the archive outside the nine-file sets: kept byte for byte when the archive is written.' },
    'gf-entry': { label: 'Entry', icon: '□', hint: 'A shader or other entry of the set: kept byte for byte when the set is repacked.' },
    'gf-model': {
      actions: ['export'], label: 'Model', icon: '●', scene: true, editor: true,
      hint: 'The Pokémon (high or low poly): skinned meshes, materials, skeleton and every motion of the set.',
      summary: (m) => [typeof m.lod === 'string' ? `${m.lod} poly` : null, count(num(m, 'bones'), 'bone'), count(num(m, 'triangles'), 'triangle'), typeof m.error === 'string' ? 'broken' : null],
    },
    'gf-motion': {
      actions: ['export'], label: 'Motion', icon: '♪', scene: true, editor: true,
      hint: 'A motion of the set (battle, Pokémon Refresh, field or extra), played on the model.',
      summary: (m) => [typeof m.label === 'string' ? m.label : null, count(num(m, 'frames'), 'frame'), typeof m.error === 'string' ? 'broken' : null],
    },
  },
  welcome: [
    {
      id: 'gf', title: 'Replace textures in a GF set', sources: ['gf-set'],
      text: 'See every texture of a 0–8.bin set, replace some from PNGs (with the PSNR of the re-encode) and repack.',
    },
    {
      id: 'gf-model', title: 'See a Pokémon with its motions', sources: ['gf-set'], opens: 'gf-model',
      text: 'The model of a GF set with skeleton, shiny colouring and every motion; export it (or a whole dump) as glTF.',
    },
  ],
})
