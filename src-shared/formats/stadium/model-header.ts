/**
 * The model header (geo 0x17): texture table, palette (TLUT) table, vertex pool
 * (pokemon-stadium.md §6, §10; pret `include/global.h` unk_D_86002F34_018 / _01C,
 * `src/12D80.c` func_80015B20).
 *
 * Texture record (12 bytes): u8 fmt, u8 siz, s16 width, s16 height, s16 texelCount, ptr pixels.
 * Palette record (12 bytes): s32 entryCount, ptr data, ptr loading DL (SETTIMG + LOADTLUT; the DL
 * is authoritative, as in the pipeline).
 */
import { hex } from '../../binary'
import { decodePalette, decodeTexture, texelFormat, textureByteSize } from '../n64/texture'
import type { Module } from './fragment'
import type { ModelHeaderNode } from './geo-layout'

export interface TextureRecord {
  index: number
  at: number
  fmt: number
  siz: number
  width: number
  height: number
  texelCount: number
  /** File offset of the pixels, −1 when outside the module. */
  data: number
  format: string
}

export interface PaletteRecord {
  index: number
  at: number
  count: number
  /** File offset of the RGBA5551 entries (from the loading DL when it has a SETTIMG). */
  data: number
  dl: number
}

export interface ModelTables {
  textures: TextureRecord[]
  palettes: PaletteRecord[]
  vertexCount: number
  vertexPool: number
  warnings: string[]
}

export function readModelTables(mod: Module, h: ModelHeaderNode | null): ModelTables {
  const out: ModelTables = { textures: [], palettes: [], vertexCount: h?.vertexCount ?? 0, vertexPool: h?.vertexPool ?? -1, warnings: [] }
  if (!h) return out
  const r = mod.r
  if (h.textureCount > 0 && h.textureTable >= 0) {
    r.count(h.textureCount, 12, 'ModelHeader.textureTable', h.textureTable)
    for (let i = 0; i < h.textureCount; i++) {
      const at = h.textureTable + i * 12
      const fmt = r.u8At(at, 'TextureRecord.fmt')
      const siz = r.u8At(at + 1, 'TextureRecord.siz')
      const ptr = r.u32At(at + 8, 'TextureRecord.pixels')
      out.textures.push({ index: i, at, fmt, siz, width: r.i16At(at + 2), height: r.i16At(at + 4), texelCount: r.i16At(at + 6), data: mod.owns(ptr) ? ptr - mod.base : -1, format: texelFormat(fmt, siz) ?? `fmt${fmt}/siz${siz}` })
    }
  }
  if (h.paletteCount > 0 && h.paletteTable >= 0) {
    r.count(h.paletteCount, 12, 'ModelHeader.paletteTable', h.paletteTable)
    for (let i = 0; i < h.paletteCount; i++) {
      const at = h.paletteTable + i * 12
      let count = r.i32At(at, 'PaletteRecord.count')
      const dataPtr = r.u32At(at + 4, 'PaletteRecord.data')
      const dlPtr = r.u32At(at + 8, 'PaletteRecord.dl')
      let data = mod.owns(dataPtr) ? dataPtr - mod.base : -1
      const dl = mod.owns(dlPtr) ? dlPtr - mod.base : -1
      if (dl >= 0) {
        // Scan at most 16 commands of the loading DL, stopping at G_ENDDL.
        for (let k = 0; k < 16 && dl + k * 8 + 8 <= mod.bytes.length; k++) {
          const w0 = r.u32At(dl + k * 8)
          const w1 = r.u32At(dl + k * 8 + 4)
          const op = w0 >>> 24
          if (op === 0xdf) break
          if (op === 0xfd && mod.owns(w1)) data = w1 - mod.base
          if (op === 0xf0) count = ((w1 >>> 14) & 0x3ff) + 1
        }
      }
      out.palettes.push({ index: i, at, count, data, dl })
    }
  }
  return out
}

/**
 * Decodes texture `ti` with palette `pi` (CI formats; bank for CI4) to RGBA8. RDRAM data is linear.
 */
export function decodeModelTexture(mod: Module, tables: ModelTables, ti: number, pi: number, bank: number): { width: number; height: number; rgba: Uint8Array } {
  const t = tables.textures[ti]
  if (!t) throw mod.error(`texture index ${ti} is outside the ${tables.textures.length}-entry texture table`, 'TextureTable')
  if (t.data < 0) throw mod.error(`texture ${ti} pixels are outside the module`, 'TextureRecord', t.at)
  if (t.width <= 0 || t.height <= 0 || t.width > 1024 || t.height > 1024) throw mod.error(`texture ${ti} has a bad size ${t.width}×${t.height}`, 'TextureRecord', t.at)
  const data = mod.r.bytesAt(t.data, textureByteSize(t.siz, t.width, t.height), `Texture[${ti}].pixels`)
  let palette: Uint8Array | undefined
  if (t.fmt === 2) {
    const p = tables.palettes[pi] ?? tables.palettes[0]
    if (!p || p.data < 0) throw mod.error(`CI texture ${ti} has no palette (index ${pi})`, 'TextureRecord', t.at)
    const entries = t.siz === 0 ? 16 : Math.min(256, Math.max(1, p.count))
    const first = t.siz === 0 ? bank * 16 : 0
    const raw = mod.r.bytesAt(p.data + first * 2, entries * 2, `Palette[${p.index}] bank ${bank}`)
    palette = decodePalette(raw, entries, 'RGBA16', `Palette[${p.index}] at ${hex(p.data)}`)
  }
  const rgba = decodeTexture({ fmt: t.fmt, siz: t.siz, width: t.width, height: t.height, data, palette, where: `Texture[${ti}] at ${hex(t.data)}` })
  return { width: t.width, height: t.height, rgba }
}
