/**
 * What an imported animation is called and numbered, and whether its keys sit on the target's
 * frame grid (CLI.md `re import`). Blender's glTF exporter drops animation extras and renames
 * nothing else, so the names are what survives a round trip through it.
 *
 * Mot name and motion id of an animation, first that applies (`NAME=MOT` of `--animation` names
 * the mot: then its extras are not read and MOT is looked up in the template):
 * 1. the animation's extras: Modbench's export records `extras.modbench.extras.re = {mot, id}`
 *    (src-shared/formats/re/scene.ts) and the contract's `extras.modbench = {name, motionId}`;
 * 2. the template's motion of that name: the MotIndex entry whose mot is named after the
 *    animation, or, for a name `X [i]` (the export's name for entry i that repeats mot name X),
 *    entry i when its mot is named X;
 * 3. `--id` (the first animation that reaches this step), then 1, 2, … skipping ids taken.
 */
import type { GltfAnimationInfo } from '../../export/gltf-read'
import { motionsOf, type MotionFile } from './motion-file'

export interface MotionIdentity {
  /** The mot's name. */
  mot: string
  motionId: number
  /** Where the id came from. */
  source: 'extras' | 'template' | 'option' | 'counter'
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffff

/** The name and id recorded in an animation's extras by Modbench's export, where present. */
function fromExtras(anim: GltfAnimationInfo): { mot?: string; id?: number } {
  const mb = anim.extras.modbench as { name?: unknown; motionId?: unknown; extras?: { re?: { id?: unknown; mot?: unknown } } } | undefined
  if (!mb || typeof mb !== 'object') return {}
  const re = mb.extras?.re
  const mot = typeof re?.mot === 'string' ? re.mot : typeof mb.name === 'string' ? mb.name : undefined
  const id = isId(re?.id) ? re.id : isId(mb.motionId) ? mb.motionId : undefined
  return { mot, id }
}

/** The template's motion (entry) an animation name stands for, if any. */
export function templateMotionByName(template: MotionFile, name: string): { mot: string; id: number | null } | undefined {
  const all = motionsOf(template)
  const exact = all.find((m) => m.mot?.name === name)
  if (exact) return { mot: name, id: exact.id }
  const suffixed = / \[(\d+)\]$/.exec(name)
  if (!suffixed) return undefined
  const base = name.slice(0, suffixed.index)
  const entry = all.find((m) => m.index === Number(suffixed[1]))
  return entry?.mot?.name === base ? { mot: base, id: entry.id } : undefined
}

/**
 * Names and ids for the chosen animations, in order (see the file head). `option` is `--id`;
 * a warning says when it was given but every animation had an id already.
 */
export function motionIdentities(template: MotionFile, anims: readonly GltfAnimationInfo[], option: number | undefined, warnings: string[], motNames: readonly (string | undefined)[] = []): MotionIdentity[] {
  const firstPass = anims.map((a, i) => {
    const given = motNames[i]
    const x = given === undefined ? fromExtras(a) : {}
    const t = templateMotionByName(template, given ?? a.name)
    const mot = given ?? x.mot ?? t?.mot ?? a.name
    if (x.id !== undefined) return { mot, motionId: x.id, source: 'extras' as const }
    if (t && t.id !== null) return { mot, motionId: t.id, source: 'template' as const }
    return { mot, motionId: -1, source: 'counter' as const }
  })
  const taken = new Set(firstPass.filter((m) => m.motionId >= 0).map((m) => m.motionId))
  let optionLeft = option
  let next = 1
  const out: MotionIdentity[] = firstPass.map((m) => {
    if (m.motionId >= 0) return m
    if (optionLeft !== undefined) {
      const id = optionLeft
      optionLeft = undefined
      taken.add(id)
      return { ...m, motionId: id, source: 'option' }
    }
    while (taken.has(next)) next++
    taken.add(next)
    return { ...m, motionId: next, source: 'counter' }
  })
  if (optionLeft !== undefined) {
    const what = out.map((m, i) => `"${anims[i]!.name}" ${m.motionId} (${m.source === 'extras' ? 'recorded in the glTF' : "the template's motion of that name"})`).join(', ')
    warnings.push(`--id ${optionLeft} is not used: the motion id comes from ${what}`)
  }
  return out
}

/** Common frame rates an exporter samples at; an estimate within 0.01 of one is shown as it. */
const COMMON_RATES = [24, 25, 30, 48, 50, 60, 120]

/**
 * The frame rate whose grid a set of key times lies on, estimated from the shortest key interval
 * (the rate an exporter sampled at), or null when every key lies on the target's grid `rate`
 * (within 1/1000 of a frame: float32 times of frame f / rate).
 */
export function offGridRate(times: readonly ArrayLike<number>[], rate: number): number | null {
  let off = false
  let shortest = Infinity
  for (const t of times) {
    for (let k = 0; k < t.length; k++) {
      const x = t[k]! * rate
      if (Math.abs(x - Math.round(x)) > 1e-3) off = true
      if (k > 0) shortest = Math.min(shortest, t[k]! - t[k - 1]!)
    }
  }
  if (!off) return null
  if (!Number.isFinite(shortest) || !(shortest > 0)) return NaN
  const est = 1 / shortest
  return COMMON_RATES.find((r) => Math.abs(r - est) < 0.01) ?? Math.round(est * 1000) / 1000
}

/** The warning for an animation whose keys lie on another grid than the target's rate. */
export function gridWarning(animation: string, gltfRate: number, rate: number): string {
  const theirs = Number.isNaN(gltfRate) ? 'another frame grid' : `a ${gltfRate} fps grid`
  return (
    `animation "${animation}": its keys lie on ${theirs}, the target plays at ${rate} fps; the motion is resampled at ${rate} fps (detail between its keys is lost). ` +
    `In Blender, set the scene frame rate (Output Properties › Format › Frame Rate) to ${rate} fps before importing the .glb, or export with "Always Sample Animations" off`
  )
}
