/**
 * A texture animation (eyes, pokemon-stadium.md §13) as neutral texture-swap tracks on their
 * own whole-frame counter (§13.3): it starts at its startFrame, steps one frame per 30 Hz tick,
 * and past its last frame wraps to loopStartFrame or holds — independent of the skeletal clip.
 * The scene builder pairs each clip with its texture animation this way; the model view uses the
 * same function when the user picks another one.
 */
import type { TextureSwapTrack } from '../../scene/types'

export interface EyeAnimation {
  frames: number
  startFrame: number
  loopStartFrame: number
  hold: boolean
  /** Per material, the scene texture at frames 0 … frames − 1. */
  tracks: { material: number; textures: number[] }[]
}

/**
 * The swap tracks of texture animation `ta` at `frameRate` frames per second. `startFrame`
 * overrides where the counter starts (a move's entry frame, "as in battle").
 */
export function eyeSwapTracks(ta: EyeAnimation, frameRate: number, startFrame = ta.startFrame): TextureSwapTrack[] {
  const frames = Math.max(1, ta.frames)
  const period = frames / frameRate
  const loopStart = Math.min(Math.max(0, ta.loopStartFrame), frames - 1) / frameRate
  const start = Math.max(0, startFrame) / frameRate
  return ta.tracks.map((tr) => {
    const times = new Float32Array(tr.textures.length)
    for (let f = 0; f < times.length; f++) times[f] = f / frameRate
    return { material: tr.material, times, textures: Uint32Array.from(tr.textures), period, loopStart, hold: ta.hold, start, frameRate }
  })
}
