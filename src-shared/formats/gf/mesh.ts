/**
 * GFMesh (spec §6.6; SPICA `GFMesh.cs`, `GFSubMesh.cs`, Ohana3DS-Rebirth `GfModel.cs`): a header,
 * 3·S PICA command blocks (per sub-mesh: attribute setup, reset, index buffer + draw), S sub-mesh
 * records (material name, bone palette, counts, buffer lengths), then each sub-mesh's vertex and
 * index bytes. The vertex and index decoding is in `mesh-vertices.ts`.
 */
import type { Reader } from '../../binary/reader'
import { readIntString, readSection } from './gf-strings'
import { picaWrites, readPicaCommands, type PicaWrite } from './pica-commands'
import { decodeSubMesh, type GfSubMeshGeometry } from './mesh-vertices'

export interface GfSubMesh extends GfSubMeshGeometry {
  /** Name of the GFMaterial it uses. */
  material: string
  /** Model bone indices; vertex BoneIndex values are slots into this list. */
  palette: number[]
  vertexCount: number
  indexCount: number
}

export interface GfMesh {
  name: string
  bboxMin: number[]
  bboxMax: number[]
  /** Bone indices per vertex (max influences) as stored. */
  weightsPerVertex: number
  subMeshes: GfSubMesh[]
  offset: number
}

const MAX_SUBMESHES = 4096

interface Record_ { material: string; palette: number[]; vertexCount: number; indexCount: number; vertexBytes: number; indexBytes: number; at: number }

function readRecord(b: Reader, k: number, boneCount: number): Record_ {
  const at = b.pos
  const f = `sub-mesh ${k}`
  b.skip(4, `${f} name hash`)
  const material = readIntString(b, `${f} name`)
  const pn = b.u8(`${f} palette size`)
  if (pn > 31) throw b.error(`${f}: palette size ${pn} is more than the 31 slots`, b.pos - 1)
  const palAt = b.pos
  const raw = Array.from(b.bytesN(31, `${f} bone palette`))
  const palette = raw.slice(0, pn)
  palette.forEach((bone, j) => {
    if (bone >= boneCount) throw b.error(`${f} '${material}': bone palette slot ${j} names bone ${bone}, the model has ${boneCount} bones`, palAt + j)
  })
  const vertexCount = b.i32(`${f} vertex count`)
  const indexCount = b.i32(`${f} index count`)
  const vertexBytes = b.i32(`${f} vertex buffer length`)
  const indexBytes = b.i32(`${f} index buffer length`)
  for (const [v, n] of [[vertexCount, 'vertex count'], [indexCount, 'index count'], [vertexBytes, 'vertex buffer length'], [indexBytes, 'index buffer length']] as const) {
    if (v < 0) throw b.error(`${f}: ${n} ${v} is negative`, at)
  }
  return { material, palette, vertexCount, indexCount, vertexBytes, indexBytes, at }
}

/** Reads one `"mesh"` section at the reader's position; leaves the reader after the section. */
export function readGfMesh(r: Reader, index: number, boneCount: number): GfMesh {
  const offset = r.base + r.pos
  const label = `${r.structure ? `${r.structure} ` : ''}GFMesh[${index}]`
  const sec = readSection(r, 'mesh', label)
  const b = r.sub(sec.bodyStart, sec.length, label)
  b.skip(4, 'name hash')
  const name = b.ascii(0x40, 'mesh name')
  b.structure = `${label} '${name}'`
  b.skip(4, 'unknown')
  const bboxMin = [b.f32('bbox min'), b.f32('bbox min'), b.f32('bbox min'), b.f32('bbox min')]
  const bboxMax = [b.f32('bbox max'), b.f32('bbox max'), b.f32('bbox max'), b.f32('bbox max')]
  const countAt = b.pos
  const s = b.u32('sub-mesh count')
  if (s > MAX_SUBMESHES) throw b.error(`sub-mesh count ${s} is absurd (more than ${MAX_SUBMESHES})`, countAt)
  b.count(s * 3, 16, 'command blocks', b.pos)
  const weightsPerVertex = b.i32('bone indices per vertex')
  b.skip(16, 'padding')
  // Command blocks: repeat until index == total − 1 (at most 3·S blocks).
  const blocks: PicaWrite[][] = []
  for (let guard = 0; guard <= 3 * s; guard++) {
    const at = b.pos
    const len = b.u32('command block length')
    const idx = b.u32('command block index')
    const total = b.u32('command block total')
    b.skip(4, 'command block padding')
    if (total !== 3 * s) throw b.error(`command block ${blocks.length}: total ${total} is not 3 × ${s} sub-meshes`, at + 8)
    if (idx !== blocks.length) throw b.error(`command block ${blocks.length}: index field is ${idx}`, at + 4)
    blocks.push(picaWrites(readPicaCommands(b, b.pos, len, `${b.structure} command block ${idx}`)))
    b.skip(len)
    if (idx === total - 1) break
  }
  if (blocks.length !== 3 * s && s > 0) throw b.error(`${blocks.length} command blocks for ${s} sub-meshes (expected ${3 * s})`)
  const records: Record_[] = []
  for (let k = 0; k < s; k++) records.push(readRecord(b, k, boneCount))
  const subMeshes: GfSubMesh[] = []
  for (let k = 0; k < s; k++) {
    const rec = records[k]!
    const vAt = b.pos
    b.check(vAt, rec.vertexBytes, `sub-mesh ${k} vertex buffer`)
    b.skip(rec.vertexBytes)
    const iAt = b.pos
    b.check(iAt, rec.indexBytes, `sub-mesh ${k} index buffer`)
    b.skip(rec.indexBytes)
    const geo = decodeSubMesh(b, { setup: blocks[3 * k]!, draw: blocks[3 * k + 2]!, vertexAt: vAt, vertexBytes: rec.vertexBytes, vertexCount: rec.vertexCount, indexAt: iAt, indexBytes: rec.indexBytes, indexCount: rec.indexCount, label: `sub-mesh ${k} '${rec.material}'` })
    // the geometry object gets the record's fields (an object spread copying it is a slow path in V8)
    const sub = geo as GfSubMesh
    sub.material = rec.material
    sub.palette = rec.palette
    sub.vertexCount = rec.vertexCount
    sub.indexCount = rec.indexCount
    subMeshes.push(sub)
  }
  r.seek(sec.bodyStart + sec.length)
  return { name, bboxMin, bboxMax, weightsPerVertex, subMeshes, offset }
}
