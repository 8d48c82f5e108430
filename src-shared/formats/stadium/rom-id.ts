/**
 * How the N64 platform knows a Pokémon Stadium image (pokemon-stadium.md §2): the US 1.0 MD5 and
 * the header name (Stadium 2's name starts the same and is another game).
 */
import type { N64Identity } from '../n64/rom'
import { stadiumDomain } from './domain'

/** MD5 of the normalised (big-endian) US 1.0 image. */
export const STADIUM_US_MD5 = 'ed1378bc12115f71209a77844965ba50'

export const stadiumRomId: N64Identity = {
  game: stadiumDomain.id,
  title: stadiumDomain.title,
  md5s: [STADIUM_US_MD5],
  namesHeader: (h) => {
    const n = h.name.toUpperCase()
    return n.startsWith('POKEMON STADIUM') && !n.startsWith('POKEMON STADIUM 2')
  },
}
