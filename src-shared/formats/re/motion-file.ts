/**
 * Opening a `.motlist.*` or `.mot.*` by its magic (at +4: 'mlst' or 'mot '), and the summary
 * `modbench re info` prints (CLI.md "RE Engine motions").
 */
import { Reader, hex } from '../../binary'
import { readMotlist, MOTLIST_MAGIC, type Motlist } from './motlist'
import { readStandaloneMot, type Mot } from './mot'
import { MOT_MAGIC } from './mot-header'
import type { MotBone } from './bone-header'
import { clipBone } from './sample'
import type { Channel } from './track'

export type MotionFile = { kind: 'motlist'; motlist: Motlist } | { kind: 'mot'; mot: Mot }

/** 'motlist' | 'mot' by magic, or undefined. */
export function sniffMotionFile(head: Uint8Array): 'motlist' | 'mot' | undefined {
  if (head.byteLength < 8) return undefined
  const magic = (head[4]! | (head[5]! << 8) | (head[6]! << 16) | (head[7]! << 24)) >>> 0
  return magic === MOTLIST_MAGIC ? 'motlist' : magic === MOT_MAGIC ? 'mot' : undefined
}

export function readMotionFile(bytes: Uint8Array, file?: string): MotionFile {
  const kind = sniffMotionFile(bytes)
  if (kind === 'motlist') return { kind, motlist: readMotlist(bytes, file) }
  if (kind === 'mot') return { kind, mot: readStandaloneMot(bytes, file) }
  const r = new Reader(bytes, { file })
  if (bytes.byteLength < 8) throw r.error(`too short for an RE Engine motion file (${bytes.byteLength} bytes; the magic is at 0x4)`, 0, 'header')
  throw r.error(`not an RE Engine motion file: magic ${hex(r.u32At(4))} at 0x4 is neither 'mlst' nor 'mot '`, 4, 'header')
}

/** One motion of a file: a MotIndex entry of a motlist, or the mot itself. */
export interface Motion {
  index: number
  /**
   * Motion number (ID) of a motlist entry; null for a standalone mot (CLI.md defines `id` only
   * for MotionIDs entries and a .mot has none; our choice: null rather than an invented 0).
   */
  id: number | null
  mot: Mot | null
  skeleton: MotBone[] | null
}

export function motionsOf(f: MotionFile): Motion[] {
  if (f.kind === 'mot') return [{ index: 0, id: null, mot: f.mot, skeleton: f.mot.bones }]
  const ml = f.motlist
  return ml.entries.map((e) => {
    const mot = e.mot >= 0 ? ml.mots[e.mot]! : null
    return { index: e.index, id: e.motNumber, mot, skeleton: mot?.bones ?? ml.skeleton }
  })
}

/** The skeleton of a file: the motlist's shared bone list or the mot's own. */
export function skeletonOf(f: MotionFile): MotBone[] | null {
  return f.kind === 'mot' ? f.mot.bones : f.motlist.skeleton
}

export function fileVersion(f: MotionFile): number {
  return f.kind === 'mot' ? f.mot.version : f.motlist.version
}

export function fileName(f: MotionFile): string {
  return f.kind === 'mot' ? f.mot.name : f.motlist.name
}

export interface InfoTrack {
  bone: string | null
  hash: number
  channels: Channel[]
  keys: number
}

export interface InfoMotion {
  index: number
  id: number | null
  name: string | null
  frameCount: number
  frameRate: number
  bones: { name: string; hash: number; parent: string | null }[]
  tracks: InfoTrack[]
}

export interface InfoJson {
  kind: 'motlist' | 'mot'
  version: number
  name: string
  motVersion?: number | null
  motions: InfoMotion[]
  warnings?: string[]
}

/** The `re info --json` document. */
export function describeMotionFile(f: MotionFile): InfoJson {
  const motions = motionsOf(f).map((m): InfoMotion => {
    const sk = m.skeleton ?? []
    const bones = sk.map((b) => ({ name: b.name, hash: b.hash, parent: b.parent >= 0 ? sk[b.parent]!.name : null }))
    const tracks: InfoTrack[] = []
    for (const c of m.mot?.clips ?? []) {
      const b = clipBone(c, m.skeleton)
      for (const ch of ['translation', 'rotation', 'scale'] as const) {
        const t = c[ch]
        if (t) tracks.push({ bone: b?.name ?? null, hash: c.boneHash, channels: [ch], keys: t.keyCount })
      }
    }
    return {
      index: m.index,
      id: m.id,
      name: m.mot ? m.mot.name : null,
      frameCount: m.mot?.header.frameCount ?? 0,
      frameRate: m.mot?.header.frameRate ?? 0,
      bones,
      tracks,
    }
  })
  const out: InfoJson = { kind: f.kind, version: fileVersion(f), name: fileName(f), motions }
  if (f.kind === 'motlist') {
    out.motVersion = f.motlist.motVersion
    if (f.motlist.warnings.length) out.warnings = f.motlist.warnings
  }
  return out
}
