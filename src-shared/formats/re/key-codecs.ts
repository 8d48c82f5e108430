/**
 * Key encodings of mot tracks (spec §5). A codec decodes `keyCount` keys starting at a byte
 * offset into x, y, z (vectors) or x, y, z, w (rotations). `U[i]` is float i of the track's
 * unpack block. Rotations other than Full rebuild w = sqrt(max(0, 1 − x² − y² − z²)).
 *
 * Byte order (§5.6): packed multi-field codes are read as one integer, little-endian unless
 * the spec lists them as big-endian (13-, 18-, 24-, 12-pair, 20/24/28-bit codes, translation
 * 0x60000, rotation 0x60000 from mot 932); fields are taken from the low bits upward, first
 * (or first-named) axis lowest.
 */
import { quatW } from './euler'
import type { MotLayout } from './versions'

export type TrackValueKind = 'rotation' | 'vector'

export interface KeyCodec {
  code: number
  name: string
  /** Bytes per key. */
  bytes: number
  /** Floats of the unpack block this codec reads (0 = no unpack block). */
  unpack: number
  /** Decodes the key at byte `o` of `b` into out[at..at+3] (vectors) or out[at..at+4] (rotations). */
  decode(b: Uint8Array, dv: DataView, o: number, U: ArrayLike<number>, out: Float64Array, at: number): void
}

/** Bits [bit, bit + width) of the n-byte unsigned integer at `o` (big- or little-endian). */
export function packedField(b: Uint8Array, o: number, n: number, bigEndian: boolean, bit: number, width: number): number {
  let v = 0
  let mul = 1
  for (let i = 0; i < width; i++) {
    const k = bit + i
    const byte = bigEndian ? b[o + n - 1 - (k >> 3)]! : b[o + (k >> 3)]!
    if ((byte >> (k & 7)) & 1) v += mul
    mul *= 2
  }
  return v
}

const max = (bits: number): number => 2 ** bits - 1

// ---- rotation codecs --------------------------------------------------------------------

function rotFull(): KeyCodec {
  return {
    code: 0, name: 'Full', bytes: 16, unpack: 0,
    decode(_b, dv, o, _U, out, at) {
      out[at] = dv.getFloat32(o, true); out[at + 1] = dv.getFloat32(o + 4, true)
      out[at + 2] = dv.getFloat32(o + 8, true); out[at + 3] = dv.getFloat32(o + 12, true)
    },
  }
}

function rot3Component(code: number): KeyCodec {
  return {
    code, name: '3Component', bytes: 12, unpack: 0,
    decode(_b, dv, o, _U, out, at) {
      const x = dv.getFloat32(o, true), y = dv.getFloat32(o + 4, true), z = dv.getFloat32(o + 8, true)
      out[at] = x; out[at + 1] = y; out[at + 2] = z; out[at + 3] = quatW(x, y, z)
    },
  }
}

/** Three packed fields of `bits` each; scale U0..2, base U[base..base+2]. */
function rotPacked(code: number, name: string, bytes: number, bits: number, bigEndian: boolean, base: number): KeyCodec {
  const m = max(bits)
  return {
    code, name, bytes, unpack: base + 3,
    decode(b, _dv, o, U, out, at) {
      const x = U[0]! * (packedField(b, o, bytes, bigEndian, 0, bits) / m) + U[base]!
      const y = U[1]! * (packedField(b, o, bytes, bigEndian, bits, bits) / m) + U[base + 1]!
      const z = U[2]! * (packedField(b, o, bytes, bigEndian, 2 * bits, bits) / m) + U[base + 2]!
      out[at] = x; out[at + 1] = y; out[at + 2] = z; out[at + 3] = quatW(x, y, z)
    },
  }
}

/** One animated axis (x, y or z) from an integer: axis = U0·v/max + U1, the other two 0. */
function rotAxisInt(code: number, axis: number, bytes: number, bigEndian: boolean): KeyCodec {
  const bits = bytes * 8
  const m = max(bits)
  return {
    code, name: `${'XYZ'[axis]}Axis${bits}Bit`, bytes, unpack: 2,
    decode(b, _dv, o, U, out, at) {
      const v = U[0]! * (packedField(b, o, bytes, bigEndian, 0, bits) / m) + U[1]!
      out[at] = 0; out[at + 1] = 0; out[at + 2] = 0; out[at + axis] = v
      out[at + 3] = quatW(out[at]!, out[at + 1]!, out[at + 2]!)
    },
  }
}

function rotAxisFloat(code: number, axis: number): KeyCodec {
  return {
    code, name: `${'XYZ'[axis]}Axis`, bytes: 4, unpack: 0,
    decode(_b, dv, o, _U, out, at) {
      out[at] = 0; out[at + 1] = 0; out[at + 2] = 0; out[at + axis] = dv.getFloat32(o, true)
      out[at + 3] = quatW(out[at]!, out[at + 1]!, out[at + 2]!)
    },
  }
}

// ---- vector (translation/scale) codecs ----------------------------------------------------

function vecFull(): KeyCodec {
  return {
    code: 0, name: 'Full', bytes: 12, unpack: 0,
    decode(_b, dv, o, _U, out, at) {
      out[at] = dv.getFloat32(o, true); out[at + 1] = dv.getFloat32(o + 4, true); out[at + 2] = dv.getFloat32(o + 8, true)
    },
  }
}

function vecPacked(code: number, name: string, bytes: number, bits: number, bigEndian: boolean, base: number): KeyCodec {
  const m = max(bits)
  return {
    code, name, bytes, unpack: base + 3,
    decode(b, _dv, o, U, out, at) {
      for (let i = 0; i < 3; i++) out[at + i] = U[i]! * (packedField(b, o, bytes, bigEndian, i * bits, bits) / m) + U[base + i]!
    },
  }
}

/** Single animated axis from an integer: axis = U0·v/max + U[1+axis]; others = U[1+i]. */
function vecAxisInt(code: number, axis: number, bytes: number, bigEndian: boolean): KeyCodec {
  const bits = bytes * 8
  const m = max(bits)
  return {
    code, name: `${'XYZ'[axis]}Axis${bits}Bit`, bytes, unpack: 4,
    decode(b, _dv, o, U, out, at) {
      for (let i = 0; i < 3; i++) out[at + i] = U[1 + i]!
      out[at + axis] = U[0]! * (packedField(b, o, bytes, bigEndian, 0, bits) / m) + U[1 + axis]!
    },
  }
}

/** x = y = z = U0·v/65535 + U1 (spec §5.2 0x24000; REE-Lib takes U3 and Noesis U4 as the base: conflict, spec wins). */
function vecUniform16(code: number): KeyCodec {
  return {
    code, name: 'XYZAxis16Bit', bytes: 2, unpack: 2,
    decode(_b, dv, o, U, out, at) {
      const v = U[0]! * (dv.getUint16(o, true) / 65535) + U[1]!
      out[at] = v; out[at + 1] = v; out[at + 2] = v
    },
  }
}

function vecUniformFloat(code: number, name: string): KeyCodec {
  return {
    code, name, bytes: 4, unpack: 0,
    decode(_b, dv, o, _U, out, at) {
      const v = dv.getFloat32(o, true)
      out[at] = v; out[at + 1] = v; out[at + 2] = v
    },
  }
}

/** One axis from a float; the other two are constants U0..U2 at their own positions. */
function vecAxisFloat(code: number, axis: number): KeyCodec {
  return {
    code, name: `${'XYZ'[axis]}Axis`, bytes: 4, unpack: 3,
    decode(_b, dv, o, U, out, at) {
      out[at] = U[0]!; out[at + 1] = U[1]!; out[at + 2] = U[2]!
      out[at + axis] = dv.getFloat32(o, true)
    },
  }
}

/**
 * Two animated axes `a1`, `a2` (in the order of the code's name; a1 in the low bits):
 * scales U0, U1; per-axis minimum U2..U4 (x, y, z); the third axis is its minimum.
 */
function vecTwoAxisInt(code: number, a1: number, a2: number, bytes: number, bits: number, bigEndian: boolean): KeyCodec {
  const m = max(bits)
  return {
    code, name: `${'XYZ'[a1]}${'XYZ'[a2]}Axis${bits}Bit`, bytes, unpack: 5,
    decode(b, _dv, o, U, out, at) {
      out[at] = U[2]!; out[at + 1] = U[3]!; out[at + 2] = U[4]!
      out[at + a1] = U[0]! * (packedField(b, o, bytes, bigEndian, 0, bits) / m) + U[2 + a1]!
      out[at + a2] = U[1]! * (packedField(b, o, bytes, bigEndian, bits, bits) / m) + U[2 + a2]!
    },
  }
}

/** Two axes as two f32 (first-named first); the third axis is the constant U[third]. */
function vecTwoAxisFloat(code: number, a1: number, a2: number): KeyCodec {
  return {
    code, name: `${'XYZ'[a1]}${'XYZ'[a2]}Axis`, bytes: 8, unpack: 3,
    decode(_b, dv, o, U, out, at) {
      out[at] = U[0]!; out[at + 1] = U[1]!; out[at + 2] = U[2]!
      out[at + a1] = dv.getFloat32(o, true)
      out[at + a2] = dv.getFloat32(o + 4, true)
    },
  }
}

// ---- tables -----------------------------------------------------------------------------

const X = 0, Y = 1, Z = 2

function table(list: KeyCodec[]): Map<number, KeyCodec> {
  return new Map(list.map((c) => [c.code, c]))
}

function rotationTableRe3(bigEndian16: boolean): Map<number, KeyCodec> {
  return table([
    rotFull(),
    rot3Component(0xb0000),
    rot3Component(0xc0000),
    rotPacked(0x20000, '5Bit', 2, 5, false, 4),
    rotPacked(0x30000, '8Bit', 3, 8, false, 4), // three plain bytes x, y, z (§5.6)
    rotPacked(0x40000, '10Bit', 4, 10, false, 4),
    rotPacked(0x50000, '13Bit', 5, 13, true, 4),
    rotPacked(0x60000, '16Bit', 6, 16, bigEndian16, 4), // three LE u16 below mot 932
    rotPacked(0x70000, '18Bit', 7, 18, true, 4),
    rotPacked(0x80000, '21Bit', 8, 21, false, 4),
    rotAxisInt(0x21000, X, 2, false), rotAxisInt(0x22000, Y, 2, false), rotAxisInt(0x23000, Z, 2, false),
    rotAxisInt(0x31000, X, 3, true), rotAxisInt(0x32000, Y, 3, true), rotAxisInt(0x33000, Z, 3, true),
    rotAxisFloat(0x41000, X), rotAxisFloat(0x42000, Y), rotAxisFloat(0x43000, Z),
  ])
}

function vectorTableRe3(): Map<number, KeyCodec> {
  return table([
    vecFull(),
    vecPacked(0x20000, '5BitB', 2, 5, false, 3),
    vecPacked(0x30000, '8BitB', 3, 8, false, 3),
    vecPacked(0x40000, '10BitB', 4, 10, false, 3),
    vecPacked(0x50000, '13Bit', 5, 13, true, 3),
    vecPacked(0x60000, '16Bit', 6, 16, true, 3),
    vecPacked(0x70000, '18Bit', 7, 18, true, 3),
    vecPacked(0x80000, '21BitB', 8, 21, false, 3),
    vecAxisInt(0x21000, X, 2, false), vecAxisInt(0x22000, Y, 2, false), vecAxisInt(0x23000, Z, 2, false),
    vecUniform16(0x24000),
    vecTwoAxisInt(0x25000, X, Y, 2, 8, false), vecTwoAxisInt(0x26000, X, Z, 2, 8, false), vecTwoAxisInt(0x27000, Y, Z, 2, 8, false),
    vecAxisInt(0x31000, X, 3, true), vecAxisInt(0x32000, Y, 3, true), vecAxisInt(0x33000, Z, 3, true),
    vecTwoAxisInt(0x35000, Y, Z, 3, 12, true), vecTwoAxisInt(0x36000, X, Z, 3, 12, true), vecTwoAxisInt(0x37000, X, Y, 3, 12, true),
    vecAxisFloat(0x41000, X), vecAxisFloat(0x42000, Y), vecAxisFloat(0x43000, Z),
    vecUniformFloat(0x44000, 'XYZAxis'),
    vecTwoAxisInt(0x45000, X, Y, 4, 16, false), vecTwoAxisInt(0x46000, X, Z, 4, 16, false), vecTwoAxisInt(0x47000, Y, Z, 4, 16, false),
    vecTwoAxisInt(0x55000, X, Y, 5, 20, true), vecTwoAxisInt(0x56000, Y, Z, 5, 20, true), vecTwoAxisInt(0x57000, Z, X, 5, 20, true),
    vecTwoAxisInt(0x65000, X, Y, 6, 24, true), vecTwoAxisInt(0x66000, Y, Z, 6, 24, true), vecTwoAxisInt(0x67000, Z, X, 6, 24, true),
    vecTwoAxisInt(0x75000, X, Y, 7, 28, true), vecTwoAxisInt(0x76000, Y, Z, 7, 28, true), vecTwoAxisInt(0x77000, Z, X, 7, 28, true),
    vecTwoAxisFloat(0x85000, X, Y), vecTwoAxisFloat(0x86000, Y, Z), vecTwoAxisFloat(0x87000, Z, X),
  ])
}

/** Mot 43/65 (RE7, RE2, DMC5): the "DMC5 table" of §5.3, with the older "A" variants (base U4..6). */
function rotationTableDmc5(): Map<number, KeyCodec> {
  return table([
    rotFull(),
    rot3Component(0xb0000),
    rot3Component(0xc0000),
    rotPacked(0x30000, '10Bit', 4, 10, false, 4),
    rotPacked(0x40000, '10BitA', 4, 10, false, 4),
    rotPacked(0x50000, '16BitA', 6, 16, false, 4),
    rotPacked(0x70000, '21Bit', 8, 21, false, 4),
    rotAxisInt(0x21000, X, 2, false), rotAxisInt(0x22000, Y, 2, false), rotAxisInt(0x23000, Z, 2, false),
    rotAxisFloat(0x31000, X), rotAxisFloat(0x32000, Y), rotAxisFloat(0x33000, Z),
    rotAxisFloat(0x41000, X), rotAxisFloat(0x42000, Y), rotAxisFloat(0x43000, Z),
  ])
}

function vectorTableDmc5(): Map<number, KeyCodec> {
  return table([
    vecFull(),
    vecPacked(0x20000, '5BitA', 2, 5, false, 4),
    vecPacked(0x30000, '10BitA', 4, 10, false, 4),
    vecPacked(0x40000, '10BitA', 4, 10, false, 4),
    vecPacked(0x70000, '21BitA', 8, 21, false, 4),
    vecAxisInt(0x21000, X, 2, false), vecAxisInt(0x22000, Y, 2, false), vecAxisInt(0x23000, Z, 2, false),
    vecUniform16(0x24000),
    vecAxisFloat(0x31000, X), vecAxisFloat(0x32000, Y), vecAxisFloat(0x33000, Z),
    vecUniformFloat(0x34000, 'ScalesXYZ'),
  ])
}

const TABLES = {
  re3Rot: rotationTableRe3(false),
  wildsRot: rotationTableRe3(true),
  re3Vec: vectorTableRe3(),
  dmc5Rot: rotationTableDmc5(),
  dmc5Vec: vectorTableDmc5(),
}

/** The codec for a compression code (flags & 0xFF000) of a track of this mot layout. */
export function keyCodec(kind: TrackValueKind, code: number, layout: Pick<MotLayout, 'codecTable' | 'rotation16BitBigEndian'>): KeyCodec | undefined {
  if (layout.codecTable === 'dmc5') return (kind === 'rotation' ? TABLES.dmc5Rot : TABLES.dmc5Vec).get(code)
  if (kind === 'vector') return TABLES.re3Vec.get(code)
  return (layout.rotation16BitBigEndian ? TABLES.wildsRot : TABLES.re3Rot).get(code)
}

/** Every code a layout can read, for messages and tests. */
export function knownCodes(kind: TrackValueKind, layout: Pick<MotLayout, 'codecTable' | 'rotation16BitBigEndian'>): number[] {
  const t = layout.codecTable === 'dmc5' ? (kind === 'rotation' ? TABLES.dmc5Rot : TABLES.dmc5Vec) : kind === 'vector' ? TABLES.re3Vec : layout.rotation16BitBigEndian ? TABLES.wildsRot : TABLES.re3Rot
  return [...t.keys()]
}
