/**
 * A second, minimal GARC + LZ11 reader written from spec gf-packages §19 alone (no code of
 * src-*), used to check what our writer produces. It reads the header with DataView, walks FATB
 * sequentially as pk3DS does (and checks FATO agrees), and decodes LZ11 by the §19.5 token rules.
 * It returns plain data and throws plain Errors.
 */

export interface OracleGarc {
  version: number
  alignment: number
  dataOffset: number
  largest: number
  largestUnpadded: number | null
  entries: { start: number; end: number; length: number; bytes: Uint8Array }[]
}

export function oracleReadGarc(b: Uint8Array): OracleGarc {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength)
  const tag = (o: number) => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!)
  if (tag(0) !== 'CRAG') throw new Error('no CRAG')
  const hs = dv.getUint32(4, true)
  const version = dv.getUint16(10, true)
  if (dv.getUint16(8, true) !== 0xfeff) throw new Error('BOM')
  if (!((version === 0x400 && hs === 0x1c) || (version === 0x600 && hs === 0x24))) throw new Error('version/header size')
  if (dv.getUint32(12, true) !== 4) throw new Error('sections')
  const dataOffset = dv.getUint32(16, true)
  if (dv.getUint32(20, true) !== b.length) throw new Error('file size')
  const largest = dv.getUint32(24, true)
  const largestUnpadded = version === 0x600 ? dv.getUint32(28, true) : null
  const alignment = version === 0x600 ? dv.getUint32(32, true) : 4
  let p = hs
  if (tag(p) !== 'OTAF') throw new Error('OTAF')
  const count = dv.getUint16(p + 8, true)
  if (dv.getUint16(p + 10, true) !== 0xffff) throw new Error('FATO padding')
  if (dv.getUint32(p + 4, true) !== 12 + 4 * count) throw new Error('FATO size')
  const fato = Array.from({ length: count }, (_, i) => dv.getUint32(p + 12 + 4 * i, true))
  p += 12 + 4 * count
  if (tag(p) !== 'BTAF') throw new Error('BTAF')
  const fatbSize = dv.getUint32(p + 4, true)
  if (dv.getUint32(p + 8, true) !== count) throw new Error('FATB file count')
  const recs = p + 12
  let q = recs
  const entries: OracleGarc['entries'] = []
  for (let i = 0; i < count; i++) {
    if (q - recs !== fato[i]) throw new Error(`FATO ${i} disagrees with the sequential position`)
    if (dv.getUint32(q, true) !== 1) throw new Error('vector')
    const start = dv.getUint32(q + 4, true)
    const end = dv.getUint32(q + 8, true)
    const length = dv.getUint32(q + 12, true)
    q += 16
    entries.push({ start, end, length, bytes: b.subarray(dataOffset + start, dataOffset + start + length) })
  }
  if (q !== p + fatbSize) throw new Error('FATB size')
  if (tag(q) !== 'BMIF' || dv.getUint32(q + 4, true) !== 12) throw new Error('BMIF')
  if (q + 12 !== dataOffset) throw new Error('data offset')
  if (dv.getUint32(q + 8, true) !== b.length - dataOffset) throw new Error('FIMB data size')
  return { version, alignment, dataOffset, largest, largestUnpadded, entries }
}

/** LZ11 by §19.5 (throws on a back-reference before the start or input running out). */
export function oracleLz11(s: Uint8Array): Uint8Array {
  if (s[0] !== 0x11) throw new Error('type')
  let size = s[1]! | (s[2]! << 8) | (s[3]! << 16)
  let p = 4
  if (size === 0) {
    size = (s[4]! | (s[5]! << 8) | (s[6]! << 16) | (s[7]! << 24)) >>> 0
    p = 8
  }
  const out: number[] = []
  const need = (k: number) => {
    if (p + k > s.length) throw new Error('stream ends early')
  }
  while (out.length < size) {
    need(1)
    const flags = s[p++]!
    for (let bit = 7; bit >= 0 && out.length < size; bit--) {
      if (!(flags & (1 << bit))) {
        need(1)
        out.push(s[p++]!)
        continue
      }
      need(2)
      const a = s[p]!
      let len: number
      let d: number
      if (a >> 4 >= 2) {
        len = (a >> 4) + 1
        d = ((a & 0xf) << 8) | s[p + 1]!
        p += 2
      } else if (a >> 4 === 0) {
        need(3)
        len = (((a & 0xf) << 4) | (s[p + 1]! >> 4)) + 0x11
        d = ((s[p + 1]! & 0xf) << 8) | s[p + 2]!
        p += 3
      } else {
        need(4)
        len = (((a & 0xf) << 12) | (s[p + 1]! << 4) | (s[p + 2]! >> 4)) + 0x111
        d = ((s[p + 2]! & 0xf) << 8) | s[p + 3]!
        p += 4
      }
      if (d + 1 > out.length) throw new Error('back-reference before the start')
      for (let k = 0; k < len; k++) out.push(out[out.length - d - 1]!)
    }
  }
  if (out.length !== size) throw new Error('past the declared size')
  return new Uint8Array(out)
}
