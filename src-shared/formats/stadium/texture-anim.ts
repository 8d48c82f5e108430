/**
 * Texture animations: eye blinks, dizzy eyes (pokemon-stadium.md §13; pret `src/18140.c`
 * func_80017540 sampler, func_800176DC material hook, func_80017578/func_80017798 counter).
 *
 * Header: 0x00 u16 flags (0x02 hold), 0x04 s16 startFrame, 0x06 s16 loopStartFrame,
 * 0x08 u16 channelCount, 0x0A u16 frameCount, 0x0C ptr channels {u16 count, u16 offset}[],
 * 0x10 ptr data (u8 texture-table indices).
 */
import type { Module } from './fragment'

export interface TextureAnimation {
  index: number
  at: number
  flags: number
  hold: boolean
  startFrame: number
  loopStartFrame: number
  frameCount: number
  /** Per channel, the texture-table index at frames 0 … max(frameCount, count)−1 (clamped streams). */
  channels: { count: number; offset: number; stream: number[] }[]
}

export function readTextureAnimation(mod: Module, at: number, index: number): TextureAnimation {
  const r = mod.r
  r.check(at, 0x14, `TexAnim[${index}]`)
  const flags = r.u16At(at, 'TexAnim.flags') & 0xff
  const channelCount = r.u16At(at + 0x08, 'TexAnim.channelCount')
  const frameCount = r.u16At(at + 0x0a, 'TexAnim.frameCount')
  const channels: TextureAnimation['channels'] = []
  if (channelCount) {
    const co = mod.off(r.u32At(at + 0x0c), `TexAnim[${index}].channels`, at + 0x0c)
    r.count(channelCount, 4, `TexAnim[${index}].channels`, co)
    const dataPtr = r.u32At(at + 0x10)
    const data = dataPtr ? mod.off(dataPtr, `TexAnim[${index}].data`, at + 0x10) : -1
    for (let c = 0; c < channelCount; c++) {
      const count = r.u16At(co + c * 4, `TexAnim.channel[${c}].count`)
      const offset = r.u16At(co + c * 4 + 2, `TexAnim.channel[${c}].offset`)
      const stream: number[] = []
      if (count > 0 && data >= 0) {
        const bytes = r.bytesAt(data + offset, count, `TexAnim[${index}].channel[${c}].stream`)
        const n = Math.max(1, frameCount)
        for (let f = 0; f < n; f++) stream.push(bytes[f < count ? f : count - 1]!)
      }
      channels.push({ count, offset, stream })
    }
  }
  return { index, at, flags, hold: (flags & 2) !== 0, startFrame: r.i16At(at + 0x04), loopStartFrame: r.i16At(at + 0x06), frameCount, channels }
}

/** Texture index for material channel c at frame f, or null to keep the static texture (§13.2). */
export function sampleTextureAnimation(a: TextureAnimation, channel: number, frame: number): number | null {
  if (channel < 0 || channel >= a.channels.length) return null
  const ch = a.channels[channel]!
  if (ch.count === 0 || ch.stream.length === 0) return null
  const f = Math.max(0, Math.floor(frame))
  return ch.stream[Math.min(f, ch.stream.length - 1)]!
}
