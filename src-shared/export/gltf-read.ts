/**
 * glTF 2.0 (.glb or .gltf JSON) → node names and neutral animation channels, for importers.
 * Pure: external buffers are handed in by the caller (`external`, keyed by URI).
 *
 * @gltf-transform/core reads the document; before that, this file checks what it would trust
 * blindly, so bad input becomes a FormatError naming the file, the structure and, where there is
 * one, the byte offset: the GLB header and chunks (a length past the end is a truncated file),
 * every buffer's byteLength against its data, every bufferView inside its buffer, and every
 * accessor's `byteOffset + stride·(count−1) + elementSize` inside its bufferView (glTF 2.0
 * specification §3.6.2 "Data Alignment" and §5.1 accessor / §5.11 bufferView properties).
 * Animation samplers are then checked: input SCALAR times, finite and increasing; output VEC3
 * (translation, scale) or VEC4 (rotation) with `count` (×3 for CUBICSPLINE) elements, finite.
 * Normalised integer outputs are turned into floats by @gltf-transform (`getElement`). The JSON
 * fields themselves are checked, and everything an animation does not need dropped, by
 * `minimalGltf` (gltf-check.ts) first.
 */
import { WebIO, GLB_BUFFER, BufferUtils, type Accessor, type JSONDocument, type GLTF } from '@gltf-transform/core'
import { FormatError } from '../binary/errors'
import { minimalGltf } from './gltf-check'
import type { Channel, Interpolation } from '../scene/types'

export interface GltfNodeInfo {
  name: string
  /** Index of the parent node, −1 for a root. */
  parent: number
  /** The node's rest transform (its TRS, or its `matrix` decomposed). */
  translation: [number, number, number]
  rotation: [number, number, number, number]
  scale: [number, number, number]
}

export interface GltfAnimationInfo {
  name: string
  /** Channels in the neutral form (node = glTF node index); `weights` channels are left out. */
  channels: Channel[]
  extras: Record<string, unknown>
}

export interface GltfAnimations {
  nodes: GltfNodeInfo[]
  animations: GltfAnimationInfo[]
  warnings: string[]
}

export interface GltfReadOptions {
  file?: string
  /** Bytes of external buffers by their URI (relative to the .gltf). */
  external?: Record<string, Uint8Array>
}

const GLB_MAGIC = 0x46546c67 // 'glTF'
const CHUNK_JSON = 0x4e4f534a
const CHUNK_BIN = 0x004e4942
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 }
const TYPE_SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 }

interface Container {
  json: GLTF.IGLTF
  /** The GLB BIN chunk and its absolute offset, when there is one. */
  bin?: { bytes: Uint8Array; offset: number }
}

function splitGlb(bytes: Uint8Array, file?: string): Container {
  const err = (detail: string, structure: string, offset: number) => new FormatError(detail, { file, structure, offset })
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.byteLength < 20) throw err(`truncated GLB: ${bytes.byteLength} bytes, the header and the JSON chunk header need 20`, 'GLB header', 0)
  const version = dv.getUint32(4, true)
  if (version !== 2) throw err(`GLB version ${version}, only 2 is supported`, 'GLB header', 4)
  const length = dv.getUint32(8, true)
  if (length > bytes.byteLength) throw err(`truncated GLB: the header says ${length} bytes, the file has ${bytes.byteLength}`, 'GLB header.length', 8)
  const jsonLength = dv.getUint32(12, true)
  if (dv.getUint32(16, true) !== CHUNK_JSON) throw err('the first chunk is not a JSON chunk', 'GLB chunk 0', 16)
  if (20 + jsonLength > length) throw err(`truncated GLB: the JSON chunk needs ${jsonLength} bytes from 0x14, the file ends at ${length}`, 'GLB chunk 0 (JSON)', 12)
  const json = parseJson(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)), file, 'GLB chunk 0 (JSON)')
  const at = 20 + jsonLength
  if (at + 8 > length) return { json }
  const binLength = dv.getUint32(at, true)
  if (dv.getUint32(at + 4, true) !== CHUNK_BIN) return { json }
  if (at + 8 + binLength > length) throw err(`truncated GLB: the BIN chunk needs ${binLength} bytes from ${at + 8}, the file ends at ${length}`, 'GLB chunk 1 (BIN)', at)
  return { json, bin: { bytes: bytes.subarray(at + 8, at + 8 + binLength), offset: at + 8 } }
}

function parseJson(text: string, file: string | undefined, structure: string): GLTF.IGLTF {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    throw new FormatError(`not valid JSON: ${(e as Error).message}`, { file, structure })
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new FormatError('the glTF JSON is not an object', { file, structure })
  const asset = (v as { asset?: { version?: unknown } }).asset
  if (!asset || typeof asset.version !== 'string' || !asset.version.startsWith('2.')) {
    throw new FormatError(`asset.version is ${JSON.stringify(asset?.version)}, not glTF 2.x`, { file, structure: 'asset' })
  }
  return v as GLTF.IGLTF
}

function decodeDataUri(uri: string, file: string | undefined, structure: string): Uint8Array {
  if (!/^data:[^,]*;base64,/.test(uri)) throw new FormatError('only base64 data URIs are supported', { file, structure })
  try {
    return BufferUtils.createBufferFromDataURI(uri)
  } catch {
    throw new FormatError('the data URI is not valid base64', { file, structure })
  }
}

/** Buffers as bytes (GLB chunk, data URI or `external`), each checked against its byteLength. */
function resolveBuffers(c: Container, opts: GltfReadOptions): { resources: Record<string, Uint8Array>; data: Uint8Array[] } {
  const file = opts.file
  const resources: Record<string, Uint8Array> = {}
  const data = (c.json.buffers ?? []).map((b, i) => {
    const s = `buffers[${i}]`
    let bytes: Uint8Array | undefined
    if (b.uri === undefined) {
      if (!c.bin && b.byteLength > 0) throw new FormatError('has no uri and the file has no GLB BIN chunk', { file, structure: s })
      bytes = c.bin?.bytes ?? new Uint8Array(0)
      resources[GLB_BUFFER] = bytes
    } else if (b.uri.startsWith('data:')) {
      bytes = decodeDataUri(b.uri, file, s)
      resources[b.uri] = bytes
    } else {
      bytes = opts.external?.[b.uri]
      if (!bytes) throw new FormatError(`external buffer "${b.uri}" was not found`, { file, structure: s })
      resources[b.uri] = bytes
    }
    if (b.byteLength > bytes.byteLength) throw new FormatError(`byteLength is ${b.byteLength}, but only ${bytes.byteLength} bytes are there (truncated)`, { file, structure: s })
    return bytes
  })
  return { resources, data }
}

/** bufferViews inside their buffers, accessors inside their bufferViews. */
function checkViews(c: Container, buffers: Uint8Array[], file?: string): void {
  const views = c.json.bufferViews ?? []
  views.forEach((v, i) => {
    const s = `bufferViews[${i}]`
    const buf = c.json.buffers?.[v.buffer]
    if (!buf || !buffers[v.buffer]) throw new FormatError(`buffer ${v.buffer} does not exist`, { file, structure: s })
    const off = v.byteOffset ?? 0
    if (!Number.isInteger(off) || off < 0 || !Number.isInteger(v.byteLength) || v.byteLength < 0 || off + v.byteLength > buf.byteLength) {
      throw new FormatError(`byteOffset ${off} + byteLength ${v.byteLength} is past the end of buffer ${v.buffer} (${buf.byteLength} bytes)`, { file, structure: s })
    }
  })
  const inView = (view: number, off: number, bytes: number, s: string) => {
    if (off + bytes > views[view]!.byteLength) throw new FormatError(`${bytes} bytes from byteOffset ${off} are past the end of bufferViews[${view}] (${views[view]!.byteLength} bytes)`, { file, structure: s })
  }
  ;(c.json.accessors ?? []).forEach((a, i) => {
    const s = `accessors[${i}]`
    const comp = COMPONENT_BYTES[a.componentType]
    const width = TYPE_SIZE[a.type]
    if (!comp || !width) throw new FormatError(`componentType ${a.componentType} / type ${JSON.stringify(a.type)} is not a glTF accessor type`, { file, structure: s })
    if (!Number.isInteger(a.count) || a.count < 1) throw new FormatError(`count ${JSON.stringify(a.count)} is not a positive whole number`, { file, structure: s })
    const elem = comp * width
    if (a.sparse) {
      const sp = a.sparse
      inView(sp.indices.bufferView, sp.indices.byteOffset ?? 0, sp.count * COMPONENT_BYTES[sp.indices.componentType]!, `${s}.sparse.indices`)
      inView(sp.values.bufferView, sp.values.byteOffset ?? 0, sp.count * elem, `${s}.sparse.values`)
    }
    if (a.bufferView === undefined) return // all zeros (or sparse only)
    const v = views[a.bufferView]!
    const stride = v.byteStride ?? elem
    const off = a.byteOffset ?? 0
    const need = off + stride * (a.count - 1) + elem
    if (!Number.isInteger(off) || off < 0 || need > v.byteLength) {
      const inBin = c.bin && c.json.buffers?.[v.buffer]?.uri === undefined
      throw new FormatError(`count ${a.count} × ${stride} bytes from byteOffset ${off} needs ${need} bytes, but bufferViews[${a.bufferView}] has ${v.byteLength} (accessor past the buffer)`, {
        file,
        structure: s,
        ...(inBin ? { offset: c.bin!.offset + (v.byteOffset ?? 0) + off } : {}),
      })
    }
  })
}

function floats(a: Accessor, n: number): Float32Array {
  const width = a.getElementSize()
  // Plain float data: @gltf-transform already holds it as one packed array.
  const arr = a.getArray()
  if (arr instanceof Float32Array && !a.getNormalized() && arr.length >= n * width) return arr.slice(0, n * width)
  const out = new Float32Array(n * width)
  const el: number[] = []
  for (let i = 0; i < n; i++) {
    a.getElement(i, el)
    for (let k = 0; k < width; k++) out[i * width + k] = el[k]!
  }
  return out
}

function firstBad(values: Float32Array): number {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return i
  return -1
}

/** Reads node names/parents/rest TRS and every animation's channels (see the file head for the checks). */
export async function readGltfAnimations(bytes: Uint8Array, opts: GltfReadOptions = {}): Promise<GltfAnimations> {
  const file = opts.file
  const isGlb = bytes.byteLength >= 4 && new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true) === GLB_MAGIC
  const raw: Container = isGlb ? splitGlb(bytes, file) : { json: parseJson(new TextDecoder().decode(bytes), file, 'glTF JSON') }
  const c: Container = { ...raw, json: minimalGltf(raw.json, file) }
  const { resources, data } = resolveBuffers(c, opts)
  checkViews(c, data, file)
  let doc
  try {
    doc = await new WebIO().readJSON({ json: c.json, resources } as JSONDocument)
  } catch (e) {
    throw new FormatError(`glTF could not be read: ${(e as Error).message}`, { file, structure: 'glTF' })
  }
  const root = doc.getRoot()
  const nodeList = root.listNodes()
  const index = new Map(nodeList.map((n, i) => [n, i]))
  const nodes = nodeList.map((n): GltfNodeInfo => ({ name: n.getName(), parent: -1, translation: n.getTranslation(), rotation: n.getRotation(), scale: n.getScale() }))
  nodeList.forEach((n, i) => n.listChildren().forEach((ch) => (nodes[index.get(ch)!]!.parent = i)))
  const warnings: string[] = []
  const animations = root.listAnimations().map((a, ai): GltfAnimationInfo => {
    const channels: Channel[] = []
    a.listChannels().forEach((ch, ci) => {
      const s = `animations[${ai}] "${a.getName()}" channels[${ci}]`
      const path = ch.getTargetPath()
      const node = ch.getTargetNode()
      const sampler = ch.getSampler()
      if (!node || !sampler) throw new FormatError('has no target node or no sampler', { file, structure: s })
      if (path !== 'translation' && path !== 'rotation' && path !== 'scale') {
        warnings.push(`${s}: ${path} channel of node "${node.getName()}" ignored`)
        return
      }
      channels.push(readChannel(sampler.getInput(), sampler.getOutput(), sampler.getInterpolation() as Interpolation, path, index.get(node)!, `${s} (${path} of node "${node.getName()}")`, file))
    })
    return { name: a.getName(), channels, extras: (a.getExtras() ?? {}) as Record<string, unknown> }
  })
  return { nodes, animations, warnings }
}

function readChannel(input: Accessor | null, output: Accessor | null, interpolation: Interpolation, path: Channel['path'], node: number, s: string, file?: string): Channel {
  if (!input || !output) throw new FormatError('sampler has no input or output accessor', { file, structure: s })
  if (input.getType() !== 'SCALAR') throw new FormatError(`sampler input is ${input.getType()}, not SCALAR times`, { file, structure: s })
  const width = path === 'rotation' ? 4 : 3
  if (output.getElementSize() !== width) throw new FormatError(`sampler output is ${output.getType()}, a ${path} needs ${width === 4 ? 'VEC4' : 'VEC3'}`, { file, structure: s })
  const n = input.getCount()
  const perKey = interpolation === 'CUBICSPLINE' ? 3 : 1
  if (output.getCount() !== n * perKey) throw new FormatError(`sampler has ${n} times but ${output.getCount()} output elements (${interpolation} needs ${n * perKey})`, { file, structure: s })
  const times = floats(input, n)
  const values = floats(output, n * perKey)
  const bt = firstBad(times)
  if (bt >= 0) throw new FormatError(`key ${bt}: time is NaN or infinite`, { file, structure: s })
  for (let k = 1; k < n; k++) if (!(times[k]! > times[k - 1]!)) throw new FormatError(`key ${k}: time ${times[k]} does not increase (previous ${times[k - 1]})`, { file, structure: s })
  const bv = firstBad(values)
  if (bv >= 0) throw new FormatError(`key ${Math.floor(bv / width / perKey)}: value is NaN or infinite`, { file, structure: s })
  return { node, path, times, values, interpolation }
}
