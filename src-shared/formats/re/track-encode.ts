/**
 * Choosing the key encoding of a track to write, and measuring the error it introduces.
 *
 * Candidates (spec §5.1/§5.2/§5.3), smallest first; all are plain float32 codes, no quantisation:
 * - rotation: single-axis float (4 B/key: 0x41000/0x42000/0x43000 for mot ≥ 78, 0x31000/0x32000/
 *   0x33000 in the DMC5 table), then 3Component (12 B/key: 0xC0000, 0xB0000 below mot 78), the
 *   code spec §5.4 recommends writing. Full (0x00000) is never written (§5.4, §11 Q10);
 * - translation/scale: single-axis float (4 B/key, the two constant axes in the unpack block),
 *   then Full (12 B/key).
 * Every candidate is encoded to bytes and decoded again with the reader's own codec
 * (`keyCodec`), so the reported error is what a reader of the written file gets. The smallest
 * candidate whose largest component error is ≤ `tolerance` wins; when none is, the last one
 * (3Component / Full) is used and its error reported.
 *
 * Rotations are normalised and made w ≥ 0 first (§5.5): these codes rebuild w = √(1 − x² − y² − z²).
 * The error is measured against that canonical quaternion. Near w = 0 (turns close to 180°)
 * 3Component loses precision in the rebuilt w (float32 x, y, z; error up to ~√(float32 ε) ≈ 3e-4).
 */
import { hex } from '../../binary'
import { quatCanonical, type Quat } from './euler'
import { keyCodec } from './key-codecs'
import { COMPRESSION_3COMPONENT, COMPRESSION_3COMPONENT_DMC5, COMPRESSION_FULL, type Channel, type TrackDraft } from './track'
import type { MotLayout } from './versions'

/** Default tolerance for taking a smaller code (largest component error). */
export const DEFAULT_CODEC_TOLERANCE = 1e-6

export interface TrackEncoding {
  compression: number
  /** The codec's name as the reader knows it ('3Component', 'YAxis', 'Full', …). */
  codec: string
  encoded: { data: Uint8Array; unpack?: number[] }
  /** Largest |decoded − input| over every component of every key. */
  maxError: number
}

interface Candidate {
  code: number
  encode(values: Float64Array, n: number): { data: Uint8Array; unpack?: number[] }
}

function f32s(n: number, fill: (dv: DataView) => void): Uint8Array {
  const data = new Uint8Array(n)
  fill(new DataView(data.buffer))
  return data
}

function rotationCandidates(layout: Pick<MotLayout, 'codecTable'>): Candidate[] {
  const dmc5 = layout.codecTable === 'dmc5'
  const axisBase = dmc5 ? 0x31000 : 0x41000
  const axis = (a: number): Candidate => ({
    code: axisBase + 0x1000 * a,
    encode: (v, n) => ({ data: f32s(n * 4, (dv) => { for (let i = 0; i < n; i++) dv.setFloat32(i * 4, v[i * 4 + a]!, true) }) }),
  })
  const three: Candidate = {
    code: dmc5 ? COMPRESSION_3COMPONENT_DMC5 : COMPRESSION_3COMPONENT,
    encode: (v, n) => ({ data: f32s(n * 12, (dv) => { for (let i = 0; i < n * 3; i++) dv.setFloat32(i * 4, v[Math.floor(i / 3) * 4 + (i % 3)]!, true) }) }),
  }
  return [axis(0), axis(1), axis(2), three]
}

function vectorCandidates(layout: Pick<MotLayout, 'codecTable'>): Candidate[] {
  const axisBase = layout.codecTable === 'dmc5' ? 0x31000 : 0x41000
  const axis = (a: number): Candidate => ({
    code: axisBase + 0x1000 * a,
    encode: (v, n) => ({
      data: f32s(n * 4, (dv) => { for (let i = 0; i < n; i++) dv.setFloat32(i * 4, v[i * 3 + a]!, true) }),
      unpack: [v[0]!, v[1]!, v[2]!],
    }),
  })
  const full: Candidate = { code: COMPRESSION_FULL, encode: (v, n) => ({ data: f32s(n * 12, (dv) => { for (let i = 0; i < n * 3; i++) dv.setFloat32(i * 4, v[i]!, true) }) }) }
  return [axis(0), axis(1), axis(2), full]
}

/** Keys as the codecs see them: rotations normalised with w ≥ 0, vectors as given. */
export function canonicalKeys(channel: Channel, values: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(values)
  if (channel !== 'rotation') return out
  for (let i = 0; i + 3 < out.length; i += 4) out.set(quatCanonical([out[i]!, out[i + 1]!, out[i + 2]!, out[i + 3]!] as Quat), i)
  return out
}

/** Encodes `values` (keys in x y z [w] order) with the smallest code within `tolerance`. */
export function chooseTrackEncoding(channel: Channel, values: ArrayLike<number>, layout: Pick<MotLayout, 'codecTable' | 'rotation16BitBigEndian'>, tolerance = DEFAULT_CODEC_TOLERANCE): TrackEncoding {
  const kind = channel === 'rotation' ? 'rotation' : 'vector'
  const width = kind === 'rotation' ? 4 : 3
  const keys = canonicalKeys(channel, values)
  const n = Math.floor(keys.length / width)
  const list = kind === 'rotation' ? rotationCandidates(layout) : vectorCandidates(layout)
  let last: TrackEncoding | undefined
  for (let ci = 0; ci < list.length; ci++) {
    const c = list[ci]!
    const final = ci === list.length - 1
    const codec = keyCodec(kind, c.code, layout)
    if (!codec) throw new Error(`no ${kind} codec ${hex(c.code)} in the ${layout.codecTable} table`)
    const enc = c.encode(keys, n)
    const U = Float32Array.from(enc.unpack ?? [])
    const dv = new DataView(enc.data.buffer)
    const out = new Float64Array(width)
    let err = 0
    for (let i = 0; i < n && (final || err <= tolerance); i++) {
      codec.decode(enc.data, dv, i * codec.bytes, U, out, 0)
      for (let k = 0; k < width; k++) err = Math.max(err, Math.abs(out[k]! - keys[i * width + k]!))
    }
    if (Number.isNaN(err)) err = Infinity
    last = { compression: c.code, codec: codec.name, encoded: { data: enc.data, ...(enc.unpack ? { unpack: Array.from(U) } : {}) }, maxError: err }
    if (err <= tolerance) return last
  }
  return last!
}

/** A TrackDraft with keys at `frames` in the chosen encoding. */
export function encodedTrack(channel: Channel, frames: number[], values: ArrayLike<number>, layout: Pick<MotLayout, 'codecTable' | 'rotation16BitBigEndian'>, tolerance?: number): { draft: TrackDraft; encoding: TrackEncoding } {
  const encoding = chooseTrackEncoding(channel, values, layout, tolerance)
  return { draft: { channel, compression: encoding.compression, frames, values, encoded: encoding.encoded }, encoding }
}
