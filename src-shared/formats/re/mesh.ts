/**
 * An RE Engine `.mesh` (spec re-motlist §15): header, names, skeleton, materials, LODs and the
 * vertex/index buffers, read and checked up front (every submesh's vertex and index ranges lie
 * inside the buffers), geometry decoded on demand (`meshGeometry`).
 *
 * `describeMesh` is the `re mesh --json` document (CLI.md); `meshSkeletonBones` gives the
 * skeleton as the bone list the motion code uses (names, §6 hashes, parents, local reference
 * pose), so a mesh can stand in for a motlist's missing bone headers (§15.10).
 */
import { FormatError, Reader } from '../../binary'
import type { MotBone } from './bone-header'
import { meshLayout, readMeshHeader, readMeshNames, type MeshHeader, type MeshLayout } from './mesh-header'
import { readMeshSkeleton, type MeshSkeleton } from './mesh-skeleton'
import { readMaterialNames, readMeshLods, type MeshLodHeader, type MeshSubmesh } from './mesh-lods'
import { checkSubmeshRange, decodeSubmesh, readMeshBuffer, type MeshBuffer, type SubmeshGeometry } from './mesh-buffers'

export interface ReMesh {
  /** The internal version (u32 at 0x04). */
  version: number
  /** The `.mesh.N` suffix of the name, when it has one. */
  suffix?: number
  layout: MeshLayout
  header: MeshHeader
  names: string[]
  materials: string[]
  skeleton: MeshSkeleton | null
  lods: MeshLodHeader | null
  buffer: MeshBuffer | null
  warnings: string[]
  /** The reader over the file (geometry is decoded from it on demand). */
  reader: Reader
}

function checkRanges(mesh: ReMesh): void {
  const { lods, buffer, reader: r } = mesh
  if (!lods) return
  const total = lods.lods.reduce((n, l) => n + l.submeshes.length, 0)
  if (total > 0 && !buffer) throw r.error('the mesh has submeshes but bufferHeaderOffset is 0', 0, 'MeshHeader.bufferHeaderOffset')
  const size = lods.has32BitIndices ? 4 : 2
  lods.lods.forEach((l, li) =>
    l.submeshes.forEach((sm) => {
      if (sm.bufferIndex === 0) checkSubmeshRange(r, buffer!, sm, size, submeshName(li, sm))
    }),
  )
  if (lods.lods.some((l) => l.submeshes.some((sm) => sm.bufferIndex !== 0))) {
    mesh.warnings.push('some submeshes keep their vertices in streaming buffers (natives/STM/streaming/…); their geometry is not read')
  }
}

export function submeshName(lod: number, sm: MeshSubmesh): string {
  return `MeshLod[${lod}].MeshGroup[${sm.group}].Submesh[${sm.index}]`
}

/** Reads a mesh; `file` names it in errors and its `.mesh.N` suffix picks the layout (§15.1). */
export function readMesh(bytes: Uint8Array, file?: string): ReMesh {
  const r = new Reader(bytes, { file, structure: 'MeshHeader' })
  const { layout, version, suffix } = meshLayout(r, file)
  const header = readMeshHeader(r, layout)
  const names = readMeshNames(r, header)
  const lods = readMeshLods(r, header, layout)
  const materials = readMaterialNames(r, header, lods, names)
  const skeleton = readMeshSkeleton(r, header, names)
  const buffer = readMeshBuffer(r, header.bufferHeaderOffset, layout)
  const mesh: ReMesh = { version, ...(suffix !== undefined ? { suffix } : {}), layout, header, names, materials, skeleton, lods, buffer, warnings: [], reader: r }
  checkRanges(mesh)
  return mesh
}

export interface DecodedSubmesh extends SubmeshGeometry {
  submesh: MeshSubmesh
  materialName: string
}

/** The geometry of one LOD's submeshes (streaming ones skipped with a warning). */
export function meshGeometry(mesh: ReMesh, lod = 0): { submeshes: DecodedSubmesh[]; warnings: string[] } {
  const l = mesh.lods?.lods[lod]
  if (!l) throw new FormatError(`the mesh has no LOD ${lod}`, { file: mesh.reader.file, structure: 'MeshLodHeader' })
  const warnings: string[] = []
  const submeshes: DecodedSubmesh[] = []
  const size = mesh.lods!.has32BitIndices ? 4 : 2
  const remap = mesh.skeleton?.remap ?? []
  let bad = 0
  for (const sm of l.submeshes) {
    const where = submeshName(lod, sm)
    if (sm.bufferIndex !== 0) {
      warnings.push(`${where}: its vertices are in streaming buffer ${sm.bufferIndex - 1}; skipped`)
      continue
    }
    const g = decodeSubmesh(mesh.reader, mesh.buffer!, sm, size, remap, where)
    bad += g.badSlots
    submeshes.push({ ...g, submesh: sm, materialName: mesh.materials[sm.material]! })
  }
  if (bad) warnings.push(`${bad} weighted slot value(s) name no bone of the remap (${remap.length} entries); bound to bone 0`)
  return { submeshes, warnings }
}

/** The skeleton as motion bones (§15.10): names, §6 hashes, parents, local reference pose. */
export function meshSkeletonBones(mesh: ReMesh): MotBone[] {
  return (mesh.skeleton?.bones ?? []).map((b) => ({
    index: b.index,
    name: b.name,
    hash: b.hash,
    parent: b.parent,
    translation: [...b.translation],
    rotation: [...b.rotation],
    storedIndex: b.index,
  }))
}

export interface MeshJson {
  version: number
  bones: { index: number; name: string; hash: number; parent: string | null; translation: number[]; rotation: number[]; scale: number[] }[]
  materials: string[]
  lods: { meshes: { material: string; vertices: number; triangles: number; weights: number }[] }[]
}

/** The `re mesh --json` document (CLI.md). `version` is the file suffix, else the internal version. */
export function describeMesh(mesh: ReMesh): MeshJson {
  const bones = mesh.skeleton?.bones ?? []
  const weightsEl = mesh.buffer?.elements.get(4)
  const weights = weightsEl ? weightsEl.stride / 2 : 0
  return {
    version: mesh.suffix ?? mesh.version,
    bones: bones.map((b) => ({ index: b.index, name: b.name, hash: b.hash, parent: b.parent >= 0 ? bones[b.parent]!.name : null, translation: [...b.translation], rotation: [...b.rotation], scale: [...b.scale] })),
    materials: [...mesh.materials],
    lods: (mesh.lods?.lods ?? []).map((l) => ({
      meshes: l.submeshes.map((sm) => ({ material: mesh.materials[sm.material]!, vertices: sm.vertexCount, triangles: Math.floor(sm.indexCount / 3), weights })),
    })),
  }
}
