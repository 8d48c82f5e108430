/** Node side of Snap's file access: a ROM file opened as Pokémon Snap. */
import { FormatError } from '../../../src-shared/binary'
import { hasSnapLayout } from '../../../src-shared/formats/snap/overlay'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'
import { snapRomId } from '../../../src-shared/formats/snap/rom-id'
import { n64Identities } from '../../plugin/registry'
import { openN64Bytes, readN64File } from '../n64/rom-file'

/**
 * Opens a ROM as Pokémon Snap: MD5-verified, or unverified when the header names the game, or
 * (for `snap` commands, which say what the file is) when the header names no known game but the
 * overlay table has the Snap layout (`headerMismatch`: callers warn). An image another registered
 * N64 game claims, or without the layout, is refused.
 */
export function openSnapRom(bytes: Uint8Array, file: string): N64Rom & { headerMismatch?: boolean } {
  const rom = openN64Bytes(bytes, file, undefined, [snapRomId, ...n64Identities()])
  if (rom.game === 'snap') return rom
  if (!(rom.game === 'other' && hasSnapLayout(rom.image, file))) {
    throw new FormatError(`not a Pokémon Snap ROM (header name ${JSON.stringify(rom.header.name)}, MD5 ${rom.md5})`, { file, structure: 'N64Header', offset: 0x20 })
  }
  return { ...rom, game: 'snap', headerMismatch: true }
}

/** A Snap ROM file (gzip samples inflated; size and ISIZE guarded by `readGameFile`). */
export async function loadSnapRom(file: string): Promise<N64Rom & { headerMismatch?: boolean }> {
  return openSnapRom(await readN64File(file), file)
}
