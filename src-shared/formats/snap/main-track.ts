/**
 * The Zero-One's rail ("main track", pokemon-snap.md §9, [D: src/world/movement.c, block.c]).
 * Per path room: the road node list (root + 1 or 2 control lines), one movement track per node
 * whose SET_PATH attaches a B-spline InterpData and whose path channel ramps 0 → 1 over
 * `movementAnimDuration`; the two lines are blended by `cpTime` (0.5 at start); block yaw and
 * world position place the result.
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'
import { Channel, channelSegments, channelValue, readTrack, type Track } from './anim-track'
import { PathType, pathPosition, readInterpData, segmentPoint, type InterpData } from './interp-data'
import { readNodeList, type GfxNode } from './node-list'
import type { Vec3, WorldBlockDescriptor, WorldBlockGFX } from './world'

export interface ControlLine {
  node: GfxNode
  track: Track
  path: InterpData
}

export interface TrackBlock {
  /** Path-room index. */
  room: number
  /** Block placement: worldPos × 100 (game units). */
  position: Vec3
  yaw: number
  reversed: boolean
  duration: number
  lines: ControlLine[]
  /**
   * The blended control line (block-local game units, before yaw and position), cpTime = 0.5:
   * point k = lerp(line1[k], line2[k], 0.5), or line 1 itself with one control line. Stored order,
   * also for reversed blocks (the reversal is applied when walking the track, `sampleTrackWorld`).
   */
  controlPoints: Vec3[]
  /** Path type of the blended line (2 = B-spline normally). */
  pathType: number
  tension: number
}

export const INITIAL_CP_TIME = 0.5

/** Block-local → global (§9 steps 6–7, §14.5). */
export function blockToWorld(p: Vec3, position: Vec3, yaw: number): Vec3 {
  const c = Math.cos(yaw), s = Math.sin(yaw)
  return [position[0] + c * p[0] + s * p[2], position[1] + p[1], position[2] - s * p[0] + c * p[2]]
}

const lerp3 = (a: Vec3, b: Vec3, t: number): Vec3 => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]

/**
 * Reads one path room's track block, or returns null (with a reason) when the room has no
 * working track (no road, or a control-line count the game rejects: §9 step 1).
 */
export function readTrackBlock(map: AddressMap, room: number, desc: WorldBlockDescriptor, gfx: WorldBlockGFX, warn?: (m: string) => void): TrackBlock | null {
  const field = `pathRooms[${room}].gfx`
  if (!gfx.road || !gfx.movementAnim) {
    warn?.(`path room ${room}: no road/movement data, no track block`)
    return null
  }
  const n = gfx.numControlLines
  if (n < 2 || n > 3) {
    warn?.(`path room ${room}: numControlLines ${n} is not 2 or 3; the game gives the cart no position here`)
    return null
  }
  const nodes = readNodeList(map, gfx.road, `${field}.road`, { count: n })
  const ptrs = map.view(gfx.movementAnim, n * 4, 'WorldBlockGFX.movementAnim', `${field}.movementAnim`)
  const lines: ControlLine[] = []
  for (let i = 1; i < n; i++) {
    const tp = ptrs.u32At(i * 4, `WorldBlockGFX.movementAnim[${i}]`)
    if (!tp) throw new FormatError(`control line ${i} has no movement track`, { file: map.file, structure: `${field}.movementAnim[${i}]`, offset: ptrs.base + i * 4 })
    const track = readTrack(map, tp, `${field}.movementAnim[${i}]`)
    let path: InterpData | null = null
    if (track.path) path = readInterpData(map, track.path, `${field}.movementAnim[${i}].path`)
    else {
      // No command 13: fall back on the seed's "trailer", the InterpData the data places right
      // before the command stream (§9 "Relation to the seed's trailer method"), when it reads as one.
      path = trailerPath(map, tp, `${field}.movementAnim[${i}]`)
      if (!path) {
        warn?.(`path room ${room}: control line ${i}'s track ${hex(tp)} attaches no path (no command 13, no InterpData before the stream); no track block`)
        return null
      }
      warn?.(`path room ${room}: control line ${i}'s track ${hex(tp)} has no command 13; using the InterpData at ${hex(path.addr)} right before the stream`)
    }
    lines.push({ node: nodes[i]!, track, path })
  }
  const first = lines[0]!.path
  let controlPoints: Vec3[] = first.points.map((p) => [...p] as Vec3)
  if (lines.length === 2) {
    const second = lines[1]!.path
    if (second.points.length !== first.points.length || second.type !== first.type) {
      warn?.(`path room ${room}: control lines differ (${first.points.length} vs ${second.points.length} points); blending the common prefix`)
    }
    const m = Math.min(first.points.length, second.points.length)
    controlPoints = []
    for (let k = 0; k < m; k++) controlPoints.push(lerp3(first.points[k]!, second.points[k]!, INITIAL_CP_TIME))
  }
  return {
    room,
    position: [desc.worldPos[0] * 100, desc.worldPos[1] * 100, desc.worldPos[2] * 100],
    yaw: desc.yaw,
    reversed: desc.reversed,
    duration: gfx.movementAnimDuration,
    lines,
    controlPoints,
    pathType: first.type,
    tension: first.tension,
  }
}

/** The InterpData at `track − 0x18` if it reads as a plausible curve path, else null. */
function trailerPath(map: AddressMap, track: number, field: string): InterpData | null {
  const at = (track - 0x18) >>> 0
  if (!map.find(at, 0x18)) return null
  try {
    const p = readInterpData(map, at, `${field} trailer`)
    const finite = p.points.every((q) => q.every(Number.isFinite))
    return p.type !== PathType.LINEAR && finite ? p : null
  } catch {
    return null
  }
}

/** Segments of the blended control line. */
export function blockSegmentCount(b: Pick<TrackBlock, 'pathType' | 'controlPoints'>): number {
  const n = b.controlPoints.length
  switch (b.pathType) {
    case PathType.LINEAR: return n - 1
    case PathType.BEZIER_S3: return Math.floor((n - 1) / 3)
    default: return n - 3
  }
}

/**
 * Raw segment parameters for `perSegment` samples of one segment: u = k/(N−1), k = 0…N−1, so every
 * segment contributes exactly N points and includes both of its ends (N = 1: u = 0 only).
 *
 * Choice (CLI.md "N points per B-spline segment"; spec §9 "evaluates the spline window by window
 * with raw u"): including both ends makes `--samples 3` give the §14.3 vectors at u = 0, 0.5, 1 and
 * lets the sampled track reach the end of its last block. Neighbouring segments (and blocks that
 * join) therefore repeat their shared point.
 */
export function segmentParams(perSegment: number): number[] {
  const n = Math.max(1, Math.floor(perSegment))
  return Array.from({ length: n }, (_, k) => (n === 1 ? 0 : k / (n - 1)))
}

/**
 * World-space samples of the whole track: `perSegment` points per segment of each block's
 * blended line at raw u (see `segmentParams`), blocks in path-room order. A reversed block is
 * walked backwards (last segment first, u from 1 down to 0: the cart's moveTime' = 1 − moveTime,
 * §9 step 3), which is exactly its forward samples in reverse order.
 */
export function sampleTrackWorld(blocks: TrackBlock[], perSegment = 8): Vec3[] {
  const out: Vec3[] = []
  const us = segmentParams(perSegment)
  for (const b of blocks) {
    const segs = blockSegmentCount(b)
    const path = { type: b.pathType, points: b.controlPoints, tension: b.tension }
    const local: Vec3[] = []
    for (let i = 0; i < segs; i++) for (const u of us) local.push(segmentPoint(path, i, u))
    if (b.reversed) local.reverse()
    for (const p of local) out.push(blockToWorld(p, b.position, b.yaw))
  }
  return out
}

/** The end point of a block's line in world space (u = 1 of its last segment, or start when reversed). */
export function blockEndWorld(b: TrackBlock): Vec3 {
  const segs = blockSegmentCount(b)
  const path = { type: b.pathType, points: b.controlPoints, tension: b.tension }
  const p = b.reversed ? segmentPoint(path, 0, 0) : segmentPoint(path, segs - 1, 1)
  return blockToWorld(p, b.position, b.yaw)
}

/**
 * The cart's position and yaw with the game's timing (§9 steps 3–7): control lines evaluated at
 * track time `T = duration × moveTime` (path channel → arc-length path position), blended by
 * cpTime, placed by the block's yaw and position.
 */
export function cartPose(b: TrackBlock, moveTime: number, cpTime = INITIAL_CP_TIME): { position: Vec3; yaw: number; speed: number } {
  const mt = b.reversed ? 1 - moveTime : moveTime
  const cp = b.reversed ? 1 - cpTime : cpTime
  const T = b.duration * mt
  const per = b.lines.map((l) => {
    const segs = channelSegments(l.track)
    const q = Math.min(1, Math.max(0, channelValue(segs.get(Channel.PATH), T, 0)))
    return {
      pos: pathPosition(l.path, q),
      rotY: channelValue(segs.get(Channel.ROT_Y), T, l.node.rotation[1]),
      scaleX: channelValue(segs.get(Channel.SCALE_X), T, l.node.scale[0]),
    }
  })
  const a = per[0]!, c = per[1] ?? per[0]!
  const pos = lerp3(a.pos, c.pos, per.length === 2 ? cp : 0)
  const rotY = a.rotY + (c.rotY - a.rotY) * (per.length === 2 ? cp : 0)
  const speed = a.scaleX + (c.scaleX - a.scaleX) * (per.length === 2 ? cp : 0)
  return { position: blockToWorld(pos, b.position, b.yaw), yaw: rotY + b.yaw + (b.reversed ? Math.PI : 0), speed }
}
