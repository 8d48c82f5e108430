/**
 * One neutral clip → one glTF animation (samplers, channels, and `extras.modbench` with what glTF
 * cannot say: duration, loop, texture swaps, visibility, UV and colour tracks; schema in gltf.ts).
 */
import type { Animation, Scene } from '../scene/types'
import type { GlbWriter } from './glb'
import { extrasOf, jsonFloats } from './gltf-data'

type Json = Record<string, unknown>

export function writeAnimation(w: GlbWriter, scene: Scene, a: Animation, ai: number): Json {
  const tag = a.name || `animation${ai}`
  // Channels with the same key times share one input accessor (the same array object is found
  // at once: RE motions share one times array over hundreds of channels; another array with the
  // same times is found among those of its length and ends, compared value by value).
  const inputs = new Map<string, { times: Float32Array; accessor: number }[]>()
  let distinct = 0
  const byArray = new Map<Float32Array, number>()
  const input = (times: Float32Array): number => {
    const same = byArray.get(times)
    if (same !== undefined) return same
    const key = `${times.length}:${times[0]}:${times[times.length - 1]}`
    const bucket = inputs.get(key) ?? []
    let x = bucket.find((b) => sameValues(b.times, times))?.accessor
    if (x === undefined) {
      x = w.accessor(`${tag}/times${distinct++}`, 'SCALAR', times, 'animation', true)
      bucket.push({ times, accessor: x })
      inputs.set(key, bucket)
    }
    byArray.set(times, x)
    return x
  }
  const samplers: Json[] = []
  const channels: Json[] = []
  const mb: Record<string, unknown> = { ...a.contractExtras, version: 1, duration: a.duration, frameRate: a.frameRate, loop: a.loop ?? true, ...(a.loopStart ? { loopStart: a.loopStart } : {}), ...(a.integerFrames ? { integerFrames: true } : {}) }
  a.channels.forEach((ch, ci) => {
    let values = ch.values
    if (ch.path === 'rotation') {
      values = new Float32Array(ch.values)
      const per = ch.interpolation === 'CUBICSPLINE' ? 12 : 4
      const off = ch.interpolation === 'CUBICSPLINE' ? 4 : 0
      for (let k = 0; k < ch.times.length; k++) normQuatAt(values, k * per + off)
    }
    const output = w.accessor(`${tag}/${ci}/${ch.path}`, ch.path === 'rotation' ? 'VEC4' : 'VEC3', values, 'animation')
    channels.push({ sampler: samplers.length, target: { node: ch.node, path: ch.path } })
    samplers.push({ input: input(ch.times), output, interpolation: ch.interpolation })
  })
  if (a.channels.length === 0 && scene.nodes.length > 0) {
    // glTF needs a channel: hold node 0's rest scale over the clip (changes nothing).
    const s = scene.nodes[0]!.scale
    const times = a.duration > 0 ? new Float32Array([0, a.duration]) : new Float32Array([0])
    const values = new Float32Array(times.length * 3)
    for (let k = 0; k < times.length; k++) values.set(s, k * 3)
    const inp = input(times)
    samplers.push({ input: inp, output: w.accessor(`${tag}/placeholder`, 'VEC3', values, 'animation'), interpolation: 'STEP' })
    channels.push({ sampler: 0, target: { node: 0, path: 'scale' } })
    mb.placeholderChannel = true
  }
  if (a.textureSwaps?.length) mb.textureSwaps = a.textureSwaps.map((t) => ({ material: t.material, times: jsonFloats(t.times), images: Array.from(t.textures), ...(t.period !== undefined ? { period: t.period, loopStart: t.loopStart ?? 0, hold: !!t.hold, start: t.start ?? 0, ...(t.frameRate ? { frameRate: t.frameRate } : {}) } : {}) }))
  if (a.visibility?.length) mb.visibility = a.visibility.map((t) => ({ node: t.node, times: jsonFloats(t.times), visible: Array.from(t.visible, (v) => (v ? 1 : 0)) }))
  if (a.uvTracks?.length) mb.uvTracks = a.uvTracks.map((t) => ({ material: t.material, times: jsonFloats(t.times), values: jsonFloats(t.values) }))
  if (a.colorTracks?.length) mb.colorTracks = a.colorTracks.map((t) => ({ material: t.material, times: jsonFloats(t.times), values: jsonFloats(t.values) }))
  if (a.extras) mb.extras = a.extras
  const def: Json = a.name ? { name: a.name } : {}
  def.extras = extrasOf({ modbench: mb })
  def.samplers = samplers
  def.channels = channels
  return def
}

/** Whether two key time lists hold the same values (NaN equal to NaN, as their text would be). */
function sameValues(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(a[i] !== a[i] && b[i] !== b[i])) return false
  return true
}

/** `normQuat` of the quaternion at `b`, in place (no arrays per key). */
function normQuatAt(v: Float32Array, b: number): void {
  const l = Math.hypot(v[b]!, v[b + 1]!, v[b + 2]!, v[b + 3]!) || 1
  for (let c = 0; c < 4; c++) v[b + c] = v[b + c]! / l
}
