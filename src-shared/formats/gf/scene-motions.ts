/**
 * GF motions → neutral animation clips (spec §11, §15.9 "Timing"): frame f at t = f / 30 s, keys
 * over 0..FC; skeletal curves baked LINEAR at every integer frame (bind values for the components
 * a track does not animate); UV tracks of unit 0 as neutral UV offset/scale tracks; visibility
 * as step tracks on the mesh nodes. One clip per motion, named `<file>/<entry>`.
 */
import type { Animation, Channel, UVTrack, VisibilityTrack } from '../../scene/types'
import type { GfMaterial } from './material'
import type { GfMotion } from './motion'
import { allFinite } from '../../scene/math'
import { animatedPaths, sampleBoneTrack, uvTrackTransform } from './motion-pose'
import type { GfBone } from './skeleton'

export const GF_FPS = 30

export interface MotionTargets {
  bones: readonly GfBone[]
  /** Scene node of each bone. */
  boneNodes: readonly number[]
  /** Scene node of each GFMesh name. */
  meshNodes: ReadonlyMap<string, number>
  gfMaterials: readonly GfMaterial[]
  /** Neutral material(s) of each GF material name (normal and shiny). */
  materials: ReadonlyMap<string, number[]>
}

function frameTimes(fc: number): Float32Array {
  const t = new Float32Array(fc + 1)
  for (let f = 0; f <= fc; f++) t[f] = f / GF_FPS
  return t
}

function boneChannels(m: GfMotion, tg: MotionTargets, times: Float32Array, warn: (w: string) => void): Channel[] {
  const byName = new Map<string, number>()
  tg.bones.forEach((b, i) => { if (!byName.has(b.name)) byName.set(b.name, i) })
  const out: Channel[] = []
  const done = new Set<number>()
  for (const t of m.skeletal ?? []) {
    const bi = byName.get(t.bone)
    if (bi === undefined) {
      warn(`names bone '${t.bone}', which the model lacks; its track is skipped`)
      continue
    }
    if (done.has(bi)) continue
    done.add(bi)
    const paths = animatedPaths(t)
    const n = times.length
    const tr = new Float32Array(n * 3), rot = new Float32Array(n * 4), sc = new Float32Array(n * 3)
    const q = new Float64Array(4)
    for (let f = 0; f < n; f++) {
      sampleBoneTrack(t, tg.bones[bi]!, f, tr, sc, q, f * 3)
      // Keep consecutive keys on one hemisphere so LINEAR (slerp) takes the short way between frames.
      const sign = f > 0 && q[0] * rot[f * 4 - 4]! + q[1] * rot[f * 4 - 3]! + q[2] * rot[f * 4 - 2]! + q[3] * rot[f * 4 - 1]! < 0 ? -1 : 1
      for (let c = 0; c < 4; c++) rot[f * 4 + c] = q[c]! * sign
    }
    const node = tg.boneNodes[bi]!
    if (paths.translation) out.push({ node, path: 'translation', times, values: tr, interpolation: 'LINEAR' })
    if (paths.rotation) out.push({ node, path: 'rotation', times, values: rot, interpolation: 'LINEAR' })
    if (paths.scale) out.push({ node, path: 'scale', times, values: sc, interpolation: 'LINEAR' })
  }
  return out
}

/**
 * Unit-0 UV tracks as neutral offset/scale (uv' = uv·scale + offset over UVs that already carry
 * the rest transform, glTF V = 1 − v′). Exact when the rotation is 0 at rest and in the track;
 * an animated rotation is not carried (warning).
 */
function uvTracks(m: GfMotion, tg: MotionTargets, times: Float32Array, warn: (w: string) => void): UVTrack[] {
  const out: UVTrack[] = []
  const seen = new Set<string>()
  for (const t of m.material ?? []) {
    if (t.unit !== 0 || seen.has(t.material)) continue
    seen.add(t.material)
    const gm = tg.gfMaterials.find((x) => x.name === t.material)
    const targets = tg.materials.get(t.material)
    const rest = gm?.units[0]
    if (!gm || !targets || !rest) {
      warn(`animates material '${t.material}' unit 0, which the model lacks`)
      continue
    }
    const [su, sv] = rest.scale, [tu, tv] = rest.translation
    if (su === 0 || sv === 0) {
      warn(`material '${t.material}': UV scale 0 at rest; its UV animation is skipped`)
      continue
    }
    const values = new Float32Array(times.length * 4)
    let rotated = false
    for (let f = 0; f < times.length; f++) {
      const x = uvTrackTransform(t, rest, f)
      if (x.rotation !== 0) rotated = true
      const [su2, sv2] = x.scale, [tu2, tv2] = x.translation
      values.set([su2 * (tu - tu2), 1 - sv2 / sv - sv2 * (tv - tv2), su2 / su, sv2 / sv], f * 4)
    }
    if (rotated) warn(`material '${t.material}': animated UV rotation is not carried (offset and scale only)`)
    if (!allFinite(values)) {
      warn(`material '${t.material}': its UV animation overflows; skipped`)
      continue
    }
    for (const material of targets) out.push({ material, times, values })
  }
  return out
}

function visibilityTracks(m: GfMotion, tg: MotionTargets, warn: (w: string) => void): VisibilityTrack[] {
  const out: VisibilityTrack[] = []
  const seen = new Set<number>()
  for (const t of m.visibility ?? []) {
    const node = tg.meshNodes.get(t.mesh)
    if (node === undefined) {
      warn(`animates the visibility of mesh '${t.mesh}', which the model lacks`)
      continue
    }
    if (seen.has(node)) continue
    seen.add(node)
    // Step track: a key at frame 0 and wherever the flag changes.
    const times: number[] = []
    const vis: number[] = []
    t.visible.forEach((v, f) => {
      if (f === 0 || v !== vis[vis.length - 1]) {
        times.push(f / GF_FPS)
        vis.push(v)
      }
    })
    out.push({ node, times: Float32Array.from(times), visible: Uint8Array.from(vis) })
  }
  return out
}

/** One neutral clip of a motion; `warn` receives warnings without the motion's name. */
export function motionClip(name: string, m: GfMotion, tg: MotionTargets, warn: (w: string) => void): Animation {
  const times = frameTimes(m.frameCount)
  const a: Animation = { name, duration: m.frameCount / GF_FPS, frameRate: GF_FPS, loop: m.loop, channels: boneChannels(m, tg, times, warn) }
  const uv = uvTracks(m, tg, times, warn)
  if (uv.length) a.uvTracks = uv
  const vis = visibilityTracks(m, tg, warn)
  if (vis.length) a.visibility = vis
  return a
}
