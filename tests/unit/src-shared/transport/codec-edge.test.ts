import { describe, expect, it } from 'vitest'
import { decodeEnvelope, encodeEnvelope } from '../../../../src-shared/transport/codec'

/** An MBV1 envelope around hand-written JSON and blob bytes (layout in codec.ts). */
function envelope(json: string, blob: number[]): Uint8Array {
  const text = new TextEncoder().encode(json)
  const head = (8 + text.length + 7) & ~7
  const out = new Uint8Array(head + blob.length)
  out.set([0x4d, 0x42, 0x56, 0x31])
  new DataView(out.buffer).setUint32(4, text.length, true)
  out.set(text, 8)
  out.set(blob, head)
  return out
}

describe('MBV1 envelope: hostile descriptors', () => {
  it('decodes a well-formed hand-written envelope', () => {
    const v = decodeEnvelope<{ a: Uint16Array }>(envelope('{"a":{"$ta":"Uint16Array","o":0,"n":4}}', [1, 0, 2, 1]))
    expect(v.a).toBeInstanceOf(Uint16Array)
    expect([...v.a]).toEqual([1, 0x102])
  })

  it('refuses bad offsets, lengths and constructor names instead of returning empty or foreign bytes', () => {
    const blob = [1, 2, 3, 4, 5, 6, 7, 8]
    for (const d of ['{"$ta":"Uint8Array","o":-8,"n":8}', '{"$ta":"Uint8Array","o":null,"n":4}', '{"$ta":"Uint8Array","o":0,"n":"4"}', '{"$ta":"Uint8Array","o":0.5,"n":4}', '{"$ta":"Float32Array","o":0,"n":6}', '{"$ta":"Uint8Array","o":4,"n":8}', '{"$ta":"toString","o":0,"n":0}', '{"$ta":"DataView","o":0,"n":4}']) {
      expect(() => decodeEnvelope(envelope(`{"x":${d}}`, blob)), d).toThrow(/MBV1 envelope/)
    }
  })

  it('round-trips empty and 64-bit typed arrays', () => {
    const v = { e: new Float64Array(0), b: new BigInt64Array([-1n, 1n << 62n]), u: new BigUint64Array([(1n << 64n) - 1n]) }
    const back = decodeEnvelope<typeof v>(encodeEnvelope(v))
    expect(back.e).toBeInstanceOf(Float64Array)
    expect(back.e.length).toBe(0)
    expect([...back.b]).toEqual([-1n, 1n << 62n])
    expect([...back.u]).toEqual([(1n << 64n) - 1n])
  })
})
