/** The shared manifest of Pokémon Ultra Sun/Moon GF package sets (see src-shared/domain.ts). */
import { defineDomain } from '../../domain'

export const gfDomain = defineDomain({
  id: 'gf',
  title: 'Pokémon Ultra Sun/Moon GF sets',
  sourceKinds: {
    'gf-set': { label: 'GF set folder', icon: '▦', editor: true },
  },
  assetKinds: {
    'gf-file': { label: 'Set file', icon: '▤', editor: true },
    'gf-texture': { label: 'Texture', icon: '▨', editor: true },
    'gf-entry': { label: 'Entry', icon: '□', hint: 'A model, motion or shader entry of the set: kept byte for byte when the set is repacked.' },
  },
  welcome: [
    {
      id: 'gf', title: 'Replace textures in a GF set', sources: ['gf-set'],
      text: 'See every texture of a 0–8.bin set, replace some from PNGs (with the PSNR of the re-encode) and repack.',
    },
  ],
})
