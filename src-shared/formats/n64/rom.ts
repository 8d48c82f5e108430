/**
 * N64 ROM images: byte-order detection and normalisation to big-endian `.z64`, header fields,
 * and identification by the MD5 of the normalised image or the header name (specs:
 * pokemon-snap.md §1, pokemon-stadium.md §2). The platform names no game: each game's folder
 * declares its `N64Identity` (formats/<game>/rom-id.ts) and callers pass the ones they know.
 */
import { md5 } from '@noble/hashes/legacy.js'
import { FormatError, hex } from '../../binary'

export type ByteOrder = 'z64' | 'v64' | 'n64'

/** The `game` of an image no identity claims. */
export const OTHER_GAME = 'other'

export interface N64Header {
  /** 0x00: PI domain-1 configuration, 0x80371240. */
  piConfig: number
  clockRate: number
  bootAddress: number
  libultraRelease: number
  crc1: number
  crc2: number
  /** 0x20: internal name, space padding removed. */
  name: string
  /** 0x3B: media type letter (`N` cartridge). */
  mediaType: string
  /** 0x3C: two-character game id. */
  gameId: string
  /** 0x3E: region letter (`E` USA). */
  region: string
  /** 0x3F: version byte. */
  version: number
  /** 0x3B–0x3E as one code, e.g. `NPFE`. */
  code: string
}

export interface N64Rom {
  file: string
  /** Byte order the file was stored in. */
  byteOrder: ByteOrder
  /** The normalised big-endian image (a copy when the input needed swapping). */
  image: Uint8Array
  header: N64Header
  /** MD5 (lower-case hex) of the normalised image. */
  md5: string
  /** The `game` of the identity that claimed the image, or `other`. */
  game: string
  /** True when the MD5 matched a known good image of `game` (its US 1.0). */
  verified: boolean
}

/** How a game on the N64 knows its images: declared by the game's own folder, never by the platform. */
export interface N64Identity {
  /** What `N64Rom.game` says for the game's images: its domain id. */
  game: string
  /** The game's name for messages ("this is Pokémon Snap"). */
  title: string
  /** MD5s (lower-case hex, of the normalised image) of the known good images: a match is verified. */
  md5s: readonly string[]
  /** The header's internal name names the game (a hack, another dump, a fixture): unverified. */
  namesHeader(header: N64Header): boolean
}

/** The byte order of an N64 image from its first four bytes, or null when it is not one. */
export function detectByteOrder(head: Uint8Array): ByteOrder | null {
  if (head.length < 4) return null
  const [a, b, c, d] = [head[0], head[1], head[2], head[3]]
  if (a === 0x80 && b === 0x37 && c === 0x12 && d === 0x40) return 'z64'
  if (a === 0x37 && b === 0x80 && c === 0x40 && d === 0x12) return 'v64'
  if (a === 0x40 && b === 0x12 && c === 0x37 && d === 0x80) return 'n64'
  return null
}

/** Returns the big-endian image: the input itself for `.z64`, a swapped copy otherwise. */
export function normaliseRom(bytes: Uint8Array, file = 'ROM'): { image: Uint8Array; byteOrder: ByteOrder } {
  const order = detectByteOrder(bytes)
  if (!order) {
    const first = bytes.length >= 4 ? [...bytes.subarray(0, 4)].map((x) => x.toString(16).padStart(2, '0')).join(' ') : `${bytes.length} bytes`
    throw new FormatError(`not an N64 ROM: first bytes ${first}, expected 80 37 12 40 (.z64), 37 80 40 12 (.v64) or 40 12 37 80 (.n64)`, { file, structure: 'N64Header', offset: 0 })
  }
  if (order === 'z64') return { image: bytes, byteOrder: order }
  const out = new Uint8Array(bytes.length)
  if (order === 'v64') {
    if (bytes.length % 2) throw new FormatError(`.v64 image has an odd length ${hex(bytes.length)}`, { file, structure: 'N64Header', offset: bytes.length - 1 })
    for (let i = 0; i < bytes.length; i += 2) {
      out[i] = bytes[i + 1]!
      out[i + 1] = bytes[i]!
    }
  } else {
    if (bytes.length % 4) throw new FormatError(`.n64 image length ${hex(bytes.length)} is not a multiple of 4`, { file, structure: 'N64Header', offset: bytes.length & ~3 })
    for (let i = 0; i < bytes.length; i += 4) {
      out[i] = bytes[i + 3]!
      out[i + 1] = bytes[i + 2]!
      out[i + 2] = bytes[i + 1]!
      out[i + 3] = bytes[i]!
    }
  }
  return { image: out, byteOrder: order }
}

function ascii(b: Uint8Array, start: number, len: number): string {
  let s = ''
  for (let i = start; i < start + len; i++) {
    const c = b[i]!
    s += c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : c === 0 ? '' : '?'
  }
  return s
}

/** Reads the 0x40-byte header of a normalised image. */
export function readHeader(image: Uint8Array, file = 'ROM'): N64Header {
  if (image.length < 0x40) throw new FormatError(`truncated: ${image.length} bytes, the header alone needs 0x40`, { file, structure: 'N64Header', offset: image.length })
  const v = new DataView(image.buffer, image.byteOffset, 0x40)
  const mediaType = ascii(image, 0x3b, 1)
  const gameId = ascii(image, 0x3c, 2)
  const region = ascii(image, 0x3e, 1)
  return {
    piConfig: v.getUint32(0x00),
    clockRate: v.getUint32(0x04),
    bootAddress: v.getUint32(0x08),
    libultraRelease: v.getUint32(0x0c),
    crc1: v.getUint32(0x10),
    crc2: v.getUint32(0x14),
    name: ascii(image, 0x20, 20).trimEnd(),
    mediaType,
    gameId,
    region,
    version: image[0x3f]!,
    code: mediaType + gameId + region,
  }
}

export function md5Hex(bytes: Uint8Array): string {
  const d = md5(bytes)
  let s = ''
  for (const x of d) s += x.toString(16).padStart(2, '0')
  return s
}

/**
 * Which game claims an image: a known MD5 first (verified), in the order given, then a header
 * naming a game (unverified); `other` when none does.
 */
export function identifyRom(md5: string, header: N64Header, games: readonly N64Identity[]): { game: string; verified: boolean } {
  const known = games.find((g) => g.md5s.includes(md5))
  if (known) return { game: known.game, verified: true }
  return { game: games.find((g) => g.namesHeader(header))?.game ?? OTHER_GAME, verified: false }
}

/**
 * Normalises, reads the header and identifies the game among `games`. `md5` may be supplied by a
 * caller that hashed the normalised image already (Node's crypto is faster than a pure-JS MD5).
 */
export function openRom(bytes: Uint8Array, file = 'ROM', precomputedMd5?: string, games: readonly N64Identity[] = []): N64Rom {
  const { image, byteOrder } = normaliseRom(bytes, file)
  const header = readHeader(image, file)
  const digest = precomputedMd5 ?? md5Hex(image)
  return { file, byteOrder, image, header, md5: digest, ...identifyRom(digest, header, games) }
}
