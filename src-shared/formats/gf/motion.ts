/**
 * GFMotion (spec §11; SPICA `GFMotion.cs`, `GFSkeletonMot.cs`, `GFMotBoneTransform.cs`,
 * `GFMaterialMot.cs`, `GFMotUVTransform.cs`, `GFVisibilityMot.cs`): a section table (SubHeader,
 * skeletal, material UV, visibility; other types skipped), curves per field (motion-curves.ts).
 */
import { hex } from '../../binary/errors'
import { Reader } from '../../binary/reader'
import { SIG_MOTION } from './entry-kind'
import { readByteString } from './gf-strings'
import type { GfEntryContext } from './model'
import { readCurves, type GfCurve } from './motion-curves'

export const BONE_FIELDS = ['scaleX', 'scaleY', 'scaleZ', 'rotX', 'rotY', 'rotZ', 'transX', 'transY', 'transZ'] as const
export const UV_FIELDS = ['scaleU', 'scaleV', 'rotation', 'transU', 'transV'] as const

export interface GfBoneTrack {
  bone: string
  /** Bit 31 of the flags clear: rotation curves are axis × half-angle (spec §11.5). */
  axisAngle: boolean
  /** Nine curves in BONE_FIELDS order. */
  curves: GfCurve[]
}

export interface GfUvTrack {
  material: string
  unit: number
  /** Five curves in UV_FIELDS order. */
  curves: GfCurve[]
}

export interface GfVisibilityTrack {
  mesh: string
  /** One value per frame 0..FC. */
  visible: Uint8Array
}

export interface GfMotion {
  frameCount: number
  loop: boolean
  blended: boolean
  hash: number
  skeletal?: GfBoneTrack[]
  material?: GfUvTrack[]
  visibility?: GfVisibilityTrack[]
  /** Section types other than 0/1/3/6, kept unread. */
  unknownSections: number[]
}

const MAX_SECTIONS = 64
const MAX_ITEMS = 65536

function names(r: Reader, n: number, len: number, field: string): string[] {
  const block = r.sub(r.pos, r.count(len, 1, `${field} block`), field)
  const out: string[] = []
  for (let i = 0; i < n; i++) out.push(readByteString(block, `${field}[${i}]`))
  r.skip(len)
  return out
}

function itemCount(r: Reader, field: string): number {
  const at = r.pos
  const n = r.i32(field)
  if (n < 0 || n > MAX_ITEMS) throw r.error(`${field} ${n} is absurd (0–${MAX_ITEMS})`, at)
  return r.count(n, 1, field)
}

function readSkeletal(r: Reader, fc: number): GfBoneTrack[] {
  const n = itemCount(r, 'bone count')
  const bones = names(r, n, r.u32('bone names length'), 'bone names')
  return bones.map((bone, i) => {
    const flags = r.u32(`bone ${i} '${bone}' flags`)
    r.skip(4, `bone ${i} length`)
    return { bone, axisAngle: (flags >>> 31) === 0, curves: readCurves(r, flags, BONE_FIELDS, fc, `bone ${i} '${bone}'`) }
  })
}

function readMaterial(r: Reader, fc: number): GfUvTrack[] {
  const m = itemCount(r, 'material count')
  const len = r.u32('material names length')
  r.count(m, 4, 'unit counts')
  const units: number[] = []
  for (let i = 0; i < m; i++) units.push(r.u32(`material ${i} unit count`))
  const mats = names(r, m, len, 'material names')
  const out: GfUvTrack[] = []
  mats.forEach((material, i) => {
    if (units[i]! > 3) throw r.error(`material ${i} '${material}': ${units[i]} animated texture units (at most 3)`, r.pos)
    for (let u = 0; u < units[i]!; u++) {
      const unit = r.u32(`material '${material}' unit index`)
      const flags = r.u32(`material '${material}' unit ${unit} flags`)
      r.skip(4, `material '${material}' unit ${unit} length`)
      out.push({ material, unit, curves: readCurves(r, flags, UV_FIELDS, fc, `material '${material}' unit ${unit}`) })
    }
  })
  return out
}

function readVisibility(r: Reader, fc: number): GfVisibilityTrack[] {
  const m = itemCount(r, 'mesh count')
  const meshes = names(r, m, r.u32('mesh names length'), 'mesh names')
  const bytes = Math.ceil((fc + 1) / 8)
  r.count(m, bytes, 'visibility bits')
  return meshes.map((mesh, i) => {
    const bits = r.bytesN(bytes, `mesh ${i} '${mesh}' visibility bits`)
    const visible = new Uint8Array(fc + 1)
    for (let f = 0; f <= fc; f++) visible[f] = (bits[f >> 3]! >> (f & 7)) & 1
    return { mesh, visible }
  })
}

/** Parses a GFMotion entry; throws FormatError naming the file, entry, section and offset. */
export function parseGfMotion(bytes: Uint8Array, ctx: GfEntryContext): GfMotion {
  const structure = `entry ${ctx.entry} GFMotion`
  const r = new Reader(bytes, { file: ctx.file, base: ctx.base, structure })
  const magic = r.u32('magic')
  if (magic !== SIG_MOTION) throw r.error(`magic ${hex(magic)} is not the GFMotion signature ${hex(SIG_MOTION)}`, 0)
  const k = r.u32('section count')
  if (k > MAX_SECTIONS) throw r.error(`section count ${k} is absurd (at most ${MAX_SECTIONS})`, 4)
  r.count(k, 12, 'section descriptors')
  const desc = Array.from({ length: k }, (_, i) => ({ type: r.u32(`section ${i} type`), length: r.u32(`section ${i} length`), offset: r.u32(`section ${i} offset`), at: 8 + 12 * i }))
  const sub = desc.find((d) => d.type === 0)
  if (!sub) throw r.error('no SubHeader section (type 0)', 8)
  const sh = r.sub(sub.offset, sub.length, `${structure} SubHeader`, 'SubHeader')
  const frameCount = sh.u32('frame count')
  const loop = (sh.u16('loop flags') & 1) === 1
  const blended = (sh.u16('blend flags') & 1) === 1
  sh.skip(24, 'animation region')
  const hash = sh.u32('animation hash')
  if (frameCount > 0xffff) throw sh.error(`frame count ${frameCount} is absurd (more than 65535)`, 0)
  const m: GfMotion = { frameCount, loop, blended, hash, unknownSections: [] }
  for (const d of desc) {
    if (d.type === 0) continue
    const label = d.type === 1 ? 'skeletal' : d.type === 3 ? 'material' : d.type === 6 ? 'visibility' : ''
    if (!label) {
      m.unknownSections.push(d.type)
      continue
    }
    r.check(d.offset, d.length, `${label} section (descriptor at ${hex(ctx.base + d.at)})`)
    // Curves align relative to the entry start, so the section reader shares the entry's view.
    const s = r.at(d.offset, `${structure} ${label} section`)
    if (label === 'skeletal') m.skeletal = readSkeletal(s, frameCount)
    else if (label === 'material') m.material = readMaterial(s, frameCount)
    else m.visibility = readVisibility(s, frameCount)
    if (s.pos > d.offset + d.length) throw s.error(`the ${label} section is ${d.length} bytes but its data ends at ${hex(ctx.base + s.pos)}`, d.offset)
  }
  return m
}
