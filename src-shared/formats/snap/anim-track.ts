/**
 * Animation command streams ("tracks") and their evaluation (pokemon-snap.md §7.2–§7.5,
 * [D: src/sys/anim.c]). Uses the exporter's simplified absolute-cursor model (§7.4), which
 * matches the game within a fraction of a frame. Used here for the main-track control lines;
 * actor animation builds on the same parser later.
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'

export const AnimCmd = {
  END: 0, JUMP: 1, WAIT: 2, SET_VALUE_LAST: 3, SET_VALUE: 4, SET_VALUE_WITH_RATE_LAST: 5, SET_VALUE_WITH_RATE: 6,
  SET_TARGET_RATE: 7, SET_VALUE_ZERO_RATE_LAST: 8, SET_VALUE_ZERO_RATE: 9, SET_VALUE_AFTER_LAST: 10, SET_VALUE_AFTER: 11,
  SKIP: 12, SET_PATH: 13, SET_ANIMATION: 14, SET_FLAGS: 15, FUNC: 16, MULTI_FUNC: 17,
  COLOR_STEP_LAST: 18, COLOR_STEP: 19, COLOR_LERP_LAST: 20, COLOR_LERP: 21, SET_RAW: 22, CAMERA_23: 23,
} as const

/** Model-track channel bits (§7.3). */
export const Channel = { ROT_X: 0, ROT_Y: 1, ROT_Z: 2, PATH: 3, POS_X: 4, POS_Y: 5, POS_Z: 6, SCALE_X: 7, SCALE_Y: 8, SCALE_Z: 9 } as const

export interface CommandWord {
  cmd: number
  mask: number
  duration: number
}

export function decodeCommandWord(w: number): CommandWord {
  return { cmd: w >>> 25, mask: (w >>> 15) & 0x3ff, duration: w & 0x7fff }
}

export function popcount(m: number): number {
  let c = 0
  for (; m; m &= m - 1) c++
  return c
}

const BLOCKING = new Set<number>([2, 3, 5, 8, 10, 15, 16, 17, 18, 20, 22, 23])

/** Payload words after the header word (not counting trailing pointers), for a model/material track. */
export function payloadWords(cmd: number, mask: number): number {
  const n = popcount(mask)
  switch (cmd) {
    case 3: case 4: case 7: case 8: case 9: case 10: case 11: case 17: case 18: case 19: case 20: case 21: case 22: return n
    case 5: case 6: return 2 * n
    case 23: return 2
    default: return 0
  }
}

/** Trailing pointers after the payload (§7.2: JUMP, SET_PATH (model tracks: one), SET_ANIMATION). */
export function pointerWords(cmd: number): number {
  return cmd === 1 || cmd === 13 || cmd === 14 ? 1 : 0
}

export interface TrackCommand {
  addr: number
  cmd: number
  mask: number
  duration: number
  /** f32 values (or raw u32 for colour/raw commands) in ascending bit order. */
  values: number[]
  /** Rates for commands 5/6, in ascending bit order. */
  rates?: number[]
  pointer?: number
  /** Absolute start frame in the cursor model. */
  start: number
}

export interface Track {
  addr: number
  commands: TrackCommand[]
  /** Frame count through the last blocking command. */
  length: number
  /** Index of the command a SET_ANIMATION loops to, if any. */
  loopTo?: number
  /** InterpData attached by SET_PATH, if any. */
  path?: number
}

/** Parses a command stream until END or SET_ANIMATION (following JUMPs), at most `limit` commands. */
export function readTrack(map: AddressMap, addr: number, field: string, limit = 4096): Track {
  const commands: TrackCommand[] = []
  const byAddr = new Map<number, number>()
  let pc = addr >>> 0
  let cursor = 0
  let path: number | undefined
  let loopTo: number | undefined
  for (let n = 0; ; n++) {
    if (n >= limit) throw new FormatError(`more than ${limit} animation commands without END (a JUMP loop?)`, { file: map.file, structure: `${field} (track ${hex(addr)})`, offset: map.romOffset(pc) })
    const r = map.view(pc, 4, 'AnimCmd', `${field} command at ${hex(pc)}`)
    const { cmd, mask, duration } = decodeCommandWord(r.u32At(0, 'AnimCmd.word'))
    if (cmd > 23) throw new FormatError(`unknown animation command ${cmd} (word ${hex(r.u32At(0))})`, { file: map.file, structure: `${field} (track ${hex(addr)})`, offset: r.base })
    if (cmd === AnimCmd.END) break
    const pw = payloadWords(cmd, mask)
    const total = 1 + pw + pointerWords(cmd)
    r.check(0, total * 4, `${field} command ${cmd} at ${hex(pc)}`)
    const c: TrackCommand = { addr: pc, cmd, mask, duration, values: [], start: cursor }
    if (cmd === 5 || cmd === 6) {
      c.rates = []
      for (let k = 0; k < pw / 2; k++) { c.values.push(r.f32At(4 + k * 8)); c.rates.push(r.f32At(8 + k * 8)) }
    } else if (cmd >= 18 && cmd <= 22) {
      for (let k = 0; k < pw; k++) c.values.push(r.u32At(4 + k * 4))
    } else if (cmd !== 23) {
      for (let k = 0; k < pw; k++) c.values.push(r.f32At(4 + k * 4))
    }
    if (pointerWords(cmd)) c.pointer = r.u32At(4 + pw * 4, 'AnimCmd.pointer')
    byAddr.set(pc, commands.length)
    commands.push(c)
    if (cmd === AnimCmd.SET_PATH) path = c.pointer
    if (BLOCKING.has(cmd)) cursor += duration
    if (cmd === AnimCmd.SET_ANIMATION) {
      loopTo = byAddr.get(c.pointer!)
      break
    }
    if (cmd === AnimCmd.JUMP) {
      pc = c.pointer!
      continue
    }
    pc = (pc + total * 4) >>> 0
  }
  return { addr, commands, length: cursor, loopTo, path }
}

type Kind = 'linear' | 'cubic' | 'step'

interface Segment {
  kind: Kind
  start: number
  duration: number
  p0: number
  p1: number
  r0: number
  r1: number
}

/** The per-channel segments of a track (channel bit → segments in start order). */
export function channelSegments(track: Track): Map<number, Segment[]> {
  const out = new Map<number, Segment[]>()
  for (const c of track.commands) {
    if (c.cmd < 3 || c.cmd > 11) continue
    let k = 0
    for (let bit = 0; bit < 10; bit++) {
      if (!(c.mask & (1 << bit))) continue
      const list = out.get(bit) ?? []
      out.set(bit, list)
      const prev = list[list.length - 1]
      const value = c.values[k]!
      const rate = c.rates?.[k]
      k++
      if (c.cmd === AnimCmd.SET_TARGET_RATE) {
        if (prev) prev.r1 = value
        continue
      }
      const p0 = prev ? prev.p1 : 0
      const D = c.duration
      let seg: Segment
      if (c.cmd === 3 || c.cmd === 4) seg = { kind: 'linear', start: c.start, duration: D, p0, p1: value, r0: D ? (value - p0) / D : prev?.r0 ?? 0, r1: 0 }
      else if (c.cmd === 5 || c.cmd === 6) seg = { kind: 'cubic', start: c.start, duration: D, p0, p1: value, r0: prev?.r1 ?? 0, r1: rate ?? 0 }
      else if (c.cmd === 8 || c.cmd === 9) seg = { kind: 'cubic', start: c.start, duration: D, p0, p1: value, r0: prev?.r1 ?? 0, r1: 0 }
      else seg = { kind: 'step', start: c.start, duration: D, p0, p1: value, r0: 0, r1: 0 }
      list.push(seg)
    }
  }
  return out
}

/** Value of one segment at local time τ (§7.5; linear and cubic are not clamped). */
export function segmentValue(s: Segment, tau: number): number {
  const D = s.duration
  switch (s.kind) {
    case 'step': return tau >= D ? s.p1 : s.p0
    case 'linear': return D === 0 ? s.p1 : s.p0 + tau * s.r0
    case 'cubic': {
      if (D === 0) return s.p1
      const t = tau / D, t2 = t * t, t3 = t2 * t
      return (2 * t3 - 3 * t2 + 1) * s.p0 + (-2 * t3 + 3 * t2) * s.p1 + D * (t3 - 2 * t2 + t) * s.r0 + D * (t3 - t2) * s.r1
    }
  }
}

/** Value of a channel at absolute frame t, or `rest` when the track never sets it (or not yet). */
export function channelValue(segments: Segment[] | undefined, t: number, rest: number): number {
  if (!segments || !segments.length) return rest
  let s: Segment | undefined
  for (const x of segments) {
    if (x.start <= t) s = x
    else break
  }
  if (!s) return rest
  return segmentValue(s, t - s.start)
}
