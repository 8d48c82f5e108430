/**
 * The rail camera's path: the stage scene's game-timed main-track curve (30 samples per block,
 * uniform in the block's moveTime) and the blocks' movement durations (animation frames at 30 Hz).
 * Pure functions so the UI logic can be tested without WebGL.
 */
import type { Scene } from '../../../src-shared/scene/types'

export type P3 = [number, number, number]

export interface Rail {
  pts: P3[]
  /** Frames per block. */
  blocks: number[]
  /** First frame of each block. */
  starts: number[]
  /** Total frames. */
  total: number
  samplesPerBlock: number
}

export function railFromScene(scene: Scene | null): Rail | null {
  if (!scene) return null
  const c = scene.curves.find((k) => (k.extras?.snap as { kind?: string } | undefined)?.kind === 'mainTrackTimed')
  const snap = scene.extras?.snap as { track?: { duration: number }[] } | undefined
  const blocks = (snap?.track ?? []).map((b) => Math.max(1, b.duration || 1))
  if (!c || !blocks.length) return null
  const samplesPerBlock = Number((c.extras?.snap as { samplesPerBlock?: number }).samplesPerBlock ?? 30)
  const pts: P3[] = []
  for (let k = 0; k + 2 < c.points.length; k += 3) pts.push([c.points[k]!, c.points[k + 1]!, c.points[k + 2]!])
  const starts: number[] = []
  let acc = 0
  for (const d of blocks) {
    starts.push(acc)
    acc += d
  }
  return { pts, blocks, starts, total: acc, samplesPerBlock }
}

function lerpAt(pts: P3[], v: number): P3 {
  const i = Math.min(pts.length - 2, Math.max(0, Math.floor(v)))
  const t = Math.min(1, Math.max(0, v - i))
  const a = pts[i]!, c = pts[i + 1] ?? a
  return [a[0] + (c[0] - a[0]) * t, a[1] + (c[1] - a[1]) * t, a[2] + (c[2] - a[2]) * t]
}

/** The cart's position at a track frame and a point a little ahead (for the view direction). */
export function railAt(r: Rail, frame: number): { position: P3; ahead: P3; block: number; moveTime: number } {
  const f = Math.min(r.total, Math.max(0, frame))
  let b = 0
  while (b < r.blocks.length - 1 && f >= r.starts[b + 1]!) b++
  const moveTime = Math.min(1, (f - r.starts[b]!) / r.blocks[b]!)
  const x = (b + moveTime) * r.samplesPerBlock
  return { position: lerpAt(r.pts, x), ahead: lerpAt(r.pts, Math.min(r.pts.length - 1, x + 2)), block: b, moveTime }
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
