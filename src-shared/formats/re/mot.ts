/**
 * A `.mot` image (spec §4), standalone or embedded in a motlist. All offsets inside are
 * relative to the mot's start; the Reader given to readMot is based there (errors still report
 * absolute file offsets).
 *
 * Write order (REE-Lib's, and the spec §10.3 vector): header → align16 → bone clip headers →
 * align16 → track headers → per track (indices, align4, keys, align4, unpack) → mot name →
 * [motSize] → align16 → bone block → bone names → align16.
 */
import { Reader, Writer, FormatError, hex } from '../../binary'
import { readMotHeader, writeMotHeader, MOT_MAGIC, type MotHeader } from './mot-header'
import { readBoneBlock, writeBoneBlock, writeUtf16z, type MotBone, type BoneDraft } from './bone-header'
import { readBoneClipHeader, writeBoneClipHeader, TRACK_R, TRACK_S, TRACK_T, type BoneClipHeader } from './bone-clip'
import { readTrack, writeTrackHeader, writeTrackPayload, trackFlagsFor, trackKeyCount, type MotTrack, type TrackDraft, type TrackHeaderSlots, type Channel } from './track'
import { motLayout, SUPPORTED_MOT_VERSIONS, type MotLayout } from './versions'

export interface BoneClip extends BoneClipHeader {
  translation?: MotTrack
  rotation?: MotTrack
  scale?: MotTrack
}

export interface Mot {
  /** Absolute offset of the mot in its file (0 for a standalone .mot). */
  offset: number
  version: number
  layout: MotLayout
  header: MotHeader
  name: string
  /** True when this mot carries its own bone header block (§3.3). */
  ownsBones: boolean
  /** Its own bones, or null (then it uses the motlist's shared list). */
  bones: MotBone[] | null
  clips: BoneClip[]
}

/** Refuse clip counts beyond this (one per bone; u16 in the header anyway). */
const MAX_CLIPS = 65535

export function checkMotMagic(r: Reader): void {
  const magic = r.u32At(0x04, 'MotHeader.magic')
  if (magic !== MOT_MAGIC) throw r.error(`not a mot: magic ${hex(magic)} is not 'mot ' (0x20746F6D)`, 0x04, 'MotHeader')
}

export function checkMotVersion(r: Reader, version: number): void {
  if (!SUPPORTED_MOT_VERSIONS.includes(version)) {
    throw r.error(`mot version ${version} is not supported; supported: ${SUPPORTED_MOT_VERSIONS.join(', ')}`, 0x00, 'MotHeader.version')
  }
}

/**
 * Reads a mot from a reader based at the mot's start. `inMotlist`: apply the motlist bone-list
 * ownership rule (own list when motSize = 0, or 0 < boneHeaderOffsetStart < motSize — REE-Lib's
 * lenient reader rule, which also accepts REResource's bones-before-name layout).
 */
export function readMot(r: Reader, opts: { inMotlist: boolean }): Mot {
  checkMotMagic(r)
  const version = r.u32At(0x00, 'MotHeader.version')
  checkMotVersion(r, version)
  const layout = motLayout(version)
  const header = readMotHeader(r, layout)
  const name = header.nameOffset ? r.utf16zAt(header.nameOffset, 'MotHeader.name', 1024) : ''
  const bho = header.boneHeaderOffsetStart
  const ownsBones = bho !== 0 && (!opts.inMotlist || header.motSize === 0 || bho < header.motSize)
  const bones = ownsBones ? readBoneBlock(r, bho).bones : null

  const clips: BoneClip[] = []
  if (header.boneClipCount > 0) {
    if (header.boneClipCount > MAX_CLIPS) throw r.error(`boneClipCount ${header.boneClipCount} is absurd`, layout.nameOffsetField + 0x1a)
    r.count(header.boneClipCount, layout.clipHeaderSize, 'MotHeader.boneClipCount', header.boneClipHeaderOffset)
    for (let i = 0; i < header.boneClipCount; i++) {
      const h = readBoneClipHeader(r, header.boneClipHeaderOffset + i * layout.clipHeaderSize, layout)
      const clip: BoneClip = { ...h }
      let t = h.trackHeaderOffset
      const order: [number, Channel][] = [[TRACK_T, 'translation'], [TRACK_R, 'rotation'], [TRACK_S, 'scale']]
      for (const [bit, channel] of order) {
        if (!(h.trackFlags & bit)) continue
        try {
          clip[channel] = readTrack(r, t, layout, channel)
        } catch (e) {
          if (e instanceof FormatError && !e.detail.startsWith(`BoneClip[`)) {
            throw new FormatError(`BoneClip[${i}] (bone ${h.boneIndex}, hash ${hex(h.boneHash)}) ${channel}: ${e.detail}`, { file: e.file, structure: e.structure, offset: e.offset })
          }
          throw e
        }
        t += layout.trackHeaderSize
      }
      clips.push(clip)
    }
  }
  return { offset: r.base, version, layout, header, name, ownsBones, bones, clips }
}

// ---- writing ----------------------------------------------------------------------------

export interface ClipDraft {
  boneIndex: number
  boneHash: number
  weightByte?: number
  /** mot 65 clip weight (default 1). */
  weight?: number
  translation?: TrackDraft
  rotation?: TrackDraft
  scale?: TrackDraft
}

export interface MotDraft {
  version: number
  name: string
  frameCount: number
  /** −1 default, 0 = loop (§4.1). */
  blending: number
  startFrame?: number
  endFrame?: number
  frameRate: number
  /** The skeleton this mot carries, or null for a mot that uses its motlist's shared list. */
  bones: BoneDraft[] | null
  clips: ClipDraft[]
  /**
   * motSize rule: 'owner' writes 0 (the bone-owning mot of a motlist, §3.3), 'end' writes the
   * end of the mot's own data (standalone mots and non-owning mots of a motlist).
   */
  motSize: 'owner' | 'end'
  uknAttributes2?: number
}

/** Writes one mot image; all offsets mot-relative (embed it at a 16-aligned position). */
export function writeMot(d: MotDraft): Uint8Array {
  const layout = motLayout(d.version)
  const w = new Writer({ capacity: 4096 })
  const clips = [...d.clips].sort((a, b) => a.boneIndex - b.boneIndex)
  const slots = writeMotHeader(
    w,
    {
      version: d.version,
      frameCount: d.frameCount,
      blending: d.blending,
      startFrame: d.startFrame ?? 0,
      endFrame: d.endFrame ?? d.frameCount,
      boneCount: d.bones?.length ?? 0,
      boneClipCount: clips.length,
      frameRate: d.frameRate,
      uknAttributes2: d.uknAttributes2,
    },
    layout,
  )
  // Bone clip headers.
  if (clips.length) w.patchHere(slots.boneClipHeaderOffset)
  else w.patchU64(slots.boneClipHeaderOffset, 0n)
  const order: Channel[] = ['translation', 'rotation', 'scale']
  const trackRes = clips.map((c) => {
    const flags = (c.translation ? TRACK_T : 0) | (c.rotation ? TRACK_R : 0) | (c.scale ? TRACK_S : 0)
    return writeBoneClipHeader(w, { boneIndex: c.boneIndex, trackFlags: flags, weightByte: c.weightByte, boneHash: c.boneHash, weight: c.weight }, layout)
  })
  w.align(16)
  // Track headers, in clip order, T R S.
  const pending: { t: TrackDraft; s: TrackHeaderSlots }[] = []
  clips.forEach((c, i) => {
    w.patchHere(trackRes[i]!)
    for (const ch of order) {
      const t = c[ch]
      if (!t) continue
      if (t.channel !== ch) throw new Error(`clip ${i}: ${ch} slot holds a ${t.channel} track`)
      const s = writeTrackHeader(w, { flags: trackFlagsFor(t), keyCount: trackKeyCount(t), frameRate: t.frameRate ?? d.frameRate, maxFrame: t.maxFrame ?? d.frameCount }, layout)
      pending.push({ t, s })
    }
  })
  for (const { t, s } of pending) writeTrackPayload(w, t, s)
  // Name, motSize, bone block.
  w.patchHere(slots.nameOffset)
  writeUtf16z(w, d.name)
  const end = w.pos
  if (d.motSize === 'owner') w.patchU32(slots.motSize, 0)
  else w.patchU32(slots.motSize, end)
  w.align(16)
  if (d.bones) {
    w.patchHere(slots.boneHeaderOffsetStart)
    writeBoneBlock(w, d.bones)
    w.align(16)
  } else {
    // "boneHeaderOffsetStart ≥ motSize" marks a mot that uses the shared bone list (§3.3).
    w.patchU64(slots.boneHeaderOffsetStart, BigInt(d.motSize === 'end' ? end : 0))
  }
  return w.finish()
}

/** A reader over a standalone .mot file. */
export function readStandaloneMot(bytes: Uint8Array, file?: string): Mot {
  return readMot(new Reader(bytes, { file, structure: 'mot' }), { inMotlist: false })
}
