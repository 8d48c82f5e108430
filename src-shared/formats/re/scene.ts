/**
 * An RE Engine skeleton and its motions as a neutral Scene (spec §4.2, §4.5, §10.9).
 *
 * Skeleton (`skeletonScene`): one node per bone of the bone-header block, named after the bone,
 * parented as the block's `parentOffs` say, at the bone's reference local pose (translation,
 * rotation normalised, scale 1), plus one skin whose `joints[i]` is the node of bone i (so skin
 * joint index = bone index) with inverse bind matrices of the reference pose. No mesh is needed:
 * Blender's glTF importer builds an armature from every skin (glTF-Blender-IO `vnode.py`,
 * mark_bones_and_armas), so the file opens as an armature with one action per motion. Nodes carry
 * `extras.re = { bone, hash }`. Parents must come before children in a neutral scene; a bone list
 * that does not (rare in game files) is reordered and `boneNodes` maps bone index → node index
 * (identity for ordered lists).
 *
 * Motions (`motionAnimation`): each motion becomes one neutral animation named after its mot, at
 * the mot's frame rate, with one LINEAR key per frame 0..frameCount (time f / frameRate s). Values
 * are `sampleMot`'s: at a key frame the file's own quaternion (normalised; no Euler step), between
 * keys its nlerp (spec §4.5), so every frame of the glTF equals what the game's sampler gives.
 * Consecutive rotation keys are kept on one hemisphere (q and −q are one rotation) so interpolating
 * tools take the short way. Only the channels a clip has are written (others rest, §10.9).
 */
import { FormatError } from '../../binary'
import type { Animation, Channel, Scene, SceneNode } from '../../scene/types'
import { emptyScene } from '../../scene/types'
import { mat4Invert, worldMatrices } from '../../scene/math'
import { quatNormalize, type Quat } from './euler'
import type { MotBone } from './bone-header'
import type { Mot } from './mot'
import { clipBone, sampleRotation, sampleVector } from './sample'
import { motionsOf, skeletonOf, fileName, type MotionFile } from './motion-file'

/** A motion longer than this many frames is refused (one key per frame per channel). */
export const MAX_EXPORT_FRAMES = 1_000_000
/** Keys × components one motion may sample (2^26 floats = 256 MiB), against absurd frame counts. */
export const MAX_SAMPLED_VALUES = 1 << 26

/** Throws when sampling `frames + 1` keys of channels of `width` components each would exceed the budget. */
export function checkSampleBudget(frames: number, widths: number, what: string, structure: string): void {
  if ((frames + 1) * widths > MAX_SAMPLED_VALUES) {
    throw new FormatError(`${what}: ${frames + 1} frames × ${widths} key components is beyond the ${MAX_SAMPLED_VALUES} values one motion may take`, { structure })
  }
}

/** Frame rate used when a mot header stores 0 (RE3+ titles run at 60, spec §1). */
export const DEFAULT_FRAME_RATE = 60

export interface SkeletonScene {
  scene: Scene
  /** Node index of bone i. */
  boneNodes: number[]
}

/** Parents-first order of the bones (their own order when it already is). */
function parentsFirst(bones: readonly MotBone[]): number[] {
  if (bones.every((b, i) => b.parent < i)) return bones.map((_, i) => i)
  const order: number[] = []
  const placed = new Uint8Array(bones.length)
  const place = (i: number): void => {
    if (placed[i]) return
    const chain: number[] = []
    for (let p = i; p >= 0 && !placed[p]; p = bones[p]!.parent) {
      // a parent chain longer than the list goes round in a cycle (a file can say so): refuse, never loop
      if (chain.length >= bones.length) throw new FormatError(`bone ${i} "${bones[i]!.name}": its parent chain is a cycle`, { structure: 'BoneHeader.parentOffs' })
      chain.push(p)
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      placed[chain[k]!] = 1
      order.push(chain[k]!)
    }
  }
  bones.forEach((_, i) => place(i))
  return order
}

function checkFinite(values: readonly number[], what: string): void {
  if (!values.every(Number.isFinite)) throw new FormatError(`${what} holds NaN or infinity`, { structure: 'BoneHeader' })
}

/**
 * The skeleton as a scene: one node per bone at its reference pose and a skin over all of them.
 * Throws a FormatError naming the bone when a reference value is NaN/∞.
 */
export function skeletonScene(bones: readonly MotBone[], name = 'skeleton'): SkeletonScene {
  const order = parentsFirst(bones)
  const boneNodes = new Array<number>(bones.length)
  order.forEach((b, n) => (boneNodes[b] = n))
  const nodes: SceneNode[] = order.map((bi) => {
    const b = bones[bi]!
    checkFinite([...b.translation, ...b.rotation], `bone ${bi} "${b.name}" reference pose`)
    return {
      name: b.name,
      parent: b.parent >= 0 ? boneNodes[b.parent]! : -1,
      translation: [b.translation[0], b.translation[1], b.translation[2]],
      rotation: quatNormalize(b.rotation),
      scale: [1, 1, 1],
      extras: { re: { bone: bi, hash: b.hash } },
    }
  })
  const scene = emptyScene(name)
  scene.nodes = nodes
  if (bones.length) {
    const world = worldMatrices(nodes)
    const ibm = new Float32Array(bones.length * 16)
    bones.forEach((b, bi) => {
      const n = boneNodes[bi]!
      const inv = mat4Invert(world.subarray(n * 16, n * 16 + 16))
      if (!inv) throw new FormatError(`bone ${bi} "${b.name}": its reference world matrix cannot be inverted`, { structure: 'BoneHeader' })
      ibm.set(inv, bi * 16)
    })
    const roots = nodes.map((n, i) => (n.parent < 0 ? i : -1)).filter((i) => i >= 0)
    scene.skins.push({ name: `${name}_skin`, joints: [...boneNodes], inverseBindMatrices: ibm, ...(roots.length === 1 ? { skeleton: roots[0]! } : {}) })
  }
  return { scene, boneNodes }
}

/** Frames sampled for a mot: 0..frameCount (a fractional count is rounded up). */
export function exportFrameCount(mot: Mot): number {
  const fc = mot.header.frameCount
  if (!Number.isFinite(fc) || fc < 0) throw new FormatError(`mot "${mot.name}": frameCount ${fc} is not a frame count`, { structure: 'MotHeader.frameCount' })
  const n = Math.ceil(fc - 1e-6)
  if (n > MAX_EXPORT_FRAMES) throw new FormatError(`mot "${mot.name}": frameCount ${fc} is beyond ${MAX_EXPORT_FRAMES} frames`, { structure: 'MotHeader.frameCount' })
  return Math.max(0, n)
}

export interface MotionAnimationOptions {
  /** Animation name (default: the mot's name). */
  name?: string
  /** Extra keys for `animation.extras.re`. */
  extras?: Record<string, unknown>
}

/**
 * One mot as a neutral animation over a `skeletonScene` (keys at every frame, see the file head).
 * Clips whose hash matches no bone are skipped and listed in `unmatched`.
 */
export function motionAnimation(mot: Mot, skeleton: readonly MotBone[], boneNodes: readonly number[], opts: MotionAnimationOptions = {}): { animation: Animation; unmatched: number[] } {
  const rate = mot.header.frameRate > 0 ? mot.header.frameRate : DEFAULT_FRAME_RATE
  const frames = exportFrameCount(mot)
  const widths = mot.clips.reduce((n, c) => n + (c.translation ? 3 : 0) + (c.rotation ? 4 : 0) + (c.scale ? 3 : 0), 0)
  checkSampleBudget(frames, widths, `mot "${mot.name}"`, 'MotHeader.frameCount')
  // One key-time array shared by every channel of the animation.
  const times = new Float32Array(frames + 1)
  for (let f = 0; f <= frames; f++) times[f] = f / rate
  const channels: Channel[] = []
  const unmatched: number[] = []
  for (const c of mot.clips) {
    const b = clipBone(c, skeleton as MotBone[])
    if (!b) {
      unmatched.push(c.boneHash)
      continue
    }
    const node = boneNodes[b.index]!
    for (const path of ['translation', 'rotation', 'scale'] as const) {
      const t = c[path]
      if (!t) continue
      const width = path === 'rotation' ? 4 : 3
      const values = new Float32Array((frames + 1) * width)
      let prev: Quat | null = null
      for (let f = 0; f <= frames; f++) {
        let v: number[]
        if (path === 'rotation') {
          let q = sampleRotation(t, f)
          if (prev && q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0) q = [-q[0], -q[1], -q[2], -q[3]]
          prev = q
          v = q
        } else {
          v = sampleVector(t, f)
        }
        if (!v.every(Number.isFinite)) {
          throw new FormatError(`mot "${mot.name}": bone "${b.name}" ${path} key at frame ${f} is NaN or infinite`, { structure: `BoneClip (bone ${b.index}) ${path} track`, offset: mot.offset + t.frameDataOffset })
        }
        values.set(v, f * width)
      }
      channels.push({ node, path, times, values, interpolation: 'LINEAR' })
    }
  }
  const animation: Animation = {
    name: opts.name ?? mot.name,
    duration: frames / rate,
    frameRate: rate,
    channels,
    loop: mot.header.blending === 0,
    extras: { re: { mot: mot.name, frameCount: mot.header.frameCount, ...opts.extras } },
  }
  return { animation, unmatched }
}

export interface MotionFileSceneOptions {
  /** Scene name (default: the file's name). */
  name?: string
  /** Only this motion index (of `motionsOf`); default every motion. `'none'`: the skeleton only. */
  motion?: number | 'none'
  /** The bones to use instead of the file's own (a `--skeleton` file's, see skeleton-source.ts). */
  skeleton?: MotBone[]
}

export interface MotionFileScene extends SkeletonScene {
  /** Motion index of each animation. */
  motions: number[]
  warnings: string[]
}

/**
 * A motlist/mot as a scene: its skeleton (motlist shared list or the mot's own) and its motions
 * as animations, one per MotionIDs entry, named after the mot (a repeated name gets ` [index]`).
 */
export function motionFileScene(file: MotionFile, opts: MotionFileSceneOptions = {}): MotionFileScene {
  const bones = opts.skeleton ?? skeletonOf(file)
  if (!bones || bones.length === 0) throw new FormatError('the file has no skeleton (no bone header block in any mot)', { structure: 'BoneHeaders' })
  const name = opts.name ?? (fileName(file) || 're_motion')
  const { scene, boneNodes } = skeletonScene(bones, name)
  const warnings: string[] = []
  const used = new Set<string>()
  const motions: number[] = []
  const all = motionsOf(file)
  if (typeof opts.motion === 'number' && !all[opts.motion]) throw new FormatError(`motion ${opts.motion} does not exist; the file has ${all.length} motion(s)`, { structure: 'MotionIDs' })
  const picked = opts.motion === 'none' ? [] : typeof opts.motion === 'number' ? [all[opts.motion]!] : all
  for (const m of picked) {
    if (!m.mot) {
      warnings.push(`motion ${m.index} (id ${m.id}) has no mot; skipped`)
      continue
    }
    let animName = m.mot.name || `motion${m.index}`
    if (used.has(animName)) animName = `${animName} [${m.index}]`
    used.add(animName)
    // Clips are matched by hash against the file's skeleton, whose bones the nodes are.
    const { animation, unmatched } = motionAnimation(m.mot, bones, boneNodes, { name: animName, extras: { index: m.index, id: m.id } })
    if (unmatched.length) warnings.push(`motion ${m.index} "${m.mot.name}": ${unmatched.length} clip(s) match no bone (hash ${unmatched.map((h) => `0x${h.toString(16)}`).join(', ')}); skipped`)
    scene.animations.push(animation)
    motions.push(m.index)
  }
  return { scene, boneNodes, motions, warnings }
}
