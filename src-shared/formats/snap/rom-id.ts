/** How the N64 platform knows a Pokémon Snap image (pokemon-snap.md §1): the US 1.0 MD5 and the header name. */
import type { N64Identity } from '../n64/rom'
import { snapDomain } from './domain'

/** MD5 of the normalised (big-endian) US 1.0 image. */
export const SNAP_US_MD5 = '9b10b9d70dac67ae40953148fbe9cb96'

export const snapRomId: N64Identity = {
  game: snapDomain.id,
  title: snapDomain.title,
  md5s: [SNAP_US_MD5],
  namesHeader: (h) => h.name.toUpperCase().startsWith('POKEMON SNAP'),
}
