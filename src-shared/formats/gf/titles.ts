/**
 * 3DS title ids of the Alola games as spec gf-packages §19.8 lists them (from public 3DS title
 * tables): where Luma3DS looks for a LayeredFS romfs, `luma/titles/<id>/romfs/`. Other ids (another
 * region's copy, if it has its own) are typed in: `--title` takes any 16 hex digits.
 */
export interface GameTitle {
  id: string
  name: string
}

export const ALOLA_TITLES: readonly GameTitle[] = [
  { id: '00040000001B5000', name: 'Pokémon Ultra Sun' },
  { id: '00040000001B5100', name: 'Pokémon Ultra Moon' },
  { id: '0004000000164800', name: 'Pokémon Sun' },
  { id: '0004000000175E00', name: 'Pokémon Moon' },
]

/** True for a 16-digit hex title id (any case). */
export const isTitleId = (s: string): boolean => /^[0-9A-Fa-f]{16}$/.test(s)
