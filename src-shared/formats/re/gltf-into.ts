/**
 * `re import --into ORIGINAL` (CLI.md): glTF animations replace mots of an existing motlist/mot.
 *
 * - Each animation replaces the mot of ORIGINAL that has its name (`X [i]`, our export's name for
 *   entry i repeating mot name X, is entry i's mot); `--animation` limits this to the named ones,
 *   `NAME=MOT` maps an animation onto a mot of another name. Without `--animation`, animations
 *   that name no mot are warnings; a mot two animations name takes the one named exactly after it
 *   (else the first).
 * - A replaced mot keeps its name, frame rate, blending, version and bone headers (its own list,
 *   or none when it uses the motlist's shared list); it animates the channels the original
 *   animated plus any the glTF moves away from the rest pose (a channel the original had and the
 *   glTF does not animate rests). The motion is mapped through world space as `--template` does.
 * - The output is ORIGINAL's bytes with each new mot appended (16-aligned) and the pointer table
 *   entries that pointed at the replaced mot redirected; the old image stays, unreferenced. So
 *   every other byte (other mots, the MotIndex table with ids and flags, names, header) is
 *   ORIGINAL's. A standalone .mot is replaced whole.
 */
import { FormatError, hex } from '../../binary'
import type { GltfAnimations, GltfAnimationInfo } from '../../export/gltf-read'
import { boneDrafts, type MotBone } from './bone-header'
import { writeMot, type Mot } from './mot'
import { clipBone } from './sample'
import type { MotionFile } from './motion-file'
import { DEFAULT_FRAME_RATE } from './scene'
import { motLayout } from './versions'
import type { PathName } from './gltf-pose'
import { animationClips, importResult, leavesRest, matchNodes, matchWarnings, pickAnimations, restOf, type AnimationChoice, type ImportResult, type ImportedMotion, type TrackPolicy } from './gltf-import'

export interface IntoOptions {
  animations?: (string | AnimationChoice)[]
  tolerance?: number
  /** ORIGINAL's path: errors about its mots name it. */
  file?: string
  /** `--skeleton`: the bones of an ORIGINAL without bone headers (its mots stay without them). */
  skeleton?: MotBone[]
}

interface Target {
  anim: GltfAnimationInfo
  mot: Mot
  /** Index of the mot in the motlist's distinct mots (0 for a standalone mot). */
  index: number
}

function motsOf(f: MotionFile): Mot[] {
  return f.kind === 'motlist' ? f.motlist.mots : [f.mot]
}

/** The mot (index) a name stands for: a mot of that name, or `X [i]` = entry i's mot when it is named X. */
function motByName(f: MotionFile, name: string): number {
  const mots = motsOf(f)
  const exact = mots.findIndex((m) => m.name === name)
  if (exact >= 0 || f.kind === 'mot') return exact
  const m = / \[(\d+)\]$/.exec(name)
  if (!m) return -1
  const e = f.motlist.entries[Number(m[1])]
  return e && e.mot >= 0 && mots[e.mot]!.name === name.slice(0, m.index) ? e.mot : -1
}

function chooseTargets(f: MotionFile, g: GltfAnimations, chosen: IntoOptions['animations'], warnings: string[], file?: string): Target[] {
  const mots = motsOf(f)
  const names = mots.map((m) => JSON.stringify(m.name)).join(', ')
  const out: Target[] = []
  const taken = new Set<number>()
  const add = (anim: GltfAnimationInfo, index: number) => {
    if (taken.has(index)) {
      warnings.push(`animation "${anim.name}": mot "${mots[index]!.name}" is already replaced by another animation; skipped`)
      return
    }
    taken.add(index)
    out.push({ anim, mot: mots[index]!, index })
  }
  if (chosen && chosen.length) {
    for (const { anim, mot } of pickAnimations(g, chosen)) {
      const index = motByName(f, mot ?? anim.name)
      if (index < 0) throw new FormatError(`animation "${anim.name}": the original has no mot named "${mot ?? anim.name}"; its mots: ${names}`, { file, structure: 'mots' })
      add(anim, index)
    }
    return out
  }
  if (g.animations.length === 0) throw new FormatError('the glTF holds no animation', { structure: 'animations' })
  // An animation named exactly after a mot wins over `X [i]` naming the same mot.
  const exactFirst = [...g.animations].sort((a, b) => Number(!mots.some((m) => m.name === a.name)) - Number(!mots.some((m) => m.name === b.name)))
  for (const anim of exactFirst) {
    const index = motByName(f, anim.name)
    if (index < 0) warnings.push(`animation "${anim.name}" names no mot of the original; skipped (NAME=MOT maps it onto one)`)
    else add(anim, index)
  }
  if (out.length === 0) throw new FormatError(`no animation is named after a mot of the original; its mots: ${names}`, { file, structure: 'mots' })
  return out
}

/** The original's channels plus what the glTF moves away from rest; an original channel the glTF lacks rests. */
function intoPolicy(mot: Mot, skeleton: MotBone[]): TrackPolicy {
  const had = new Set<string>()
  for (const c of mot.clips) {
    const b = clipBone(c, skeleton)
    if (!b) continue
    for (const p of ['translation', 'rotation', 'scale'] as const) if (c[p]) had.add(`${b.index}/${p}`)
  }
  return (b: MotBone, path: PathName, values: Float64Array | undefined, frames: number) => {
    const original = had.has(`${b.index}/${path}`)
    const rest = restOf(b, path)
    if (values) return original || leavesRest(values, rest) ? values : undefined
    if (!original) return undefined
    const out = new Float64Array((frames + 1) * rest.length)
    for (let f = 0; f <= frames; f++) out.set(rest, f * rest.length)
    return out
  }
}

/** ORIGINAL's bytes with `images` (mot index → new mot image) appended and their pointers redirected. */
function spliceMots(f: MotionFile & { kind: 'motlist' }, bytes: Uint8Array, images: Map<number, Uint8Array>): Uint8Array {
  const ml = f.motlist
  let size = bytes.byteLength
  const at = new Map<number, number>()
  for (const [index, img] of images) {
    size = Math.ceil(size / 16) * 16
    at.set(index, size)
    size += img.byteLength
  }
  const out = new Uint8Array(size)
  out.set(bytes)
  const dv = new DataView(out.buffer)
  for (const [index, img] of images) out.set(img, at.get(index)!)
  for (let i = 0; i < ml.header.numMots; i++) {
    const p = ml.header.pointersOffset + 8 * i
    const old = Number(dv.getBigUint64(p, true))
    for (const [index] of images) if (old !== 0 && old === ml.mots[index]!.offset) dv.setBigUint64(p, BigInt(at.get(index)!), true)
  }
  return out
}

/** Builds the output bytes (see the file head). */
export function importInto(original: MotionFile, bytes: Uint8Array, g: GltfAnimations, opts: IntoOptions = {}): ImportResult {
  const warnings: string[] = []
  const targets = chooseTargets(original, g, opts.animations, warnings, opts.file)
  const unmatched = new Set<string>()
  const motions: ImportedMotion[] = []
  const images = new Map<number, Uint8Array>()
  for (const t of targets) {
    const skeleton = t.mot.bones ?? (original.kind === 'motlist' ? original.motlist.skeleton : null) ?? opts.skeleton ?? null
    if (!skeleton || skeleton.length === 0) throw new FormatError(`mot "${t.mot.name}" at ${hex(t.mot.offset)} has no skeleton (no bone header block)`, { file: opts.file, structure: 'BoneHeaders' })
    const match = matchNodes(g, skeleton)
    const m = matchWarnings(g, [t.anim], skeleton, match)
    m.unmatched.forEach((n) => unmatched.add(n))
    warnings.push(...m.warnings.filter((w) => !warnings.includes(w)))
    const rate = t.mot.header.frameRate || DEFAULT_FRAME_RATE
    const { F, clips, tracks } = animationClips({ g, skeleton, match, layout: motLayout(t.mot.version), rate, tolerance: opts.tolerance, policy: intoPolicy(t.mot, skeleton) }, t.anim, warnings)
    const owner = t.mot.ownsBones && !!t.mot.bones
    images.set(t.index, writeMot({ version: t.mot.version, name: t.mot.name, frameCount: F, blending: t.mot.header.blending, frameRate: rate, bones: owner ? boneDrafts(t.mot.bones!) : null, clips, motSize: original.kind === 'motlist' && owner && t.mot.header.motSize === 0 ? 'owner' : 'end', uknAttributes2: t.mot.header.uknAttributes2 }))
    const entry = original.kind === 'motlist' ? original.motlist.entries.find((e) => e.mot === t.index) : undefined
    motions.push({ animation: t.anim.name, mot: t.mot.name, motionId: entry?.motNumber ?? 0, idSource: 'template', frameCount: F, tracks, maxError: tracks.reduce((x, tr) => Math.max(x, tr.maxError), 0) })
  }
  const out = original.kind === 'motlist' ? spliceMots(original, bytes, images) : images.get(0)!
  const version = original.kind === 'motlist' ? original.motlist.version : original.mot.version
  const rate = targets[0]!.mot.header.frameRate || DEFAULT_FRAME_RATE
  return importResult({ bytes: out, kind: original.kind, version, motVersion: targets[0]!.mot.version, frameRate: rate }, motions, [...unmatched], warnings)
}
