/**
 * glTF animations → a motlist/mot in a template's version (CLI.md `re import`, spec §10.9).
 *
 * - Skeleton, versions and FrameRate come from the template (its bone header block is written
 *   again unchanged); without a skeleton the import fails.
 * - glTF nodes are matched to bones by name (then by its hash, like pose joints); animated nodes
 *   that match no bone, and template bones no node stands for, are warnings.
 * - Each animation is read as the pose it shows in world space and mapped onto the template's
 *   skeleton through both rest poses (gltf-pose.ts), so an exporter that re-orients bones
 *   (Blender) changes nothing.
 * - frameCount = the last key time × the template's rate (rounded to the nearest frame when within
 *   0.001 of it, else up); keys at every frame 0..frameCount. An animation of one instant
 *   (frameCount 0) is written with keys at 0 and 1 (spec §11 Q3's defensive 2 keys). Keys that
 *   lie on another frame grid (Blender samples at its scene rate, 24 fps by default) are a warning.
 * - The samplers are evaluated by `sampleChannel` (glTF's STEP, LINEAR with slerp, CUBICSPLINE
 *   Hermite with the key tangents scaled by the key interval) at t = fround(f / rate): the float32
 *   the glTF stores for a frame time, so a key written at frame f is read back as exactly that key.
 * - Tracks: a rotation for every matched node the animation rotates; a translation or scale only
 *   where it leaves the template's rest value by more than 1e-5 at some frame (Blender writes every
 *   channel of every bone). Each track's encoding is chosen by `chooseTrackEncoding` and its error
 *   is reported; rotations are canonicalised (w ≥ 0) there, because every code it writes drops w.
 * - Mot names and motion ids: gltf-import-meta.ts. Blending 0 (loop) when the animation's extras
 *   say `loop` (Modbench's own export), else −1. A motlist template gives a motlist with one mot per
 *   animation (the first owns the bone list, motSize 0) and one MotIndex entry each (type 1); a mot
 *   template gives a standalone mot (one animation).
 */
import { FormatError } from '../../binary'
import type { GltfAnimations, GltfAnimationInfo } from '../../export/gltf-read'
import { sampleChannel } from '../../scene/sample'
import type { Channel as SceneChannel } from '../../scene/types'
import { boneDrafts, type MotBone } from './bone-header'
import { writeMot, type ClipDraft } from './mot'
import { writeMotlist } from './motlist'
import { skeletonOf, type MotionFile } from './motion-file'
import { matchBone, templateVersions } from './pose-motlist'
import { MAX_EXPORT_FRAMES, checkSampleBudget } from './scene'
import { encodedTrack } from './track-encode'
import type { Channel } from './track'
import { motLayout, type MotLayout } from './versions'
import { mapThroughWorld, type NodeSamples, type PathName } from './gltf-pose'
import { gridWarning, motionIdentities, offGridRate, type MotionIdentity } from './gltf-import-meta'

/** An animation to import, and the mot name it becomes (default: see gltf-import-meta.ts). */
export interface AnimationChoice {
  name: string
  mot?: string
}

export interface ImportOptions {
  /** Animations, one mot each in this order; default the first animation. */
  animations?: (string | AnimationChoice)[]
  /** One animation name (same as `animations: [name]`). */
  animation?: string
  /** `--id`: the motion id of the first animation that gets none from its extras or the template's motion of its name (gltf-import-meta.ts). */
  motNumber?: number
  /** Motlist header name (default: the first mot's name). */
  motlistName?: string
  /** Largest error accepted for a smaller key code (see track-encode.ts). */
  tolerance?: number
  /**
   * The bones of a template without bone headers (`--skeleton`, skeleton-source.ts). The output
   * then keeps the template's layout: its mot carries no bone headers either.
   */
  skeleton?: MotBone[]
}

export interface ImportedTrack {
  bone: string
  channel: Channel
  codec: string
  compression: number
  keys: number
  maxError: number
}

export interface ImportedMotion {
  animation: string
  /** The mot's name. */
  mot: string
  motionId: number
  idSource: MotionIdentity['source']
  frameCount: number
  tracks: ImportedTrack[]
  maxError: number
}

export interface ImportResult {
  bytes: Uint8Array
  kind: 'motlist' | 'mot'
  version: number
  motVersion: number
  frameRate: number
  motions: ImportedMotion[]
  /** The first motion's animation, frame count, motion id and tracks. */
  animation: string
  frameCount: number
  motNumber: number
  tracks: ImportedTrack[]
  /** Largest error of any track. */
  maxError: number
  /** Animated glTF nodes that match no template bone. */
  unmatchedNodes: string[]
  warnings: string[]
}

export function pickAnimations(g: GltfAnimations, chosen: readonly (string | AnimationChoice)[] | undefined): { anim: GltfAnimationInfo; mot?: string }[] {
  if (g.animations.length === 0) throw new FormatError('the glTF holds no animation', { structure: 'animations' })
  if (!chosen || chosen.length === 0) return [{ anim: g.animations[0]! }]
  return chosen.map((c) => {
    const { name, mot } = typeof c === 'string' ? { name: c, mot: undefined } : c
    const a = g.animations.find((x) => x.name === name)
    if (!a) throw new FormatError(`no animation named "${name}"; the file has ${g.animations.map((x) => JSON.stringify(x.name)).join(', ')}`, { structure: 'animations' })
    return { anim: a, mot }
  })
}

/** Frames 0..F from the last key time (spec §10.9). */
export function importFrameCount(channels: readonly SceneChannel[], rate: number): number {
  let last = 0
  for (const c of channels) last = Math.max(last, c.times[c.times.length - 1] ?? 0)
  const exact = last * rate
  const F = Math.abs(exact - Math.round(exact)) <= 1e-3 ? Math.round(exact) : Math.ceil(exact)
  if (F > MAX_EXPORT_FRAMES) throw new FormatError(`the animation lasts ${last} s = ${F} frames at ${rate} fps, beyond ${MAX_EXPORT_FRAMES}`, { structure: 'animations' })
  return Math.max(0, F)
}

/** Values of a channel at frames 0..F (3 or 4 numbers per frame). */
export function sampleFrames(ch: SceneChannel, frames: number, rate: number): Float64Array {
  const width = ch.path === 'rotation' ? 4 : 3
  const out = new Float64Array((frames + 1) * width)
  const v: number[] = []
  for (let f = 0; f <= frames; f++) {
    sampleChannel(ch, Math.fround(f / rate), v)
    for (let k = 0; k < width; k++) out[f * width + k] = v[k]!
  }
  return out
}

export interface NodeMatch {
  /** glTF node of each template bone, −1 where none. */
  nodeOfBone: number[]
  /** Template bone of each glTF node, null where none. */
  boneOfNode: (MotBone | null)[]
}

/** Nodes ↔ bones by name (the first node of a name takes the bone). */
export function matchNodes(g: GltfAnimations, skeleton: MotBone[]): NodeMatch {
  const nodeOfBone = skeleton.map(() => -1)
  const boneOfNode = g.nodes.map((n, i) => {
    const b = matchBone(skeleton, n.name)
    if (!b || nodeOfBone[b.index]! >= 0) return null
    nodeOfBone[b.index] = i
    return b
  })
  return { nodeOfBone, boneOfNode }
}

/** Warnings for animated nodes with no bone, for parents that differ, and for bones without a node. */
export function matchWarnings(g: GltfAnimations, anims: readonly GltfAnimationInfo[], skeleton: MotBone[], m: NodeMatch): { unmatched: string[]; warnings: string[] } {
  const unmatched = new Set<string>()
  const warnings: string[] = []
  const seen = new Set<number>()
  for (const ch of anims.flatMap((a) => a.channels)) {
    const b = m.boneOfNode[ch.node]
    if (!b) {
      unmatched.add(g.nodes[ch.node]!.name || `(unnamed node ${ch.node})`)
      continue
    }
    if (seen.has(ch.node)) continue
    seen.add(ch.node)
    let p = g.nodes[ch.node]!.parent
    while (p >= 0 && !m.boneOfNode[p]) p = g.nodes[p]!.parent
    const gltfParent = p >= 0 ? m.boneOfNode[p]!.name : null
    const parent = b.parent >= 0 ? skeleton[b.parent]!.name : null
    if (gltfParent !== parent) warnings.push(`node "${b.name}": its glTF parent bone is ${gltfParent ?? 'none'}, the template's is ${parent ?? 'none'}; its world-space pose is kept, under the template's parent`)
  }
  warnings.push(...[...unmatched].map((n) => `node "${n}" is animated but the template has no bone of that name; ignored`))
  const missing = skeleton.filter((b) => m.nodeOfBone[b.index]! < 0).map((b) => b.name)
  if (missing.length) warnings.push(`${missing.length} template bone(s) have no glTF node and rest under their parent: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`)
  return { unmatched: [...unmatched], warnings }
}

/** The template's skeleton, else `given` (`--skeleton`); a template with neither cannot take an animation. */
export function templateSkeleton(template: MotionFile, given?: MotBone[]): MotBone[] {
  const skeleton = skeletonOf(template)
  if (skeleton && skeleton.length) return skeleton
  if (given && given.length) return given
  throw new FormatError('the template has no skeleton (no bone header block; game motlists keep it in the character\'s .mesh): give it with --skeleton FILE.mesh.*', { structure: 'BoneHeaders' })
}

/** A translation/scale track that stays within this of the rest value at every frame is not written. */
const REST_EPSILON = 1e-5

/** True when a track's values leave the rest value (3 or 4 numbers; rotations up to sign) by more than REST_EPSILON. */
export function leavesRest(values: Float64Array, rest: readonly number[]): boolean {
  const w = rest.length
  for (let i = 0; i < values.length; i += w) {
    let dot = 0
    for (let k = 0; k < w; k++) dot += values[i + k]! * rest[k]!
    const sign = w === 4 && dot < 0 ? -1 : 1
    for (let k = 0; k < w; k++) if (Math.abs(sign * values[i + k]! - rest[k]!) > REST_EPSILON) return true
  }
  return false
}

/** A bone's rest value of a path (the template's reference pose, scale 1). */
export const restOf = (b: MotBone, path: PathName): number[] => (path === 'translation' ? [...b.translation] : path === 'rotation' ? [...b.rotation] : [1, 1, 1])

/**
 * The values written for a bone's path, or undefined for no track. `values` is the mapped track
 * (undefined where the glTF does not animate that path of the bone's node).
 */
export type TrackPolicy = (bone: MotBone, path: PathName, values: Float64Array | undefined, frames: number) => Float64Array | undefined

/** `--template`: every rotation the glTF animates; translation/scale where they leave the rest value. */
export const templatePolicy: TrackPolicy = (b, path, values) => (values && (path === 'rotation' || leavesRest(values, restOf(b, path))) ? values : undefined)

export interface MotionCtx {
  g: GltfAnimations
  skeleton: MotBone[]
  match: NodeMatch
  layout: MotLayout
  rate: number
  tolerance?: number
  policy?: TrackPolicy
}

/** One animation's clips (world-space mapped, encoded) and its report. */
export function animationClips(c: MotionCtx, anim: GltfAnimationInfo, warnings: string[]): { F: number; clips: ClipDraft[]; tracks: ImportedTrack[] } {
  if (anim.channels.length === 0) throw new FormatError(`animation "${anim.name}" has no translation, rotation or scale channel`, { structure: 'animations' })
  const F = Math.max(1, importFrameCount(anim.channels, c.rate))
  const used = anim.channels.filter((ch) => c.match.boneOfNode[ch.node])
  if (used.length === 0) throw new FormatError(`no channel of animation "${anim.name}" targets a node named after a template bone`, { structure: 'animations' })
  checkSampleBudget(F, used.reduce((n, ch) => n + (ch.path === 'rotation' ? 4 : 3), 0), `animation "${anim.name}"`, 'animations')
  const gltfRate = offGridRate(anim.channels.map((ch) => ch.times), c.rate)
  if (gltfRate !== null) warnings.push(gridWarning(anim.name, gltfRate, c.rate))
  const samples: NodeSamples = new Map()
  for (const ch of used) {
    const s = samples.get(ch.node) ?? {}
    if (s[ch.path]) {
      warnings.push(`bone "${c.match.boneOfNode[ch.node]!.name}" has more than one ${ch.path} channel; the first is used`)
      continue
    }
    s[ch.path] = sampleFrames(ch, F, c.rate)
    samples.set(ch.node, s)
  }
  const mapped = mapThroughWorld(c.g.nodes, c.skeleton, c.match.nodeOfBone, samples, F)
  const policy = c.policy ?? templatePolicy
  const frames = Array.from({ length: F + 1 }, (_, f) => f)
  const clips: ClipDraft[] = []
  const tracks: ImportedTrack[] = []
  for (const b of c.skeleton) {
    const t = mapped.get(b.index) ?? {}
    const clip: ClipDraft = { boneIndex: b.index, boneHash: b.hash }
    for (const path of ['translation', 'rotation', 'scale'] as const) {
      const values = policy(b, path, t[path], F)
      if (!values) continue
      const { draft, encoding } = encodedTrack(path, frames, values, c.layout, c.tolerance)
      clip[path] = draft
      tracks.push({ bone: b.name, channel: path, codec: encoding.codec, compression: encoding.compression, keys: F + 1, maxError: encoding.maxError })
    }
    if (clip.translation || clip.rotation || clip.scale) clips.push(clip)
  }
  return { F, clips, tracks }
}

/** Builds the motlist/mot bytes (see the file head). */
export function importAnimation(template: MotionFile, g: GltfAnimations, opts: ImportOptions = {}): ImportResult {
  const skeleton = templateSkeleton(template, opts.skeleton)
  const headers = skeleton === skeletonOf(template)
  const v = templateVersions(template)
  const picked = pickAnimations(g, opts.animations ?? (opts.animation !== undefined ? [opts.animation] : undefined))
  const anims = picked.map((p) => p.anim)
  if (template.kind === 'mot' && anims.length > 1) throw new FormatError(`a .mot holds one motion; choose one of the ${anims.length} animations`, { structure: 'animations' })
  const match = matchNodes(g, skeleton)
  const { unmatched, warnings } = matchWarnings(g, anims, skeleton, match)
  const ctx: MotionCtx = { g, skeleton, match, layout: motLayout(v.mot), rate: v.frameRate, tolerance: opts.tolerance }
  const ids = motionIdentities(template, anims, opts.motNumber, warnings, picked.map((p) => p.mot))
  const motions: ImportedMotion[] = []
  const mots = anims.map((anim, i) => {
    const { F, clips, tracks } = animationClips(ctx, anim, warnings)
    const id = ids[i]!
    motions.push({ animation: anim.name, mot: id.mot, motionId: id.motionId, idSource: id.source, frameCount: F, tracks, maxError: tracks.reduce((m, t) => Math.max(m, t.maxError), 0) })
    const loop = (anim.extras.modbench as { loop?: unknown } | undefined)?.loop === true
    const owner = i === 0
    // A template without bone headers (--skeleton) gives mots without them too (its own layout).
    return writeMot({ version: v.mot, name: id.mot, frameCount: F, blending: loop ? 0 : -1, frameRate: v.frameRate, bones: owner && headers ? boneDrafts(skeleton) : null, clips, motSize: owner && headers && template.kind === 'motlist' ? 'owner' : 'end' })
  })
  const kind = template.kind
  const bytes = kind === 'motlist' ? writeMotlist({ version: v.motlist, name: opts.motlistName ?? motions[0]!.mot, mots, entries: motions.map((m, i) => ({ mot: i, motNumber: m.motionId, type: 1 })) }) : mots[0]!
  return importResult({ bytes, kind, version: kind === 'motlist' ? v.motlist : v.mot, motVersion: v.mot, frameRate: v.frameRate }, motions, unmatched, warnings)
}

/** The result of an import: the file, its motions, and the first motion's figures for single-animation callers. */
export function importResult(file: Pick<ImportResult, 'bytes' | 'kind' | 'version' | 'motVersion' | 'frameRate'>, motions: ImportedMotion[], unmatchedNodes: string[], warnings: string[]): ImportResult {
  const first = motions[0]!
  const tracks = motions.flatMap((m) => m.tracks)
  const maxError = motions.reduce((m, x) => Math.max(m, x.maxError), 0)
  return { ...file, motions, animation: first.animation, frameCount: first.frameCount, motNumber: first.motionId, tracks, maxError, unmatchedNodes, warnings }
}

/** OUT with the template's suffix: `name.motlist.663` / `name.mot.613` (a different suffix is replaced). */
export function importOutputName(out: string, kind: 'motlist' | 'mot', version: number): string {
  const m = /\.(motlist|mot)(\.\d+)?$/i.exec(out)
  const base = m ? out.slice(0, m.index) : out
  return `${base}.${kind}.${version}`
}
