/**
 * Vertex and index decoding of a GF sub-mesh from its PICA command blocks (spec §6.8, §7.2,
 * §15.9; SPICA `GFSubMesh.cs`, `VerticesConverter.cs`; 3dbrew "GPU/Internal Registers" for the
 * attribute-format, loader and fixed-attribute registers).
 */
import { hex } from '../../binary/errors'
import type { Reader } from '../../binary/reader'
import { vec4FromFloat24Words } from './float24'
import { picaRegisters, type PicaWrite } from './pica-commands'

/** Vertex-shader input registers of GF shaders (H3D convention): the register is the semantic. */
export const GF_SEMANTICS = ['position', 'normal', 'tangent', 'color', 'texcoord0', 'texcoord1', 'texcoord2', 'boneIndex', 'boneWeight'] as const
export type GfSemantic = (typeof GF_SEMANTICS)[number] | `user${number}`
const TYPES = ['s8', 'u8', 's16', 'f32'] as const
const TYPE_SIZE = [1, 1, 2, 4]
const TYPE_SCALE = [1 / 127, 1 / 255, 1 / 32767, 1]

export interface GfAttribute {
  semantic: GfSemantic
  /** Format of a stored attribute; `fixed` for a constant one. */
  format: (typeof TYPES)[number] | 'fixed'
  components: number
  /** Byte offset in the vertex (stored attributes). */
  offset?: number
  /** The constant value (fixed attributes, after SPICA's scale). */
  value?: number[]
}

export interface GfSubMeshGeometry {
  attributes: GfAttribute[]
  stride: number
  /** xyz per vertex. */
  positions: Float32Array
  normals?: Float32Array
  /** RGBA 0..1 per vertex. */
  colors?: Float32Array
  /** uv per vertex as stored (v up), one array per UV set present. */
  uvs: (Float32Array | undefined)[]
  /** Four palette slots per vertex. */
  boneSlots?: Uint8Array
  /** Four weights per vertex summing to 1 (when boneSlots is present). */
  boneWeights?: Float32Array
  /** Triangle list (strips and fans converted). */
  indices: Uint32Array
  primitive: 'triangles' | 'strip' | 'fan'
  indexFormat: 'u8' | 'u16'
  warnings: string[]
}

export interface SubMeshInput {
  setup: PicaWrite[]
  draw: PicaWrite[]
  vertexAt: number
  vertexBytes: number
  vertexCount: number
  indexAt: number
  indexBytes: number
  indexCount: number
  label: string
}

const nib = (v: bigint, i: number) => Number((v >> BigInt(4 * i)) & 0xfn)

function semanticOf(reg: number): GfSemantic {
  return (GF_SEMANTICS[reg] ?? `user${reg}`) as GfSemantic
}

/** Fixed attribute values: FIXEDATTRIB_INDEX (0x232) then three DATA words (0x233–0x235). */
function fixedValues(writes: readonly PicaWrite[]): Map<number, number[]> {
  const out = new Map<number, number[]>()
  let index = -1
  let data: number[] = []
  for (const w of writes) {
    if (w.register === 0x232) {
      index = w.value & 0xf
      data = []
    } else if (w.register >= 0x233 && w.register <= 0x235 && index >= 0) {
      data.push(w.value >>> 0)
      if (data.length === 3) {
        out.set(index, vec4FromFloat24Words(data[0]!, data[1]!, data[2]!))
        data = []
      }
    }
  }
  return out
}

/** The attribute layout of loader 0 and the fixed attributes (spec §6.8 steps 1–2). */
export function attributeLayout(setup: readonly PicaWrite[], b: Reader, label: string): { attributes: GfAttribute[]; stride: number } {
  const regs = picaRegisters(setup)
  const format = BigInt(regs.get(0x201) ?? 0) | (BigInt(regs.get(0x202) ?? 0) << 32n)
  const c1 = regs.get(0x204) ?? 0
  const c2 = regs.get(0x205) ?? 0
  const perm = BigInt(regs.get(0x2bb) ?? 0) | (BigInt(regs.get(0x2bc) ?? 0) << 32n)
  const comps = BigInt(c1) | (BigInt(c2 & 0xffff) << 32n)
  const used = c2 >>> 28
  const stride = (c2 >>> 16) & 0xff
  const total = regs.has(0x242) ? (regs.get(0x242)! & 0xf) + 1 : Number(format >> 60n) + 1
  const attributes: GfAttribute[] = []
  let offset = 0
  for (let k = 0; k < used; k++) {
    const a = nib(comps, k)
    if (a >= 12) throw b.error(`${label}: loader 0 component ${k} is padding (${a}); GF vertex layouts have none`)
    const fmt = nib(format, a)
    const type = fmt & 3
    const n = (fmt >> 2) + 1
    if (type >= 2 && offset % 2) offset++ // SPICA aligns s16/f32 to 2
    attributes.push({ semantic: semanticOf(nib(perm, a)), format: TYPES[type]!, components: n, offset })
    offset += n * TYPE_SIZE[type]!
  }
  if (offset > stride) throw b.error(`${label}: attributes take ${offset} bytes, more than the vertex stride ${stride} (ATTRIBBUFFER0_CONFIG2)`)
  const fixed = fixedValues(setup)
  for (let a = 0; a < Math.min(total, 12); a++) {
    if (((format >> BigInt(48 + a)) & 1n) === 0n) continue
    const semantic = semanticOf(nib(perm, a))
    let value = fixed.get(a) ?? [0, 0, 0, 0]
    if (semantic === 'color' || semantic === 'boneWeight') value = value.map((x) => x / 255)
    attributes.push({ semantic, format: 'fixed', components: 4, value })
  }
  return { attributes, stride }
}

/** One component; the caller has checked that the whole vertex buffer is inside `b`. */
function readComponent(b: Reader, at: number, type: number): number {
  switch (type) {
    case 0: return b.view.getInt8(at)
    case 1: return b.bytes[at]!
    case 2: return b.view.getInt16(at, true)
    default: return b.view.getFloat32(at, true)
  }
}

/** Reads the stored attributes into per-semantic float arrays (scaled, except BoneIndex). */
function readVertices(b: Reader, attrs: GfAttribute[], stride: number, inp: SubMeshInput): Map<GfSemantic, Float32Array> {
  const count = inp.vertexCount
  b.check(inp.vertexAt, inp.vertexBytes, `${inp.label} vertex buffer`)
  if (count * stride > inp.vertexBytes) throw b.error(`${inp.label}: ${count} vertices × stride ${stride} = ${count * stride} bytes, more than its ${inp.vertexBytes}-byte vertex buffer`, inp.vertexAt)
  const out = new Map<GfSemantic, Float32Array>()
  for (const a of attrs) {
    const width = a.semantic === 'position' || a.semantic === 'normal' || a.semantic === 'tangent' ? 3 : a.semantic.startsWith('texcoord') ? 2 : 4
    const arr = new Float32Array(count * width)
    if (a.format === 'fixed') {
      for (let v = 0; v < count; v++) for (let c = 0; c < width; c++) arr[v * width + c] = a.value![c] ?? 0
    } else {
      const type = TYPES.indexOf(a.format)
      const size = TYPE_SIZE[type]!
      const scale = a.semantic === 'boneIndex' ? 1 : TYPE_SCALE[type]!
      for (let v = 0; v < count; v++) {
        const base = inp.vertexAt + v * stride + a.offset!
        for (let c = 0; c < Math.min(width, a.components); c++) {
          const x = readComponent(b, base + c * size, type)
          if (!Number.isFinite(x)) throw b.error(`${inp.label}: vertex ${v} ${a.semantic}[${c}] is ${x}, not a finite number`, base + c * size)
          arr[v * width + c] = x * scale
        }
        if (width === 4 && a.components < 4 && a.semantic === 'color') arr[v * 4 + 3] = 1
      }
    }
    out.set(a.semantic, arr)
  }
  return out
}

/** Slots and weights per §7.2 and §15.9 (a zero weight ends the list; weights sum to 1). */
function skinning(attrs: Map<GfSemantic, Float32Array>, count: number): { slots?: Uint8Array; weights?: Float32Array } {
  const idx = attrs.get('boneIndex')
  if (!idx) return {}
  const wts = attrs.get('boneWeight')
  const slots = new Uint8Array(count * 4)
  const weights = new Float32Array(count * 4)
  for (let v = 0; v < count; v++) {
    let sum = 0
    for (let c = 0; c < 4; c++) {
      const w = wts ? wts[v * 4 + c]! : c === 0 ? 1 : 0
      if (!(w > 0)) break
      slots[v * 4 + c] = idx[v * 4 + c]!
      weights[v * 4 + c] = w
      sum += w
    }
    if (sum > 0) for (let c = 0; c < 4; c++) weights[v * 4 + c]! /= sum
    else {
      slots[v * 4] = idx[v * 4]!
      weights[v * 4] = 1
    }
  }
  return { slots, weights }
}

/** Index buffer (u8/u16 per INDEXBUFFER_CONFIG bit 31) → triangle list; every index checked. */
function readIndices(b: Reader, inp: SubMeshInput, warnings: string[]): { indices: Uint32Array; primitive: GfSubMeshGeometry['primitive']; indexFormat: 'u8' | 'u16' } {
  const regs = picaRegisters(inp.draw)
  const u16 = ((regs.get(0x227) ?? 0x80000000) >>> 31) === 1
  const count = regs.has(0x228) ? regs.get(0x228)! : inp.indexCount
  if (regs.has(0x228) && count !== inp.indexCount) warnings.push(`${inp.label}: NUMVERTICES ${count} differs from the record's index count ${inp.indexCount}; the command list is used`)
  const mode = ((regs.get(0x25e) ?? 0) >>> 8) & 3
  if (mode === 3) throw b.error(`${inp.label}: primitive mode 3 (geometry-shader primitive) is not supported`, inp.indexAt)
  const size = u16 ? 2 : 1
  if (count * size > inp.indexBytes) throw b.error(`${inp.label}: ${count} ${u16 ? 'u16' : 'u8'} indices need ${count * size} bytes, its index buffer has ${inp.indexBytes}`, inp.indexAt)
  b.check(inp.indexAt, count * size, `${inp.label} index buffer`)
  const raw = new Uint32Array(count)
  for (let i = 0; i < count; i++) {
    const at = inp.indexAt + i * size
    const v = u16 ? b.view.getUint16(at, true) : b.bytes[at]!
    if (v >= inp.vertexCount) throw b.error(`${inp.label}: index ${i} is ${v}, past its vertex buffer of ${inp.vertexCount} vertices (index at ${hex(b.base + at)})`, at)
    raw[i] = v
  }
  const primitive = (['triangles', 'strip', 'fan'] as const)[mode]!
  if (primitive === 'triangles') return { indices: raw.subarray(0, count - (count % 3)), primitive, indexFormat: u16 ? 'u16' : 'u8' }
  const tri: number[] = []
  for (let i = 0; i + 2 < count; i++) {
    const t = primitive === 'fan' ? [raw[0]!, raw[i + 1]!, raw[i + 2]!] : i % 2 ? [raw[i + 1]!, raw[i]!, raw[i + 2]!] : [raw[i]!, raw[i + 1]!, raw[i + 2]!]
    if (t[0] !== t[1] && t[1] !== t[2] && t[0] !== t[2]) tri.push(...t)
  }
  return { indices: Uint32Array.from(tri), primitive, indexFormat: u16 ? 'u16' : 'u8' }
}

/** Decodes one sub-mesh's vertices and indices from its buffers and command blocks. */
export function decodeSubMesh(b: Reader, inp: SubMeshInput): GfSubMeshGeometry {
  const warnings: string[] = []
  const { attributes, stride } = attributeLayout(inp.setup, b, inp.label)
  const vals = readVertices(b, attributes, stride, inp)
  const positions = vals.get('position')
  if (!positions) throw b.error(`${inp.label}: no Position attribute`, inp.vertexAt)
  for (const a of attributes) if (a.semantic === 'position' && a.format !== 'f32' && a.format !== 'fixed') warnings.push(`${inp.label}: position stored as ${a.format} (unexpected; scaled by SPICA's constant)`)
  const { slots, weights } = skinning(vals, inp.vertexCount)
  const ix = readIndices(b, inp, warnings)
  return {
    attributes, stride, positions, normals: vals.get('normal'), colors: vals.get('color'),
    uvs: [vals.get('texcoord0'), vals.get('texcoord1'), vals.get('texcoord2')],
    boneSlots: slots, boneWeights: weights, ...ix, warnings,
  }
}
