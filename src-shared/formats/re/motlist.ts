/**
 * `.motlist` files (spec §3): header, mot pointer table, embedded mots, MotIndex table.
 *
 * Header: 0x00 u32 version · 0x04 'mlst' · 0x08 u32 · 0x0C u32 · 0x10 u64 pointersOffset ·
 * 0x18 u64 motionIndicesOffset · 0x20 u64 nameOffset · then per version:
 *   v60: 0x28 i32 numMots (header 0x2C);
 *   v85–1004: 0x28 u64 baseMotListPath offset · 0x30 i32 numMots · (v ≥ 528) 0x34 u16 uknNum;
 *   v ≥ 1036: 0x28 u64 base path · 0x30 u64 motpack path pointer · 0x38 i32 numMots · 0x3C u16.
 * Pointer table: numMots × u64 absolute mot offsets (0 = none; several may share a mot).
 * MotIndex entries: 4 bytes (v60), 24 bytes (v85–486), 72 bytes (v > 486, RE4R): see motIndex*.
 */
import { Reader, Writer, FormatError, hex } from '../../binary'
import { readMot, type Mot } from './mot'
import type { MotBone } from './bone-header'
import { readBoneBlock, writeUtf16z } from './bone-header'
import { MOT_MAGIC } from './mot-header'
import { MOTLIST_TO_MOT, SUPPORTED_MOTLIST_VERSIONS, motIndexSize } from './versions'

export const MOTLIST_MAGIC = 0x74736c6d // 'mlst'
/** Refuse pointer tables beyond this. */
export const MAX_MOTS = 100_000

export interface MotlistHeader {
  version: number
  magic: number
  ukn08: number
  ukn0C: number
  pointersOffset: number
  motionIndicesOffset: number
  nameOffset: number
  baseMotListPathOffset: number
  motpackPathPointer: number
  numMots: number
  uknNum: number
}

export interface MotIndexEntry {
  overrideClipOffset: number
  /** The motion ID (`changeMotion(bank, id)`). */
  motNumber: number
  switch: number
  jointMaskId: number
  tagHash: number
  /** RE4R writes 1 (the seed's "important flag"). */
  type: number
  flags: number
  physicsFlags: number
  overrideClipCount: number
  /** The trailing u32[12] of 72-byte entries (or u32[3] of 24-byte v85–484 entries). */
  unknown: number[]
}

export interface MotlistEntry extends MotIndexEntry {
  index: number
  /** Absolute offset from the pointer table (0 = none). */
  pointer: number
  /** Index into `mots`, or −1 (no mot, or an unsupported link/motion tree). */
  mot: number
}

export interface Motlist {
  version: number
  /** The mot version this motlist pairs with (null when the table has none). */
  motVersion: number | null
  header: MotlistHeader
  name: string
  baseMotListPath: string | null
  /** Distinct embedded mots, in pointer order (de-duplicated by offset). */
  mots: Mot[]
  entries: MotlistEntry[]
  /** The shared skeleton: the bones of the bone-owning mot (§3.3), or null. */
  skeleton: MotBone[] | null
  warnings: string[]
}

function off64(r: Reader, o: number, field: string): number {
  const v = r.u64At(o, field)
  if (v > BigInt(r.length)) throw r.error(`${field}: offset ${v} is beyond the end of the file (size 0x${r.length.toString(16)})`, o)
  return Number(v)
}

export function checkMotlistVersion(r: Reader, version: number): void {
  if (!MOTLIST_TO_MOT.has(version)) {
    throw r.error(`motlist version ${version} is not supported; supported: ${SUPPORTED_MOTLIST_VERSIONS.join(', ')}`, 0x00, 'MotlistHeader.version')
  }
}

export function readMotlistHeader(r: Reader): MotlistHeader {
  const s = 'MotlistHeader'
  const magic = r.u32At(0x04, `${s}.magic`)
  if (magic !== MOTLIST_MAGIC) throw r.error(`not a motlist: magic ${hex(magic)} is not 'mlst' (0x74736C6D)`, 0x04, s)
  const version = r.u32At(0x00, `${s}.version`)
  checkMotlistVersion(r, version)
  const h: MotlistHeader = {
    version,
    magic,
    ukn08: r.u32At(0x08, `${s}.ukn08`),
    ukn0C: r.u32At(0x0c, `${s}.ukn0C`),
    pointersOffset: off64(r, 0x10, `${s}.pointersOffset`),
    motionIndicesOffset: off64(r, 0x18, `${s}.motionIndicesOffset`),
    nameOffset: off64(r, 0x20, `${s}.nameOffset`),
    baseMotListPathOffset: 0,
    motpackPathPointer: 0,
    numMots: 0,
    uknNum: 0,
  }
  if (version <= 60) {
    h.numMots = r.i32At(0x28, `${s}.numMots`)
  } else if (version < 1036) {
    h.baseMotListPathOffset = off64(r, 0x28, `${s}.baseMotListPath`)
    h.numMots = r.i32At(0x30, `${s}.numMots`)
    if (version >= 528) h.uknNum = r.u16At(0x34, `${s}.uknNum`)
  } else {
    h.baseMotListPathOffset = off64(r, 0x28, `${s}.baseMotListPath`)
    h.motpackPathPointer = off64(r, 0x30, `${s}.motpackPath`)
    h.numMots = r.i32At(0x38, `${s}.numMots`)
    h.uknNum = r.u16At(0x3c, `${s}.uknNum`)
  }
  if (h.numMots < 0 || h.numMots > MAX_MOTS) throw r.error(`${s}.numMots ${h.numMots} is out of range`, version <= 60 ? 0x28 : version < 1036 ? 0x30 : 0x38)
  return h
}

export function readMotIndex(r: Reader, off: number, version: number): MotIndexEntry {
  const s = 'MotIndex'
  const size = motIndexSize(version)
  if (size === 4) {
    return {
      overrideClipOffset: 0, motNumber: r.u16At(off, `${s}.motNumber`), switch: r.u16At(off + 2, `${s}.switch`),
      jointMaskId: 0, tagHash: 0, type: 0, flags: 0, physicsFlags: 0, overrideClipCount: 0, unknown: [],
    }
  }
  const e: MotIndexEntry = {
    overrideClipOffset: off64(r, off + 0x00, `${s}.overrideClipOffset`),
    motNumber: r.u16At(off + 0x08, `${s}.motNumber`),
    switch: r.u16At(off + 0x0a, `${s}.switch`),
    jointMaskId: 0, tagHash: 0, type: 0, flags: 0, physicsFlags: 0, overrideClipCount: 0, unknown: [],
  }
  if (version < 486) {
    for (let i = 0; i < 3; i++) e.unknown.push(r.u32At(off + 0x0c + i * 4, `${s}.unknown`))
    return e
  }
  e.jointMaskId = r.u32At(off + 0x0c, `${s}.jointMaskId`)
  e.tagHash = r.u32At(off + 0x10, `${s}.tagHash`)
  e.type = r.u8At(off + 0x14, `${s}.type`)
  e.flags = r.u8At(off + 0x15, `${s}.flags`)
  e.physicsFlags = r.u8At(off + 0x16, `${s}.physicsFlags`)
  e.overrideClipCount = r.u8At(off + 0x17, `${s}.overrideClipCount`)
  if (size === 72) for (let i = 0; i < 12; i++) e.unknown.push(r.u32At(off + 0x18 + i * 4, `${s}.unknown`))
  return e
}

export function writeMotIndex(w: Writer, e: Partial<MotIndexEntry> & { motNumber: number }, version: number): void {
  const size = motIndexSize(version)
  if (size === 4) {
    w.u16(e.motNumber).u16(e.switch ?? 0)
    return
  }
  w.u64(BigInt(e.overrideClipOffset ?? 0))
  w.u16(e.motNumber).u16(e.switch ?? 0)
  if (version < 486) {
    for (let i = 0; i < 3; i++) w.u32(e.unknown?.[i] ?? 0)
    return
  }
  w.u32(e.jointMaskId ?? 0).u32(e.tagHash ?? 0)
  w.u8(e.type ?? 1).u8(e.flags ?? 0).u8(e.physicsFlags ?? 0).u8(e.overrideClipCount ?? 0)
  if (size === 72) for (let i = 0; i < 12; i++) w.u32(e.unknown?.[i] ?? 0)
}

export function readMotlist(bytes: Uint8Array, file?: string): Motlist {
  const r = new Reader(bytes, { file, structure: 'motlist' })
  const header = readMotlistHeader(r)
  const version = header.version
  const warnings: string[] = []
  const name = header.nameOffset ? r.utf16zAt(header.nameOffset, 'MotlistHeader.name', 1024) : ''
  const baseMotListPath = header.baseMotListPathOffset ? r.utf16zAt(header.baseMotListPathOffset, 'MotlistHeader.baseMotListPath', 1024) : null
  const n = header.numMots
  r.count(n, 8, 'MotlistHeader.numMots (pointer table)', header.pointersOffset)
  const isize = motIndexSize(version)
  r.count(n, isize, 'MotlistHeader.numMots (MotIndex table)', header.motionIndicesOffset)

  const mots: Mot[] = []
  const byOffset = new Map<number, number>()
  const entries: MotlistEntry[] = []
  for (let i = 0; i < n; i++) {
    const pointer = off64(r, header.pointersOffset + i * 8, `Pointers[${i}]`)
    let mot = -1
    if (pointer !== 0) {
      const known = byOffset.get(pointer)
      if (known !== undefined) {
        mot = known
      } else {
        const first = r.u32At(pointer, `Pointers[${i}] target`)
        const magic = r.u32At(pointer + 4, `Pointers[${i}] target magic`)
        if (magic === MOT_MAGIC) {
          const sub = r.sub(pointer, bytes.byteLength - pointer, 'mot')
          mots.push(readMot(sub, { inMotlist: true }))
          mot = mots.length - 1
        } else if (first === 1) {
          warnings.push(`Pointers[${i}] at ${hex(pointer)} is a mot link (path), not an embedded mot; skipped`)
        } else {
          warnings.push(`Pointers[${i}] at ${hex(pointer)} is not a mot (magic ${hex(magic)}; a motion tree?); skipped`)
        }
        byOffset.set(pointer, mot)
      }
    }
    const e = readMotIndex(r, header.motionIndicesOffset + i * isize, version)
    entries.push({ ...e, index: i, pointer, mot })
  }
  const owners = mots.filter((m) => m.bones && m.bones.length)
  if (owners.length > 1) warnings.push(`${owners.length} mots carry a bone list; the first one is used as the skeleton`)
  let skeleton = owners[0]?.bones ?? mots.find((m) => m.bones)?.bones ?? null
  if (!skeleton) {
    // No mot owns a bone list by the §3.3 rule. A standalone mot wrapped as it is (the seed's
    // "fake motlist": motSize ≠ 0, bone block after it) still has one at boneHeaderOffsetStart;
    // strict readers reject that, we take it with a warning when it reads as a bone block.
    for (const m of mots) {
      const bho = m.header.boneHeaderOffsetStart
      if (!bho || bho >= bytes.byteLength - m.offset) continue
      try {
        const bones = readBoneBlock(r.sub(m.offset, bytes.byteLength - m.offset, 'mot'), bho).bones
        if (!bones.length) continue
        m.bones = bones
        skeleton = bones
        warnings.push(`mot "${m.name}" at ${hex(m.offset)} has motSize ${hex(m.header.motSize)} ≠ 0 but a bone block at +${hex(bho)}; used as the skeleton (a wrapped standalone mot, spec §3.3)`)
        break
      } catch (e) {
        if (!(e instanceof FormatError)) throw e
      }
    }
  }
  const motVersion = MOTLIST_TO_MOT.get(version) ?? mots[0]?.version ?? null
  for (const m of mots) {
    const want = MOTLIST_TO_MOT.get(version)
    if (want && m.version !== want) warnings.push(`mot "${m.name}" at ${hex(m.offset)} has version ${m.version}; motlist ${version} pairs with mot ${want}`)
  }
  return { version, motVersion, header, name, baseMotListPath, mots, entries, skeleton, warnings }
}

/** One mot pointer per entry (`mot` indexes `mots`, −1 = a null pointer). */
export interface MotlistDraft {
  version: number
  name: string
  /** Complete mot images (from writeMot). */
  mots: Uint8Array[]
  entries: (Partial<MotIndexEntry> & { motNumber: number; mot: number })[]
}

/**
 * Writes a motlist (§3.5 order): header → name → align16 → pointer table → align16 → mots
 * (each 16-aligned) → MotIndex table. No trailing byte (the real RE4R file ends right after it).
 */
export function writeMotlist(d: MotlistDraft): Uint8Array {
  const v = d.version
  if (!MOTLIST_TO_MOT.has(v)) throw new FormatError(`motlist version ${v} is not supported; supported: ${SUPPORTED_MOTLIST_VERSIONS.join(', ')}`)
  const w = new Writer({ capacity: 4096 + d.mots.reduce((s, m) => s + m.byteLength, 0) })
  w.u32(v)
  w.u32(MOTLIST_MAGIC)
  w.u32(0).u32(0)
  const pointersOffset = w.reserveU64('MotlistHeader.pointersOffset')
  const motionIndicesOffset = w.reserveU64('MotlistHeader.motionIndicesOffset')
  const nameOffset = w.reserveU64('MotlistHeader.nameOffset')
  if (v > 60) w.u64(0n) // baseMotListPath: none
  // v ≥ 1036: motpack path pointer at 0x30. Written 0 = none, like the base path (spec §3.1 gives
  // no "none" value for it; 0 is our choice [I], and our reader does not follow it).
  if (v >= 1036) w.u64(0n)
  w.i32(d.entries.length)
  if (v >= 528) w.u16(0)
  w.patchHere(nameOffset)
  writeUtf16z(w, d.name)
  w.align(16)
  w.patchHere(pointersOffset)
  const ptrs = d.entries.map((_, i) => w.reserveU64(`Pointers[${i}]`))
  w.align(16)
  const motAt: number[] = []
  for (const m of d.mots) {
    w.align(16)
    motAt.push(w.pos)
    w.bytes(m)
  }
  d.entries.forEach((e, i) => {
    if (e.mot >= 0 && e.mot >= motAt.length) throw new Error(`entry ${i} names mot ${e.mot}, but only ${motAt.length} are written`)
    w.patchU64(ptrs[i]!, BigInt(e.mot >= 0 ? motAt[e.mot]! : 0))
  })
  w.align(16)
  w.patchHere(motionIndicesOffset)
  for (const e of d.entries) writeMotIndex(w, e, v)
  return w.finish()
}
