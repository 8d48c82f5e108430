import { describe, expect, it } from 'vitest'
import { decodeEnvelope, encodeEnvelope, isEnvelope } from '../../../../src-shared/transport/codec'

describe('MBV1 envelope', () => {
  it('carries typed arrays as raw bytes and restores their types and values', () => {
    const value = { name: 'mesh', positions: new Float32Array([1, -2.5, 3]), idx: new Uint32Array([0, 1, 2, 4294967295]), nested: [{ rgba: new Uint8Array([1, 2, 3]) }], n: null }
    const bytes = encodeEnvelope(value)
    expect(isEnvelope(bytes)).toBe(true)
    // The JSON part holds no number lists for the arrays.
    const jsonLen = new DataView(bytes.buffer).getUint32(4, true)
    const json = new TextDecoder().decode(bytes.subarray(8, 8 + jsonLen))
    expect(json).not.toContain('-2.5')
    expect(json).toContain('"$ta":"Float32Array"')
    const back = decodeEnvelope<typeof value>(bytes)
    expect(back.positions).toBeInstanceOf(Float32Array)
    expect([...back.positions]).toEqual([1, -2.5, 3])
    expect([...back.idx]).toEqual([0, 1, 2, 4294967295])
    expect(back.nested[0]!.rgba).toBeInstanceOf(Uint8Array)
    expect([...back.nested[0]!.rgba]).toEqual([1, 2, 3])
    expect(back.n).toBeNull()
  })

  it('keeps subarray views to their own bytes', () => {
    const big = new Uint16Array([9, 8, 7, 6])
    const back = decodeEnvelope<{ v: Uint16Array }>(encodeEnvelope({ v: big.subarray(1, 3) }))
    expect([...back.v]).toEqual([8, 7])
  })

  it('rejects truncated envelopes', () => {
    const bytes = encodeEnvelope({ a: new Float64Array([1, 2]) })
    expect(() => decodeEnvelope(bytes.subarray(0, bytes.length - 4))).toThrow(/bad typed array/)
    expect(() => decodeEnvelope(new Uint8Array([1, 2, 3]))).toThrow(/not an MBV1 envelope/)
  })
})
