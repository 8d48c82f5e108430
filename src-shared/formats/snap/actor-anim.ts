/**
 * Actor animation (pokemon-snap.md §7): `AnimationHeader`, per-node command tracks evaluated with
 * the cursor model of §7.4 / §14.6 (every command kind of §7.2: values, rates, steps, SKIP on the
 * local time, SET_PATH + path channel, SET_FLAGS visibility, loops), per-material track tables,
 * sampling per animation frame (§7.7), and the discovery of other animations from the state
 * functions (§3.8).
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'
import { AnimCmd, Channel, channelSegments, readTrack, segmentValue, type Track } from './anim-track'
import { pathPosition, readInterpData, type InterpData } from './interp-data'
import type { GfxNode } from './node-list'
import { walkFunction } from './mips'
import type { Vec3 } from './world'

export interface AnimationHeader {
  addr: number
  speed: number
  unk04: number
  modelAnims: number
  matAnims: number
  ids: number
}

export function readAnimationHeader(map: AddressMap, addr: number, field: string): AnimationHeader {
  const r = map.view(addr, 0x14, 'AnimationHeader', field)
  const speed = r.f32At(0, 'AnimationHeader.speed')
  if (!Number.isFinite(speed) || speed < 0 || speed > 64) throw r.error(`AnimationHeader.speed ${speed} is not a playback rate`, 0)
  return { addr, speed, unk04: r.f32At(4), modelAnims: r.u32At(8, 'AnimationHeader.modelAnims'), matAnims: r.u32At(12, 'AnimationHeader.matAnims'), ids: r.u32At(16) }
}

type Segs = ReturnType<typeof channelSegments>

/** A node track prepared for sampling. */
export interface NodeTrack {
  track: Track
  segs: Segs
  /** SKIP commands per channel: [start, added frames]. */
  skips: Map<number, [number, number][]>
  /** SET_FLAGS changes: [start, flags]. */
  flags: [number, number][]
  path: InterpData | null
}

export function prepareNodeTrack(map: AddressMap, addr: number, field: string): NodeTrack {
  const track = readTrack(map, addr, field)
  const skips = new Map<number, [number, number][]>()
  const flags: [number, number][] = []
  for (const c of track.commands) {
    if (c.cmd === AnimCmd.SKIP) {
      for (let bit = 0; bit < 10; bit++) if (c.mask & (1 << bit)) {
        const l = skips.get(bit) ?? []
        l.push([c.start, c.duration])
        skips.set(bit, l)
      }
    } else if (c.cmd === AnimCmd.SET_FLAGS) flags.push([c.start, c.mask])
  }
  const path = track.path ? readInterpData(map, track.path, `${field} SET_PATH`) : null
  return { track, segs: channelSegments(track), skips, flags, path }
}

/** Value of channel `bit` at absolute frame t (rest value before its first command; §7.4, §7.5). */
export function channelAt(nt: NodeTrack, bit: number, t: number, rest: number): number {
  const list = nt.segs.get(bit)
  if (!list?.length) return rest
  let s: (typeof list)[number] | undefined
  for (const x of list) {
    if (x.start <= t) s = x
    else break
  }
  if (!s) return rest
  let tau = t - s.start
  for (const [at, add] of nt.skips.get(bit) ?? []) if (at >= s.start && at <= t) tau += add
  return segmentValue(s, tau)
}

export interface NodePose {
  translation: Vec3
  rotation: Vec3
  scale: Vec3
  /** Node flags (bit 0 hides its own geometry, bit 1 the subtree). */
  flags: number
}

export function restPose(n: GfxNode): NodePose {
  return { translation: [...n.translation], rotation: [...n.rotation], scale: [...n.scale], flags: 0 }
}

/** The pose of `node` at frame t under its track (or the rest pose without one). */
export function poseAt(nt: NodeTrack | null, node: GfxNode, frame: number): NodePose {
  if (!nt) return restPose(node)
  // after END the values are frozen (§7.4): a track shorter than its animation holds its end pose
  const t = nt.track.loopTo === undefined ? Math.min(frame, nt.track.length) : frame
  const c = (bit: number, rest: number) => channelAt(nt, bit, t, rest)
  let translation: Vec3 = [c(Channel.POS_X, node.translation[0]), c(Channel.POS_Y, node.translation[1]), c(Channel.POS_Z, node.translation[2])]
  if (nt.path && nt.segs.has(Channel.PATH)) {
    // the path parameter replaces the translation, raw path units (§7.3, §7.5)
    const q = Math.min(1, Math.max(0, c(Channel.PATH, 0)))
    translation = pathPosition(nt.path, q)
  }
  let flags = 0
  for (const [at, f] of nt.flags) if (at <= t) flags = f
  return {
    translation,
    rotation: [c(Channel.ROT_X, node.rotation[0]), c(Channel.ROT_Y, node.rotation[1]), c(Channel.ROT_Z, node.rotation[2])],
    scale: [c(Channel.SCALE_X, node.scale[0]), c(Channel.SCALE_Y, node.scale[1]), c(Channel.SCALE_Z, node.scale[2])],
    flags,
  }
}

export interface ActorAnimation {
  header: AnimationHeader
  /** One per node (null = no track). */
  nodeTracks: (NodeTrack | null)[]
  /** Per node: the material track pointers (material index order) or null. */
  materialTables: (number | null)[]
  /** Length in animation frames (the END / SET_ANIMATION cursor, §14.6). */
  frames: number
  /** Animation frames per second: 30 × speed (30 when speed is 0, as noclip). */
  fps: number
  loops: boolean
  materialTracks: number
}

/**
 * Reads an animation for a model of `nodes` (node order = track order). `materialCounts[i]` is
 * node i's material count. Bad data (unknown command, runaway stream, unmapped pointer) throws a
 * FormatError naming the header and the track.
 */
export function readActorAnimation(map: AddressMap, addr: number, nodes: GfxNode[], materialCounts: number[], field: string): ActorAnimation {
  const label = `${field} AnimationHeader ${hex(addr)}`
  return readAnimationTables(map, readAnimationHeader(map, addr, label), nodes, materialCounts, label)
}

/** The same from a header's fields (the Zero-One's per-stage node/material track tables have no header, §3.9). */
export function readAnimationTables(map: AddressMap, header: AnimationHeader, nodes: GfxNode[], materialCounts: number[], label: string, fpsOverride?: number): ActorAnimation {
  const nodeTracks: (NodeTrack | null)[] = nodes.map(() => null)
  let frames = 0
  let loops = false
  if (header.modelAnims) {
    const r = map.view(header.modelAnims, nodes.length * 4, 'AnimationHeader.modelAnims', `${label}.modelAnims`)
    nodes.forEach((n, i) => {
      const p = r.u32At(i * 4, `${label}.modelAnims[${i}]`)
      if (!p) return
      const nt = prepareNodeTrack(map, p, `${label}.modelAnims[${i}]`)
      nodeTracks[i] = nt
      frames = Math.max(frames, nt.track.length)
      if (nt.track.loopTo !== undefined) loops = true
    })
  }
  const materialTables: (number | null)[] = nodes.map(() => null)
  let materialTracks = 0
  if (header.matAnims) {
    const r = map.view(header.matAnims, nodes.length * 4, 'AnimationHeader.matAnims', `${label}.matAnims`)
    nodes.forEach((_, i) => {
      const p = r.u32At(i * 4, `${label}.matAnims[${i}]`)
      if (!p) return
      materialTables[i] = p
      const n = materialCounts[i] ?? 0
      if (!n) return
      const t = map.view(p, n * 4, 'material track table', `${label}.matAnims[${i}]`)
      for (let m = 0; m < n; m++) {
        const tp = t.u32At(m * 4, `${label}.matAnims[${i}][${m}]`)
        if (!tp) continue
        const tr = readTrack(map, tp, `${label}.matAnims[${i}][${m}]`)
        materialTracks++
        frames = Math.max(frames, tr.length)
        if (tr.loopTo !== undefined) loops = true
      }
    })
  }
  const fps = fpsOverride ?? 30 * (header.speed > 0 ? header.speed : 1)
  return { header, nodeTracks, materialTables, frames, fps, loops, materialTracks }
}

/** Samples every node at integer frames 0..frames (at most `maxFrames` + 1 samples). */
export function sampleAnimation(anim: ActorAnimation, nodes: GfxNode[], maxFrames = 3600): NodePose[][] {
  const n = Math.min(maxFrames, Math.ceil(anim.frames))
  const out: NodePose[][] = []
  for (let f = 0; f <= n; f++) out.push(nodes.map((node, i) => poseAt(anim.nodeTracks[i] ?? null, node, f)))
  return out
}

/** True when `addr` reads as a plausible AnimationHeader whose tables are mapped. */
function isAnimationHeader(map: AddressMap, addr: number): boolean {
  if (!map.find(addr, 0x14)) return false
  try {
    const h = readAnimationHeader(map, addr, 'candidate')
    if (!h.modelAnims && !h.matAnims) return false
    return (!h.modelAnims || !!map.find(h.modelAnims, 4)) && (!h.matAnims || !!map.find(h.matAnims, 4))
  } catch (e) {
    if (e instanceof FormatError) return false
    throw e
  }
}

/**
 * Other animations: walks each state function and records the second argument (a1) of every
 * call when it is a constant address that reads as an AnimationHeader — the `SetAnimation(obj,
 * &AnimationHeader)` pattern of §3.8 (the spec gives no address for SetAnimation, so the target
 * is not checked). Problems in a state function are warnings: behaviour is out of scope.
 */
export function discoverAnimations(map: AddressMap, states: number[], label: string, warn: (m: string) => void): number[] {
  const found: number[] = []
  const seen = new Set<number>()
  for (const fn of states) {
    if (seen.has(fn)) continue
    seen.add(fn)
    try {
      walkFunction(map, fn, `${label} state function`, {
        maxSteps: 2048,
        onJal: (ev) => {
          const a1 = ev.args[1]
          if (a1 !== undefined && !found.includes(a1) && isAnimationHeader(map, a1)) found.push(a1)
          return false
        },
      })
    } catch (e) {
      if (!(e instanceof FormatError)) throw e
      warn(`state function ${hex(fn)}: ${e.message}`)
    }
  }
  return found
}
