/**
 * The RDP side of the F3DEX2 interpreter (pokemon-snap.md §5.4–§5.6; pokemon-stadium.md §8): the
 * texture and colour commands (SETTIMG, SETTILE, LOADBLOCK/TILE/TLUT, colours, combine,
 * othermodes), the texture a tile samples, its RGBA8 decode, UVs and wrap modes.
 */
import { hex } from '../../binary'
import { G, OtherModeH } from './gbi'
import { bitsPerTexel, blockRowBytes, decodePalette, decodeTexture } from './texture'
import type { Memory, RdpState, TextureRef, TextureState } from './f3dex2-state'

const rgba = (w: number): [number, number, number, number] => [(w >>> 24) & 0xff, (w >>> 16) & 0xff, (w >>> 8) & 0xff, w & 0xff]

/** Executes an RDP state command on `s`; false when `op` is not one (the interpreter handles it). */
export function execRdp(s: RdpState, op: number, w0: number, w1: number): boolean {
  switch (op) {
    case G.SETOTHERMODE_L: case G.SETOTHERMODE_H: {
      const len = (w0 & 0xff) + 1
      const shift = 32 - ((w0 >>> 8) & 0xff) - len
      const mask = len >= 32 ? 0xffffffff : (((1 << len) - 1) << shift) >>> 0
      if (op === G.SETOTHERMODE_L) s.otherModeL = ((s.otherModeL & ~mask) | (w1 & mask)) >>> 0
      else s.otherModeH = ((s.otherModeH & ~mask) | (w1 & mask)) >>> 0
      s.touch()
      return true
    }
    case G.RDPSETOTHERMODE:
      s.otherModeH = w0 & 0xffffff
      s.otherModeL = w1
      s.touch()
      return true
    case G.SETTIMG:
      s.timg = { fmt: (w0 >>> 21) & 7, siz: (w0 >>> 19) & 3, width: (w0 & 0xfff) + 1, addr: s.resolve(w1) }
      return true
    case G.SETTILE: {
      const t = s.tiles[(w1 >>> 24) & 7]!
      t.fmt = (w0 >>> 21) & 7; t.siz = (w0 >>> 19) & 3; t.line = (w0 >>> 9) & 0x1ff; t.tmem = w0 & 0x1ff
      t.palette = (w1 >>> 20) & 0xf; t.cmt = (w1 >>> 18) & 3; t.maskt = (w1 >>> 14) & 0xf; t.shiftt = (w1 >>> 10) & 0xf
      t.cms = (w1 >>> 8) & 3; t.masks = (w1 >>> 4) & 0xf; t.shifts = w1 & 0xf
      s.touch()
      return true
    }
    case G.SETTILESIZE: {
      const t = s.tiles[(w1 >>> 24) & 7]!
      t.uls = (w0 >>> 12) & 0xfff; t.ult = w0 & 0xfff; t.lrs = (w1 >>> 12) & 0xfff; t.lrt = w1 & 0xfff
      s.touch()
      return true
    }
    case G.LOADBLOCK: {
      const t = s.tiles[(w1 >>> 24) & 7]!
      s.tmem.set(t.tmem, { addr: s.timg.addr, kind: 'block', fmt: s.timg.fmt, siz: s.timg.siz, dxt: w1 & 0xfff, count: ((w1 >>> 12) & 0xfff) + 1 })
      s.touch()
      return true
    }
    case G.LOADTILE: {
      const t = s.tiles[(w1 >>> 24) & 7]!
      t.uls = (w0 >>> 12) & 0xfff; t.ult = w0 & 0xfff; t.lrs = (w1 >>> 12) & 0xfff; t.lrt = w1 & 0xfff
      const bpp = bitsPerTexel(s.timg.siz)
      const pitch = (s.timg.width * bpp) / 8
      const src = s.timg.addr + Math.floor(((t.ult >>> 2) * s.timg.width + (t.uls >>> 2)) * bpp / 8)
      s.tmem.set(t.tmem, { addr: src >>> 0, kind: 'tile', pitch, fmt: s.timg.fmt, siz: s.timg.siz })
      s.touch()
      return true
    }
    case G.LOADTLUT: {
      const t = s.tiles[(w1 >>> 24) & 7]!
      s.tmem.set(t.tmem, { addr: s.timg.addr, kind: 'tlut', fmt: s.timg.fmt, siz: s.timg.siz, count: ((w1 >>> 14) & 0x3ff) + 1 })
      s.touch()
      return true
    }
    case G.SETFOGCOLOR: s.fogColor = rgba(w1); s.touch(); return true
    case G.SETBLENDCOLOR: s.blendColor = rgba(w1); s.touch(); return true
    case G.SETPRIMCOLOR:
      s.primColor = rgba(w1); s.primMinLevel = (w0 >>> 8) & 0xff; s.primLodFrac = w0 & 0xff
      s.touch()
      return true
    case G.SETENVCOLOR: s.envColor = rgba(w1); s.touch(); return true
    case G.SETCOMBINE: s.combineHi = w0 & 0xffffff; s.combineLo = w1; s.touch(); return true
    default:
      return false
  }
}

export function textureRefFor(s: RdpState, tileIndex: number, warn: (message: string) => void): TextureRef | null {
  const tile = s.tiles[tileIndex & 7]!
  const loaded = s.tmem.get(tile.tmem)
  if (!loaded) {
    warn(`tile ${tileIndex} samples TMEM ${hex(tile.tmem)}, where nothing was loaded`)
    return null
  }
  let w = ((tile.lrs - tile.uls) >> 2) + 1
  let h = ((tile.lrt - tile.ult) >> 2) + 1
  if (tile.masks) w = Math.min(w, 1 << tile.masks)
  if (tile.maskt) h = Math.min(h, 1 << tile.maskt)
  if (w <= 0 || h <= 0) {
    if (tile.masks && tile.maskt) { w = 1 << tile.masks; h = 1 << tile.maskt }
    else { warn(`tile ${tileIndex} has no size`); return null }
  }
  const rowBytes = loaded.kind === 'tile' ? loaded.pitch! : blockRowBytes(tile.siz, w, tile.line)
  const ref: TextureRef = {
    tileIndex, tile: { ...tile }, fmt: tile.fmt, siz: tile.siz, width: w, height: h,
    addr: loaded.addr, rowBytes, deinterleave: loaded.kind === 'block' && loaded.dxt === 0 && h > 1,
  }
  if (tile.fmt === 2) {
    const palTmem = tile.siz === 0 ? 0x100 + tile.palette * 16 : 0x100
    const pal = s.tmem.get(palTmem)
    if (!pal) {
      warn(`CI tile ${tileIndex} needs a palette at TMEM ${hex(palTmem)}, none loaded`)
      return null
    }
    ref.paletteAddr = pal.addr
    ref.paletteCount = tile.siz === 0 ? 16 : 256
    ref.tlut = ((s.otherModeH >>> OtherModeH.TEXTLUT) & 3) === 3 ? 'IA16' : 'RGBA16'
  }
  return ref
}

/** Decodes a draw call's texture to RGBA8 using the game's memory. */
export function decodeTextureRef(ref: TextureRef, mem: Memory): Uint8Array {
  const packed = Math.ceil((ref.width * bitsPerTexel(ref.siz)) / 8)
  const len = ref.rowBytes * (ref.height - 1) + packed
  const data = mem.read(ref.addr, len, `texture ${hex(ref.addr)}`)
  let palette: Uint8Array | undefined
  if (ref.paletteAddr !== undefined) {
    const count = ref.paletteCount ?? 16
    palette = decodePalette(mem.read(ref.paletteAddr, count * 2, `palette ${hex(ref.paletteAddr)}`), count, ref.tlut ?? 'RGBA16', `palette ${hex(ref.paletteAddr)}`)
  }
  return decodeTexture({ fmt: ref.fmt, siz: ref.siz, width: ref.width, height: ref.height, data, rowBytes: ref.rowBytes, palette, deinterleave: ref.deinterleave, where: `texture ${hex(ref.addr)}` })
}

/** Shift factor of a tile's shifts/shiftt (pokemon-snap.md §5.6). */
export function shiftFactor(shift: number): number {
  return shift === 0 ? 1 : shift <= 10 ? 1 / (1 << shift) : 1 << (16 - shift)
}

/**
 * Normalised texture coordinates (1.0 = one tile width) of a vertex's raw S10.5 (s, t) under a
 * texture state and tile (pokemon-snap.md §5.6). `halfTexel` adds the RDP texel-centre half texel.
 */
export function computeUV(s: number, t: number, tex: TextureState, ref: Pick<TextureRef, 'tile' | 'width' | 'height'>, halfTexel = false): [number, number] {
  const h = halfTexel ? 0.5 : 0
  const S = (s / 32 + h) * tex.sScale
  const T = (t / 32 + h) * tex.tScale
  const u = (S * shiftFactor(ref.tile.shifts) - ref.tile.uls / 4) / ref.width
  const v = (T * shiftFactor(ref.tile.shiftt) - ref.tile.ult / 4) / ref.height
  return [u, v]
}

/** Sampler wrap for a cms/cmt + mask pair (§5.6): masks 0 never wraps. */
export function wrapMode(cm: number, mask: number): 'repeat' | 'mirror' | 'clamp' {
  if (mask === 0 || cm & 2) return 'clamp'
  return cm & 1 ? 'mirror' : 'repeat'
}

