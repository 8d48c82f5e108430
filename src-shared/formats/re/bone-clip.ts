/**
 * BoneClipHeader: one per animated bone (spec §4.3). Read and write side by side.
 *
 * mot ≥ 78 (RE3+, RE4R), 12 bytes: u16 boneIndex · u8 trackFlags (bit0 T, bit1 R, bit2 S) ·
 *   u8 weight (REE-Lib writes 0xFF; RevilLib/Noesis read +2..+3 as one u16) · u32 boneHash ·
 *   u32 trackHeaderOffset.
 * mot 65 (RE2/DMC5), 24 bytes: u16 boneIndex · u8 flags · u8 0 · u32 hash · f32 weight · u32 0 ·
 *   u64 trackHeaderOffset.
 * mot 43 (RE7), 16 bytes: u16 boneIndex · u8 flags · u8 0 · u32 hash · u64 trackHeaderOffset.
 */
import type { Reader, Writer, Reservation } from '../../binary'
import type { MotLayout } from './versions'

export const TRACK_T = 1
export const TRACK_R = 2
export const TRACK_S = 4

export interface BoneClipHeader {
  /** mot-relative offset of this header. */
  offset: number
  boneIndex: number
  /** Channel bits (byte +2, bits 0–2). */
  trackFlags: number
  /** Byte +3 (the weight byte of REE-Lib for mot ≥ 78; 0 in older layouts). */
  weightByte: number
  boneHash: number
  /** mot 65 only. */
  weight?: number
  trackHeaderOffset: number
}

export function readBoneClipHeader(r: Reader, off: number, layout: MotLayout): BoneClipHeader {
  const s = 'BoneClipHeader'
  const boneIndex = r.u16At(off + 0x0, `${s}.boneIndex`)
  const trackFlags = r.u8At(off + 0x2, `${s}.trackFlags`) & 0x7
  const weightByte = r.u8At(off + 0x3, `${s}.weight`)
  const boneHash = r.u32At(off + 0x4, `${s}.boneHash`)
  if (layout.clipHeaderSize === 12) {
    return { offset: off, boneIndex, trackFlags, weightByte, boneHash, trackHeaderOffset: r.u32At(off + 0x8, `${s}.trackHeaderOffset`) }
  }
  let weight: number | undefined
  let at = off + 0x8
  if (layout.clipHeaderSize === 24) {
    weight = r.f32At(off + 0x8, `${s}.weight`)
    at = off + 0x10
  }
  const t = r.u64At(at, `${s}.trackHeaderOffset`)
  if (t > BigInt(r.length)) throw r.error(`${s}.trackHeaderOffset ${t} is beyond the data`, at)
  return { offset: off, boneIndex, trackFlags, weightByte, boneHash, weight, trackHeaderOffset: Number(t) }
}

export function writeBoneClipHeader(
  w: Writer,
  c: { boneIndex: number; trackFlags: number; weightByte?: number; boneHash: number; weight?: number },
  layout: MotLayout,
): Reservation {
  w.u16(c.boneIndex)
  w.u8(c.trackFlags)
  if (layout.clipHeaderSize === 12) {
    w.u8(c.weightByte ?? 0xff)
    w.u32(c.boneHash)
    return w.reserveU32('BoneClipHeader.trackHeaderOffset')
  }
  w.u8(0)
  w.u32(c.boneHash)
  if (layout.clipHeaderSize === 24) {
    w.f32(c.weight ?? 1)
    w.u32(0)
  }
  return w.reserveU64('BoneClipHeader.trackHeaderOffset')
}
