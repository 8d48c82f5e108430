/**
 * RE Engine motion file versions (spec §2, §4.8) and the layout facts that depend on them.
 * The motlist version fixes the mot version; where the spec's table has no mot version ("?"),
 * the mot's own header version is used.
 */

/** motlist version → mot version (null: not known, read from the embedded mot). */
export const MOTLIST_TO_MOT: ReadonlyMap<number, number | null> = new Map<number, number | null>([
  [60, 43], // RE7
  [85, 65], // RE2 (non-RT), DMC5
  [99, 78], // RE3 (non-RT)
  [484, 456], // MH Rise demo
  [486, 458], // RE8
  [500, null], // RE:Verse (Noesis table only)
  [524, 492], // RE2/RE3/RE7 ray-tracing updates
  [528, 495], // MH Rise Sunbreak
  [643, null], // Exoprimal
  [653, 603], // Street Fighter 6
  [663, 613], // Resident Evil 4 (2023)
  [750, null], // Apollo Justice Trilogy
  [751, 698], // Dragon's Dogma 2
  [854, null], // Dead Rising Deluxe Remaster
  [992, 932], // MH Wilds
  [1004, 943], // MH Stories 3
  [1036, 973], // Onimusha WS
  [1047, 983], // RE9
  [1057, 993], // Pragmata
])

export const SUPPORTED_MOTLIST_VERSIONS: readonly number[] = [...MOTLIST_TO_MOT.keys()]
export const SUPPORTED_MOT_VERSIONS: readonly number[] = [43, 65, 78, 456, 458, 492, 495, 603, 613, 698, 932, 943, 973, 983, 993]

/** RE4R: the primary target of the pose writer. */
export const RE4R_MOTLIST_VERSION = 663
export const RE4R_MOT_VERSION = 613

/** The motlist version that pairs with a mot version (for wrapping a standalone mot). */
export function motlistVersionForMot(motVersion: number): number | undefined {
  for (const [ml, m] of MOTLIST_TO_MOT) if (m === motVersion) return ml
  return undefined
}

/** Per-version layout of a mot (spec §4.1, §4.3, §4.4, §4.8). */
export interface MotLayout {
  version: number
  /** Header size in bytes (0x74, 0x7C or 0x7E; data starts 16-aligned after it). */
  headerSize: number
  /** BoneClipHeader size: 16 (mot 43), 24 (mot 65), 12 (mot ≥ 78). */
  clipHeaderSize: 12 | 16 | 24
  /** Track header size: 40 (mot < 78), 20 (mot ≥ 78). */
  trackHeaderSize: 20 | 40
  /** Which compression dictionary the track flags use (§5.1–§5.3). */
  codecTable: 'dmc5' | 're3'
  /** Rotation 0x60000 is a big-endian 48-bit integer from MH Wilds (mot 932) on. */
  rotation16BitBigEndian: boolean
  /** Offset of the name pointer and the fields after it (they move up by 8 below mot 456). */
  nameOffsetField: number
}

export function motLayout(version: number): MotLayout {
  const old = version < 456
  return {
    version,
    headerSize: old ? 0x74 : version < 458 ? 0x7c : 0x7e,
    clipHeaderSize: version <= 43 ? 16 : version <= 65 ? 24 : 12,
    trackHeaderSize: version < 78 ? 40 : 20,
    codecTable: version <= 65 ? 'dmc5' : 're3',
    rotation16BitBigEndian: version >= 932,
    nameOffsetField: old ? 0x50 : 0x58,
  }
}

/** MotIndex (motion-ID) entry size per motlist version (spec §3.4). */
export function motIndexSize(motlistVersion: number): 4 | 24 | 72 {
  if (motlistVersion <= 60) return 4
  if (motlistVersion <= 486) return 24
  return 72
}

/** Version number in a `name.motlist.663` / `name.mot.613` file name, if any. */
export function versionFromName(name: string): { kind: 'motlist' | 'mot'; version: number } | undefined {
  const m = /\.(motlist|mot)\.(\d+)$/i.exec(name)
  if (!m) return undefined
  return { kind: m[1]!.toLowerCase() as 'motlist' | 'mot', version: Number(m[2]) }
}
