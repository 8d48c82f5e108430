/**
 * Sampling the neutral scene's animations at a time t (seconds), with glTF's interpolation rules
 * (glTF 2.0 specification, "Animations" and appendix "Interpolation"):
 * - STEP: the value of the last key at or before t.
 * - LINEAR: component-wise lerp; rotations use slerp along the shorter arc.
 * - CUBICSPLINE: cubic Hermite with per-key in-tangent, value, out-tangent; tangents are scaled by
 *   the key interval; rotations are normalised after interpolation.
 * Before the first key the first value holds, after the last key the last value holds.
 */
import type { Animation, Channel, ColorTrack, Scene, TextureSwapTrack, UVTrack, VisibilityTrack } from './types'
import { quatNormalize, quatSlerp, restPose, worldMatrices, type TRS } from './math'

/** Index of the last key with time ≤ t (−1 when t is before the first key). Binary search. */
export function keyIndex(times: ArrayLike<number>, t: number): number {
  let lo = 0
  let hi = times.length - 1
  if (hi < 0 || t < times[0]) return -1
  if (t >= times[hi]) return hi
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (times[mid] <= t) lo = mid
    else hi = mid - 1
  }
  return lo
}

export function channelWidth(path: Channel['path']): number {
  return path === 'rotation' ? 4 : 3
}

/** Value of one channel at time t, into `out` (3 or 4 numbers). */
export function sampleChannel(ch: Channel, t: number, out: number[] = []): number[] {
  const n = channelWidth(ch.path)
  const keys = ch.times.length
  const cubic = ch.interpolation === 'CUBICSPLINE'
  const stride = cubic ? 3 * n : n
  const valueAt = (k: number, dst: number[]) => {
    const base = k * stride + (cubic ? n : 0)
    for (let c = 0; c < n; c++) dst[c] = ch.values[base + c]
    return dst
  }
  out.length = n
  if (keys === 0) return out
  const i = keyIndex(ch.times, t)
  if (i < 0) return valueAt(0, out)
  if (i >= keys - 1 || ch.interpolation === 'STEP') {
    valueAt(i, out)
    return ch.path === 'rotation' ? quatNormalize(out, out) : out
  }
  const t0 = ch.times[i]
  const t1 = ch.times[i + 1]
  const dt = t1 - t0
  const u = dt > 0 ? (t - t0) / dt : 0
  if (ch.interpolation === 'LINEAR') {
    const a = valueAt(i, [])
    const b = valueAt(i + 1, [])
    if (ch.path === 'rotation') return quatSlerp(a, b, u, out)
    for (let c = 0; c < n; c++) out[c] = a[c] + (b[c] - a[c]) * u
    return out
  }
  // CUBICSPLINE: key k holds [inTangent(n), value(n), outTangent(n)].
  const u2 = u * u
  const u3 = u2 * u
  const h00 = 2 * u3 - 3 * u2 + 1
  const h10 = u3 - 2 * u2 + u
  const h01 = -2 * u3 + 3 * u2
  const h11 = u3 - u2
  const b0 = i * stride
  const b1 = (i + 1) * stride
  for (let c = 0; c < n; c++) {
    const p0 = ch.values[b0 + n + c]
    const m0 = ch.values[b0 + 2 * n + c] * dt
    const p1 = ch.values[b1 + n + c]
    const m1 = ch.values[b1 + c] * dt
    out[c] = h00 * p0 + h10 * m0 + h01 * p1 + h11 * m1
  }
  return ch.path === 'rotation' ? quatNormalize(out, out) : out
}

/** Local TRS of every node at time t of `anim` (nodes without channels keep their rest TRS). */
export function samplePose(scene: Scene, anim: Animation | null | undefined, t: number): TRS[] {
  const pose = restPose(scene.nodes)
  if (!anim) return pose
  const tmp: number[] = []
  for (const ch of anim.channels) {
    const p = pose[ch.node]
    if (!p) continue
    sampleChannel(ch, t, tmp)
    if (ch.path === 'translation') p.translation = [tmp[0], tmp[1], tmp[2]]
    else if (ch.path === 'scale') p.scale = [tmp[0], tmp[1], tmp[2]]
    else p.rotation = [tmp[0], tmp[1], tmp[2], tmp[3]]
  }
  return pose
}

/** World matrices (16 float64 per node) at time t of `anim`, or at rest when `anim` is null. */
export function sampleWorldMatrices(scene: Scene, anim: Animation | null | undefined, t: number): Float64Array {
  return worldMatrices(scene.nodes, samplePose(scene, anim, t))
}

/**
 * The frame a whole-frame counter shows at clock tick k (a game's counter, pokemon-stadium.md
 * §12.5/§13.3: frame₀ = start, then frame + 1, and past the last frame (frameCount − 1) wrap to
 * loopStart, or stay on the last frame when `hold`). Closed form of that recurrence.
 */
export function counterFrame(c: { start: number; loopStart: number; frameCount: number; hold: boolean }, k: number): number {
  const n = Math.max(1, c.frameCount)
  const s = Math.max(0, c.start)
  const l = Math.max(0, c.loopStart)
  // ticks before the first wrap: up to the last frame, or one when the start is already past it
  const first = s < n ? n - s : 1
  if (k < first) return s + Math.max(0, k)
  if (c.hold) return n - 1
  // l ≥ n: the game's counter steps to l and stays (l + 1 is past the end again)
  return n > l ? l + ((k - first) % (n - l)) : l
}

/**
 * The time on a swap track's own counter at player clock `clock` (seconds since the clip was
 * started): identity when it has no period; with `frameRate`, the time of the whole frame the
 * counter shows (`counterFrame`).
 */
export function swapTrackTime(track: Pick<TextureSwapTrack, 'period' | 'loopStart' | 'hold' | 'start' | 'frameRate'>, clock: number): number {
  const period = track.period
  if (!period || !(period > 0)) return clock
  const fps = track.frameRate
  if (fps && fps > 0) {
    const k = Math.floor(clock * fps + 1e-6)
    const f = counterFrame({ start: Math.round((track.start ?? 0) * fps), loopStart: Math.round((track.loopStart ?? 0) * fps), frameCount: Math.round(period * fps), hold: !!track.hold }, k)
    return f / fps
  }
  const t = (track.start ?? 0) + clock
  if (t < period) return t
  if (track.hold) return period
  const start = Math.min(Math.max(0, track.loopStart ?? 0), period)
  const span = period - start
  return span > 0 ? start + ((t - start) % span) : start
}

/**
 * Texture index a swap track selects (step) at clip time t; a track with its own counter reads
 * the player's `clock` instead (seconds since the clip was started; default t).
 */
export function sampleTextureSwap(track: TextureSwapTrack, t: number, clock = t): number {
  const own = !!track.period && track.period > 0
  let tt = own ? swapTrackTime(track, clock) : t
  // Whole frames: look half a frame in, so a key stored as float32(f / fps) is found at frame f.
  if (own && track.frameRate && track.frameRate > 0) tt += 0.5 / track.frameRate
  const i = keyIndex(track.times, tt)
  return track.textures[Math.max(0, i)]
}

/** Whether a visibility track shows its node at t (step). */
export function sampleVisibility(track: VisibilityTrack, t: number): boolean {
  const i = keyIndex(track.times, t)
  return track.visible[Math.max(0, i)] !== 0
}

/** Linear interpolation of a 4-float-per-key track (UV and colour tracks). */
export function sampleVec4Track(track: UVTrack | ColorTrack, t: number, out: number[] = [0, 0, 0, 0]): number[] {
  const keys = track.times.length
  out.length = 4
  if (keys === 0) return out
  const i = keyIndex(track.times, t)
  const k0 = Math.max(0, i)
  const k1 = Math.min(keys - 1, k0 + 1)
  const t0 = track.times[k0]
  const t1 = track.times[k1]
  const u = i < 0 || k1 === k0 || t1 <= t0 ? 0 : Math.min(1, (t - t0) / (t1 - t0))
  for (let c = 0; c < 4; c++) {
    const a = track.values[k0 * 4 + c]
    const b = track.values[k1 * 4 + c]
    out[c] = a + (b - a) * u
  }
  return out
}

/** Seconds one pass of a clip lasts: its duration, plus the last frame's own time for whole-frame clips. */
export function clipPass(anim: Animation): number {
  return anim.duration + (anim.integerFrames && anim.frameRate > 0 ? 1 / anim.frameRate : 0)
}

/**
 * Maps a playback clock to the clip's time: when looping, wraps at the end of a pass (`clipPass`)
 * back to `loopStart`; otherwise clamps to [0, duration].
 */
export function clipTime(anim: Animation, clock: number, loop = anim.loop ?? true): number {
  const d = anim.duration
  if (!(d > 0)) return 0
  if (loop) {
    const pass = clipPass(anim)
    if (clock >= 0 && clock < pass) return clock
    if (clock < 0) {
      const r = clock % pass
      return r < 0 ? r + pass : r
    }
    const ls = Math.min(Math.max(0, anim.loopStart ?? 0), d)
    const fps = anim.frameRate
    if (anim.integerFrames && fps > 0) {
      // wrap in whole frames (no float drift at the loop point), keep the fraction of the frame
      const k = Math.floor(clock * fps + 1e-6)
      const f = counterFrame({ start: 0, loopStart: Math.round(ls * fps), frameCount: Math.round(d * fps) + 1, hold: false }, k)
      return f / fps + Math.max(0, clock - k / fps)
    }
    const span = pass - ls
    return span > 0 ? ls + ((clock - ls) % span) : ls
  }
  return Math.min(Math.max(clock, 0), d)
}

/** The time a clip is sampled at for clip time t: t, or the start of its frame for whole-frame clips (never past the end). */
export function clipSampleTime(anim: Animation, t: number): number {
  if (!anim.integerFrames || !(anim.frameRate > 0)) return t
  return Math.min(anim.duration, Math.floor(t * anim.frameRate + 1e-6) / anim.frameRate)
}

/** Five (or `count`) evenly spread sample times of a clip, both ends included. */
export function sampleTimes(anim: Animation, count = 5): number[] {
  if (count <= 1) return [0]
  return Array.from({ length: count }, (_, i) => (anim.duration * i) / (count - 1))
}
