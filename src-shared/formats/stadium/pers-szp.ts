/**
 * PERS-SZP: the wrapper around each compressed file of a Stadium archive
 * (pokemon-stadium.md §3.2; pret `src/3FB0.h` PERSSZP, `src/3FB0.c` func_80003890).
 *
 *   0x00 "PERS-SZP"  0x08 u32 headerSize (Yay0 starts here)  0x0C u32 dataSize
 *   0x10 u32 totalSize  0x14 u32 patchCount  0x18 {u32 value, u32 offset}[patchCount]
 *
 * Like the game: allocate totalSize, decode the Yay0 stream at the start, store each patch word
 * (in order), then zero-fill [dataSize, totalSize). The zero-fill comes last, so a patch in the
 * tail is wiped.
 */
import { FormatError, Reader, hex } from '../../binary'
import { decodeYay0, isYay0, readYay0Header } from '../n64/yay0'

export const PERS_SZP_MAGIC = 'PERS-SZP'
/** Sanity bound on a module's size (the game's model pool is 0x3C000; we allow 16× that). */
export const MAX_MODULE_SIZE = 0x3c000 * 16

export interface PersSzpPatch {
  value: number
  offset: number
}

export interface UnwrapResult {
  bytes: Uint8Array
  container: 'pers-szp' | 'yay0' | 'raw'
  headerSize?: number
  dataSize?: number
  totalSize?: number
  yay0OutSize?: number
  patches: PersSzpPatch[]
  warnings: string[]
}

export function isPersSzp(b: Uint8Array): boolean {
  if (b.length < 8) return false
  for (let i = 0; i < 8; i++) if (b[i] !== PERS_SZP_MAGIC.charCodeAt(i)) return false
  return true
}

/**
 * Unwraps one archive file: PERS-SZP → Yay0 → bytes; a bare Yay0 stream is decoded as-is; anything
 * else is returned uncompressed. `base` is the file's absolute offset (for error messages).
 */
export function unwrapFile(src: Uint8Array, opts: { file?: string; base?: number } = {}): UnwrapResult {
  const base = opts.base ?? 0
  if (isYay0(src)) {
    const bytes = decodeYay0(src, { file: opts.file, base, maxOutput: MAX_MODULE_SIZE })
    return { bytes, container: 'yay0', yay0OutSize: bytes.length, patches: [], warnings: [] }
  }
  if (!isPersSzp(src)) return { bytes: src, container: 'raw', patches: [], warnings: [] }

  const r = new Reader(src, { endian: 'big', file: opts.file, base, structure: 'PERS-SZP' })
  const warnings: string[] = []
  const headerSize = r.u32At(0x08, 'PERS-SZP.headerSize')
  const dataSize = r.u32At(0x0c, 'PERS-SZP.dataSize')
  const totalSize = r.u32At(0x10, 'PERS-SZP.totalSize')
  const patchCount = r.u32At(0x14, 'PERS-SZP.patchCount')
  r.count(patchCount, 8, 'PERS-SZP.patches', 0x18)
  if (totalSize > MAX_MODULE_SIZE) throw r.error(`totalSize ${hex(totalSize)} is larger than any model module can be`, 0x10)
  if (headerSize < 0x18 + 8 * patchCount) warnings.push(`PERS-SZP headerSize ${hex(headerSize)} is smaller than its ${patchCount} patches need`)
  if (headerSize >= src.length) throw r.error(`headerSize ${hex(headerSize)} points past the end of the ${hex(src.length)}-byte file`, 0x08)
  const patches: PersSzpPatch[] = []
  for (let i = 0; i < patchCount; i++) {
    patches.push({ value: r.u32At(0x18 + i * 8, `PERS-SZP.patch[${i}].value`), offset: r.u32At(0x1c + i * 8, `PERS-SZP.patch[${i}].offset`) })
  }
  if (patchCount) warnings.push(`PERS-SZP has ${patchCount} patch${patchCount === 1 ? '' : 'es'} (applied)`)
  if (totalSize < dataSize) warnings.push(`PERS-SZP totalSize ${hex(totalSize)} < dataSize ${hex(dataSize)}`)

  const stream = src.subarray(headerSize)
  if (!isYay0(stream)) throw new FormatError('no "Yay0" stream after the PERS-SZP header', { file: opts.file, structure: 'PERS-SZP', offset: base + headerSize })
  const yh = readYay0Header(stream, { file: opts.file, base: base + headerSize, maxOutput: MAX_MODULE_SIZE })
  if (yh.outSize !== dataSize) warnings.push(`PERS-SZP dataSize ${hex(dataSize)} differs from the Yay0 outSize ${hex(yh.outSize)}`)
  const decoded = decodeYay0(stream, { file: opts.file, base: base + headerSize, maxOutput: MAX_MODULE_SIZE })

  const size = Math.max(totalSize, 0)
  const out = new Uint8Array(size)
  out.set(decoded.subarray(0, Math.min(decoded.length, size)))
  const ov = new DataView(out.buffer)
  patches.forEach((p, i) => {
    if (p.offset % 4 !== 0 || p.offset + 4 > size) {
      throw new FormatError(`patch ${i} offset ${hex(p.offset)} is not a word inside the ${hex(size)}-byte module`, { file: opts.file, structure: 'PERS-SZP', offset: base + 0x1c + i * 8 })
    }
    ov.setUint32(p.offset, p.value)
  })
  if (dataSize < size) out.fill(0, dataSize, size)
  return { bytes: out, container: 'pers-szp', headerSize, dataSize, totalSize, yay0OutSize: yh.outSize, patches, warnings }
}

/** Wraps a Yay0 stream in a PERS-SZP header (fixtures). */
export function wrapPersSzp(yay0: Uint8Array, dataSize: number, totalSize: number, patches: PersSzpPatch[] = []): Uint8Array {
  const headerSize = 0x18 + patches.length * 8
  const out = new Uint8Array(headerSize + yay0.length)
  const v = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) out[i] = PERS_SZP_MAGIC.charCodeAt(i)
  v.setUint32(0x08, headerSize)
  v.setUint32(0x0c, dataSize)
  v.setUint32(0x10, totalSize)
  v.setUint32(0x14, patches.length)
  patches.forEach((p, i) => {
    v.setUint32(0x18 + i * 8, p.value)
    v.setUint32(0x1c + i * 8, p.offset)
  })
  out.set(yay0, headerSize)
  return out
}
