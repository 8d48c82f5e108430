/**
 * Track headers and track payloads (spec §4.4, §4.5). Read and write side by side, same field
 * order. Offsets are relative to the start of the mot (the Reader/Writer passed in are mot-based).
 *
 * RE3+ (mot ≥ 78, RE4R): 20 bytes = u32 flags, i32 keyCount, u32 frameIndexOffset,
 * u32 frameDataOffset, u32 unpackDataOffset.
 * RE2/DMC5/RE7 (mot < 78): 40 bytes = u32 flags, i32 keyCount, u32 frameRate, f32 maxFrame,
 * u64 frameIndexOffset, u64 frameDataOffset, u64 unpackDataOffset.
 */
import type { Reader, Writer, Reservation } from '../../binary'
import { FormatError, hex } from '../../binary'
import { keyCodec, knownCodes, type TrackValueKind } from './key-codecs'
import { quatCanonical, type Quat } from './euler'
import type { MotLayout } from './versions'

export type Channel = 'translation' | 'rotation' | 'scale'
export const CHANNELS: readonly Channel[] = ['translation', 'rotation', 'scale']

/** Track flags bitfield (§4.4). */
export const VALUE_TYPE_VECTOR3 = 0x0f2
export const VALUE_TYPE_QUATERNION = 0x112
export const VALUE_TYPE_FLOAT = 0x0a2
/** Frame index element size codes (flags >> 20). */
export const INDEX_U8 = 2
export const INDEX_U16 = 4
export const INDEX_U32 = 5

export const COMPRESSION_FULL = 0x00000
export const COMPRESSION_3COMPONENT = 0xc0000
export const COMPRESSION_3COMPONENT_DMC5 = 0xb0000

export interface TrackFlags {
  /** flags & 0xFFF: 0xF2 Vector3, 0x112 Quaternion, 0xA2 float. */
  valueType: number
  /** flags & 0xFF000: the compression code (§5). */
  compression: number
  /** flags >> 20: 2 = u8, 4 = u16, 5 = u32 frame indices. */
  indexSize: number
}

export function decodeTrackFlags(flags: number): TrackFlags {
  return { valueType: flags & 0xfff, compression: flags & 0xff000, indexSize: flags >>> 20 }
}

export function encodeTrackFlags(f: TrackFlags): number {
  return ((f.indexSize << 20) | (f.compression & 0xff000) | (f.valueType & 0xfff)) >>> 0
}

/** Bytes of one frame index for an index size code. */
export function indexBytes(indexSize: number): 1 | 2 | 4 | undefined {
  return indexSize === INDEX_U8 ? 1 : indexSize === INDEX_U16 ? 2 : indexSize === INDEX_U32 ? 4 : undefined
}

/** The smallest index size code for frame numbers up to `maxFrame` (u8 ≤ 254, u16 ≤ 32767). */
export function indexSizeFor(maxFrame: number): number {
  return maxFrame <= 254 ? INDEX_U8 : maxFrame <= 32767 ? INDEX_U16 : INDEX_U32
}

export interface TrackHeader {
  /** mot-relative offset of this header. */
  offset: number
  flags: number
  keyCount: number
  frameIndexOffset: number
  frameDataOffset: number
  unpackDataOffset: number
  /** mot < 78 only. */
  frameRate?: number
  /** mot < 78 only. */
  maxFrame?: number
}

export interface MotTrack extends TrackHeader {
  channel: Channel
  compression: number
  codec: string
  /** Frame numbers of the keys, or null when the track has no index array (one constant key). */
  frames: Uint32Array | null
  /** Decoded keys: x, y, z per key (translation/scale) or x, y, z, w (rotation). */
  values: Float64Array
  /** The unpack floats the codec read (empty when it needs none). */
  unpack: Float32Array
}

function num(v: bigint, r: Reader, at: number, field: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw r.error(`${field}: offset ${v} is out of range`, at)
  return Number(v)
}

export function readTrackHeader(r: Reader, off: number, layout: MotLayout): TrackHeader {
  const s = 'TrackHeader'
  const flags = r.u32At(off + 0x00, `${s}.flags`)
  const keyCount = r.i32At(off + 0x04, `${s}.keyCount`)
  if (layout.trackHeaderSize === 20) {
    return {
      offset: off,
      flags,
      keyCount,
      frameIndexOffset: r.u32At(off + 0x08, `${s}.frameIndexOffset`),
      frameDataOffset: r.u32At(off + 0x0c, `${s}.frameDataOffset`),
      unpackDataOffset: r.u32At(off + 0x10, `${s}.unpackDataOffset`),
    }
  }
  return {
    offset: off,
    flags,
    keyCount,
    frameRate: r.u32At(off + 0x08, `${s}.frameRate`),
    maxFrame: r.f32At(off + 0x0c, `${s}.maxFrame`),
    frameIndexOffset: num(r.u64At(off + 0x10, `${s}.frameIndexOffset`), r, off + 0x10, `${s}.frameIndexOffset`),
    frameDataOffset: num(r.u64At(off + 0x18, `${s}.frameDataOffset`), r, off + 0x18, `${s}.frameDataOffset`),
    unpackDataOffset: num(r.u64At(off + 0x20, `${s}.unpackDataOffset`), r, off + 0x20, `${s}.unpackDataOffset`),
  }
}

/** Where the header's three offsets go, to be patched once the payload is placed. */
export interface TrackHeaderSlots {
  frameIndexOffset: Reservation
  frameDataOffset: Reservation
  unpackDataOffset: Reservation
}

export function writeTrackHeader(w: Writer, h: { flags: number; keyCount: number; frameRate?: number; maxFrame?: number }, layout: MotLayout): TrackHeaderSlots {
  w.u32(h.flags)
  w.i32(h.keyCount)
  if (layout.trackHeaderSize === 20) {
    return {
      frameIndexOffset: w.reserveU32('TrackHeader.frameIndexOffset'),
      frameDataOffset: w.reserveU32('TrackHeader.frameDataOffset'),
      unpackDataOffset: w.reserveU32('TrackHeader.unpackDataOffset'),
    }
  }
  w.u32(h.frameRate ?? 0)
  w.f32(h.maxFrame ?? 0)
  return {
    frameIndexOffset: w.reserveU64('TrackHeader.frameIndexOffset'),
    frameDataOffset: w.reserveU64('TrackHeader.frameDataOffset'),
    unpackDataOffset: w.reserveU64('TrackHeader.unpackDataOffset'),
  }
}

function patchOffset(w: Writer, r: Reservation, value: number): void {
  if (r.size === 8) w.patchU64(r, BigInt(value))
  else w.patchU32(r, value)
}

/** Reads a track header and its payload (frame indices, keys, unpack block). */
export function readTrack(r: Reader, off: number, layout: MotLayout, channel: Channel): MotTrack {
  const h = readTrackHeader(r, off, layout)
  const f = decodeTrackFlags(h.flags)
  const kind: TrackValueKind = channel === 'rotation' ? 'rotation' : 'vector'
  const wantType = kind === 'rotation' ? VALUE_TYPE_QUATERNION : VALUE_TYPE_VECTOR3
  if (f.valueType !== wantType) {
    throw new FormatError(`${channel} track has value type ${hex(f.valueType)} (flags ${hex(h.flags)}), expected ${hex(wantType)}`, { file: r.file, structure: 'TrackHeader.flags', offset: r.base + off })
  }
  const codec = keyCodec(kind, f.compression, layout)
  if (!codec) {
    throw new FormatError(
      `unknown ${kind} compression ${hex(f.compression)} (flags ${hex(h.flags)}) for mot ${layout.version}; known: ${knownCodes(kind, layout).map(hex).join(', ')}`,
      { file: r.file, structure: 'TrackHeader.flags', offset: r.base + off },
    )
  }
  if (h.keyCount < 0) throw r.error(`TrackHeader.keyCount is negative (${h.keyCount})`, off + 4)
  const n = r.count(h.keyCount, codec.bytes, 'TrackHeader.keyCount (frame data)', h.frameDataOffset)
  let frames: Uint32Array | null = null
  if (h.frameIndexOffset !== 0) {
    const ib = indexBytes(f.indexSize)
    if (!ib) throw r.error(`TrackHeader.flags: frame index size code ${f.indexSize} (flags ${hex(h.flags)}) is not 2, 4 or 5`, off)
    r.count(n, ib, 'TrackHeader.keyCount (frame indices)', h.frameIndexOffset)
    frames = new Uint32Array(n)
    for (let i = 0; i < n; i++) {
      const o = h.frameIndexOffset + i * ib
      frames[i] = ib === 1 ? r.u8At(o, 'frameIndex') : ib === 2 ? r.u16At(o, 'frameIndex') : r.u32At(o, 'frameIndex')
    }
  }
  const unpack = new Float32Array(codec.unpack)
  if (codec.unpack > 0) {
    if (h.unpackDataOffset === 0) throw r.error(`${codec.name} ${kind} keys need an unpack block, but unpackDataOffset is 0`, off)
    r.check(h.unpackDataOffset, codec.unpack * 4, 'TrackHeader.unpackDataOffset')
    for (let i = 0; i < codec.unpack; i++) unpack[i] = r.f32At(h.unpackDataOffset + i * 4, 'unpack')
  }
  const width = kind === 'rotation' ? 4 : 3
  const values = new Float64Array(n * width)
  if (n > 0) r.check(h.frameDataOffset, n * codec.bytes, 'TrackHeader.frameDataOffset')
  for (let i = 0; i < n; i++) codec.decode(r.bytes, r.view, h.frameDataOffset + i * codec.bytes, unpack, values, i * width)
  return { ...h, channel, compression: f.compression, codec: codec.name, frames, values, unpack }
}

/** A track to write. Values are encoded with `compression` unless `encoded` carries the bytes. */
export interface TrackDraft {
  channel: Channel
  compression: number
  /** Frame numbers; null writes no index array (a constant track). */
  frames: number[] | null
  /** x, y, z (vectors) or x, y, z, w (rotations) per key. */
  values: ArrayLike<number>
  /** Pre-encoded key bytes and unpack floats, for codecs this writer does not encode itself. */
  encoded?: { data: Uint8Array; unpack?: ArrayLike<number> }
  /** Explicit index size code (default: the smallest that fits). */
  indexSize?: number
  /** mot < 78 track headers only. */
  frameRate?: number
  maxFrame?: number
}

export function trackKeyCount(t: TrackDraft): number {
  return Math.floor(t.values.length / (t.channel === 'rotation' ? 4 : 3))
}

export function trackFlagsFor(t: TrackDraft): number {
  const maxFrame = t.frames?.length ? Math.max(...t.frames) : 0
  return encodeTrackFlags({
    valueType: t.channel === 'rotation' ? VALUE_TYPE_QUATERNION : VALUE_TYPE_VECTOR3,
    compression: t.compression,
    indexSize: t.indexSize ?? indexSizeFor(maxFrame),
  })
}

/** Writes a track's payload (indices → align 4 → keys → align 4 → unpack) and patches its header. */
export function writeTrackPayload(w: Writer, t: TrackDraft, slots: TrackHeaderSlots): void {
  const n = trackKeyCount(t)
  const f = decodeTrackFlags(trackFlagsFor(t))
  if (t.frames) {
    if (t.frames.length !== n) throw new Error(`track has ${t.frames.length} frame indices for ${n} keys`)
    w.patchHere(slots.frameIndexOffset)
    for (const fr of t.frames) {
      if (f.indexSize === INDEX_U8) w.u8(fr)
      else if (f.indexSize === INDEX_U16) w.u16(fr)
      else w.u32(fr)
    }
  } else {
    patchOffset(w, slots.frameIndexOffset, 0)
  }
  w.align(4)
  w.patchHere(slots.frameDataOffset)
  if (t.encoded) {
    w.bytes(t.encoded.data)
  } else if (t.channel === 'rotation') {
    for (let i = 0; i < n; i++) {
      const q = quatCanonical([t.values[i * 4]!, t.values[i * 4 + 1]!, t.values[i * 4 + 2]!, t.values[i * 4 + 3]!] as Quat)
      if (t.compression === COMPRESSION_FULL) w.f32(q[0]).f32(q[1]).f32(q[2]).f32(q[3])
      else if (t.compression === COMPRESSION_3COMPONENT || t.compression === COMPRESSION_3COMPONENT_DMC5) w.f32(q[0]).f32(q[1]).f32(q[2])
      else throw new Error(`writing rotation compression ${hex(t.compression)} needs pre-encoded keys`)
    }
  } else {
    if (t.compression !== COMPRESSION_FULL) throw new Error(`writing vector compression ${hex(t.compression)} needs pre-encoded keys`)
    for (let i = 0; i < n * 3; i++) w.f32(t.values[i]!)
  }
  const unpack = t.encoded?.unpack
  if (unpack && unpack.length) {
    w.align(4)
    w.patchHere(slots.unpackDataOffset)
    for (let i = 0; i < unpack.length; i++) w.f32(unpack[i]!)
  } else {
    patchOffset(w, slots.unpackDataOffset, 0)
  }
}
