/**
 * Buffer header, vertex elements, vertex streams and indices of an RE Engine mesh (spec
 * re-motlist §15.7–§15.9).
 *
 * Buffer header (offsets in the block): +0 u64 elementsOffset · +8 u64 vertexBufferOffset ·
 * A: +0x10 u64 indexBufferOffset, +0x18 u32 vertexBufferSize, +0x1C u32 indexBufferSize, +0x20 u16
 *    elementCount, +0x22 u16 elementCount2;
 * B: as A with a u64 0 at +0x18, so sizes at +0x20/+0x24 and counts at +0x28/+0x2A;
 * C: +0x18 u32 totalSize, +0x1C u32 vertexBufferSize, counts at +0x20/+0x22; the indices start right
 *    after the vertices and take totalSize − vertexBufferSize bytes.
 * Elements: u16 type · u16 stride · u32 start; the vertex buffer is not interleaved: element e is a
 * stream of `stride`-byte records from vertexBufferOffset + start, vertex v of a submesh is record
 * firstVertex + v. The first elementCount entries describe the main set; the first of each type
 * is used. Indices (u16, or u32 with has32BitIndices) are relative to the submesh's firstVertex.
 */
import { FormatError, hex, type Reader } from '../../binary'
import { offsetAt, type MeshLayout } from './mesh-header'
import type { MeshSubmesh } from './mesh-lods'

export const ELEMENT_POSITION = 0
export const ELEMENT_NORMAL_TANGENT = 1
export const ELEMENT_UV0 = 2
export const ELEMENT_UV1 = 3
export const ELEMENT_WEIGHTS = 4
export const ELEMENT_COLOR = 5

export interface MeshElement {
  type: number
  stride: number
  start: number
}

export interface MeshBuffer {
  offset: number
  elementsOffset: number
  vertexBufferOffset: number
  vertexBufferSize: number
  indexBufferOffset: number
  indexBufferSize: number
  elementCount: number
  elementCount2: number
  /** First element of each type among the main set. */
  elements: Map<number, MeshElement>
}

const STRIDES: Record<number, number[]> = { 0: [12], 1: [8], 2: [4], 3: [4], 4: [8, 16], 5: [4] }

export function readMeshBuffer(r0: Reader, offset: number, layout: MeshLayout): MeshBuffer | null {
  if (offset === 0) return null
  const r = r0.at(0, 'MeshBuffer')
  const s = 'MeshBuffer'
  const elementsOffset = offsetAt(r, offset, `${s}.elementsOffset`)
  const vertexBufferOffset = offsetAt(r, offset + 8, `${s}.vertexBufferOffset`)
  let indexBufferOffset: number
  let vertexBufferSize: number
  let indexBufferSize: number
  let counts: number
  if (layout.buffer === 'C') {
    const total = r.u32At(offset + 0x18, `${s}.totalSize`)
    vertexBufferSize = r.u32At(offset + 0x1c, `${s}.vertexBufferSize`)
    if (total < vertexBufferSize) throw r.error(`${s}.totalSize ${total} is less than vertexBufferSize ${vertexBufferSize}`, offset + 0x18, s)
    indexBufferOffset = vertexBufferOffset + vertexBufferSize
    indexBufferSize = total - vertexBufferSize
    counts = offset + 0x20
  } else {
    indexBufferOffset = offsetAt(r, offset + 0x10, `${s}.indexBufferOffset`)
    const sizes = offset + (layout.buffer === 'B' ? 0x20 : 0x18)
    vertexBufferSize = r.u32At(sizes, `${s}.vertexBufferSize`)
    indexBufferSize = r.u32At(sizes + 4, `${s}.indexBufferSize`)
    counts = sizes + 8
  }
  r.check(vertexBufferOffset, vertexBufferSize, `${s}.vertexBufferSize`)
  r.check(indexBufferOffset, indexBufferSize, `${s}.indexBufferSize`)
  const elementCount = r.u16At(counts, `${s}.elementCount`)
  const elementCount2 = r.u16At(counts + 2, `${s}.elementCount2`)
  r.count(Math.max(elementCount, elementCount2), 8, `${s}.elementCount`, elementsOffset)
  const elements = new Map<number, MeshElement>()
  for (let i = 0; i < elementCount; i++) {
    const at = elementsOffset + i * 8
    const e: MeshElement = { type: r.u16At(at, `MeshElement[${i}].type`), stride: r.u16At(at + 2, `MeshElement[${i}].stride`), start: r.u32At(at + 4, `MeshElement[${i}].start`) }
    if (elements.has(e.type)) continue
    const allowed = STRIDES[e.type]
    if (allowed && !allowed.includes(e.stride)) throw r.error(`MeshElement[${i}]: type ${e.type} has stride ${e.stride}; §15.8 gives ${allowed.join(' or ')}`, at + 2, `MeshElement[${i}]`)
    if (e.start > vertexBufferSize) throw r.error(`MeshElement[${i}].start ${hex(e.start)} lies past the vertex buffer (${hex(vertexBufferSize)} bytes)`, at + 4, `MeshElement[${i}]`)
    elements.set(e.type, e)
  }
  if (!elements.has(ELEMENT_POSITION)) throw r.error('the main vertex set has no position element (type 0)', elementsOffset, 'MeshElement')
  return { offset, elementsOffset, vertexBufferOffset, vertexBufferSize, indexBufferOffset, indexBufferSize, elementCount, elementCount2, elements }
}

/** Throws unless the submesh's vertex records and indices lie inside the buffer. */
export function checkSubmeshRange(r: Reader, b: MeshBuffer, sm: MeshSubmesh, indexSize: 2 | 4, where: string): void {
  for (const e of b.elements.values()) {
    const end = e.start + (sm.firstVertex + sm.vertexCount) * e.stride
    if (end > b.vertexBufferSize) {
      throw r.error(`${where}: vertices ${sm.firstVertex}..${sm.firstVertex + sm.vertexCount} of element type ${e.type} (stride ${e.stride}) run past the ${hex(b.vertexBufferSize)}-byte vertex buffer`, sm.offset + 12, where)
    }
  }
  const end = (sm.firstIndex + sm.indexCount) * indexSize
  if (end > b.indexBufferSize) throw r.error(`${where}: indices ${sm.firstIndex}..${sm.firstIndex + sm.indexCount} run past the ${hex(b.indexBufferSize)}-byte index buffer`, sm.offset + 4, where)
}

export interface SubmeshGeometry {
  positions: Float32Array
  normals?: Float32Array
  /** xyz + sign(w) per vertex (glTF TANGENT). */
  tangents?: Float32Array
  uvs?: Float32Array
  /** `slots` bone indices per vertex (through the remap; 0 where the weight is 0). */
  joints?: Uint16Array
  weights?: Float32Array
  slots: number
  indices: Uint32Array
}

/** IEEE 754 half → number. */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1
  const e = (h >> 10) & 0x1f
  const f = h & 0x3ff
  if (e === 0) return s * f * 2 ** -24
  if (e === 31) return f ? NaN : s * Infinity
  return s * (1 + f / 1024) * 2 ** (e - 15)
}

function unit(x: number, y: number, z: number, out: Float32Array, at: number): void {
  const l = Math.hypot(x, y, z)
  if (l > 0) {
    out[at] = x / l
    out[at + 1] = y / l
    out[at + 2] = z / l
  } else {
    out[at] = 0
    out[at + 1] = 0
    out[at + 2] = 1
  }
}

/**
 * Decodes one submesh (must be checked by checkSubmeshRange). `remap` maps weight slot values to
 * bones; a weighted slot value = remap length means bone 0 (M1), larger ones are counted in
 * `badSlots` and also bound to bone 0.
 */
export function decodeSubmesh(r: Reader, b: MeshBuffer, sm: MeshSubmesh, indexSize: 2 | 4, remap: readonly number[], where: string): SubmeshGeometry & { badSlots: number } {
  if (sm.bufferIndex !== 0) throw new FormatError(`${where} keeps its vertices in streaming buffer ${sm.bufferIndex - 1} (a second file under natives/STM/streaming/), which is not read`, { structure: where, offset: r.base + sm.offset + 2 })
  const n = sm.vertexCount
  const v = r.view
  const stream = (type: number) => {
    const e = b.elements.get(type)
    return e ? { at: b.vertexBufferOffset + e.start + sm.firstVertex * e.stride, stride: e.stride } : null
  }
  const pos = stream(ELEMENT_POSITION)!
  const positions = new Float32Array(n * 3)
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) positions[i * 3 + k] = v.getFloat32(pos.at + i * 12 + k * 4, true)
  const g: SubmeshGeometry & { badSlots: number } = { positions, slots: 0, indices: new Uint32Array(sm.indexCount), badSlots: 0 }
  const nt = stream(ELEMENT_NORMAL_TANGENT)
  if (nt) {
    g.normals = new Float32Array(n * 3)
    g.tangents = new Float32Array(n * 4)
    for (let i = 0; i < n; i++) {
      const o = nt.at + i * 8
      unit(v.getInt8(o) / 127, v.getInt8(o + 1) / 127, v.getInt8(o + 2) / 127, g.normals, i * 3)
      unit(v.getInt8(o + 4) / 127, v.getInt8(o + 5) / 127, v.getInt8(o + 6) / 127, g.tangents, i * 4)
      g.tangents[i * 4 + 3] = v.getInt8(o + 7) < 0 ? -1 : 1
    }
  }
  const uv = stream(ELEMENT_UV0)
  if (uv) {
    g.uvs = new Float32Array(n * 2)
    for (let i = 0; i < n; i++) {
      g.uvs[i * 2] = halfToFloat(v.getUint16(uv.at + i * 4, true))
      g.uvs[i * 2 + 1] = halfToFloat(v.getUint16(uv.at + i * 4 + 2, true))
    }
  }
  const w = stream(ELEMENT_WEIGHTS)
  if (w) {
    const slots = w.stride / 2
    g.slots = slots
    g.joints = new Uint16Array(n * slots)
    g.weights = new Float32Array(n * slots)
    for (let i = 0; i < n; i++) {
      const o = w.at + i * w.stride
      for (let k = 0; k < slots; k++) {
        const weight = r.bytes[o + slots + k]!
        if (weight === 0) continue
        const slot = r.bytes[o + k]!
        let bone = 0
        if (slot < remap.length) bone = remap[slot]!
        else if (slot > remap.length) g.badSlots++
        g.joints[i * slots + k] = bone
        g.weights[i * slots + k] = weight / 255
      }
    }
  }
  const ib = b.indexBufferOffset + sm.firstIndex * indexSize
  for (let i = 0; i < sm.indexCount; i++) {
    const x = indexSize === 2 ? v.getUint16(ib + i * 2, true) : v.getUint32(ib + i * 4, true)
    if (x >= n) throw r.error(`${where}: index ${i} = ${x} is not below the submesh's ${n} vertices`, ib + i * indexSize, where)
    g.indices[i] = x
  }
  return g
}
