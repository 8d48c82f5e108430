import { describe, expect, it } from 'vitest'
import { sampleTextureSwap, swapTrackTime } from '../../../../src-shared/scene/sample'
import type { TextureSwapTrack } from '../../../../src-shared/scene/types'

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
