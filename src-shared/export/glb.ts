/**
 * The GLB container (glTF 2.0 specification §4.4 "Binary glTF Layout") and the part of the glTF
 * JSON that places data: buffer, bufferViews, accessors. Written by hand because the exporter is
 * the hot path of a batch export: building a @gltf-transform/core property graph for every model
 * cost ~85 % of a Stadium model's glb time (docs/DECISIONS.md, "The glb writer"); glTF-Transform
 * stays the reader (`gltf-read.ts`) and the independent oracle in the tests.
 *
 * Layout, fixed here so a reader of the files knows it:
 * - one buffer (the GLB's BIN chunk), named `data`;
 * - every vertex attribute in a bufferView of its own (tightly packed, target ARRAY_BUFFER);
 * - all index accessors in one bufferView (target ELEMENT_ARRAY_BUFFER);
 * - all inverse bind matrices in one bufferView, all animation data in another (no target);
 * - every image in a bufferView of its own, after all the others;
 * - every bufferView starts on a 4-byte boundary; the JSON chunk is padded with spaces, the BIN
 *   chunk with zeros (§4.4.3).
 * Data is copied once, into the output file. Typed arrays are written little-endian whatever the
 * host's byte order.
 */

export type AccessorType = 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4'
export type AccessorArray = Float32Array | Uint16Array | Uint32Array

type Json = Record<string, unknown>
/**
 * Where an accessor's data goes: its own vertex view, or the one view shared by all accessors of
 * that use (a bufferView holds one kind of data, or the validator reports a usage override).
 */
export type AccessorUse = 'vertex' | 'index' | 'ibm' | 'animation'

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 } as const
const ARRAY_BUFFER = 34962
const ELEMENT_ARRAY_BUFFER = 34963
const GLB_MAGIC = 0x46546c67 // "glTF"
const CHUNK_JSON = 0x4e4f534a
const CHUNK_BIN = 0x004e4942
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

const componentType = (a: AccessorArray): number => (a instanceof Float32Array ? 5126 : a instanceof Uint16Array ? 5123 : 5125)
const pad4 = (n: number): number => (n + 3) & ~3

/** Bytes of a typed array as stored in glTF (little-endian), without a copy on little-endian hosts. */
function leBytes(a: AccessorArray): Uint8Array {
  const raw = new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  if (LITTLE_ENDIAN) return raw
  const out = new Uint8Array(raw.length)
  const size = a.BYTES_PER_ELEMENT
  for (let i = 0; i < raw.length; i += size) for (let b = 0; b < size; b++) out[i + b] = raw[i + size - 1 - b]!
  return out
}

/** A group of byte pieces that becomes one bufferView. */
interface Block {
  /** Its index in bufferViews. */
  index: number
  pieces: Uint8Array[]
  /** End of the last piece (the view's byteLength). */
  end: number
  /** `end` rounded up to 4: where the next piece, or the next block, starts. */
  length: number
  view: Json
}

/** Builds the data half of a glTF document and writes it as a GLB. */
export class GlbWriter {
  readonly accessors: Json[] = []
  readonly bufferViews: Json[] = []
  private readonly blocks: Block[] = []
  private readonly images: Block[] = []
  private readonly shared = new Map<AccessorUse, Block>()

  private block(target?: number): Block {
    const view: Json = { buffer: 0, byteOffset: 0, byteLength: 0 }
    if (target !== undefined) view.target = target
    const b: Block = { index: this.bufferViews.length, pieces: [], end: 0, length: 0, view }
    this.bufferViews.push(view)
    this.blocks.push(b)
    return b
  }

  private append(b: Block, bytes: Uint8Array): number {
    const at = b.length
    b.pieces.push(bytes)
    b.end = at + bytes.length
    b.length = pad4(b.end)
    return at
  }

  /**
   * Adds an accessor and returns its index. `bounds` writes min/max (required for POSITION and
   * animation inputs, glTF 2.0 §5.1).
   */
  accessor(name: string, type: AccessorType, array: AccessorArray, use: AccessorUse, bounds = false): number {
    const per = COMPONENTS[type]
    const count = array.length / per
    if (!Number.isInteger(count)) throw new Error(`accessor ${name}: ${array.length} values are not whole ${type} elements`)
    let b = use === 'vertex' ? this.block(ARRAY_BUFFER) : this.shared.get(use)
    if (!b) this.shared.set(use, (b = this.block(use === 'index' ? ELEMENT_ARRAY_BUFFER : undefined)))
    const byteOffset = this.append(b, leBytes(array))
    const def: Json = { name, type, componentType: componentType(array), count, bufferView: b.index, byteOffset }
    if (!name) delete def.name
    if (bounds && count > 0) {
      const min = new Array<number>(per).fill(Infinity)
      const max = new Array<number>(per).fill(-Infinity)
      for (let i = 0; i < array.length; i += per) {
        for (let c = 0; c < per; c++) {
          const v = array[i + c]!
          if (v < min[c]!) min[c] = v
          if (v > max[c]!) max[c] = v
        }
      }
      def.min = min
      def.max = max
    }
    this.accessors.push(def)
    return this.accessors.length - 1
  }

  /** Adds an image's bytes as a bufferView of its own (placed after all other data) and returns the view's index. */
  imageView(bytes: Uint8Array): number {
    const view: Json = { buffer: 0, byteOffset: 0, byteLength: 0 }
    const b: Block = { index: this.bufferViews.length, pieces: [bytes], end: bytes.length, length: pad4(bytes.length), view }
    this.bufferViews.push(view)
    this.images.push(b)
    return b.index
  }

  /** True when nothing has been added: the document then has no buffer (an empty buffer is invalid glTF). */
  get empty(): boolean {
    return this.accessors.length === 0 && this.images.length === 0
  }

  /** The GLB file: `json` completed with buffers/bufferViews/accessors, then the BIN chunk. */
  finish(json: Json): Uint8Array {
    let at = 0
    for (const b of [...this.blocks, ...this.images]) {
      b.view.byteOffset = at
      b.view.byteLength = b.end
      at += b.length
    }
    const binLength = at
    const full: Json = { ...json }
    if (!this.empty) {
      full.accessors = this.accessors
      full.bufferViews = this.bufferViews
      full.buffers = [{ name: 'data', byteLength: binLength }]
    }
    const text = new TextEncoder().encode(JSON.stringify(full))
    const jsonLength = pad4(text.length)
    const total = 12 + 8 + jsonLength + (this.empty ? 0 : 8 + binLength)
    const out = new Uint8Array(total)
    const dv = new DataView(out.buffer)
    dv.setUint32(0, GLB_MAGIC, true)
    dv.setUint32(4, 2, true)
    dv.setUint32(8, total, true)
    dv.setUint32(12, jsonLength, true)
    dv.setUint32(16, CHUNK_JSON, true)
    out.set(text, 20)
    out.fill(0x20, 20 + text.length, 20 + jsonLength)
    if (!this.empty) {
      const bin = 20 + jsonLength
      dv.setUint32(bin, binLength, true)
      dv.setUint32(bin + 4, CHUNK_BIN, true)
      for (const b of [...this.blocks, ...this.images]) {
        let p = bin + 8 + (b.view.byteOffset as number)
        for (const piece of b.pieces) {
          out.set(piece, p)
          p = pad4(p + piece.length) // the BIN data starts 4-aligned, so absolute and relative padding agree
        }
      }
    }
    return out
  }
}
