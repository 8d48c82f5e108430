/**
 * The static-pose motlist of spec §8: one mot holding a pose, the skeleton and reference data
 * taken from a template motlist/mot.
 *
 * - Bone list: every template bone in the template's order, with its reference local T/R from
 *   the template's bone headers (§8 step 1, §7.5 "copy the bone block").
 * - One clip per bone: a rotation track for every bone (posed bones get the pose; the others
 *   keep the skeleton's reference rotation from the bone headers, never the template motion's
 *   frames); translation tracks (reference translation) for Hip/COG/pelvis as in the §10.3
 *   vector (whose root has a rotation track only), or wherever the pose has positions when
 *   `usePositions` is set. Scale stays 1.
 * - Each track: 2 keys at frames [0, F] with the same value, u8 indices; frameCount = endFrame
 *   = F, blending 0 (loop), rotations 3Component (0xC0000; 0xB0000 below mot 78), w ≥ 0.
 * - The mot owns the bone list (motSize = 0); one MotIndex entry with type = 1.
 */
import { FormatError } from '../../binary'
import { eulerToQuat, quatCanonical, DEFAULT_EULER_ORDER, type EulerOrder, type Quat, type Vec3 } from './euler'
import type { EmvPose } from './emv-pose'
import { boneHash } from './hash'
import { boneDrafts, type MotBone } from './bone-header'
import { writeMot, type ClipDraft } from './mot'
import { writeMotlist } from './motlist'
import { COMPRESSION_3COMPONENT, COMPRESSION_3COMPONENT_DMC5, COMPRESSION_FULL, type TrackDraft } from './track'
import { skeletonOf, type MotionFile } from './motion-file'
import { MOTLIST_TO_MOT, motlistVersionForMot } from './versions'

export interface PoseBones {
  name: string
  /** Local rotations by bone name (absolute local rotation, replacing the bind rotation). */
  rotations: Map<string, Quat>
  /** Local translations by bone name (used only with usePositions). */
  positions?: Map<string, Vec3>
}

export interface PoseMotlistOptions {
  /** Motion ID of the MotIndex entry (default 0). */
  motNumber?: number
  /** Last frame F; keys at [0, F] (default 1). */
  frames?: number
  /** Name stored in the motlist header (default: the pose name). */
  motlistName?: string
  /** Name of the mot (default: the pose name). */
  motName?: string
  /** Write translation tracks from the pose's positions (default: reference translations). */
  usePositions?: boolean
  /** FrameRate (default: the template's, else 60). */
  frameRate?: number
  /** The bones of a template without bone headers (`--skeleton`); the output then has none either. */
  skeleton?: MotBone[]
}

export interface PoseMotlistResult {
  bytes: Uint8Array
  /** Motlist version (the template's; the name suffix). */
  version: number
  motVersion: number
  /** Pose bones found in the skeleton. */
  posed: string[]
  /** Pose bones the skeleton lacks (ignored). */
  unknownBones: string[]
  boneCount: number
  trackCount: number
}

const TRANSLATED = /^(hip|hips|cog|pelvis)$/i

/** Matches a pose joint name to a skeleton bone: by name, then by hash (§7.1). */
export function matchBone(skeleton: MotBone[], name: string): MotBone | undefined {
  return skeleton.find((b) => b.name === name) ?? skeleton.find((b) => b.hash === boneHash(name))
}

/** The versions and frame rate a file written from template `t` takes (motlist, mot, FrameRate). */
export function templateVersions(t: MotionFile): { motlist: number; mot: number; frameRate: number } {
  if (t.kind === 'motlist') {
    const ml = t.motlist
    const owner = ml.mots.find((m) => m.bones && m.bones.length) ?? ml.mots[0]
    const mot = MOTLIST_TO_MOT.get(ml.version) ?? owner?.version
    if (mot == null) throw new FormatError(`template motlist ${ml.version} holds no mot to take the mot version from`)
    return { motlist: ml.version, mot, frameRate: owner?.header.frameRate || 60 }
  }
  const ml = motlistVersionForMot(t.mot.version)
  if (ml === undefined) throw new FormatError(`no motlist version is known to pair with mot ${t.mot.version}`)
  return { motlist: ml, mot: t.mot.version, frameRate: t.mot.header.frameRate || 60 }
}

/** The template's bone headers, else `opts.skeleton` (`--skeleton`); neither is an error naming `--skeleton`. */
function poseSkeleton(template: MotionFile, opts: PoseMotlistOptions): MotBone[] {
  const own = skeletonOf(template)
  if (own && own.length) return own
  if (opts.skeleton && opts.skeleton.length) return opts.skeleton
  throw new FormatError('the template has no skeleton (no bone header block; game motlists keep it in the character\'s .mesh): give it with --skeleton FILE.mesh.*', { structure: 'BoneHeaders' })
}

/** Builds the pose motlist from a parsed template and local rotations. */
export function buildPoseMotlist(template: MotionFile, pose: PoseBones, opts: PoseMotlistOptions = {}): PoseMotlistResult {
  const skeleton = poseSkeleton(template, opts)
  const headers = skeleton === skeletonOf(template)
  const v = templateVersions(template)
  const F = opts.frames ?? 1
  if (!Number.isInteger(F) || F < 1 || F > 254) throw new FormatError(`frames must be a whole number from 1 to 254, got ${F}`)

  const posedRot = new Map<number, Quat>()
  const posedPos = new Map<number, Vec3>()
  const posed: string[] = []
  const unknownBones: string[] = []
  const names = new Set<string>([...pose.rotations.keys(), ...(opts.usePositions ? pose.positions?.keys() ?? [] : [])])
  for (const name of names) {
    const b = matchBone(skeleton, name)
    if (!b) {
      unknownBones.push(name)
      continue
    }
    const q = pose.rotations.get(name)
    if (q) posedRot.set(b.index, quatCanonical(q))
    const p = opts.usePositions ? pose.positions?.get(name) : undefined
    if (p) posedPos.set(b.index, p)
    posed.push(name)
  }

  const rotCode = v.mot < 78 ? COMPRESSION_3COMPONENT_DMC5 : COMPRESSION_3COMPONENT
  const frames = [0, F]
  const bones = headers ? boneDrafts(skeleton) : null
  let trackCount = 0
  const clips: ClipDraft[] = skeleton.map((b) => {
    const q = posedRot.get(b.index) ?? quatCanonical(b.rotation)
    const rotation: TrackDraft = { channel: 'rotation', compression: rotCode, frames, values: [...q, ...q] }
    const clip: ClipDraft = { boneIndex: b.index, boneHash: b.hash, rotation }
    trackCount++
    const p = posedPos.get(b.index)
    // Translation tracks only for Hip-like bones (and posed positions): spec §10.3 writes the
    // root with a rotation track only, and §7.5 keeps the root at its reference (no root
    // motion). §8 step 2 reads "root/Hip"; the §10.3 vector decides it (ambiguity noted).
    if (p || TRANSLATED.test(b.name)) {
      const t = p ?? b.translation
      clip.translation = { channel: 'translation', compression: COMPRESSION_FULL, frames, values: [...t, ...t] }
      trackCount++
    }
    return clip
  })
  const mot = writeMot({
    version: v.mot,
    name: opts.motName ?? pose.name,
    frameCount: F,
    blending: 0,
    startFrame: 0,
    endFrame: F,
    frameRate: opts.frameRate ?? v.frameRate,
    bones,
    clips,
    motSize: headers ? 'owner' : 'end',
  })
  const bytes = writeMotlist({
    version: v.motlist,
    name: opts.motlistName ?? pose.name,
    mots: [mot],
    entries: [{ mot: 0, motNumber: opts.motNumber ?? 0, type: 1 }],
  })
  return { bytes, version: v.motlist, motVersion: v.mot, posed, unknownBones, boneCount: skeleton.length, trackCount }
}

/** The EMV route: `_LocalEulerAngle` → quaternion with the chosen Euler order, then §8. */
export function buildPoseMotlistFromEmv(template: MotionFile, pose: EmvPose, opts: PoseMotlistOptions & { order?: EulerOrder } = {}): PoseMotlistResult {
  const order = opts.order ?? DEFAULT_EULER_ORDER
  const rotations = new Map<string, Quat>()
  const positions = new Map<string, Vec3>()
  for (const j of pose.joints) {
    if (j.euler) rotations.set(j.name, eulerToQuat(j.euler, order))
    if (j.position) positions.set(j.name, j.position)
  }
  const r = buildPoseMotlist(template, { name: pose.name, rotations, positions }, opts)
  // Joints with neither a rotation nor (used) position are neither posed nor unknown; joints
  // the skeleton lacks are reported whatever they carry.
  const skeleton = poseSkeleton(template, opts)
  for (const j of pose.joints) {
    if (!rotations.has(j.name) && !(opts.usePositions && positions.has(j.name)) && !matchBone(skeleton, j.name)) r.unknownBones.push(j.name)
  }
  return r
}

/**
 * The output name: keeps the template's version suffix (`name.motlist.663`). A name ending in
 * `.motlist` gets the version appended; `.motlist.<other>` is changed to the template's version;
 * any other name gets `.motlist.<version>` appended.
 */
export function poseOutputName(out: string, version: number): string {
  const m = /\.motlist(\.\d+)?$/i.exec(out)
  if (!m) return `${out}.motlist.${version}`
  return `${out.slice(0, m.index)}.motlist.${version}`
}

/** The motlist name for the header: the file name without folders and suffixes. */
export function motlistBaseName(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path
  return base.replace(/\.motlist(\.\d+)?$/i, '').replace(/\.mot(\.\d+)?$/i, '')
}
