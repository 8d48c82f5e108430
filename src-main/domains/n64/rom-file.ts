/**
 * Reading N64 ROM files for the games on the N64: the size limits of an N64 image applied through
 * the one `readGameFile`, and identification among the identities the caller passes.
 */
import { createHash } from 'node:crypto'
import { normaliseRom, openRom, type N64Identity, type N64Rom } from '../../../src-shared/formats/n64/rom'
import { readGameFile, unpackGameBytes, type GameFileLimits } from '../../node/game-file'

/** The largest N64 image is 64 MiB; twice that is refused before reading or inflating. */
export const MAX_ROM_UNPACKED = 128 * 1024 * 1024

export const N64_FILE_LIMITS: GameFileLimits = { maxBytes: MAX_ROM_UNPACKED, noun: 'an N64 image', note: 'at most 64 MiB' }

/** The bytes of an N64 ROM file (gzip-wrapped samples inflated), errors naming the file as `label` says. */
export function readN64File(file: string, label: GameFileLimits['label'] = 'path'): Promise<Uint8Array> {
  return readGameFile(file, { ...N64_FILE_LIMITS, label })
}

/** Bytes already read (a scene build's cached source): gzip inflated under the same ISIZE guard. */
export function unpackN64Bytes(raw: Uint8Array, name: string): Uint8Array {
  return unpackGameBytes(raw, name, N64_FILE_LIMITS)
}

/**
 * Opens N64 ROM bytes in any byte order: the normalised image identified among `games` by its MD5
 * (node:crypto) or header, with the byte order the file was stored in. `knownMd5` is the MD5 of
 * `bytes` when the caller has it.
 */
export function openN64Bytes(bytes: Uint8Array, file: string, knownMd5: string | undefined, games: readonly N64Identity[]): N64Rom {
  const { image } = normaliseRom(bytes, file)
  // The indexer hashes a file's bytes in its one read: the same MD5 when no byte swap was needed.
  const md5 = image === bytes && knownMd5 ? knownMd5 : createHash('md5').update(image).digest('hex')
  const rom = openRom(image === bytes ? bytes : image, file, md5, games)
  return { ...rom, byteOrder: normaliseRom(bytes.subarray(0, 4), file).byteOrder }
}
