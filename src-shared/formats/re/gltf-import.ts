/**
 * A glTF animation → a motlist/mot in a template's version (CLI.md `re import`, spec §10.9).
 *
 * - Skeleton, versions and FrameRate come from the template (its bone header block is written
 *   again unchanged); without a skeleton the import fails.
 * - Channels are matched to bones by the target node's name (then by its hash, like pose joints);
 *   animated nodes that match no bone are listed as warnings and ignored. A matched node whose
 *   nearest matched glTF ancestor is not the bone's template parent gets a warning: its local
 *   transform is relative to a different parent.
 * - frameCount = the last key time × the template's rate (rounded to the nearest frame when within
 *   0.001 of it, else up); keys at every frame 0..frameCount. An animation of one instant
 *   (frameCount 0) is written with keys at 0 and 1 (spec §11 Q3's defensive 2 keys).
 * - The samplers are evaluated by `sampleChannel` (glTF's STEP, LINEAR with slerp, CUBICSPLINE
 *   Hermite with the key tangents scaled by the key interval) at t = fround(f / rate): the float32
 *   the glTF stores for a frame time, so a key written at frame f is read back as exactly that key.
 * - Each track's encoding is chosen by `chooseTrackEncoding` and its error is reported; rotations
 *   are canonicalised (w ≥ 0) there, because every code it writes drops w.
 * - The mot is named after the animation (or the mot name Modbench's export recorded); blending 0 (loop) when the animation's extras say
 *   `loop` (Modbench's own export), else −1. A motlist template gives a motlist holding one mot
 *   that owns the bone list (motSize 0) and one MotIndex entry (type 1); a mot template gives a
 *   standalone mot.
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
import { motLayout } from './versions'

export interface ImportOptions {
  /** Animation name; default the first animation. */
  animation?: string
  /** Motion ID of the MotIndex entry; default the motion ID Modbench's export recorded in the animation's extras, else 0. */
  motNumber?: number
  /** Motlist header name (default: the animation name). */
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

export interface ImportResult {
  bytes: Uint8Array
  kind: 'motlist' | 'mot'
  version: number
  motVersion: number
  animation: string
  frameCount: number
  frameRate: number
  motNumber: number
  tracks: ImportedTrack[]
  /** Largest error of any track. */
  maxError: number
  /** Animated glTF nodes that match no template bone. */
  unmatchedNodes: string[]
  warnings: string[]
}

function pickAnimation(g: GltfAnimations, name: string | undefined): GltfAnimationInfo {
  if (g.animations.length === 0) throw new FormatError('the glTF holds no animation', { structure: 'animations' })
  if (name === undefined) return g.animations[0]!
  const a = g.animations.find((x) => x.name === name)
  if (!a) throw new FormatError(`no animation named "${name}"; the file has ${g.animations.map((x) => JSON.stringify(x.name)).join(', ')}`, { structure: 'animations' })
  return a
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

/** Bone per animated node; warnings for unmatched nodes and for parents that differ. */
function matchNodes(g: GltfAnimations, anim: GltfAnimationInfo, skeleton: MotBone[]): { bones: Map<number, MotBone>; unmatched: string[]; warnings: string[] } {
  const byNode = new Map<number, MotBone | null>()
  const boneOf = (n: number): MotBone | null => {
    if (!byNode.has(n)) byNode.set(n, matchBone(skeleton, g.nodes[n]!.name) ?? null)
    return byNode.get(n)!
  }
  const bones = new Map<number, MotBone>()
  const unmatched = new Set<string>()
  const warnings: string[] = []
  for (const ch of anim.channels) {
    const b = boneOf(ch.node)
    if (!b) {
      unmatched.add(g.nodes[ch.node]!.name || `(unnamed node ${ch.node})`)
      continue
    }
    if (bones.has(ch.node)) continue
    bones.set(ch.node, b)
    let p = g.nodes[ch.node]!.parent
    while (p >= 0 && !boneOf(p)) p = g.nodes[p]!.parent
    const gltfParent = p >= 0 ? boneOf(p)!.name : null
    const parent = b.parent >= 0 ? skeleton[b.parent]!.name : null
    if (gltfParent !== parent) warnings.push(`node "${b.name}": its glTF parent bone is ${gltfParent ?? 'none'}, the template's is ${parent ?? 'none'}; its local transform is taken as it is`)
  }
  return { bones, unmatched: [...unmatched], warnings }
}

/** The template's skeleton, else `given` (`--skeleton`); a template with neither cannot take an animation. */
export function templateSkeleton(template: MotionFile, given?: MotBone[]): MotBone[] {
  const skeleton = skeletonOf(template)
  if (skeleton && skeleton.length) return skeleton
  if (given && given.length) return given
  throw new FormatError('the template has no skeleton (no bone header block; game motlists keep it in the character\'s .mesh): give it with --skeleton FILE.mesh.*', { structure: 'BoneHeaders' })
}

/** Builds the motlist/mot bytes (see the file head). */
export function importAnimation(template: MotionFile, g: GltfAnimations, opts: ImportOptions = {}): ImportResult {
  const skeleton = templateSkeleton(template, opts.skeleton)
  const headers = skeleton === skeletonOf(template)
  const v = templateVersions(template)
  const layout = motLayout(v.mot)
  const anim = pickAnimation(g, opts.animation)
  if (anim.channels.length === 0) throw new FormatError(`animation "${anim.name}" has no translation, rotation or scale channel`, { structure: 'animations' })
  const rate = v.frameRate
  const counted = importFrameCount(anim.channels, rate)
  const F = Math.max(1, counted)
  const { bones, unmatched, warnings } = matchNodes(g, anim, skeleton)
  warnings.push(...unmatched.map((n) => `node "${n}" is animated but the template has no bone of that name; ignored`))
  if (bones.size === 0) throw new FormatError(`no channel of animation "${anim.name}" targets a node named after a template bone`, { structure: 'animations' })

  checkSampleBudget(F, anim.channels.reduce((n, c) => n + (c.path === 'rotation' ? 4 : 3), 0), `animation "${anim.name}"`, 'animations')
  const frames = Array.from({ length: F + 1 }, (_, f) => f)
  const clips = new Map<number, ClipDraft>()
  const tracks: ImportedTrack[] = []
  const seen = new Set<string>()
  for (const ch of anim.channels) {
    const b = bones.get(ch.node)
    if (!b) continue
    const key = `${b.index}/${ch.path}`
    if (seen.has(key)) {
      warnings.push(`bone "${b.name}" has more than one ${ch.path} channel; the first is used`)
      continue
    }
    seen.add(key)
    const values = sampleFrames(ch, F, rate)
    const { draft, encoding } = encodedTrack(ch.path, frames, values, layout, opts.tolerance)
    const clip = clips.get(b.index) ?? { boneIndex: b.index, boneHash: b.hash }
    clip[ch.path] = draft
    clips.set(b.index, clip)
    tracks.push({ bone: b.name, channel: ch.path, codec: encoding.codec, compression: encoding.compression, keys: F + 1, maxError: encoding.maxError })
  }
  // Modbench's export: extras.modbench = { loop, extras: { re: { id, … } } } (src-shared/export/gltf.ts).
  const mb = (anim.extras.modbench as { loop?: unknown; extras?: { re?: { id?: unknown; mot?: unknown } } } | undefined) ?? {}
  const id = mb.extras?.re?.id
  const motName = typeof mb.extras?.re?.mot === 'string' ? mb.extras.re.mot : anim.name
  const motNumber = opts.motNumber ?? (typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= 0xffff ? id : 0)
  const kind = template.kind
  const mot = writeMot({
    version: v.mot,
    name: motName,
    frameCount: F,
    blending: mb.loop === true ? 0 : -1,
    frameRate: rate,
    bones: headers ? boneDrafts(skeleton) : null,
    clips: [...clips.values()],
    motSize: kind === 'motlist' && headers ? 'owner' : 'end',
  })
  const bytes = kind === 'motlist' ? writeMotlist({ version: v.motlist, name: opts.motlistName ?? motName, mots: [mot], entries: [{ mot: 0, motNumber, type: 1 }] }) : mot
  const maxError = tracks.reduce((m, t) => Math.max(m, t.maxError), 0)
  return { bytes, kind, version: kind === 'motlist' ? v.motlist : v.mot, motVersion: v.mot, animation: anim.name, frameCount: F, frameRate: rate, motNumber, tracks, maxError, unmatchedNodes: unmatched, warnings }
}

/** OUT with the template's suffix: `name.motlist.663` / `name.mot.613` (a different suffix is replaced). */
export function importOutputName(out: string, kind: 'motlist' | 'mot', version: number): string {
  const m = /\.(motlist|mot)(\.\d+)?$/i.exec(out)
  const base = m ? out.slice(0, m.index) : out
  return `${base}.${kind}.${version}`
}
