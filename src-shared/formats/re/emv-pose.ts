/**
 * EMV Engine Poser pose files (spec §7.1): reframework/data/EMV_Engine/Poses/<object>.json,
 *   { "<PoseName>": { "<JointName>": { "_LocalEulerAngle": "vec:X Y Z",
 *                                       "_LocalPosition": "vec:X Y Z", "_LocalScale": "vec:X Y Z" } } }
 * Values are the joint's live local transform (radians, metres, factor) at save time, written
 * by Lua `tostring` after the prefix `vec:` (e.g. `-1.8742032370511e-09`). Only the properties
 * that were selected when saving are present.
 */
import { FormatError } from '../../binary'
import { eulerToQuat, quatToEuler, DEFAULT_EULER_ORDER, type EulerOrder, type Quat, type Vec3 } from './euler'

export const EMV_EULER = '_LocalEulerAngle'
export const EMV_POSITION = '_LocalPosition'
export const EMV_SCALE = '_LocalScale'

export interface EmvJoint {
  name: string
  /** _LocalEulerAngle, radians. */
  euler?: Vec3
  /** _LocalPosition, metres. */
  position?: Vec3
  /** _LocalScale. */
  scale?: Vec3
  /** Other properties, kept verbatim so an export round-trips them. */
  extra?: Record<string, unknown>
}

export interface EmvPose {
  name: string
  joints: EmvJoint[]
}

/** A JSON path in the `$["a"]["b"]` form used in error messages. */
export function jsonPath(...keys: string[]): string {
  return '$' + keys.map((k) => `[${JSON.stringify(k)}]`).join('')
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/** Parses `"vec:x y z"` (2–4 numbers separated by spaces). `path` names it in errors. */
export function parseVec(value: unknown, path: string, file?: string, want?: number): number[] {
  const fail = (detail: string) => new FormatError(detail, { file, structure: path })
  if (typeof value !== 'string') throw fail(`expected a "vec:x y z" string, got ${value === null ? 'null' : typeof value}`)
  if (!value.startsWith('vec:')) throw fail(`expected a string starting with "vec:", got ${JSON.stringify(value.slice(0, 40))}`)
  const parts = value.slice(4).trim().split(/\s+/).filter((p) => p !== '')
  if (parts.length < 2 || parts.length > 4) throw fail(`expected 2 to 4 numbers after "vec:", got ${parts.length} in ${JSON.stringify(value)}`)
  if (want !== undefined && parts.length !== want) throw fail(`expected ${want} numbers after "vec:", got ${parts.length} in ${JSON.stringify(value)}`)
  return parts.map((p, i) => {
    if (!NUMBER.test(p)) throw fail(`component ${i} ${JSON.stringify(p)} is not a finite number in ${JSON.stringify(value)}`)
    const n = Number(p)
    if (!Number.isFinite(n)) throw fail(`component ${i} ${JSON.stringify(p)} is not a finite number`)
    return n
  })
}

/** Lua-style number text (floats keep a ".0"), shortest form that reads back exactly. */
export function formatNumber(n: number): string {
  if (Object.is(n, -0)) return '-0.0'
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? `${n}.0` : String(n)
}

export function formatVec(v: readonly number[]): string {
  return 'vec:' + v.map(formatNumber).join(' ')
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** JSON.parse with an error that names the file and the character offset. */
export function parseJsonText(text: string, file?: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (e) {
    const msg = (e as Error).message
    const m = /position (\d+)/.exec(msg)
    // "Unexpected end of JSON input" carries no position: the error is at the end of the text.
    throw new FormatError(`malformed JSON: ${msg}`, { file, structure: 'JSON', offset: m ? Number(m[1]) : text.length })
  }
}

/**
 * The keys of a (valid) JSON text's top-level object in file order. JavaScript objects list
 * integer-like keys ("1", "2") first whatever their position, so "the first pose" must come
 * from the text, not from Object.keys. Each step consumes at least one character.
 */
export function topLevelKeys(text: string): string[] {
  const keys: string[] = []
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++
  }
  const str = (): string => {
    const start = i
    i++ // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i++ // closing quote
    return JSON.parse(text.slice(start, i)) as string
  }
  ws()
  if (text[i] !== '{') return keys
  i++
  for (;;) {
    ws()
    if (i >= text.length || text[i] !== '"') return keys
    keys.push(str())
    ws()
    i++ // ':'
    ws()
    let depth = 0
    while (i < text.length) {
      const c = text[i]!
      if (c === '"') {
        str()
        if (depth === 0) break
        continue
      }
      if (c === '{' || c === '[') depth++
      else if (c === '}' || c === ']') {
        if (depth === 0) break
        depth--
        if (depth === 0) {
          i++
          break
        }
      } else if (c === ',' && depth === 0) break
      i++
    }
    ws()
    if (text[i] !== ',') return keys
    i++
  }
}

/** Parses an EMV Poser pose file holding one or many named poses (in file order). */
export function parseEmvPoses(text: string, file?: string): EmvPose[] {
  const root = parseJsonText(text, file)
  if (!isObject(root)) throw new FormatError('an EMV pose file is a JSON object of named poses', { file, structure: '$' })
  const poses: EmvPose[] = []
  const ordered = [...new Set([...topLevelKeys(text).filter((k) => Object.hasOwn(root, k)), ...Object.keys(root)])]
  for (const poseName of ordered) {
    const pose = root[poseName]
    if (!isObject(pose)) throw new FormatError(`a pose is an object of joints, got ${Array.isArray(pose) ? 'an array' : typeof pose}`, { file, structure: jsonPath(poseName) })
    const joints: EmvJoint[] = []
    for (const [jointName, props] of Object.entries(pose)) {
      if (!isObject(props)) throw new FormatError(`a joint is an object of properties, got ${Array.isArray(props) ? 'an array' : typeof props}`, { file, structure: jsonPath(poseName, jointName) })
      const j: EmvJoint = { name: jointName }
      for (const [prop, value] of Object.entries(props)) {
        const path = jsonPath(poseName, jointName, prop)
        if (prop === EMV_EULER) j.euler = parseVec(value, path, file, 3) as Vec3
        else if (prop === EMV_POSITION) j.position = parseVec(value, path, file, 3) as Vec3
        else if (prop === EMV_SCALE) j.scale = parseVec(value, path, file, 3) as Vec3
        else (j.extra ??= {})[prop] = value
      }
      joints.push(j)
    }
    poses.push({ name: poseName, joints })
  }
  return poses
}

/** Picks a pose by name (default: the first). */
export function pickPose(poses: EmvPose[], name?: string, file?: string): EmvPose {
  if (!poses.length) throw new FormatError('the pose file holds no poses', { file, structure: '$' })
  if (name === undefined) return poses[0]!
  const p = poses.find((q) => q.name === name)
  if (!p) throw new FormatError(`no pose named ${JSON.stringify(name)}; the file holds: ${poses.map((q) => JSON.stringify(q.name)).join(', ')}`, { file, structure: '$' })
  return p
}

/** EMV Poser JSON text for these poses (4-space indent like EMV's json.dump_file). */
export function formatEmvPoses(poses: EmvPose[]): string {
  // A Map keeps the poses in order (a plain object would list integer-like names first).
  const root = new Map<string, Record<string, Record<string, unknown>>>()
  for (const p of poses) {
    const pose: Record<string, Record<string, unknown>> = {}
    for (const j of p.joints) {
      const props: Record<string, unknown> = {}
      if (j.euler) props[EMV_EULER] = formatVec(j.euler)
      if (j.position) props[EMV_POSITION] = formatVec(j.position)
      if (j.scale) props[EMV_SCALE] = formatVec(j.scale)
      Object.assign(props, j.extra ?? {})
      pose[j.name] = props
    }
    root.set(p.name, pose)
  }
  if (root.size === 0) return '{}\n'
  const body = [...root].map(([name, pose]) => `    ${JSON.stringify(name)}: ${JSON.stringify(pose, null, 4).replace(/\n/g, '\n    ')}`)
  return `{\n${body.join(',\n')}\n}\n`
}

/** Local rotations of the joints that carry `_LocalEulerAngle`, through the one Euler conversion. */
export function poseRotations(p: EmvPose, order: EulerOrder = DEFAULT_EULER_ORDER): Map<string, Quat> {
  const m = new Map<string, Quat>()
  for (const j of p.joints) if (j.euler) m.set(j.name, eulerToQuat(j.euler, order))
  return m
}

/** An EMV pose from local rotations (and optional positions), for export. */
export function poseFromRotations(name: string, rotations: Map<string, Quat>, order: EulerOrder = DEFAULT_EULER_ORDER, positions?: Map<string, Vec3>): EmvPose {
  const joints: EmvJoint[] = []
  for (const [bone, q] of rotations) {
    const j: EmvJoint = { name: bone, euler: quatToEuler(q, order) }
    const p = positions?.get(bone)
    if (p) j.position = [...p] as Vec3
    joints.push(j)
  }
  return { name, joints }
}
