import { describe, expect, it } from 'vitest'
import { keyCodec, packedField, type TrackValueKind } from '../../../../../src-shared/formats/re/key-codecs'
import { decodeTrackFlags, encodeTrackFlags } from '../../../../../src-shared/formats/re/track'
import { motLayout } from '../../../../../src-shared/formats/re/versions'
import {
  encodeKeys,
  quantStep,
  codecAxes,
  RE3_ROTATION_CODES,
  RE3_VECTOR_CODES,
  DMC5_ROTATION_CODES,
  DMC5_VECTOR_CODES,
  type Table,
} from '../../../../fixtures/re/codec-encoder'

const RE4R = motLayout(613)
const RE2 = motLayout(65)
const WILDS = motLayout(932)
const f = Math.fround

function decode(kind: TrackValueKind, code: number, bytes: number[], U: number[], layout = RE4R): number[] {
  const c = keyCodec(kind, code, layout)
  if (!c) throw new Error(`no codec 0x${code.toString(16)}`)
  expect(bytes.length).toBe(c.bytes)
  const b = new Uint8Array(bytes)
  const out = new Float64Array(kind === 'rotation' ? 4 : 3)
  c.decode(b, new DataView(b.buffer), 0, new Float32Array(U), out, 0)
  return [...out]
}
const f32bytes = (...v: number[]) => {
  const b = new Uint8Array(v.length * 4)
  v.forEach((x, i) => new DataView(b.buffer).setFloat32(i * 4, x, true))
  return [...b]
}
const close = (a: number[], b: number[], eps = 1e-6) => a.forEach((v, i) => expect(Math.abs(v - b[i]!), `component ${i}: ${v} vs ${b[i]}`).toBeLessThanOrEqual(eps))
const w = (x: number, y: number, z: number) => Math.sqrt(1 - x * x - y * y - z * z)

describe('track flags (spec §10.4)', () => {
  it('0x00422112: quaternion, YAxis16Bit, u16 indices (seed)', () => {
    expect(decodeTrackFlags(0x00422112)).toEqual({ valueType: 0x112, compression: 0x22000, indexSize: 4 })
  })
  it('0x004B0112: quaternion, 0xB0000 3Component, u16 (RE2 sample)', () => {
    expect(decodeTrackFlags(0x004b0112)).toEqual({ valueType: 0x112, compression: 0xb0000, indexSize: 4 })
    expect(keyCodec('rotation', 0xb0000, RE2)?.name).toBe('3Component')
  })
  it('0x004000F2: vector3, Full, u16 (RE2 sample)', () => {
    expect(decodeTrackFlags(0x004000f2)).toEqual({ valueType: 0xf2, compression: 0, indexSize: 4 })
  })
  it('encodes the ready-made words of §4.4', () => {
    expect(encodeTrackFlags({ valueType: 0x112, compression: 0xc0000, indexSize: 2 })).toBe(0x002c0112)
    expect(encodeTrackFlags({ valueType: 0x112, compression: 0xc0000, indexSize: 4 })).toBe(0x004c0112)
    expect(encodeTrackFlags({ valueType: 0xf2, compression: 0, indexSize: 2 })).toBe(0x002000f2)
    expect(encodeTrackFlags({ valueType: 0xf2, compression: 0, indexSize: 4 })).toBe(0x004000f2)
  })
})

describe('the seed\'s real key (spec §10.2)', () => {
  it('YAxis16Bit raw 56868 with U = (0.1369131, −0.4289638) → y = −0.3101574, w = 0.9506852', () => {
    const q = decode('rotation', 0x22000, [56868 & 0xff, 56868 >> 8], [0.1369131, -0.4289638])
    close(q, [0, -0.3101574, 0, 0.9506852], 5e-7)
    // about Y this is −0.63072 rad
    expect(2 * Math.atan2(q[1]!, q[3]!)).toBeCloseTo(-0.63072, 4)
  })
})

describe('rotation codecs, mot ≥ 78, hand-computed', () => {
  const U = [0.5, 0.4, 0.2, 9, -0.1, 0.05, 0.1, 9]
  it('Full stores w (no rebuild)', () => {
    expect(decode('rotation', 0x00000, f32bytes(0, 0, 0, -1), [])).toEqual([0, 0, 0, -1])
  })
  it('3Component (0xC0000) rebuilds w', () => {
    close(decode('rotation', 0xc0000, f32bytes(0.5, 0.5, 0.5), []), [0.5, 0.5, 0.5, 0.5])
  })
  it('5Bit: u16 LE, fields at 0/5/10, scale U0..2, base U4..6', () => {
    const v = 31 | (0 << 5) | (16 << 10)
    const x = f(0.5) * 1 + f(-0.1), y = f(0.05), z = f(0.2) * 16 / 31 + f(0.1)
    close(decode('rotation', 0x20000, [v & 0xff, v >> 8], U), [x, y, z, w(x, y, z)])
  })
  it('8Bit: three plain bytes x, y, z', () => {
    const x = f(0.5) + f(-0.1), y = f(0.05), z = f(0.2) * 128 / 255 + f(0.1)
    close(decode('rotation', 0x30000, [255, 0, 128], U), [x, y, z, w(x, y, z)])
  })
  it('10Bit: u32 LE, 10-bit fields', () => {
    const x = f(0.5) + f(-0.1), y = f(0.4) * 512 / 1023 + f(0.05), z = f(0.1)
    close(decode('rotation', 0x40000, [0xff, 0x03, 0x08, 0x00], U), [x, y, z, w(x, y, z)])
  })
  it('13Bit: 5 bytes big-endian, X in the low 13 bits', () => {
    // v = 0x00_0400_1FFF: x = 8191, y = 0, z = 1
    const x = f(0.5) + f(-0.1), y = f(0.05), z = f(0.2) / 8191 + f(0.1)
    close(decode('rotation', 0x50000, [0x00, 0x04, 0x00, 0x1f, 0xff], U), [x, y, z, w(x, y, z)])
  })
  it('16Bit: three LE u16 below mot 932; one big-endian 48-bit integer from mot 932', () => {
    const bytes = [0xff, 0xff, 0x00, 0x00, 0x00, 0x80]
    const x = f(0.5) + f(-0.1), y = f(0.05), z = f(0.2) * 32768 / 65535 + f(0.1)
    close(decode('rotation', 0x60000, bytes, U), [x, y, z, w(x, y, z)])
    // BE: integer 0xFFFF00000080 → x = 0x0080, y = 0, z = 0xFFFF
    const x2 = f(0.5) * 128 / 65535 + f(-0.1), z2 = f(0.2) + f(0.1)
    close(decode('rotation', 0x60000, bytes, U, WILDS), [x2, y, z2, w(x2, y, z2)])
  })
  it('18Bit: 7 bytes big-endian', () => {
    // v = 1 + (262143 << 18) = 0x0FFFFC0001
    const x = f(0.5) / 262143 + f(-0.1), y = f(0.4) + f(0.05), z = f(0.1)
    close(decode('rotation', 0x70000, [0, 0, 0x0f, 0xff, 0xfc, 0x00, 0x01], U), [x, y, z, w(x, y, z)])
  })
  it('21Bit: u64 LE', () => {
    // x = 2097151, y = 0, z = 1 (bit 42 = byte 5, bit 2)
    const x = f(0.5) + f(-0.1), y = f(0.05), z = f(0.2) / 2097151 + f(0.1)
    close(decode('rotation', 0x80000, [0xff, 0xff, 0x1f, 0, 0, 0x04, 0, 0], U), [x, y, z, w(x, y, z)])
  })
  it('X/Z Axis16Bit and Y Axis24Bit (big-endian) and Z Axis float', () => {
    close(decode('rotation', 0x21000, [0xff, 0xff], [0.3, 0.1]), [f(0.3) + f(0.1), 0, 0, w(f(0.3) + f(0.1), 0, 0)])
    const y = f(0.6) * 0x800000 / 16777215 + f(-0.2)
    close(decode('rotation', 0x32000, [0x80, 0x00, 0x00], [0.6, -0.2]), [0, y, 0, w(0, y, 0)])
    close(decode('rotation', 0x43000, f32bytes(0.5), []), [0, 0, 0.5, Math.sqrt(0.75)])
  })
})

describe('vector codecs, mot ≥ 78, hand-computed', () => {
  it('Full', () => {
    close(decode('vector', 0, f32bytes(1, -2, 3), []), [1, -2, 3])
  })
  it('5BitB: base at U3..5', () => {
    const v = 31 | (0 << 5) | (16 << 10)
    close(decode('vector', 0x20000, [v & 0xff, v >> 8], [2, 3, 4, 10, 20, 30]), [12, 20, 4 * 16 / 31 + 30])
  })
  it('XAxis16Bit: x = U0·v/65535 + U1, y = U2, z = U3', () => {
    close(decode('vector', 0x21000, [0xff, 0xff], [2, 1, 5, 6]), [3, 5, 6])
    close(decode('vector', 0x22000, [0, 0], [2, 1, 5, 6]), [1, 5, 6])
  })
  it('XYZAxis16Bit (uniform): base U1', () => {
    close(decode('vector', 0x24000, [0xff, 0xff], [0.5, 1]), [1.5, 1.5, 1.5])
  })
  it('XZAxis8Bit: scales U0, U1; minimum per axis U2..U4', () => {
    close(decode('vector', 0x26000, [255, 0], [2, 3, 10, 20, 30]), [12, 20, 30])
  })
  it('YZAxis12Bit: big-endian 24-bit, Y (first-named) in the low 12 bits', () => {
    close(decode('vector', 0x35000, [0x00, 0x0f, 0xff], [2, 3, 10, 20, 30]), [10, 22, 30])
    close(decode('vector', 0x35000, [0xff, 0xf0, 0x00], [2, 3, 10, 20, 30]), [10, 20, 33])
  })
  it('ZXAxis20Bit: the low field is Z', () => {
    close(decode('vector', 0x57000, [0x00, 0x00, 0x0f, 0xff, 0xff], [2, 3, 10, 20, 30]), [10, 20, 32])
  })
  it('ZXAxis float: z first, then x; y constant U1', () => {
    close(decode('vector', 0x87000, f32bytes(1.5, -2), [7, 8, 9]), [-2, 8, 1.5])
  })
  it('X Axis float: others from U at their positions; XYZ uniform float', () => {
    close(decode('vector', 0x41000, f32bytes(4), [7, 8, 9]), [4, 8, 9])
    close(decode('vector', 0x44000, f32bytes(0.25), []), [0.25, 0.25, 0.25])
  })
})

describe('mot 43/65 "DMC5" table', () => {
  it('5BitA and 10BitA take their base from U4..6', () => {
    const v = 31 | (0 << 5) | (16 << 10)
    close(decode('vector', 0x20000, [v & 0xff, v >> 8], [2, 3, 4, 99, 10, 20, 30], RE2), [12, 20, 4 * 16 / 31 + 30])
    close(decode('vector', 0x40000, [0xff, 0x03, 0, 0], [2, 3, 4, 99, 10, 20, 30], RE2), [12, 20, 30])
  })
  it('LoadScalesXYZ (0x34000) and axis floats (0x31000)', () => {
    close(decode('vector', 0x34000, f32bytes(2), [], RE2), [2, 2, 2])
    close(decode('vector', 0x31000, f32bytes(4), [7, 8, 9], RE2), [4, 8, 9])
    close(decode('rotation', 0x31000, f32bytes(0.6), [], RE2), [0.6, 0, 0, 0.8])
  })
  it('has no RE3+ codes like 0x80000', () => {
    expect(keyCodec('rotation', 0x80000, RE2)).toBeUndefined()
    expect(keyCodec('vector', 0x44000, RE2)).toBeUndefined()
  })
})

describe('packedField', () => {
  it('reads big- and little-endian fields from the low bits up', () => {
    const b = new Uint8Array([0x12, 0x34, 0x56])
    expect(packedField(b, 0, 3, true, 0, 24)).toBe(0x123456)
    expect(packedField(b, 0, 3, false, 0, 24)).toBe(0x563412)
    expect(packedField(b, 0, 3, true, 0, 12)).toBe(0x456)
    expect(packedField(b, 0, 3, true, 12, 12)).toBe(0x123)
  })
})

describe('every codec decodes what the fixture encoder wrote (within one quantisation step)', () => {
  const tables: [Table, number, number[], number[]][] = [
    ['re3', 613, RE3_ROTATION_CODES, RE3_VECTOR_CODES],
    ['wilds', 932, RE3_ROTATION_CODES, RE3_VECTOR_CODES],
    ['dmc5', 65, DMC5_ROTATION_CODES, DMC5_VECTOR_CODES],
  ]
  for (const [table, version, rcodes, vcodes] of tables) {
    const layout = motLayout(version)
    for (const [kind, codes] of [['rotation', rcodes], ['vector', vcodes]] as const) {
      it.each(codes.map((c) => [`0x${c.toString(16)}`, c]))(`${table} ${kind} %s`, (_, code) => {
        const axes = codecAxes(table, kind, code)
        const width = kind === 'rotation' ? 4 : 3
        const n = 9
        const values: number[] = []
        for (let i = 0; i < n; i++) {
          const a = Math.sin(i * 1.3 + code / 4096) * 0.4
          let v = [a, -0.5 * a + 0.1, 0.3 * Math.cos(i)]
          if (axes === 'uniform') v = [a, a, a]
          else if (axes !== 'xyz') v = v.map((x, k) => (axes.includes(k) ? x : [0.2, -0.3, 0.4][k]!))
          if (kind === 'rotation') {
            if (Array.isArray(axes)) v = v.map((x, k) => (axes.includes(k) ? x : 0))
            values.push(...v, Math.sqrt(1 - v[0]! ** 2 - v[1]! ** 2 - v[2]! ** 2))
          } else values.push(...v)
        }
        const enc = encodeKeys(table, kind, code, values)
        const c = keyCodec(kind, code, layout)!
        expect(enc.data.length).toBe(n * c.bytes)
        const out = new Float64Array(n * width)
        const U = new Float32Array(8)
        U.set(enc.unpack.slice(0, 8))
        for (let i = 0; i < n; i++) c.decode(enc.data, new DataView(enc.data.buffer), i * c.bytes, U, out, i * width)
        const step = quantStep(table, kind, code, 1.2)
        for (let i = 0; i < n * width; i++) {
          if (kind === 'rotation' && i % 4 === 3) continue
          expect(Math.abs(out[i]! - values[i]!), `value ${i}`).toBeLessThanOrEqual(step / 2 + 2e-7)
        }
        if (kind === 'rotation') for (let i = 0; i < n; i++) expect(Math.hypot(...out.subarray(i * 4, i * 4 + 4))).toBeCloseTo(1, 5)
      })
    }
  }
})
