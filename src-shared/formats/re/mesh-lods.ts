/**
 * LOD header, LODs, groups and submeshes of an RE Engine mesh (spec re-motlist §15.4), and the
 * material names (§15.6).
 *
 * LOD header: u8 lodCount · u8 materialCount · u8 uvCount · u8 skinWeightCount · u16
 * totalMeshCount · u8 has32BitIndices · u8 sharedLodBits · [u64 pad, layout A] · f32 sphere[4],
 * aabbMin[4], aabbMax[4] · u64 lodOffsetsOffset → lodCount × u64.
 * LOD: u8 groupCount · u8 vertexFormat · u16 · f32 distance · u64 groupOffsetsOffset → groupCount × u64.
 * Group: u8 visconGroupId · u8 submeshCount · 3 × u16 · u32 vertexCount · u32 indexCount, then
 * submeshCount submeshes of 16 (A) or 24 (B, C) bytes: u8 materialIndex · u8 isQuad · u8
 * bufferIndex · u8 · u32 indexCount · u32 firstIndex · u32 firstVertex [· u32 × 2 streaming].
 * A submesh's vertex count is the next submesh's firstVertex minus its own; the last one's runs to
 * the group's first firstVertex + group vertexCount.
 */
import { LimitError, type Reader } from '../../binary'
import { offsetAt, readNameIndexList, type MeshHeader, type MeshLayout } from './mesh-header'

export interface MeshSubmesh {
  /** Group and position in the group. */
  group: number
  index: number
  /** Index into the material list. */
  material: number
  /** 0 = this file's buffer; k ≥ 1 = streaming buffer k − 1 (§15.2). */
  bufferIndex: number
  indexCount: number
  firstIndex: number
  firstVertex: number
  vertexCount: number
  /** Absolute offset of the submesh record (for error messages). */
  offset: number
}

export interface MeshLod {
  distance: number
  /** Submeshes in group order, then submesh order (§15.4). */
  submeshes: MeshSubmesh[]
}

export interface MeshLodHeader {
  offset: number
  lodCount: number
  materialCount: number
  uvCount: number
  has32BitIndices: boolean
  lods: MeshLod[]
}

function readGroup(r0: Reader, o: number, gi: number, layout: MeshLayout, materialCount: number): MeshSubmesh[] {
  const s = `MeshGroup[${gi}]`
  const r = r0.at(0, s)
  const count = r.u8At(o + 1, `${s}.submeshCount`)
  const groupVertices = r.u32At(o + 8, `${s}.vertexCount`)
  r.count(count, layout.submeshSize, `${s}.submeshCount`, o + 16)
  const subs: MeshSubmesh[] = []
  for (let k = 0; k < count; k++) {
    const at = o + 16 + k * layout.submeshSize
    const ss = `${s}.Submesh[${k}]`
    const material = r.u8At(at, `${ss}.materialIndex`)
    if (material >= materialCount) throw r.error(`${ss}.materialIndex ${material} names no material (${materialCount})`, at, ss)
    subs.push({
      group: gi,
      index: k,
      material,
      bufferIndex: r.u8At(at + 2, `${ss}.bufferIndex`),
      indexCount: r.u32At(at + 4, `${ss}.indexCount`),
      firstIndex: r.u32At(at + 8, `${ss}.firstIndex`),
      firstVertex: r.u32At(at + 12, `${ss}.firstVertex`),
      vertexCount: 0,
      offset: at,
    })
  }
  const end = (subs[0]?.firstVertex ?? 0) + groupVertices
  subs.forEach((sm, k) => {
    const next = k + 1 < subs.length ? subs[k + 1]!.firstVertex : end
    if (next < sm.firstVertex) throw r.error(`${s}.Submesh[${k}]: firstVertex ${sm.firstVertex} lies past the next submesh's start or the group's end (${next})`, sm.offset + 12, `${s}.Submesh[${k}]`)
    sm.vertexCount = next - sm.firstVertex
  })
  return subs
}

/** Submeshes over all LODs (totalMeshCount is a u16): LOD and group tables that repeat one another stop here. */
export const MAX_MESH_SUBMESHES = 65535

function readLod(r: Reader, o: number, li: number, layout: MeshLayout, materialCount: number, budget: { n: number }): MeshLod {
  const s = `MeshLod[${li}]`
  const groupCount = r.u8At(o, `${s}.groupCount`)
  const distance = r.f32At(o + 4, `${s}.distance`)
  const table = offsetAt(r, o + 8, `${s}.groupOffsetsOffset`)
  r.count(groupCount, 8, `${s}.groupCount`, table)
  const submeshes: MeshSubmesh[] = []
  for (let g = 0; g < groupCount; g++) {
    const go = offsetAt(r, table + g * 8, `${s}.groupOffsets[${g}]`)
    const subs = readGroup(r, go, g, layout, materialCount)
    budget.n += subs.length
    if (budget.n > MAX_MESH_SUBMESHES) throw new LimitError(`more than ${MAX_MESH_SUBMESHES} submeshes over the LODs`, { file: r.file, structure: `${s}.MeshGroup[${g}]`, offset: r.base + go })
    submeshes.push(...subs)
  }
  return { distance, submeshes }
}

/** The LOD header and every LOD's submeshes (null when lodHeaderOffset is 0). */
export function readMeshLods(r0: Reader, h: MeshHeader, layout: MeshLayout): MeshLodHeader | null {
  const r = r0.at(0, 'MeshLodHeader')
  const o = h.lodHeaderOffset
  if (o === 0) return null
  const s = 'MeshLodHeader'
  const lodCount = r.u8At(o, `${s}.lodCount`)
  const materialCount = r.u8At(o + 1, `${s}.materialCount`)
  const uvCount = r.u8At(o + 2, `${s}.uvCount`)
  const has32BitIndices = r.u8At(o + 6, `${s}.has32BitIndices`) !== 0
  const table = offsetAt(r, o + (layout.lodPad ? 0x40 : 0x38), `${s}.lodOffsetsOffset`)
  r.count(lodCount, 8, `${s}.lodCount`, table)
  const lods: MeshLod[] = []
  const budget = { n: 0 }
  for (let i = 0; i < lodCount; i++) lods.push(readLod(r, offsetAt(r, table + i * 8, `${s}.lodOffsets[${i}]`), i, layout, materialCount, budget))
  return { offset: o, lodCount, materialCount, uvCount, has32BitIndices, lods }
}

/** Material names (§15.6): materialCount u16 indices into the string table. */
export function readMaterialNames(r: Reader, h: MeshHeader, lods: MeshLodHeader | null, names: readonly string[]): string[] {
  return readNameIndexList(r, h.materialNameIndexOffset, lods?.materialCount ?? 0, names, 'MeshMaterialNames')
}
