/**
 * RE Engine `.mesh` file header and string table (spec re-motlist §15.1–§15.3).
 *
 * The layout is chosen from the file suffix (`.mesh.221108797` → RE4R, §15.1; M1 does so), else
 * from the internal version at 0x04. Three layouts:
 * - A (DMC5, RE2/RE3 non-RT): A/B file header, LOD header with an 8-byte pad, 16-byte submeshes,
 *   the 0x30-byte buffer header;
 * - B (RE2/RE3/RE7 RT, MH Rise): no pad, 24-byte submeshes, the 0x40-byte buffer header;
 *   RE8 / RE:Verse are B with the A buffer header (§15.7);
 * - C (RE4R): its own header offsets, 24-byte submeshes, the 0x50-byte buffer header.
 * SF6 and DD2-or-later meshes are refused with a message naming the version.
 * Every offset is absolute; each u64 offset is checked against the file length here.
 */
import { Reader, hex } from '../../binary'

export type MeshBufferLayout = 'A' | 'B' | 'C'

export interface MeshLayout {
  /** Spec §15.1 letter (RE8 counts as B). */
  name: 'A' | 'B' | 'C'
  /** Game named by the suffix / version. */
  game: string
  lodPad: boolean
  submeshSize: 16 | 24
  buffer: MeshBufferLayout
}

const A: Omit<MeshLayout, 'game'> = { name: 'A', lodPad: true, submeshSize: 16, buffer: 'A' }
const B: Omit<MeshLayout, 'game'> = { name: 'B', lodPad: false, submeshSize: 24, buffer: 'B' }
const RE8: Omit<MeshLayout, 'game'> = { name: 'B', lodPad: false, submeshSize: 24, buffer: 'A' }
const C: Omit<MeshLayout, 'game'> = { name: 'C', lodPad: false, submeshSize: 24, buffer: 'C' }

/** File suffix → layout (§15.1). */
export const MESH_SUFFIX_LAYOUTS: ReadonlyMap<number, MeshLayout> = new Map<number, MeshLayout>([
  [1808282334, { ...A, game: 'DMC5' }],
  [1808312334, { ...A, game: 'RE2' }],
  [1902042334, { ...A, game: 'RE3' }],
  [2101050001, { ...RE8, game: 'RE8' }],
  [2102020001, { ...RE8, game: 'RE:Verse' }],
  [2109108288, { ...B, game: 'RE2/RE3 RT' }],
  [220128762, { ...B, game: 'RE7 RT' }],
  [2109148288, { ...B, game: 'MH Rise' }],
  [221108797, { ...C, game: 'RE4R' }],
])

/** Internal version (u32 at 0x04) → layout, when the name has no known suffix (§15.1, M1/M2/M4). */
export const MESH_INTERNAL_LAYOUTS: ReadonlyMap<number, MeshLayout> = new Map<number, MeshLayout>([
  [386270720, { ...A, game: 'DMC5/RE2/RE3' }],
  [21011200, { ...A, game: 'RE3' }],
  [2020091500, { ...RE8, game: 'RE8' }],
  [21041600, { ...B, game: 'RE RT / MH Rise' }],
  [21061800, { ...B, game: 'MH Rise' }],
  [21091000, { ...B, game: 'MH Rise' }],
  [220822879, { ...C, game: 'RE4R' }],
])

/** Versions §15 names and leaves out of scope. */
const REFUSED: ReadonlyMap<number, string> = new Map([
  [230110883, 'SF6 (packed six-slot weights)'],
  [220705151, 'SF6 (packed six-slot weights)'],
  [231011879, 'DD2'],
])

export const MESH_MAGIC = 0x4853454d // "MESH"

/** `.mesh.<n>` suffix of a file name. */
export function meshSuffix(name: string | undefined): number | undefined {
  const m = name ? /\.mesh\.(\d+)$/i.exec(name) : null
  return m ? Number(m[1]) : undefined
}

/** True for a `.mesh.*` file name. */
export function isMeshName(name: string): boolean {
  return /\.mesh\.\d+$/i.test(name)
}

/** The layout of a mesh; throws naming the version when §15 does not cover it. */
export function meshLayout(r: Reader, name: string | undefined): { layout: MeshLayout; version: number; suffix: number | undefined } {
  const magic = r.u32At(0, 'MeshHeader.magic')
  if (magic !== MESH_MAGIC) throw r.error(`not an RE Engine mesh: magic ${hex(magic)} is not "MESH" (0x4853454D)`, 0, 'MeshHeader.magic')
  const version = r.u32At(4, 'MeshHeader.version')
  const suffix = meshSuffix(name)
  const bySuffix = suffix === undefined ? undefined : MESH_SUFFIX_LAYOUTS.get(suffix)
  if (bySuffix) return { layout: bySuffix, version, suffix }
  const refused = REFUSED.get(suffix ?? -1) ?? REFUSED.get(version) ?? (suffix !== undefined && suffix >= 231011879 && suffix < 1000000000 ? 'DD2 or later' : undefined)
  if (refused) throw r.error(`mesh ${suffix !== undefined ? `.mesh.${suffix} ` : ''}(internal version ${version}) is ${refused}, which this reader does not cover`, 4, 'MeshHeader.version')
  const byVersion = MESH_INTERNAL_LAYOUTS.get(version)
  if (byVersion) return { layout: byVersion, version, suffix }
  throw r.error(
    `mesh version ${suffix !== undefined ? `.mesh.${suffix}` : '(no .mesh.N suffix)'} / internal ${version} is not supported; supported suffixes: ${[...MESH_SUFFIX_LAYOUTS.keys()].join(', ')}`,
    4,
    'MeshHeader.version',
  )
}

export interface MeshHeader {
  fileSize: number
  contentFlags: number
  nameCount: number
  lodHeaderOffset: number
  skeletonOffset: number
  boneAabbOffset: number
  bufferHeaderOffset: number
  materialNameIndexOffset: number
  boneNameIndexOffset: number
  nameOffsetsOffset: number
  /** Layout C: the streaming-info offset (0 = none). */
  streamingInfoOffset: number
}

/** A u64 file offset at `o`: 0 or inside the file. */
export function offsetAt(r: Reader, o: number, field: string): number {
  const v = r.u64At(o, field)
  if (v >= BigInt(r.length)) throw r.error(`${field}: offset ${hex(Number(v))} is beyond the end of the file (size ${hex(r.length)})`, o)
  return Number(v)
}

/** Field offsets per header layout (§15.2). */
const FIELDS = {
  AB: { nameCount: 0x12, lod: 0x18, skeleton: 0x30, aabb: 0x48, buffer: 0x50, materialNames: 0x60, boneNames: 0x68, names: 0x78, streaming: -1 },
  C: { nameCount: 0x14, lod: 0x20, skeleton: 0x68, aabb: 0x60, buffer: 0x48, materialNames: 0x70, boneNames: 0x78, names: 0x90, streaming: 0x88 },
} as const

export function readMeshHeader(r0: Reader, layout: MeshLayout): MeshHeader {
  const r = r0.at(0, 'MeshHeader')
  const f = FIELDS[layout.name === 'C' ? 'C' : 'AB']
  const s = 'MeshHeader'
  return {
    fileSize: r.u32At(0x08, `${s}.fileSize`),
    contentFlags: r.u16At(0x10, `${s}.contentFlags`),
    nameCount: r.u16At(f.nameCount, `${s}.nameCount`),
    lodHeaderOffset: offsetAt(r, f.lod, `${s}.lodHeaderOffset`),
    skeletonOffset: offsetAt(r, f.skeleton, `${s}.skeletonOffset`),
    boneAabbOffset: offsetAt(r, f.aabb, `${s}.boneAabbOffset`),
    bufferHeaderOffset: offsetAt(r, f.buffer, `${s}.bufferHeaderOffset`),
    materialNameIndexOffset: offsetAt(r, f.materialNames, `${s}.materialNameIndexOffset`),
    boneNameIndexOffset: offsetAt(r, f.boneNames, `${s}.boneNameIndexOffset`),
    nameOffsetsOffset: offsetAt(r, f.names, `${s}.nameOffsetsOffset`),
    streamingInfoOffset: f.streaming >= 0 ? offsetAt(r, f.streaming, `${s}.streamingInfoOffset`) : 0,
  }
}

/** The string table (§15.3): nameCount u64 offsets, each to a NUL-terminated 8-bit string (UTF-8). */
export function readMeshNames(r0: Reader, h: MeshHeader): string[] {
  const r = r0.at(0, 'MeshNames')
  if (h.nameCount === 0) return []
  r.count(h.nameCount, 8, 'MeshHeader.nameCount', h.nameOffsetsOffset)
  const utf8 = new TextDecoder('utf-8')
  const names: string[] = []
  for (let i = 0; i < h.nameCount; i++) {
    const at = h.nameOffsetsOffset + i * 8
    const o = offsetAt(r, at, `MeshNames[${i}]`)
    const raw = r.cstringAt(o, `MeshNames[${i}]`, 1024)
    const bytes = Uint8Array.from(raw, (c) => c.charCodeAt(0))
    names.push(utf8.decode(bytes))
  }
  return names
}

/** A u16 name-index list (materials or bones, §15.5/§15.6): names[index[i]]. */
export function readNameIndexList(r0: Reader, offset: number, count: number, names: readonly string[], structure: string): string[] {
  const r = r0.at(0, structure)
  if (count === 0) return []
  r.count(count, 2, `${structure} count`, offset)
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const k = r.u16At(offset + i * 2, `${structure}[${i}]`)
    if (k >= names.length) throw r.error(`${structure}[${i}] = ${k} names no string (the table has ${names.length})`, offset + i * 2, structure)
    out.push(names[k]!)
  }
  return out
}
