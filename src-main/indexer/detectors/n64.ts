import { createHash } from 'node:crypto'
import type { FileDetector } from '../detector'
import { detectByteOrder, normaliseRom, openRom } from '../../../src-shared/formats/n64/rom'
import { hasSnapLayout } from '../../../src-shared/formats/snap/overlay'
import { enumerateSnapRom } from './snap'
import { enumerateStadiumRom, looksLikeStadiumImage } from './stadium'

/**
 * N64 ROMs in any byte order. Identified by the MD5 of the normalised image (Snap/Stadium US
 * 1.0); an image with another MD5 whose header names one of them opens with that game's layout
 * and is marked unverified; any other N64 ROM is listed with its header name and code.
 */
export const n64Detector: FileDetector = {
  id: 'n64-rom',
  kind: 'n64-rom',
  matchContent: (input) => detectByteOrder(input.head) !== null,
  extensions: /\.(z64|v64|n64)$/,
  enumerate(bytes, input) {
    const { image } = normaliseRom(bytes, input.path)
    // The indexer hashed the file's bytes in its one read: the same MD5 when no byte swap was needed.
    const md5 = image === bytes && input.md5 ? input.md5 : createHash('md5').update(image).digest('hex')
    const rom = openRom(image === bytes ? bytes : image, input.path, md5)
    const byteOrder = normaliseRom(bytes.subarray(0, 4), input.path).byteOrder
    const metadata = {
      title: rom.header.name,
      code: rom.header.code,
      region: rom.header.region,
      version: rom.header.version,
      md5: rom.md5,
      byteOrder,
      game: rom.game,
      ...(rom.game !== 'other' ? { verified: rom.verified } : {}),
      size: bytes.length,
    }
    if (rom.game === 'snap') return { kind: 'snap-rom', metadata, assets: enumerateSnapRom({ ...rom, byteOrder }) }
    // An image whose header names no known game but has Snap's overlay layout or Stadium's model
    // archive at 0x920000 opens with that game's layout, unverified (both specs: warn, still load).
    if (rom.game === 'other' && hasSnapLayout(rom.image)) {
      const meta = { ...metadata, game: 'snap', verified: false }
      return { kind: 'snap-rom', metadata: meta, assets: enumerateSnapRom({ ...rom, game: 'snap', byteOrder }) }
    }
    if (rom.game === 'other' && looksLikeStadiumImage(rom.image)) {
      const meta = { ...metadata, game: 'stadium', verified: false }
      return { kind: 'stadium-rom', metadata: meta, assets: enumerateStadiumRom({ ...rom, game: 'stadium', byteOrder }) }
    }
    if (rom.game === 'stadium') return { kind: 'stadium-rom', metadata, assets: enumerateStadiumRom({ ...rom, byteOrder }) }
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
