/**
 * The rail camera's path and timing, as the Zero-One moves (pokemon-snap.md §9 step 8): each game
 * frame (30 Hz) the cart advances `moveTime` by `speedMult × lerp(scaleX, nextBlockScaleX,
 * moveTime)` with `speedMult = 0.0005` (the value at the start of a run; dash and view direction
 * change it during play), where scaleX is the blended scale-X speed factor of the control lines.
 * Positions come from the stage scene's game-timed track curve (30 samples per block, uniform in
 * moveTime) and its per-sample speed factors and cart yaws. Pure functions, shared by the stage
 * view's rail camera and the Zero-One's ride in exports (actor-instance.ts).
 */
import type { Scene } from '../../scene/types'

export type P3 = [number, number, number]

export const SPEED_MULT = 0.0005
/** Frames simulated at most (a broken speed factor cannot make the table endless). */
const MAX_FRAMES = 400_000
/** Speed factors below this are clamped (0 would never leave the block). */
const MIN_SPEED = 0.05

export interface Rail {
  pts: P3[]
  speeds: number[]
  /** Cart yaw per sample (radians), when the curve carries them. */
  yaws: number[] | null
  samplesPerBlock: number
  blocks: number
  /** Per game frame: block index + moveTime (e.g. 2.25 = block 2, moveTime 0.25). */
  frames: Float32Array
  /** Total game frames. */
  total: number
}

function speedAt(r: Pick<Rail, 'speeds' | 'samplesPerBlock'>, block: number, m: number): number {
  const x = (block + m) * r.samplesPerBlock
  const i = Math.min(r.speeds.length - 2, Math.max(0, Math.floor(x)))
  const t = Math.min(1, Math.max(0, x - i))
  const a = r.speeds[i] ?? 1, b = r.speeds[i + 1] ?? a
  return a + (b - a) * t
}

export function railFromScene(scene: Scene | null, speedMult = SPEED_MULT): Rail | null {
  if (!scene) return null
  const c = scene.curves.find((k) => (k.extras?.snap as { kind?: string } | undefined)?.kind === 'mainTrackTimed')
  if (!c) return null
  const x = c.extras?.snap as { samplesPerBlock?: number; speeds?: number[]; yaws?: number[] }
  const samplesPerBlock = Number(x.samplesPerBlock ?? 30)
  const pts: P3[] = []
  for (let k = 0; k + 2 < c.points.length; k += 3) pts.push([c.points[k]!, c.points[k + 1]!, c.points[k + 2]!])
  const blocks = Math.floor((pts.length - 1) / samplesPerBlock)
  if (blocks < 1) return null
  const speeds = x.speeds && x.speeds.length === pts.length ? x.speeds : pts.map(() => 1)
  const frames: number[] = []
  let b = 0, m = 0
  const r0 = { speeds, samplesPerBlock }
  while (b < blocks && frames.length < MAX_FRAMES) {
    frames.push(b + m)
    const here = speedAt(r0, b, m)
    const next = b + 1 < blocks ? speedAt(r0, b + 1, 0) : here
    m += speedMult * Math.max(MIN_SPEED, here + (next - here) * m)
    if (m >= 1) { b++; m -= 1 }
  }
  frames.push(blocks)
  const yaws = x.yaws && x.yaws.length === pts.length ? x.yaws : null
  return { pts, speeds, yaws, samplesPerBlock, blocks, frames: new Float32Array(frames), total: frames.length - 1 }
}

function lerpAt(pts: P3[], v: number): P3 {
  const i = Math.min(pts.length - 2, Math.max(0, Math.floor(v)))
  const t = Math.min(1, Math.max(0, v - i))
  const a = pts[i]!, c = pts[i + 1] ?? a
  return [a[0] + (c[0] - a[0]) * t, a[1] + (c[1] - a[1]) * t, a[2] + (c[2] - a[2]) * t]
}

/** The cart at a game frame (fractional frames interpolate), and a point a little ahead. */
export function railAt(r: Rail, frame: number): { position: P3; ahead: P3; block: number; moveTime: number } {
  const f = Math.min(r.total, Math.max(0, frame))
  const i = Math.min(r.total - 1, Math.floor(f))
  const a = r.frames[i]!, b = r.frames[Math.min(r.total, i + 1)]!
  const s = a + (b - a) * (f - i)
  const block = Math.min(r.blocks - 1, Math.floor(s))
  const x = s * r.samplesPerBlock
  return { position: lerpAt(r.pts, x), ahead: lerpAt(r.pts, Math.min(r.pts.length - 1, x + 2)), block, moveTime: s - block }
}

/** The cart's yaw at a game frame (interpolated between samples; 0 without yaws). */
export function railYaw(r: Rail, frame: number): number {
  if (!r.yaws) return 0
  const f = Math.min(r.total, Math.max(0, frame))
  const i = Math.min(r.total - 1, Math.floor(f))
  const a = r.frames[i]!, b = r.frames[Math.min(r.total, i + 1)]!
  const x = (a + (b - a) * (f - i)) * r.samplesPerBlock
  const k = Math.min(r.yaws.length - 2, Math.max(0, Math.floor(x)))
  const t = Math.min(1, Math.max(0, x - k))
  return r.yaws[k]! + ((r.yaws[k + 1] ?? r.yaws[k]!) - r.yaws[k]!) * t
}

/** Eye (cart position raised by `eyeHeight`) and look-at target `lookAhead` units forward. */
export function railCamera(r: Rail, frame: number, eyeHeight = 120, lookAhead = 400): { eye: P3; target: P3 } {
  const { position: p, ahead } = railAt(r, frame)
  let dx = ahead[0] - p[0], dz = ahead[2] - p[2]
  const l = Math.hypot(dx, dz)
  if (l < 1e-6) { dx = 0; dz = 1 } else { dx /= l; dz /= l }
  const eye: P3 = [p[0], p[1] + eyeHeight, p[2]]
  return { eye, target: [eye[0] + dx * lookAhead, eye[1] - eyeHeight * 0.5, eye[2] + dz * lookAhead] }
}
