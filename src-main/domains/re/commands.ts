/**
 * `modbench re …` commands (CLI.md "RE Engine motions"): info, sample, pose2motlist, plus
 * motion2pose (a motion frame → EMV Poser JSON, the export direction).
 */
import { UsageError, forceOption, guardCliOutput, requireString, intOption, type Command, type CommandContext } from '../../plugin/command'
import {
  describeMotionFile,
  motionsOf,
  sampleMot,
  isEulerOrder,
  EULER_ORDERS,
  DEFAULT_EULER_ORDER,
  formatEmvPoses,
  poseFromRotations,
  type EulerOrder,
  type Quat,
} from '../../../src-shared/formats/re'
import type { Mot } from '../../../src-shared/formats/re/mot'
import { loadMotionFile, loadPoseFile, pickPose, savePoseMotlist } from './files'
import { loadSkeletonSource } from './skeleton-files'
import { writeFileAtomic } from '../../node/atomic'
import { FormatError } from '../../../src-shared/binary'

function orderOption(ctx: CommandContext): EulerOrder {
  const v = ctx.values.order
  if (v === undefined) return DEFAULT_EULER_ORDER
  if (typeof v !== 'string' || !isEulerOrder(v.toUpperCase())) throw new UsageError(`--order takes one of ${EULER_ORDERS.join(', ')}`)
  return v.toUpperCase() as EulerOrder
}

/** `--frame F` (fractions interpolate; `--frame -5` parses, see src-main/cli/main.ts). */
function frameOption(ctx: CommandContext, required = false): number {
  const v = ctx.values.frame
  if (v === undefined && required) throw new UsageError('--frame is required (a frame number of the motion; fractions interpolate)')
  if (v === undefined) return 0
  if (typeof v !== 'string' || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(v)) throw new UsageError(`--frame takes a number, got ${JSON.stringify(v)}`)
  return Number(v)
}

function warnAll(ctx: CommandContext, warnings: string[]): void {
  for (const w of warnings) ctx.err(`warning: ${w}`)
}

/** A frame outside the motion samples its nearest end: say so rather than print it as that frame. */
function warnFrameRange(ctx: CommandContext, frame: number, index: number, mot: Mot): void {
  const n = mot.header.frameCount
  if (frame < 0) ctx.err(`warning: frame ${frame} is before motion ${index}'s first frame; the values are frame 0's`)
  else if (Number.isFinite(n) && frame > n) ctx.err(`warning: frame ${frame} is past motion ${index}'s ${n} frames; the values are its last keys'`)
}

const r6 = (n: number) => Math.round(n * 1e9) / 1e9

const info: Command = {
  name: 're info',
  summary: 'list the motions, skeleton and tracks of a .motlist.* or .mot.* file',
  usage: 're info FILE [--json]',
  help: 'JSON: {"kind":"motlist"|"mot","version","name","motions":[{"index","id","name","frameCount","frameRate","bones":[{"name","hash","parent"}],"tracks":[{"bone","hash","channels":[…],"keys"}]}]}',
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    const f = await loadMotionFile(ctx.positionals[0]!)
    warnAll(ctx, f.warnings)
    const d = describeMotionFile(f.file)
    if (ctx.json) {
      ctx.printJson(d)
      return 0
    }
    ctx.out(`${f.path}: ${d.kind} version ${d.version}${d.motVersion ? ` (mot ${d.motVersion})` : ''}, name "${d.name}", ${d.motions.length} motion(s)`)
    for (const m of d.motions) {
      const channels = m.tracks.length
      ctx.out(`  [${m.index}] id ${m.id ?? '-'} "${m.name ?? '(none)'}": ${m.frameCount} frames at ${m.frameRate} fps, ${m.bones.length} bones, ${channels} tracks`)
    }
    return 0
  },
}

const sample: Command = {
  name: 're sample',
  summary: 'the local pose (T, R, S per animated bone) of a motion at a frame',
  usage: 're sample FILE --motion I --frame F [--json]',
  help: 'JSON: [{"bone","translation":[x,y,z],"rotation":[x,y,z,w],"scale":[x,y,z]}] for the bones the motion animates (rotation x, y, z, w). I is the motion index of `re info` (an I beyond the indices that is the ID of exactly one motion picks that one), F a frame number (fractions interpolate).',
  options: { motion: { type: 'string' }, frame: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    requireString(ctx, 'motion')
    const index = intOption(ctx, 'motion')!
    const frame = frameOption(ctx, true)
    const f = await loadMotionFile(ctx.positionals[0]!)
    warnAll(ctx, f.warnings)
    const motions = motionsOf(f.file)
    // --motion is the motion index of `re info` (CLI.md leaves I undefined; our choice). An
    // out-of-range I that is the ID of exactly one entry picks that entry, with a note.
    let m = motions[index]
    if (!m) {
      const byId = motions.filter((x) => x.id === index)
      if (byId.length === 1) {
        m = byId[0]!
        ctx.err(`note: the file has ${motions.length} motion(s); --motion ${index} taken as the motion ID of index ${m.index}`)
      }
    }
    if (!m) throw new FormatError(`motion ${index} does not exist; the file has ${motions.length} motion(s) (0–${motions.length - 1})`, { file: f.path })
    if (!m.mot) throw new FormatError(`motion ${m.index} (id ${m.id}) has no embedded mot`, { file: f.path })
    warnFrameRange(ctx, frame, m.index, m.mot)
    const s = sampleMot(m.mot, m.skeleton, frame)
    // A NaN / ±Inf key or reference value would print as null: name the bone instead.
    for (const b of s) {
      if (![...b.translation, ...b.rotation, ...b.scale].every(Number.isFinite)) {
        throw new FormatError(`motion ${m.index} at frame ${frame}: bone ${b.bone ?? `#${b.hash.toString(16)}`} samples to a non-finite value (its track keys or reference pose hold NaN or infinity)`, { file: f.path, structure: `mot "${m.mot.name}"` })
      }
    }
    const rows = s.map((b) => ({ bone: b.bone, hash: b.hash, translation: b.translation, rotation: b.rotation, scale: b.scale }))
    if (ctx.json) {
      ctx.printJson(rows)
      return 0
    }
    ctx.out(`motion ${m.index} "${m.mot.name}" at frame ${frame}:`)
    for (const b of rows) {
      ctx.out(`  ${(b.bone ?? `#${b.hash.toString(16)}`).padEnd(24)} T ${b.translation.map(r6).join(' ')}  R ${b.rotation.map(r6).join(' ')}  S ${b.scale.map(r6).join(' ')}`)
    }
    return 0
  },
}

const pose2motlist: Command = {
  name: 're pose2motlist',
  summary: 'build a game-loadable motlist holding one pose from an EMV Poser JSON and a template',
  usage: 're pose2motlist --template FILE --pose POSE.json [--pose-name NAME] [--skeleton SKEL] --out OUT [--force] [--order YXZ] [--id N] [--frames F] [--positions] [--json]',
  help: [
    'Skeleton and reference data come from the template motlist/mot; rotations from the pose\'s _LocalEulerAngle values.',
    'OUT keeps the template\'s version suffix (name.motlist.663). Bones the template lacks are reported on stderr and ignored.',
    `--order: Euler order of _LocalEulerAngle, R = Ra·Rb·Rc (default ${DEFAULT_EULER_ORDER}: R = Ry·Rx·Rz; not yet confirmed in game).`,
    '--id: motion ID of the entry (default 0). --frames: last key frame F, keys at [0, F] (default 1).',
    '--positions: also write the pose\'s _LocalPosition values as translation tracks (default: reference translations).',
    '--skeleton SKEL (a .mesh.* or a mot/motlist with bone headers): the bones of a template without bone headers (game',
    'motlists); the output keeps the template\'s layout, bone headers absent where they were.',
    'JSON: {"out","version","motVersion","pose","bones","posed","tracks","unknownBones":[…],"size"}',
  ].join('\n'),
  options: {
    template: { type: 'string' },
    pose: { type: 'string' },
    'pose-name': { type: 'string' },
    out: { type: 'string' },
    order: { type: 'string' },
    id: { type: 'string' },
    frames: { type: 'string' },
    positions: { type: 'boolean' },
    skeleton: { type: 'string' },
    ...forceOption,
  },
  positionals: { min: 0, max: 0 },
  async run(ctx) {
    const template = requireString(ctx, 'template')
    const posePath = requireString(ctx, 'pose')
    const out = requireString(ctx, 'out')
    const order = orderOption(ctx)
    const motNumber = intOption(ctx, 'id', 0)!
    if (motNumber < 0 || motNumber > 0xffff) throw new UsageError('--id takes a motion ID from 0 to 65535')
    const frames = intOption(ctx, 'frames', 1)!
    if (frames < 1 || frames > 254) throw new UsageError('--frames takes a whole number from 1 to 254')
    const poseName = typeof ctx.values['pose-name'] === 'string' ? (ctx.values['pose-name'] as string) : undefined
    const skeletonPath = typeof ctx.values.skeleton === 'string' ? ctx.values.skeleton : undefined
    const poses = await loadPoseFile(posePath)
    const pose = pickPose(poses, poseName, posePath)
    const skeleton = skeletonPath === undefined ? undefined : (await loadSkeletonSource(skeletonPath)).bones
    const res = await savePoseMotlist({
      templatePath: template,
      out,
      emv: pose,
      order,
      options: { motNumber, frames, usePositions: ctx.values.positions === true, skeleton },
      protect: [posePath, ...(skeletonPath ? [skeletonPath] : [])],
      consent: { force: ctx.values.force === true },
    })
    warnAll(ctx, res.warnings)
    const shown = res.unknownBones.slice(0, 100)
    for (const b of shown) ctx.err(`warning: unknown bone "${b}": not in the template skeleton; ignored`)
    if (res.unknownBones.length > shown.length) ctx.err(`warning: … and ${res.unknownBones.length - shown.length} more unknown bones`)
    if (ctx.json) {
      ctx.printJson({
        out: res.path,
        version: res.version,
        motVersion: res.motVersion,
        pose: pose.name,
        order,
        id: motNumber,
        bones: res.boneCount,
        posed: res.posed.length,
        tracks: res.trackCount,
        unknownBones: res.unknownBones,
        size: res.size,
      })
      return 0
    }
    ctx.out(`wrote ${res.path}: motlist ${res.version} (mot ${res.motVersion}), pose "${pose.name}", ${res.posed.length} posed of ${res.boneCount} bones, ${res.trackCount} tracks, ${res.size} bytes`)
    if (res.unknownBones.length) ctx.out(`${res.unknownBones.length} pose bone(s) not in the template were ignored (listed on stderr)`)
    return 0
  },
}

const motion2pose: Command = {
  name: 're motion2pose',
  summary: 'write a motion frame as an EMV Poser pose JSON (local Euler angles)',
  usage: 're motion2pose FILE --motion I [--frame F] --out POSE.json [--force] [--pose-name NAME] [--order YXZ] [--json]',
  help: 'Every bone the motion animates becomes a joint with _LocalEulerAngle (and _LocalPosition) in EMV\'s "vec:x y z" form.',
  options: { motion: { type: 'string' }, frame: { type: 'string' }, out: { type: 'string' }, 'pose-name': { type: 'string' }, order: { type: 'string' }, ...forceOption },
  positionals: { min: 1, max: 1 },
  async run(ctx) {
    requireString(ctx, 'motion')
    const index = intOption(ctx, 'motion')!
    const frame = frameOption(ctx)
    const out = requireString(ctx, 'out')
    const order = orderOption(ctx)
    guardCliOutput(ctx, out, [ctx.positionals[0]])
    const f = await loadMotionFile(ctx.positionals[0]!)
    warnAll(ctx, f.warnings)
    const m = motionsOf(f.file)[index]
    if (!m?.mot) throw new FormatError(`motion ${index} does not exist or has no mot`, { file: f.path })
    warnFrameRange(ctx, frame, m.index, m.mot)
    const all = sampleMot(m.mot, m.skeleton, frame)
    const s = all.filter((b) => b.bone !== null)
    // EMV Poser joints are named: a bone known only by its hash cannot be one
    const unnamed = all.length - s.length
    if (unnamed) ctx.err(`warning: ${f.path}: ${unnamed} of the ${all.length} bones motion ${m.index} animates have no name (no bone header names them), left out of the pose${s.length ? '' : ': the pose has no joints'}`)
    const rot = new Map<string, Quat>(s.map((b) => [b.bone!, b.rotation]))
    const pos = new Map(s.map((b) => [b.bone!, b.translation]))
    const name = typeof ctx.values['pose-name'] === 'string' ? (ctx.values['pose-name'] as string) : m.mot.name || `motion${index}`
    const text = formatEmvPoses([poseFromRotations(name, rot, order, pos)])
    await writeFileAtomic(out, text)
    if (ctx.json) ctx.printJson({ out, pose: name, joints: rot.size, order })
    else ctx.out(`wrote ${out}: pose "${name}" with ${rot.size} joints (Euler order ${order})`)
    return 0
  },
}

export const reCommands: Command[] = [info, sample, pose2motlist, motion2pose]
