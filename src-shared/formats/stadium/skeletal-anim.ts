/**
 * Skeletal animations (pokemon-stadium.md §12; pret `src/17300.c`: packed samplers
 * func_80016700/func_800167B4/func_80016848, bitfield func_80010500 in `src/F420.c`, Hermite
 * samplers func_80016934…func_80016F20, counter func_80016FBC, set func_800173DC).
 *
 * Header (28 bytes): 0x00 u16 flags (0x02 hold, 0x04 16-bit translations, 0x08 Hermite),
 * 0x04 s16 startFrame, 0x06 s16 loopStartFrame, 0x08 u16 recordCount, 0x0A u16 frameCount,
 * 0x0C ptr records, 0x10 ptr scale data, 0x14 ptr rotation data, 0x18 ptr translation data.
 * Record (10 bytes): u8 nScale, u8 nRot, u8 nTrans, u8 wide bits, u16 scale/rot/trans offset or constant.
 */
import { hex } from '../../binary'
import type { Module } from './fragment'
import type { Vec3 } from './geo-layout'
import type { Bone } from './model-graph'
import type { JointPose } from './joint-math'

export const ANIM_HOLD = 0x02
export const ANIM_TRANS16 = 0x04
export const ANIM_HERMITE = 0x08

export interface ChannelRecord {
  nScale: number
  nRot: number
  nTrans: number
  wide: number
  scale: number
  rot: number
  trans: number
}

export interface SkeletalAnimation {
  index: number
  at: number
  flags: number
  startFrame: number
  loopStartFrame: number
  frameCount: number
  records: ChannelRecord[]
  /** File offsets of the data blocks (−1 when null). */
  scaleData: number
  rotData: number
  transData: number
  hermite: boolean
  hold: boolean
  trans16: boolean
}

function ptr(mod: Module, v: number, field: string, at: number): number {
  return v === 0 ? -1 : mod.off(v, field, at)
}

export function readSkeletalAnimation(mod: Module, at: number, index: number): SkeletalAnimation {
  const r = mod.r
  r.check(at, 0x1c, `SkelAnim[${index}]`)
  const flags = r.u16At(at, 'SkelAnim.flags') & 0xff
  const recordCount = r.u16At(at + 0x08, 'SkelAnim.recordCount')
  const recPtr = r.u32At(at + 0x0c, 'SkelAnim.records')
  const records: ChannelRecord[] = []
  if (recordCount) {
    const ro = mod.off(recPtr, `SkelAnim[${index}].records`, at + 0x0c)
    r.count(recordCount, 10, `SkelAnim[${index}].records`, ro)
    for (let i = 0; i < recordCount; i++) {
      const o = ro + i * 10
      records.push({ nScale: r.u8At(o), nRot: r.u8At(o + 1), nTrans: r.u8At(o + 2), wide: r.u8At(o + 3), scale: r.u16At(o + 4), rot: r.u16At(o + 6), trans: r.u16At(o + 8) })
    }
  }
  return {
    index,
    at,
    flags,
    startFrame: r.i16At(at + 0x04, 'SkelAnim.startFrame'),
    loopStartFrame: r.i16At(at + 0x06, 'SkelAnim.loopStartFrame'),
    frameCount: r.u16At(at + 0x0a, 'SkelAnim.frameCount'),
    records,
    scaleData: ptr(mod, r.u32At(at + 0x10), `SkelAnim[${index}].scaleData`, at + 0x10),
    rotData: ptr(mod, r.u32At(at + 0x14), `SkelAnim[${index}].rotData`, at + 0x14),
    transData: ptr(mod, r.u32At(at + 0x18), `SkelAnim[${index}].transData`, at + 0x18),
    hermite: (flags & ANIM_HERMITE) !== 0,
    hold: (flags & ANIM_HOLD) !== 0,
    trans16: (flags & ANIM_TRANS16) !== 0,
  }
}

/** The game's bitfield read (func_80010500): `bits`-wide signed value number `index` from `base`. */
export function bitfield(mod: Module, base: number, index: number, bits: number): number {
  const bitpos = index * bits
  const word = Math.trunc(bitpos / 16)
  const rem = bitpos - word * 16
  const hi = mod.r.u16At(base + 2 * word, 'AnimBitstream')
  const lo = base + 2 * word + 2 + 2 <= mod.bytes.length ? mod.r.u16At(base + 2 * word + 2) : 0
  const v = (((hi << 16) | lo) << (rem & 31)) >>> 0
  const raw = v >>> (32 - bits)
  return raw & (1 << (bits - 1)) ? raw - (1 << bits) : raw
}

const s16 = (v: number): number => ((v & 0xffff) << 16) >> 16
const sext12 = (v: number): number => ((v & 0xfff) << 20) >> 20

/** Hermite keys at `data + 2·offset`, evaluated at integer frame f (§12.4). */
export function hermite(mod: Module, data: number, offset: number, n: number, wide: boolean, f: number): number {
  const r = mod.r
  const stride = wide ? 8 : 6
  const base = data + 2 * offset
  r.check(base, n * stride, 'HermiteKeys')
  const frame = (i: number) => r.i16At(base + i * stride)
  const value = (i: number) => r.i16At(base + i * stride + 2)
  if (f <= frame(0)) return value(0)
  if (f >= frame(n - 1)) return value(n - 1)
  let i = n - 2
  for (let k = 0; k <= n - 3; k++) {
    if (f < frame(k + 1)) {
      i = k
      break
    }
  }
  const f0 = frame(i)
  const f1 = frame(i + 1)
  const x = (f - f0) / 30
  const y = 30 / (f1 - f0)
  const x2 = x * x, x3 = x2 * x, y2 = y * y, y3 = y2 * y
  const h00 = 2 * x3 * y3 - 3 * x2 * y2 + 1
  const h01 = -2 * x3 * y3 + 3 * x2 * y2
  const h10 = x3 * y2 - 2 * x2 * y + x
  const h11 = x3 * y2 - x2 * y
  const outTan = r.i16At(base + i * stride + (wide ? 6 : 4))
  const inTan = r.i16At(base + (i + 1) * stride + 4)
  return value(i) * h00 + value(i + 1) * h01 + outTan * h10 + inTan * h11
}

/** Hermite rotation value (tenths of a degree) → binary angle (§12.4). */
export function tenthsToAngle(v: number): number {
  let deg = (v / 10) % 360
  if (deg < 0) deg += 360
  return s16(Math.trunc((deg / 360) * 65536))
}

/** One component (0 = x, 1 = y, 2 = z) of joint channel c at integer frame f. */
function sampleComponent(mod: Module, a: SkeletalAnimation, rec: ChannelRecord, f: number, bindT: number, bindR: number, bindS: number): [number, number, number] {
  if (a.hermite) {
    const t = rec.nTrans < 2 ? s16(rec.trans) : hermite(mod, a.transData, rec.trans, rec.nTrans, (rec.wide & 1) !== 0, f)
    const rr = tenthsToAngle(rec.nRot < 2 ? s16(rec.rot) : hermite(mod, a.rotData, rec.rot, rec.nRot, (rec.wide & 2) !== 0, f))
    const s = (rec.nScale < 2 ? s16(rec.scale) : hermite(mod, a.scaleData, rec.scale, rec.nScale, (rec.wide & 4) !== 0, f)) / 100
    return [t, rr, s]
  }
  let s = bindS
  if (rec.nScale === 1) s = rec.scale / 1000
  else if (rec.nScale > 1) s = mod.r.i16At(a.scaleData + 2 * (rec.scale + Math.min(f, rec.nScale - 1)), 'SkelAnim.scaleData') / 1000
  let rr = bindR
  if (rec.nRot === 1) rr = s16(rec.rot << 4)
  else if (rec.nRot > 1) rr = s16(bitfield(mod, a.rotData, rec.rot + Math.min(f, rec.nRot - 1), 12) << 4)
  let t = bindT
  if (rec.nTrans === 1) t = a.trans16 ? s16(rec.trans) : sext12(rec.trans)
  else if (rec.nTrans > 1) t = bitfield(mod, a.transData, rec.trans + Math.min(f, rec.nTrans - 1), a.trans16 ? 16 : 12)
  return [t, rr, s]
}

/** A joint's t/r/s at integer frame f (negative frames clamp to 0, like the sampler). */
export function sampleJoint(mod: Module, a: SkeletalAnimation, bone: Bone, frame: number): JointPose {
  const c = bone.animChannel
  if (c < 0 || 3 * c + 2 >= a.records.length) return { t: [...bone.translation], r: [...bone.rotation], s: [...bone.scale] }
  const f = Math.max(0, Math.floor(frame))
  const t: Vec3 = [0, 0, 0]
  const r: Vec3 = [0, 0, 0]
  const s: Vec3 = [0, 0, 0]
  for (let k = 0; k < 3; k++) {
    const [tk, rk, sk] = sampleComponent(mod, a, a.records[3 * c + k]!, f, bone.translation[k]!, bone.rotation[k]!, bone.scale[k]!)
    t[k] = tk
    r[k] = rk
    s[k] = sk
  }
  return { t, r, s }
}

/** Validates that every stream an animation's channels index lies inside the module. */
export function checkSkeletalAnimation(mod: Module, a: SkeletalAnimation, bones: Bone[]): void {
  const last = Math.max(0, a.frameCount - 1)
  for (const b of bones) {
    try {
      sampleJoint(mod, a, b, 0)
      sampleJoint(mod, a, b, last)
    } catch (e) {
      throw mod.error(`animation ${a.index} (${hex(a.at)}), bone ${b.name}: ${(e as Error).message}`, `SkelAnim[${a.index}]`, a.at)
    }
  }
}

/** One forward tick of the game's counter (§12.5, §13.3): past the end, hold or wrap to loopStart. */
export function nextFrame(frame: number, a: { frameCount: number; loopStartFrame: number; hold: boolean }): number {
  const f = frame + 1
  return Math.max(0, f >= a.frameCount ? (a.hold ? a.frameCount - 1 : a.loopStartFrame) : f)
}

/** The frame sequence the game player shows (§12.5) for `ticks` ticks after setting the animation. */
export function playbackFrames(a: { startFrame: number; loopStartFrame: number; frameCount: number; hold: boolean }, ticks: number): number[] {
  const out: number[] = []
  let frame = a.startFrame - 1
  for (let i = 0; i < ticks; i++) {
    frame = i === 0 ? Math.max(0, frame + 1) : nextFrame(frame, a)
    out.push(frame)
  }
  return out
}
