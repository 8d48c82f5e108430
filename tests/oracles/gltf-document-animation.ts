/**
 * Part of the glTF reference mapping (see `gltf-document.ts`): animations and material variants,
 * as glTF-Transform properties. Copied from the production exporter as it was before issue 15
 * (src-shared/export/gltf.ts and gltf-variants.ts at dec8ee2); kept only for tests and the bench.
 */
import type { Accessor, Document, Material as GMaterial, Node as GNode, Primitive as GPrimitive } from '@gltf-transform/core'
import type { KHRMaterialsVariants } from '@gltf-transform/extensions'
import { jsonSafe } from '../../src-shared/export/gltf'
import type { Animation, Scene } from '../../src-shared/scene/types'

export type AccessorMaker = (name: string, type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4', array: Float32Array | Uint16Array | Uint32Array) => Accessor

export const extrasOf = (v: Record<string, unknown>) => jsonSafe(v) as Record<string, unknown>

/** Numbers for JSON extras: float32 values printed with enough digits to read back exactly. */
export function jsonFloats(a: ArrayLike<number>): number[] {
  const out = new Array<number>(a.length)
  for (let i = 0; i < a.length; i++) {
    const f = Math.fround(a[i])
    let v = Number(f.toPrecision(9))
    // The shortest decimal that reads back as the same float32.
    for (let p = 6; p < 9; p++) {
      const c = Number(f.toPrecision(p))
      if (Math.fround(c) === f) {
        v = c
        break
      }
    }
    out[i] = v
  }
  return out
}

export function normQuat(q: ArrayLike<number>): [number, number, number, number] {
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l]
}

/** One glTF animation per clip; channels with the same key times share one input accessor. */
export function writeAnimation(doc: Document, scene: Scene, a: Animation, ai: number, gNodes: GNode[], acc: AccessorMaker): void {
  const ga = doc.createAnimation(a.name)
  const tag = a.name || `animation${ai}`
  // The same array object is found without building its text key (RE motions share one times
  // array over hundreds of channels).
  const inputs = new Map<string, Accessor>()
  const byArray = new Map<Float32Array, Accessor>()
  const input = (times: Float32Array): Accessor => {
    const same = byArray.get(times)
    if (same) return same
    const key = Array.from(times).join(',')
    let x = inputs.get(key)
    if (!x) {
      x = acc(`${tag}/times${inputs.size}`, 'SCALAR', times)
      inputs.set(key, x)
    }
    byArray.set(times, x)
    return x
  }
  const mb: Record<string, unknown> = { ...a.contractExtras, version: 1, duration: a.duration, frameRate: a.frameRate, loop: a.loop ?? true, ...(a.loopStart ? { loopStart: a.loopStart } : {}), ...(a.integerFrames ? { integerFrames: true } : {}) }
  a.channels.forEach((ch, ci) => {
    let values = ch.values
    if (ch.path === 'rotation') {
      values = new Float32Array(ch.values)
      const per = ch.interpolation === 'CUBICSPLINE' ? 12 : 4
      const off = ch.interpolation === 'CUBICSPLINE' ? 4 : 0
      for (let k = 0; k < ch.times.length; k++) {
        const b = k * per + off
        const q = normQuat(values.subarray(b, b + 4))
        values.set(q, b)
      }
    }
    const sampler = doc
      .createAnimationSampler()
      .setInput(input(ch.times))
      .setOutput(acc(`${tag}/${ci}/${ch.path}`, ch.path === 'rotation' ? 'VEC4' : 'VEC3', values))
      .setInterpolation(ch.interpolation)
    ga.addSampler(sampler)
    ga.addChannel(doc.createAnimationChannel().setTargetNode(gNodes[ch.node]).setTargetPath(ch.path).setSampler(sampler))
  })
  if (a.channels.length === 0 && scene.nodes.length > 0) {
    // glTF needs a channel: hold node 0's rest scale over the clip (changes nothing).
    const s = scene.nodes[0].scale
    const times = a.duration > 0 ? new Float32Array([0, a.duration]) : new Float32Array([0])
    const values = new Float32Array(times.length * 3)
    for (let k = 0; k < times.length; k++) values.set(s, k * 3)
    const sampler = doc.createAnimationSampler().setInput(input(times)).setOutput(acc(`${tag}/placeholder`, 'VEC3', values)).setInterpolation('STEP')
    ga.addSampler(sampler)
    ga.addChannel(doc.createAnimationChannel().setTargetNode(gNodes[0]).setTargetPath('scale').setSampler(sampler))
    mb.placeholderChannel = true
  }
  if (a.textureSwaps?.length) mb.textureSwaps = a.textureSwaps.map((t) => ({ material: t.material, times: jsonFloats(t.times), images: Array.from(t.textures), ...(t.period !== undefined ? { period: t.period, loopStart: t.loopStart ?? 0, hold: !!t.hold, start: t.start ?? 0, ...(t.frameRate ? { frameRate: t.frameRate } : {}) } : {}) }))
  if (a.visibility?.length) mb.visibility = a.visibility.map((t) => ({ node: t.node, times: jsonFloats(t.times), visible: Array.from(t.visible, (v) => (v ? 1 : 0)) }))
  if (a.uvTracks?.length) mb.uvTracks = a.uvTracks.map((t) => ({ material: t.material, times: jsonFloats(t.times), values: jsonFloats(t.values) }))
  if (a.colorTracks?.length) mb.colorTracks = a.colorTracks.map((t) => ({ material: t.material, times: jsonFloats(t.times), values: jsonFloats(t.values) }))
  if (a.extras) mb.extras = a.extras
  ga.setExtras(extrasOf({ modbench: mb }))
}

type Variant = ReturnType<KHRMaterialsVariants['createVariant']>

/**
 * KHR_materials_variants on one primitive: for each variant, the material it is drawn with (its
 * own unless the variant replaces it). Variants that draw the same material share one mapping.
 */
export function writeVariants(ext: KHRMaterialsVariants, variants: Variant[], gp: GPrimitive, material: number, scene: Scene, gMaterials: GMaterial[]): void {
  const byMaterial = new Map<number, ReturnType<KHRMaterialsVariants['createMapping']>>()
  const list = ext.createMappingList()
  scene.variants!.forEach((v, vi) => {
    const m = v.replace.find(([from]) => from === material)?.[1] ?? material
    let mapping = byMaterial.get(m)
    if (!mapping) {
      mapping = ext.createMapping().setMaterial(gMaterials[m]!)
      byMaterial.set(m, mapping)
      list.addMapping(mapping)
    }
    mapping.addVariant(variants[vi]!)
  })
  gp.setExtension('KHR_materials_variants', list)
}
