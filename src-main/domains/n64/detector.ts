import type { FileDetector } from '../../plugin/detector'
import { detectByteOrder } from '../../../src-shared/formats/n64/rom'
import type { N64Game } from '../../plugin/domain'
import { nodeDomains } from '../../plugin/registry'
import { openN64Bytes } from './rom-file'

/** The N64 games of the registered domains (each domain's manifest lists its `n64Games`). */
function n64Games(): N64Game[] {
  return nodeDomains().flatMap((d) => d.n64Games ?? [])
}

/**
 * N64 ROMs in any byte order, handed to the registered game whose `n64Games` entry claims them:
 * by the MD5 of the normalised image (verified); by a header that names the game (unverified); or,
 * when the header names no known game, by the game's layout probe (`looksLike`; unverified: the
 * specs say warn, still load). Any other N64 ROM is listed with its header name and code.
 */
export const n64Detector: FileDetector<string> = { // its assets are the claiming game's (typed where that game declares them)
  id: 'n64-rom',
  kind: 'n64-rom',
  matchContent: (input) => detectByteOrder(input.head) !== null,
  extensions: /\.(z64|v64|n64)$/,
  async enumerate(bytes, input) {
    const games = n64Games()
    const rom = openN64Bytes(bytes, input.path, input.md5, games.map((g) => g.identity))
    const metadata = {
      title: rom.header.name,
      code: rom.header.code,
      region: rom.header.region,
      version: rom.header.version,
      md5: rom.md5,
      byteOrder: rom.byteOrder,
      game: rom.game,
      ...(rom.game !== 'other' ? { verified: rom.verified } : {}),
      size: bytes.length,
    }
    const named = games.find((g) => g.identity.game === rom.game)
    if (named) return { kind: named.sourceKind, metadata, assets: named.enumerate(rom) }
    const alike = rom.game === 'other' ? games.find((g) => g.looksLike(rom.image)) : undefined
    if (alike) return { kind: alike.sourceKind, metadata: { ...metadata, game: alike.identity.game, verified: false }, assets: alike.enumerate({ ...rom, game: alike.identity.game }) }
    const name = `${rom.header.name || 'N64 ROM'}${rom.header.code.trim() ? ` (${rom.header.code})` : ''}`
    return { kind: 'n64-rom', metadata, assets: [{ key: 'rom', kind: 'n64-rom', name, locator: {}, metadata: romIdentity(metadata), tags: ['n64', rom.header.code] }] }
  },
}

/**
 * What identifies the image itself, for the ROM's asset: the same for .z64/.v64/.n64 copies
 * (the stored byte order stays in the source's metadata).
 */
function romIdentity(meta: Record<string, unknown>): Record<string, unknown> {
  const { byteOrder: _stored, ...identity } = meta
  return identity
}
