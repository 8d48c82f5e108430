/**
 * PICA200 float24 (spec §4.6; SPICA `PICAVectorFloat24.cs`, 3dbrew "GPU/Internal Registers"):
 * 1 sign bit (23), 7-bit exponent (16–22, bias 63), 16-bit mantissa (0–15). A vec4 of float24
 * codes is packed into three u32 words (DATA0, DATA1, DATA2) for fixed attributes and 24-bit
 * float uniforms.
 */

const f32 = new Float32Array(1)
const u32 = new Uint32Array(f32.buffer)

/** float24 code (low 24 bits of `code`) → number. */
export function float24ToNumber(code: number): number {
  const c = code & 0xffffff
  const sign = (c >>> 23) & 1
  if ((c & 0x7fffff) === 0) return sign ? -0 : 0
  const exp = (c >>> 16) & 0x7f
  u32[0] = ((sign << 31) | ((exp + 64) << 23) | ((c & 0xffff) << 7)) >>> 0
  return f32[0]!
}

/** number → float24 code (mantissa truncated, as the spec's conversion). */
export function numberToFloat24(v: number): number {
  f32[0] = v
  const b = u32[0]!
  const sign = b >>> 31
  if ((b & 0x7fffffff) === 0) return sign << 23
  const exp = ((b >>> 23) & 0xff) - 64
  return ((sign << 23) | ((exp & 0x7f) << 16) | ((b & 0x7fffff) >>> 7)) >>> 0
}

/** Three packed words → [x, y, z, w] float24 codes (spec §4.6). */
export function unpackFloat24Words(d0: number, d1: number, d2: number): [number, number, number, number] {
  const w = (d0 >>> 8) & 0xffffff
  const z = (((d0 & 0xff) << 16) | (d1 >>> 16)) >>> 0
  const y = (((d1 & 0xffff) << 8) | (d2 >>> 24)) >>> 0
  const x = d2 & 0xffffff
  return [x, y, z, w]
}

/** [x, y, z, w] codes → the three words DATA0, DATA1, DATA2. */
export function packFloat24Words(x: number, y: number, z: number, w: number): [number, number, number] {
  const d0 = ((w << 8) | (z >>> 16)) >>> 0
  const d1 = (((z & 0xffff) << 16) | (y >>> 8)) >>> 0
  const d2 = (((y & 0xff) << 24) | x) >>> 0
  return [d0, d1, d2]
}

/** A float24 vec4 from its three packed words, as numbers. */
export function vec4FromFloat24Words(d0: number, d1: number, d2: number): [number, number, number, number] {
  const [x, y, z, w] = unpackFloat24Words(d0, d1, d2)
  return [float24ToNumber(x), float24ToNumber(y), float24ToNumber(z), float24ToNumber(w)]
}

/** A vec4 of numbers as three packed float24 words. */
export function vec4ToFloat24Words(v: readonly number[]): [number, number, number] {
  return packFloat24Words(numberToFloat24(v[0] ?? 0), numberToFloat24(v[1] ?? 0), numberToFloat24(v[2] ?? 0), numberToFloat24(v[3] ?? 0))
}
