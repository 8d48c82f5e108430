/**
 * GFModel (spec §6.1; SPICA `GFModel.cs`, Ohana3DS-Rebirth `GfModel.cs`): the `"gfmodel"` section
 * (name tables, bounding box, transform, bones, LUTs), then one `"material"` section per material
 * name and one `"mesh"` section per mesh name. Offsets in errors are absolute in the file;
 * alignment is relative to the entry start (spec Conventions).
 */
import { hex } from '../../binary/errors'
import { Reader } from '../../binary/reader'
import { SIG_MODEL } from './entry-kind'
import { readFloats, readNameTable, readSection } from './gf-strings'
import { readGfMaterial, type GfMaterial } from './material'
import { readGfMesh, type GfMesh } from './mesh'
import { linkBones, readGfBone, type GfBone } from './skeleton'

export interface GfModel {
  shaderNames: string[]
  /** Texture names (and LUT names, spec §6.2). */
  textureNames: string[]
  bboxMin: number[]
  bboxMax: number[]
  /** 16 floats, file order (row-major for column vectors, spec §4.4). */
  transform: number[]
  bones: GfBone[]
  luts: { hash: number; name?: string }[]
  materials: GfMaterial[]
  meshes: GfMesh[]
  warnings: string[]
}

export interface GfEntryContext {
  file: string
  entry: number
  /** Absolute offset of the entry in its file. */
  base: number
}

const MAX_BONES = 4096
const MAX_LUTS = 1024

function alignEntry(r: Reader, n: number): void {
  const pad = (n - (r.pos % n)) % n
  r.skip(pad, 'padding')
}

/** Parses a GFModel entry; throws FormatError naming the file, entry, structure and offset. */
export function parseGfModel(bytes: Uint8Array, ctx: GfEntryContext): GfModel {
  const structure = `entry ${ctx.entry} GFModel`
  const r = new Reader(bytes, { file: ctx.file, base: ctx.base, structure })
  const magic = r.u32('magic')
  if (magic !== SIG_MODEL) throw r.error(`magic ${hex(magic)} is not the GFModel signature ${hex(SIG_MODEL)}`, 0)
  r.seek(0x10)
  const warnings: string[] = []
  const sec = readSection(r, 'gfmodel', structure)
  const shaderNames = readNameTable(r, 'shader names').map((x) => x.name)
  const textureTable = readNameTable(r, 'texture names')
  const materialNames = readNameTable(r, 'material names').map((x) => x.name)
  const meshNames = readNameTable(r, 'mesh names').map((x) => x.name)
  const bboxMin = readFloats(r, 4, 'bounding box min', false)
  const bboxMax = readFloats(r, 4, 'bounding box max', false)
  const transform = readFloats(r, 16, 'transform', false)
  const unkLen = r.u32('unknown data length')
  const unkOff = r.u32('unknown data offset')
  r.skip(8, 'padding')
  r.skip(unkOff + unkLen, 'unknown data')
  const boneAt = r.pos
  const boneCount = r.i32('bone count')
  if (boneCount < 0 || boneCount > MAX_BONES) throw r.error(`bone count ${boneCount} is absurd (0–${MAX_BONES})`, boneAt)
  r.count(boneCount, 39, 'bones', r.pos + 12)
  r.skip(12, 'padding')
  const rawBones = []
  for (let i = 0; i < boneCount; i++) rawBones.push(readGfBone(r, i))
  const where = `${ctx.file}: ${structure}`
  const bones = linkBones(rawBones, (w) => warnings.push(`${where}: ${w}`))
  alignEntry(r, 16)
  const lutAt = r.pos
  const lutCount = r.i32('LUT count')
  const lutLen = r.i32('LUT command length')
  if (lutCount < 0 || lutCount > MAX_LUTS || lutLen < 0) throw r.error(`LUT count ${lutCount} / command length ${lutLen} is absurd`, lutAt)
  alignEntry(r, 16)
  r.count(lutCount, 16 + lutLen, 'LUTs')
  const byHash = new Map(textureTable.map((t) => [t.hash, t.name]))
  const luts: GfModel['luts'] = []
  for (let i = 0; i < lutCount; i++) {
    const hash = r.u32(`LUT[${i}] hash`)
    r.skip(12 + lutLen, `LUT[${i}] commands`)
    luts.push({ hash, name: byHash.get(hash) })
  }
  const sectionEnd = sec.bodyStart + sec.length
  if (r.pos > sectionEnd) throw r.error(`the "gfmodel" section is ${sec.length} bytes, but its contents end at ${hex(ctx.base + r.pos)}`, 0x18)
  r.seek(sectionEnd)
  const materials: GfMaterial[] = []
  for (let i = 0; i < materialNames.length; i++) {
    const m = readGfMaterial(r, i)
    if (m.name !== materialNames[i]) warnings.push(`${where}: material ${i} is named '${m.name}', the name table says '${materialNames[i]}'`)
    materials.push(m)
  }
  const meshes: GfMesh[] = []
  for (let i = 0; i < meshNames.length; i++) {
    const m = readGfMesh(r, i, bones.length)
    for (const s of m.subMeshes) warnings.push(...s.warnings.map((w) => `${where}: GFMesh[${i}] ${w}`))
    meshes.push(m)
  }
  const known = new Set(materials.map((m) => m.name))
  for (const m of meshes) for (const s of m.subMeshes) if (!known.has(s.material)) warnings.push(`${where}: mesh '${m.name}' uses material '${s.material}', which the model lacks`)
  return { shaderNames, textureNames: textureTable.map((t) => t.name), bboxMin, bboxMax, transform, bones, luts, materials, meshes, warnings }
}

/** Counts for `gf models`: distinct vertices the index buffers reference, and triangles. */
export function modelCounts(m: GfModel): { meshes: number; vertices: number; triangles: number } {
  let vertices = 0
  let triangles = 0
  for (const mesh of m.meshes) {
    for (const s of mesh.subMeshes) {
      const seen = new Uint8Array(s.vertexCount)
      for (const i of s.indices) if (!seen[i]) { seen[i] = 1; vertices++ }
      triangles += s.indices.length / 3
    }
  }
  return { meshes: m.meshes.length, vertices, triangles }
}
