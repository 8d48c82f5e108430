import { describe, expect, it } from 'vitest'
import { clipSampleTime, clipTime, counterFrame, sampleTextureSwap, swapTrackTime } from '../../../../src-shared/scene/sample'
import type { Animation, TextureSwapTrack } from '../../../../src-shared/scene/types'
import { nextFrame } from '../../../../src-shared/formats/stadium/skeletal-anim'
import { eyeSwapTracks } from '../../../../src-shared/formats/stadium/eye-tracks'

// Four keys at 30 fps: frames 0..3 show textures 10, 11, 12, 13; the track is 4 frames long.
const track = (extra: Partial<TextureSwapTrack> = {}): TextureSwapTrack => ({
  material: 0,
  times: new Float32Array([0, 1 / 30, 2 / 30, 3 / 30]),
  textures: new Uint32Array([10, 11, 12, 13]),
  ...extra,
})

describe('texture-swap tracks with their own counter', () => {
  it('follow the clip time when they have no period', () => {
    expect(sampleTextureSwap(track(), 0)).toBe(10)
    expect(sampleTextureSwap(track(), 2.5 / 30)).toBe(12)
    expect(sampleTextureSwap(track(), 10)).toBe(13)
  })

  it('repeat with their period, continuing from loopStart', () => {
    const t = track({ period: 4 / 30, loopStart: 1 / 30 })
    // Frame 4 wraps to frame 1, frame 6 to frame 3, frame 7 to frame 1 again (span of 3 frames).
    expect(swapTrackTime(t, 4 / 30)).toBeCloseTo(1 / 30, 9)
    expect(sampleTextureSwap(t, 4.01 / 30)).toBe(11)
    expect(sampleTextureSwap(t, 6.01 / 30)).toBe(13)
    expect(sampleTextureSwap(t, 7.01 / 30)).toBe(11)
    expect(sampleTextureSwap(t, 2.01 / 30)).toBe(12)
  })

  it('hold their last key when told to', () => {
    const t = track({ period: 4 / 30, hold: true })
    expect(sampleTextureSwap(t, 100)).toBe(13)
  })
})

// Whole-frame counters, hand-computed from the game's rule (pokemon-stadium.md §13.3): frame₀ =
// start; then frame + 1, and past the last frame (frames − 1) wrap to loopStart (or hold).
const eye = (frames: number, startFrame: number, loopStartFrame: number, hold = false) =>
  eyeSwapTracks({ frames, startFrame, loopStartFrame, hold, tracks: [{ material: 0, textures: Array.from({ length: frames }, (_, f) => 10 + f) }] }, 30)[0]!
/** Texture shown at game tick k (the clock exactly on the tick: k / 30 s). */
const at = (tr: TextureSwapTrack, k: number) => sampleTextureSwap(tr, 0, k / 30)

describe('texture-swap tracks on a whole-frame counter', () => {
  it('3 frames, loop from 1: 0 1 2 1 2 1 2, on exact tick times despite float32 key times', () => {
    const tr = eye(3, 0, 1)
    expect([0, 1, 2, 3, 4, 5, 6].map((k) => at(tr, k) - 10)).toEqual([0, 1, 2, 1, 2, 1, 2])
    // between ticks the frame holds (integer frames, no interpolation)
    expect(sampleTextureSwap(tr, 0, 2.99 / 30)).toBe(12)
  })

  it('start at frame 2 of 4, loop from 1: 2 3 1 2 3 1', () => {
    expect([0, 1, 2, 3, 4, 5].map((k) => at(eye(4, 2, 1), k) - 10)).toEqual([2, 3, 1, 2, 3, 1])
  })

  it('hold: 1 2 3 3 3', () => {
    expect([0, 1, 2, 3, 4].map((k) => at(eye(4, 1, 0, true), k) - 10)).toEqual([1, 2, 3, 3, 3])
  })

  it('read the player clock, not the clip time (the eyes run on while the clip wraps)', () => {
    const tr = eye(3, 0, 1)
    // clip time 0 (just wrapped) but tick 4 on the clock: frame 2
    expect(sampleTextureSwap(tr, 0, 4 / 30)).toBe(12)
    expect(swapTrackTime(tr, 4 / 30)).toBeCloseTo(2 / 30, 12)
  })

  it('closed form = the game recurrence (nextFrame) for every small counter', () => {
    for (let frames = 1; frames <= 6; frames++)
      for (let start = 0; start <= frames + 1; start++)
        for (let loop = 0; loop <= frames; loop++)
          for (const hold of [false, true]) {
            let f = start
            for (let k = 0; k < 20; k++) {
              expect(counterFrame({ start, loopStart: loop, frameCount: frames, hold }, k), `n=${frames} s=${start} l=${loop} h=${hold} k=${k}`).toBe(f)
              f = nextFrame(f, { frameCount: frames, loopStartFrame: loop, hold })
            }
          }
  })
})

describe('whole-frame clips (a game counter) with a loop start', () => {
  // 5 frames (0..4) at 30 fps, looping back to frame 2: 0 1 2 3 4 2 3 4 2 …
  const clip: Animation = { name: 'c', duration: 4 / 30, frameRate: 30, channels: [], loop: true, loopStart: 2 / 30, integerFrames: true }
  const frameAt = (k: number) => Math.round(clipSampleTime(clip, clipTime(clip, k / 30)) * 30)

  it('show the last frame for a whole tick, then continue from loopStart', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(frameAt)).toEqual([0, 1, 2, 3, 4, 2, 3, 4, 2, 3, 4])
    // mid-frame clocks keep their fraction: tick 5.5 → frame 2 and a half
    expect(clipTime(clip, 5.5 / 30)).toBeCloseTo(2.5 / 30, 9)
    expect(clipSampleTime(clip, 2.5 / 30)).toBeCloseTo(2 / 30, 12)
  })

  it('continuous clips keep wrapping at their duration back to 0', () => {
    const c: Animation = { name: 'c', duration: 1, frameRate: 30, channels: [], loop: true }
    expect(clipTime(c, 2.25)).toBeCloseTo(0.25, 12)
    expect(clipSampleTime(c, 0.123)).toBe(0.123)
  })
})
