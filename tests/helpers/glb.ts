/** Reading a .glb by hand in tests (glTF 2.0 §4.4 binary container), independent of the exporter. */
import { expect } from 'vitest'

/** The JSON chunk, after checking the header (magic, version 2, total length, JSON chunk type). */
export function glbJson(glb: Uint8Array): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength)
  expect(v.getUint32(0, true)).toBe(0x46546c67) // 'glTF'
  expect(v.getUint32(4, true)).toBe(2)
  expect(v.getUint32(8, true)).toBe(glb.byteLength)
  const len = v.getUint32(12, true)
  expect(v.getUint32(16, true)).toBe(0x4e4f534a) // 'JSON'
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + len)))
}

/** The float values of accessor `i` (tightly packed FLOAT components), read from the BIN chunk. */
export function glbFloats(glb: Uint8Array, i: number): number[] {
  const json = glbJson(glb)
  const v = new DataView(glb.buffer, glb.byteOffset, glb.byteLength)
  const binStart = 20 + v.getUint32(12, true) + 8
  const acc = json.accessors[i]
  const view = json.bufferViews[acc.bufferView]
  const width = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT4: 16 }[acc.type as string] ?? 1
  const off = binStart + (view.byteOffset ?? 0) + (acc.byteOffset ?? 0)
  return Array.from({ length: acc.count * width }, (_, k) => v.getFloat32(off + k * 4, true))
}

/** The bytes of the image named `name` (its bufferView in the BIN chunk). */
export function glbImageBytes(glb: Uint8Array, name: string): Uint8Array {
  const json = glbJson(glb)
  const img = json.images.find((i: { name: string }) => i.name === name)
  const view = json.bufferViews[img.bufferView]
  const bin = 20 + new DataView(glb.buffer, glb.byteOffset, glb.byteLength).getUint32(12, true) + 8
  return glb.subarray(bin + (view.byteOffset ?? 0), bin + (view.byteOffset ?? 0) + view.byteLength)
}
