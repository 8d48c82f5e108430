/**
 * The mot header (spec §4.1, §4.8). Read and write side by side, same field order.
 *
 * mot ≥ 458 (RE8 … RE4R 613 …), 0x7E bytes (data from 0x80):
 *   0x00 u32 version · 0x04 'mot ' · 0x08 u32 0 · 0x0C u32 motSize · 0x10 u64 boneHeaderOffsetStart ·
 *   0x18 u64 boneClipHeaderOffset · 0x20 u64 motPropertyTracksOffset · 0x28 u64 0 ·
 *   0x30 u64 clipFileOffset · 0x38 u64 dataOffset (joint map path) · 0x40 u64 motEndClipDataOffset ·
 *   0x48 u64 motEndClipFrameValuesOffset · 0x50 u64 propertyTreeOffset · 0x58 u64 nameOffset ·
 *   0x60 f32 frameCount · 0x64 f32 blending · 0x68 f32 startFrame · 0x6C f32 endFrame ·
 *   0x70 u16 boneCount · 0x72 u16 boneClipCount · 0x74 u8 clipCount · 0x75 u8 motEndClipCount ·
 *   0x76 u16 uknAttributes2 · 0x78 u16 FrameRate · 0x7A u16 animatedPropertyCount · 0x7C u16 attributes.
 * mot 456: 0x7C bytes, no 0x76 field (FrameRate at 0x76).
 * mot < 456 (RE7 43, RE2/DMC5 65, RE3 78): 0x74 bytes, no 0x48 field, so everything from 0x48
 *   moves up by 8 (name 0x50, frameCount 0x58 … FrameRate 0x6E); checked on the RE2 samples of
 *   spec §9.1 (FrameRate 30 at 0x6E).
 */
import type { Reader, Writer, Reservation } from '../../binary'
import type { MotLayout } from './versions'

export const MOT_MAGIC = 0x20746f6d // 'mot '

export interface MotHeader {
  version: number
  magic: number
  ukn08: number
  /** End of the mot's own data (incl. its name); 0 for the bone-owning mot of a motlist. */
  motSize: number
  boneHeaderOffsetStart: number
  boneClipHeaderOffset: number
  motPropertyTracksOffset: number
  clipFileOffset: number
  jointMapOffset: number
  motEndClipDataOffset: number
  /** mot ≥ 456 only. */
  motEndClipFrameValuesOffset: number
  propertyTreeOffset: number
  nameOffset: number
  frameCount: number
  blending: number
  startFrame: number
  endFrame: number
  boneCount: number
  boneClipCount: number
  clipCount: number
  motEndClipCount: number
  /** mot ≥ 458 only (meaning unknown, §11 Q2). */
  uknAttributes2: number
  frameRate: number
  animatedPropertyCount: number
  attributes: number
}

function off64(r: Reader, o: number, field: string): number {
  const v = r.u64At(o, field)
  if (v > BigInt(r.length)) throw r.error(`${field}: offset ${v} is beyond the data (size 0x${r.length.toString(16)})`, o)
  return Number(v)
}

export function readMotHeader(r: Reader, layout: MotLayout): MotHeader {
  const s = 'MotHeader'
  r.check(0, layout.headerSize, `${s} (0x${layout.headerSize.toString(16)} bytes)`)
  const old = layout.version < 456
  const n = layout.nameOffsetField // 0x50 or 0x58: fields from here on follow in order
  const h: MotHeader = {
    version: r.u32At(0x00, `${s}.version`),
    magic: r.u32At(0x04, `${s}.magic`),
    ukn08: r.u32At(0x08, `${s}.ukn08`),
    motSize: r.u32At(0x0c, `${s}.motSize`),
    boneHeaderOffsetStart: off64(r, 0x10, `${s}.boneHeaderOffsetStart`),
    boneClipHeaderOffset: off64(r, 0x18, `${s}.boneClipHeaderOffset`),
    motPropertyTracksOffset: off64(r, 0x20, `${s}.motPropertyTracksOffset`),
    clipFileOffset: off64(r, 0x30, `${s}.clipFileOffset`),
    jointMapOffset: off64(r, 0x38, `${s}.dataOffset`),
    motEndClipDataOffset: off64(r, 0x40, `${s}.motEndClipDataOffset`),
    motEndClipFrameValuesOffset: old ? 0 : off64(r, 0x48, `${s}.motEndClipFrameValuesOffset`),
    propertyTreeOffset: off64(r, n - 8, `${s}.propertyTreeOffset`),
    nameOffset: off64(r, n, `${s}.nameOffset`),
    frameCount: r.f32At(n + 0x08, `${s}.frameCount`),
    blending: r.f32At(n + 0x0c, `${s}.blending`),
    startFrame: r.f32At(n + 0x10, `${s}.startFrame`),
    endFrame: r.f32At(n + 0x14, `${s}.endFrame`),
    boneCount: r.u16At(n + 0x18, `${s}.boneCount`),
    boneClipCount: r.u16At(n + 0x1a, `${s}.boneClipCount`),
    clipCount: r.u8At(n + 0x1c, `${s}.clipCount`),
    motEndClipCount: r.u8At(n + 0x1d, `${s}.motEndClipCount`),
    uknAttributes2: 0,
    frameRate: 0,
    animatedPropertyCount: 0,
    attributes: 0,
  }
  let o = n + 0x1e
  if (layout.version >= 458) {
    h.uknAttributes2 = r.u16At(o, `${s}.uknAttributes2`)
    o += 2
  }
  h.frameRate = r.u16At(o, `${s}.FrameRate`)
  h.animatedPropertyCount = r.u16At(o + 2, `${s}.animatedPropertyCount`)
  h.attributes = r.u16At(o + 4, `${s}.attributes`)
  return h
}

/** Reservations for the header fields only known once the body is written. */
export interface MotHeaderSlots {
  motSize: Reservation
  boneHeaderOffsetStart: Reservation
  boneClipHeaderOffset: Reservation
  nameOffset: Reservation
}

export type MotHeaderDraft = Pick<MotHeader, 'version' | 'frameCount' | 'blending' | 'startFrame' | 'endFrame' | 'boneCount' | 'boneClipCount' | 'frameRate'> &
  Partial<Pick<MotHeader, 'uknAttributes2' | 'attributes'>>

/** Writes the header at the writer's position (0), padded to 16 bytes; offsets are reserved. */
export function writeMotHeader(w: Writer, h: MotHeaderDraft, layout: MotLayout): MotHeaderSlots {
  const old = layout.version < 456
  w.u32(h.version)
  w.u32(MOT_MAGIC)
  w.u32(0)
  const motSize = w.reserveU32('MotHeader.motSize')
  const boneHeaderOffsetStart = w.reserveU64('MotHeader.boneHeaderOffsetStart')
  const boneClipHeaderOffset = w.reserveU64('MotHeader.boneClipHeaderOffset')
  w.u64(0n) // 0x20 motPropertyTracksOffset
  w.u64(0n) // 0x28
  w.u64(0n) // 0x30 clipFileOffset
  w.u64(0n) // 0x38 dataOffset (joint map)
  w.u64(0n) // 0x40 motEndClipDataOffset
  if (!old) w.u64(0n) // 0x48 motEndClipFrameValuesOffset
  w.u64(0n) // propertyTreeOffset
  const nameOffset = w.reserveU64('MotHeader.nameOffset')
  w.f32(h.frameCount).f32(h.blending).f32(h.startFrame).f32(h.endFrame)
  w.u16(h.boneCount).u16(h.boneClipCount)
  w.u8(0) // clipCount
  w.u8(0) // motEndClipCount
  if (layout.version >= 458) w.u16(h.uknAttributes2 ?? 0)
  w.u16(h.frameRate)
  w.u16(0) // animatedPropertyCount
  w.u16(h.attributes ?? 0)
  if (w.pos !== layout.headerSize) throw new Error(`mot ${layout.version} header is 0x${w.pos.toString(16)} bytes, expected 0x${layout.headerSize.toString(16)}`)
  w.align(16)
  return { motSize, boneHeaderOffsetStart, boneClipHeaderOffset, nameOffset }
}
