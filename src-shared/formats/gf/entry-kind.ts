/**
 * Entry classification by signature (spec §3). Each entry is classified by its own first u32,
 * not by entry 0 as SPICA's dispatcher does (SPICA issue #26: a texture-only PC file it could
 * not open). Values match SPICA's GFPkmnModel.cs, Ohana3DS-Rebirth's FileIO.cs and
 * Pokemon3DStoUnity's GetBinaryFileType.
 */
import { hex } from '../../binary/errors'
import { tryParsePackage, type GfPackage } from './package'
import { GF_TEXTURE_MAGIC } from './texture'

export type GfEntryKind = 'model' | 'texture' | 'motion' | 'bch' | 'package' | 'unknown'

export const SIG_MODEL = 0x15122117
export const SIG_MOTION = 0x00060000
export const SIG_BCH = 0x00484342
export const SIG_MODEL_PACK = 0x00010000

export interface Classification {
  kind: GfEntryKind
  /** First u32 (little-endian), or null for entries shorter than 4 bytes. */
  signature: number | null
  /** Extra detail: `empty`, `modelpack`, `lz11`, `by-structure`, `shader`. */
  note?: string
  /** The parsed nested package when kind is `package`. */
  nested?: GfPackage
  warning?: string
}

function asciiEq(b: Uint8Array, at: number, s: string): boolean {
  if (b.byteLength < at + s.length) return false
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false
  return true
}

/**
 * Classifies one entry. `ctx` locates it for warnings and for the nested package's offsets.
 */
export function classifyEntry(bytes: Uint8Array, ctx: { file?: string; entry?: number; base?: number } = {}): Classification {
  // Spec §1 calls a zero-length entry "absent"; CLI.md's kinds have no such word, so it is
  // `unknown` with note `empty` (likewise GFModelPack below: `unknown`, note `modelpack`).
  if (bytes.byteLength === 0) return { kind: 'unknown', signature: null, note: 'empty' }
  if (bytes.byteLength < 4) return { kind: 'unknown', signature: null }
  const sig = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0
  switch (sig) {
    case SIG_MODEL: return { kind: 'model', signature: sig }
    case GF_TEXTURE_MAGIC:
      // GFShaders may carry the same stamp (SPICA does not check it): a "shader" GFSection after
      // the 16-byte header, and no "texture" section at +0x08, is a shader, kept opaque.
      if (asciiEq(bytes, 0x10, 'shader\0') && !asciiEq(bytes, 0x08, 'texture\0')) return { kind: 'unknown', signature: sig, note: 'shader' }
      return { kind: 'texture', signature: sig }
    case SIG_MOTION: return { kind: 'motion', signature: sig }
    case SIG_BCH: return { kind: 'bch', signature: sig }
    case SIG_MODEL_PACK: return { kind: 'unknown', signature: sig, note: 'modelpack' }
  }
  const nested = tryParsePackage(bytes, { file: ctx.file, base: ctx.base, structure: `Package (nested in entry ${ctx.entry ?? '?'})` })
  if (nested) return { kind: 'package', signature: sig, nested }
  const where = `${ctx.file ? `${ctx.file}: ` : ''}entry ${ctx.entry ?? '?'} at ${hex(ctx.base ?? 0)}`
  // Structural fallback (spec §3): "texture\0" at +0x08 (Ohana's check), "gfmodel\0" at +0x10.
  if (bytes.byteLength >= 0x80 && asciiEq(bytes, 0x08, 'texture\0')) {
    return { kind: 'texture', signature: sig, note: 'by-structure', warning: `${where}: first u32 ${hex(sig)} is not the GFTexture signature; recognised by its "texture" section` }
  }
  if (asciiEq(bytes, 0x10, 'gfmodel\0')) {
    return { kind: 'model', signature: sig, note: 'by-structure', warning: `${where}: first u32 ${hex(sig)} is not the GFModel signature; recognised by its "gfmodel" section` }
  }
  if (bytes[0] === 0x11) return { kind: 'unknown', signature: sig, note: 'lz11' }
  return { kind: 'unknown', signature: sig }
}
