/**
 * Title ids a LayeredFS mod folder is named by (`/luma/titles/<id>/romfs/…`, spec gf-packages
 * §19.8 [T]). These games ship one title id for every region, so the table has no region column.
 */
export interface GfTitle {
  game: string
  id: string
}

export const GF_TITLES: readonly GfTitle[] = [
  { game: 'Pokémon Ultra Sun', id: '00040000001B5000' },
  { game: 'Pokémon Ultra Moon', id: '00040000001B5100' },
  { game: 'Pokémon Sun', id: '0004000000164800' },
  { game: 'Pokémon Moon', id: '0004000000175E00' },
]

/** A title id as LayeredFS folders spell it (16 hex digits, upper case), or null. */
export function titleId(text: string): string | null {
  return /^[0-9A-Fa-f]{16}$/.test(text.trim()) ? text.trim().toUpperCase() : null
}
