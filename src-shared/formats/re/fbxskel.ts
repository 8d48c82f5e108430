/**
 * `.fbxskel.*`: an RE Engine character's reference skeleton (CLI.md `--skeleton SKEL`). The spec
 * (re-motlist.md, "Sources of the bind pose") names its fields: per bone name, hash, parent and
 * symmetry index, rotation, position, scale. The byte layout below is from REE-Lib's
 * `OtherFiles/FbxSkelFile.cs` (kagenocookie/RE-Engine-Lib), the reference the spec cites (R4):
 *
 * Header (0x30 bytes): u32 version · u32 magic 0x6E6C6B73 (the bytes "skln") · 8 × 0 ·
 * u64 boneOffset · u64 lookupOffset · u32 boneCount · 12 × 0.
 * Bone (64 bytes, at boneOffset + 64·i): u64 nameOffset (UTF-16LE, NUL-terminated) · u32 nameHash
 * (§6) · i16 parent · i16 symmetry · then
 * - layout 5 and later: f32 rotation x y z w · f32 position x y z · f32 scale x y z ·
 *   u8 segmentScaling · 7 × 0;
 * - before 5: f32 position x y z · 4 × 0 · f32 rotation x y z w · f32 scale x y z · 4 × 0.
 * Lookup at lookupOffset: boneCount × (u32 hash, u32 bone index), sorted by hash (not needed here).
 *
 * Which layout: REE-Lib switches on the file version, the number after `.fbxskel.`; the header's
 * own u32 stands in when the name has none. A file whose rotations are not unit quaternions in that
 * layout but are in the other is read in the other (docs/DECISIONS.md "RE .fbxskel").
 */
import { FormatError, Reader, hex } from '../../binary'
import type { MotBone } from './bone-header'
import type { Quat, Vec3 } from './euler'

/** u32 at 0x4 of every `.fbxskel` file (REE-Lib `FbxSkelFile.Magic`). */
export const FBXSKEL_MAGIC = 0x6e6c6b73
export const FBXSKEL_HEADER_SIZE = 0x30
export const FBXSKEL_BONE_SIZE = 64
/** Far beyond any real skeleton (a few hundred bones); stops absurd counts early. */
export const MAX_FBXSKEL_BONES = 8192

export interface FbxSkelBone extends MotBone {
  scale: Vec3
  /** Symmetry partner (−1: none). */
  symmetry: number
  segmentScaling: boolean
}

export interface FbxSkel {
  /** The header's u32 version. */
  version: number
  /** The number after `.fbxskel.` in the file name, if any. */
  suffix?: number
  /** Which bone layout was read: 5 = rotation first (version ≥ 5), 4 = position first. */
  layout: 4 | 5
  bones: FbxSkelBone[]
}

export function isFbxSkel(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 8 && new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true) === FBXSKEL_MAGIC
}

function fileSuffix(file: string | undefined): number | undefined {
  const m = file ? /\.fbxskel\.(\d+)$/i.exec(file) : null
  return m ? Number(m[1]) : undefined
}

/** Offsets of rotation, position and scale within a bone record, per layout. */
const FIELDS = { 5: { rotation: 16, position: 32, scale: 44 }, 4: { position: 16, rotation: 32, scale: 48 } } as const

function vec(r: Reader, o: number, n: number, field: string): number[] {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push(r.f32At(o + i * 4, field))
  return out
}

/** True when every bone's rotation reads as a unit quaternion in `layout`. */
function unitRotations(r: Reader, at: number, count: number, layout: 4 | 5): boolean {
  for (let i = 0; i < count; i++) {
    const q = vec(r, at + i * FBXSKEL_BONE_SIZE + FIELDS[layout].rotation, 4, 'rotation')
    if (!(Math.abs(Math.hypot(...q) - 1) < 1e-3)) return false
  }
  return true
}

/** `f()`, its FormatErrors naming `structure` when the failed read named only its field. */
function within<T>(structure: string, f: () => T): T {
  try {
    return f()
  } catch (e) {
    if (e instanceof FormatError && !e.structure) throw new FormatError(e.detail, { file: e.file, structure, offset: e.offset })
    throw e
  }
}

function readBone(r: Reader, at: number, i: number, count: number, layout: 4 | 5): FbxSkelBone {
  return within('FbxSkel bone', () => boneAt(r, at, i, count, layout))
}

function boneAt(r: Reader, at: number, i: number, count: number, layout: 4 | 5): FbxSkelBone {
  const s = `Bone[${i}]`
  const o = at + i * FBXSKEL_BONE_SIZE
  const nameOffset = r.u64At(o, `${s}.nameOffset`)
  if (nameOffset >= BigInt(r.bytes.byteLength)) throw r.error(`${s}.nameOffset ${hex(Number(nameOffset & 0xffffffffn))} is past the end of the file`, o, 'FbxSkel bone')
  const name = r.utf16zAt(Number(nameOffset), `${s}.name`, 1024)
  const parent = r.i16At(o + 12, `${s}.parent`)
  const symmetry = r.i16At(o + 14, `${s}.symmetry`)
  if (parent < -1 || parent >= count || parent === i) throw r.error(`${s}.parent ${parent} is not a bone of the ${count} (nor −1)`, o + 12, 'FbxSkel bone')
  const f = FIELDS[layout]
  return {
    index: i,
    storedIndex: i,
    name,
    hash: r.u32At(o + 8, `${s}.nameHash`),
    parent,
    symmetry: symmetry >= 0 && symmetry < count && symmetry !== i ? symmetry : -1,
    rotation: vec(r, o + f.rotation, 4, `${s}.rotation`) as Quat,
    translation: vec(r, o + f.position, 3, `${s}.position`) as Vec3,
    scale: vec(r, o + f.scale, 3, `${s}.scale`) as Vec3,
    segmentScaling: layout === 5 && r.u8At(o + 56, `${s}.segmentScaling`) !== 0,
  }
}

/** Reads a `.fbxskel.*` file (see the file head); errors name the file, the structure and the offset. */
export function readFbxSkel(bytes: Uint8Array, file?: string): FbxSkel {
  const r = new Reader(bytes, { file })
  if (bytes.byteLength < FBXSKEL_HEADER_SIZE) throw new FormatError(`the file is ${bytes.byteLength} bytes, shorter than the ${hex(FBXSKEL_HEADER_SIZE)}-byte header`, { file, structure: 'FbxSkel header', offset: 0 })
  const magic = r.u32At(4, 'magic')
  if (magic !== FBXSKEL_MAGIC) throw new FormatError(`not an .fbxskel file: magic ${hex(magic)} at 0x4, expected ${hex(FBXSKEL_MAGIC)} ("skln")`, { file, structure: 'FbxSkel header', offset: 4 })
  const version = r.u32At(0, 'version')
  const boneOffset = r.u64At(0x10, 'boneOffset')
  const count = r.u32At(0x20, 'boneCount')
  if (count === 0) throw new FormatError('the file holds no bones (boneCount is 0)', { file, structure: 'FbxSkel header', offset: 0x20 })
  if (count > MAX_FBXSKEL_BONES) throw new FormatError(`boneCount ${count} is beyond any skeleton (at most ${MAX_FBXSKEL_BONES})`, { file, structure: 'FbxSkel header', offset: 0x20 })
  if (boneOffset < BigInt(FBXSKEL_HEADER_SIZE) || boneOffset + BigInt(count * FBXSKEL_BONE_SIZE) > BigInt(bytes.byteLength)) {
    throw new FormatError(`${count} bones of ${FBXSKEL_BONE_SIZE} bytes at boneOffset ${hex(Number(boneOffset & 0xffffffffn))} do not fit in the file's ${bytes.byteLength} bytes`, { file, structure: 'FbxSkel header', offset: 0x10 })
  }
  const at = Number(boneOffset)
  const suffix = fileSuffix(file)
  const preferred: 4 | 5 = (suffix ?? version) >= 5 ? 5 : 4
  const other: 4 | 5 = preferred === 5 ? 4 : 5
  const layout = within('FbxSkel bone', () => (!unitRotations(r, at, count, preferred) && unitRotations(r, at, count, other) ? other : preferred))
  const bones: FbxSkelBone[] = []
  for (let i = 0; i < count; i++) bones.push(readBone(r, at, i, count, layout))
  return { version, ...(suffix !== undefined ? { suffix } : {}), layout, bones }
}
