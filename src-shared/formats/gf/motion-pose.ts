/**
 * Evaluating a GFMotion at a frame (spec §11.4–§11.8): bone locals (bind values overwritten by
 * animated components; Euler or axis × half-angle rotations), UV transforms, visibility.
 */
import { evalCurve, type GfCurve } from './motion-curves'
import type { GfBoneTrack, GfUvTrack } from './motion'
import type { GfBone } from './skeleton'
import { quatFromEulerXYZInto } from '../../scene/math'
import type { GfTextureUnit } from './material'

export interface BonePose {
  translation: [number, number, number]
  rotation: [number, number, number, number]
  scale: [number, number, number]
}

const val = (c: GfCurve, f: number, rest: number) => (c ? evalCurve(c, f) : rest)

/** Axis × half-angle vector → quaternion (spec §11.5): q = (v/|v| · sin|v|, cos|v|). */
export function axisAngleToQuat(x: number, y: number, z: number): [number, number, number, number] {
  const q: [number, number, number, number] = [0, 0, 0, 1]
  axisAngleInto(x, y, z, q)
  return q
}

function axisAngleInto(x: number, y: number, z: number, out: { [i: number]: number }): void {
  const l = Math.hypot(x, y, z)
  if (l === 0) {
    out[0] = out[1] = out[2] = 0
    out[3] = 1
    return
  }
  const s = Math.sin(l) / l
  out[0] = x * s
  out[1] = y * s
  out[2] = z * s
  out[3] = Math.cos(l)
}

/** Local TRS of one bone at frame f under a track (components without data keep the bind value). */
export function boneTrackPose(t: GfBoneTrack, bone: Pick<GfBone, 'translation' | 'rotation' | 'scale'>, f: number): BonePose {
  const tr = new Float64Array(3), sc = new Float64Array(3), q = new Float64Array(4)
  sampleBoneTrack(t, bone, f, tr, sc, q, 0)
  return { translation: [tr[0]!, tr[1]!, tr[2]!], rotation: [q[0]!, q[1]!, q[2]!, q[3]!], scale: [sc[0]!, sc[1]!, sc[2]!] }
}

/**
 * `boneTrackPose` without allocating (a clip samples every frame of every bone): translation and
 * scale into `tr` and `sc` at `at`, the rotation into `q` (as computed: the caller picks its
 * hemisphere before storing it).
 */
export function sampleBoneTrack(t: GfBoneTrack, bone: Pick<GfBone, 'translation' | 'rotation' | 'scale'>, f: number, tr: Float32Array | Float64Array, sc: Float32Array | Float64Array, q: Float64Array, at: number): void {
  const c = t.curves
  for (let i = 0; i < 3; i++) {
    sc[at + i] = val(c[i]!, f, bone.scale[i]!)
    tr[at + i] = val(c[6 + i]!, f, bone.translation[i]!)
  }
  const rx = val(c[3]!, f, bone.rotation[0]), ry = val(c[4]!, f, bone.rotation[1]), rz = val(c[5]!, f, bone.rotation[2])
  if (t.axisAngle) axisAngleInto(rx, ry, rz, q)
  else quatFromEulerXYZInto(rx, ry, rz, q)
}

/** Which of translation / rotation / scale a track animates. */
export function animatedPaths(t: GfBoneTrack): { scale: boolean; rotation: boolean; translation: boolean } {
  const any = (a: number, b: number) => t.curves.slice(a, b).some((c) => c !== null)
  return { scale: any(0, 3), rotation: any(3, 6), translation: any(6, 9) }
}

export interface UvTransform {
  scale: [number, number]
  rotation: number
  translation: [number, number]
}

/** A UV track's transform at frame f over the unit's rest values. */
export function uvTrackTransform(t: GfUvTrack, rest: Pick<GfTextureUnit, 'scale' | 'rotation' | 'translation'>, f: number): UvTransform {
  const c = t.curves
  return { scale: [val(c[0]!, f, rest.scale[0]), val(c[1]!, f, rest.scale[1])], rotation: val(c[2]!, f, rest.rotation), translation: [val(c[3]!, f, rest.translation[0]), val(c[4]!, f, rest.translation[1])] }
}

/** The Maya-convention UV transform of spec §6.5 applied to (u, v). */
export function applyUvTransform(x: UvTransform, u: number, v: number): [number, number] {
  const c = Math.cos(x.rotation), s = Math.sin(x.rotation)
  const [su, sv] = x.scale, [tu, tv] = x.translation
  return [su * (c * u - s * v) + su * (0.5 * s - 0.5 * c + 0.5 - tu), sv * (s * u + c * v) + sv * (-0.5 * s - 0.5 * c + 0.5 - tv)]
}
