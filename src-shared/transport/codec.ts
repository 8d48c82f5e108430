/**
 * Binary envelope for API requests and replies in browser mode, so typed arrays travel as raw
 * bytes, never as JSON number lists (DESIGN.md "Two transports").
 *
 * Layout: "MBV1" | u32 LE JSON length | JSON (UTF-8) | zero pad to 8 | blobs, each 8-aligned.
 * In the JSON each typed array is replaced by {"$ta": ctor name, "o": blob offset, "n": bytes}.
 */
const MAGIC = [0x4d, 0x42, 0x56, 0x31] // "MBV1"

type TypedArray =
  | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array
  | Float32Array | Float64Array | BigInt64Array | BigUint64Array

const CTORS = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
} as const
type CtorName = keyof typeof CTORS

function ctorName(v: TypedArray): CtorName {
  return Object.prototype.toString.call(v).slice(8, -1) as CtorName
}

const align8 = (n: number) => (n + 7) & ~7

export function encodeEnvelope(value: unknown): Uint8Array {
  const blobs: Uint8Array[] = []
  let blobBytes = 0
  const json = JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      const ta = v as TypedArray
      const bytes = new Uint8Array(ta.buffer, ta.byteOffset, ta.byteLength)
      const o = blobBytes
      blobs.push(bytes)
      blobBytes = align8(blobBytes + bytes.byteLength)
      return { $ta: ctorName(ta), o, n: bytes.byteLength }
    }
    return v
  })
  const text = new TextEncoder().encode(json ?? 'null')
  const head = align8(8 + text.byteLength)
  const out = new Uint8Array(head + blobBytes)
  out.set(MAGIC, 0)
  new DataView(out.buffer).setUint32(4, text.byteLength, true)
  out.set(text, 8)
  let o = head
  for (const b of blobs) {
    out.set(b, o)
    o = align8(o + b.byteLength)
  }
  return out
}

export function isEnvelope(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 8 && MAGIC.every((m, i) => bytes[i] === m)
}

export function decodeEnvelope<T = unknown>(bytes: Uint8Array): T {
  if (!isEnvelope(bytes)) throw new Error('not an MBV1 envelope')
  const len = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true)
  if (8 + len > bytes.byteLength) throw new Error(`MBV1 envelope: JSON length ${len} runs past the ${bytes.byteLength}-byte body`)
  const head = align8(8 + len)
  const json = new TextDecoder().decode(bytes.subarray(8, 8 + len))
  return JSON.parse(json, (_k, v: unknown) => {
    if (v && typeof v === 'object' && '$ta' in v) {
      const { $ta, o, n } = v as { $ta: CtorName; o: number; n: number }
      const Ctor = CTORS[$ta]
      const ok = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0
      if (!Ctor || !Object.prototype.hasOwnProperty.call(CTORS, $ta) || !ok(o) || !ok(n) || n % Ctor.BYTES_PER_ELEMENT !== 0 || head + o + n > bytes.byteLength) throw new Error(`MBV1 envelope: bad typed array ${$ta} at ${o}+${n}`)
      // Copy into a fresh, aligned buffer (the body's offset may not suit the element size).
      const copy = bytes.slice(head + o, head + o + n)
      return new Ctor(copy.buffer, 0, n / Ctor.BYTES_PER_ELEMENT)
    }
    return v
  }) as T
}
