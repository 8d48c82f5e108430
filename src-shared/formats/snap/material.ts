/**
 * Material records (decomp `Texture`, 0x78 bytes) and the segment-0x0E material setup the game
 * generates for them (pokemon-snap.md §4.4, §4.5, [D: src/sys/render.c renLoadTextures]).
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'
import { loadBlockDxt, loadBlockTexelsMinus1 } from '../n64/texture'

export const MaterialFlag = {
  Tex1: 0x0001, Tex2: 0x0002, Palette: 0x0004, PrimLOD: 0x0008, Special: 0x0010, Tile0: 0x0020, Tile1: 0x0040,
  Scale: 0x0080, Prim: 0x0200, Env: 0x0400, Blend: 0x0800, Light1: 0x1000, Light2: 0x2000,
} as const

export interface SnapMaterial {
  addr: number
  fmt: number
  siz: number
  images: number
  scale: number
  shift: number
  widthMain: number
  heightMain: number
  halve: number
  offS0: number
  offT0: number
  scaleS: number
  scaleT: number
  palettes: number
  /** Stored flags (0 means 0x00A1: use `effectiveFlags`). */
  flags: number
  fmt2: number
  siz2: number
  blockWidth: number
  blockHeight: number
  widthAux: number
  heightAux: number
  offS1: number
  offT1: number
  initOffS1: number
  primColor: number
  primLOD: number
  minLOD: number
  envColor: number
  blendColor: number
  lightColor1: number
  lightColor2: number
}

export function effectiveFlags(m: Pick<SnapMaterial, 'flags'>): number {
  return m.flags === 0 ? 0x00a1 : m.flags
}

export function readMaterial(map: AddressMap, addr: number, field: string): SnapMaterial {
  const r = map.view(addr, 0x78, 'Texture (material)', field)
  return {
    addr,
    fmt: r.u8At(0x02, 'Texture.fmt'), siz: r.u8At(0x03, 'Texture.siz'), images: r.u32At(0x04, 'Texture.images'),
    scale: r.u16At(0x08, 'Texture.scale'), shift: r.u16At(0x0a, 'Texture.shift'),
    widthMain: r.u16At(0x0c, 'Texture.widthMain'), heightMain: r.u16At(0x0e, 'Texture.heightMain'),
    halve: r.i32At(0x10, 'Texture.halve'), offS0: r.f32At(0x14, 'Texture.offS0'), offT0: r.f32At(0x18, 'Texture.offT0'),
    scaleS: r.f32At(0x1c, 'Texture.scaleS'), scaleT: r.f32At(0x20, 'Texture.scaleT'), palettes: r.u32At(0x2c, 'Texture.palettes'),
    flags: r.u16At(0x30, 'Texture.flags'), fmt2: r.u8At(0x32, 'Texture.fmt2'), siz2: r.u8At(0x33, 'Texture.siz2'),
    blockWidth: r.u16At(0x34, 'Texture.blockWidth'), blockHeight: r.u16At(0x36, 'Texture.blockHeight'),
    widthAux: r.u16At(0x38, 'Texture.widthAux'), heightAux: r.u16At(0x3a, 'Texture.heightAux'),
    offS1: r.f32At(0x3c, 'Texture.offS1'), offT1: r.f32At(0x40, 'Texture.offT1'), initOffS1: r.f32At(0x44, 'Texture.initOffS1'),
    primColor: r.u32At(0x50, 'Texture.primColor'), primLOD: r.u8At(0x54, 'Texture.primLOD'), minLOD: r.u8At(0x55, 'Texture.minLOD'),
    envColor: r.u32At(0x58, 'Texture.envColor'), blendColor: r.u32At(0x5c, 'Texture.blendColor'),
    lightColor1: r.u32At(0x60, 'Texture.lightColor1'), lightColor2: r.u32At(0x64, 'Texture.lightColor2'),
  }
}

/** Runtime animation state of a material instance (§4.4: all start at 0, lodLevel at primLOD/255). */
export interface MaterialRuntime {
  imageIndex: number
  nextImageIndex: number
  lodLevel: number
  paletteIndex: number
}

export function initialRuntime(m: SnapMaterial): MaterialRuntime {
  return { imageIndex: 0, nextImageIndex: 0, lodLevel: m.primLOD / 255, paletteIndex: 0 }
}

function listEntry(map: AddressMap, list: number, index: number, field: string): number {
  if (!list) throw new FormatError(`${field} list is NULL`, { file: map.file, structure: field })
  return map.view(list + index * 4, 4, field, `${field}[${index}]`).u32At(0, `${field}[${index}]`)
}

const trunc = (x: number) => (x < 0 ? Math.ceil(x) : Math.floor(x))

/**
 * The commands the game emits for material `m` (§4.5 steps 1–10), as [w0, w1] pairs to inject
 * into the interpreter in place of `G_DL 0x0E000000 + 8m`.
 */
export function materialSetupCommands(map: AddressMap, m: SnapMaterial, rt: MaterialRuntime = initialRuntime(m)): [number, number][] {
  const F = effectiveFlags(m)
  const out: [number, number][] = []
  const where = `material ${hex(m.addr)}`
  let imageIndex = rt.imageIndex
  let nextImageIndex = rt.nextImageIndex
  // 1. working values
  let S = m.scaleS, T = m.scaleT, o0 = m.offS0
  const p0 = m.offT0
  let o1 = m.offS1
  const p1 = m.offT1
  if (F & 0xe0 && m.halve !== 0) {
    S *= 0.5
    o0 = (o0 - m.offS0 + 1 - m.scaleS * 0.5) * 0.5
    o1 = (o1 - m.initOffS1 + 1 - m.scaleS * 0.5) * 0.5
  }
  // 2. palette
  if (F & MaterialFlag.Palette) {
    out.push([(0xfd << 24) | (0 << 21) | (2 << 19), listEntry(map, m.palettes, Math.floor(rt.paletteIndex), `${where}.palettes`)])
    if (F & 0x03) {
      out.push([(0xf5 << 24) | 0x100, 5 << 24])
      const count = m.siz === 1 ? 256 : 16
      out.push([0xf0 << 24, (5 << 24) | ((count - 1) << 14)])
    }
  }
  // 3. light colours
  if (F & MaterialFlag.Light1) out.push([(0xdb << 24) | (0x0a << 16) | 0x00, m.lightColor1])
  if (F & MaterialFlag.Light2) out.push([(0xdb << 24) | (0x0a << 16) | 0x18, m.lightColor2])
  // 4. primitive colour
  if (F & (MaterialFlag.Prim | MaterialFlag.Special | MaterialFlag.PrimLOD)) {
    let lodFrac: number
    if (F & MaterialFlag.Special) {
      imageIndex = Math.floor(rt.lodLevel)
      nextImageIndex = imageIndex + 1
      lodFrac = Math.min(255, trunc((rt.lodLevel - Math.floor(rt.lodLevel)) * 256))
    } else lodFrac = Math.min(255, trunc(rt.lodLevel * 255))
    out.push([(0xfa << 24) | ((m.minLOD & 0xff) << 8) | (lodFrac & 0xff), m.primColor])
  }
  // 5. env / blend
  if (F & MaterialFlag.Env) out.push([0xfb << 24, m.envColor])
  if (F & MaterialFlag.Blend) out.push([0xf9 << 24, m.blendColor])
  // 6. texture 1 through tile 6
  if (F & (MaterialFlag.Special | MaterialFlag.Tex2)) {
    const siz = m.siz2 === 3 ? 3 : 2
    out.push([(0xfd << 24) | ((m.fmt2 & 7) << 21) | (siz << 19), listEntry(map, m.images, nextImageIndex, `${where}.images`)])
    if (F & (MaterialFlag.Special | MaterialFlag.Tex1)) {
      const texels = Math.min(0x7ff, loadBlockTexelsMinus1(m.siz2, m.blockWidth, m.blockHeight))
      const dxt = Math.min(0xfff, loadBlockDxt(m.siz2, m.blockWidth))
      out.push([0xf3 << 24, (6 << 24) | (texels << 12) | dxt])
    }
  }
  // 7. texture 0 image
  if (F & (MaterialFlag.Special | MaterialFlag.Tex1)) {
    out.push([(0xfd << 24) | ((m.fmt & 7) << 21) | ((m.siz & 3) << 19), listEntry(map, m.images, imageIndex, `${where}.images`)])
  }
  // 8./9. tile sizes (texture scroll)
  const tileSize = (tile: number, w: number, h: number, o: number, p: number) => {
    const uls = Math.abs(S) > 1 / 65535 ? trunc(((o * w + m.shift) / S) * 4) : 0
    const ult = Math.abs(T) > 1 / 65535 ? trunc((((1 - T - p) * h + m.shift) / T) * 4) : 0
    const lrs = uls + (w - 1) * 4
    const lrt = ult + (h - 1) * 4
    out.push([(0xf2 << 24) | ((uls & 0xfff) << 12) | (ult & 0xfff), (tile << 24) | ((lrs & 0xfff) << 12) | (lrt & 0xfff)])
  }
  if (F & MaterialFlag.Tile0) tileSize(0, m.widthMain, m.heightMain, o0, p0)
  if (F & MaterialFlag.Tile1) tileSize(1, m.widthAux, m.heightAux, o1, p1)
  // 10. texture scale
  if (F & MaterialFlag.Scale) {
    const sc = m.scale || 1
    const s = Math.abs(S) > 1 / 65535 ? Math.min(0xffff, trunc(2 ** 21 / sc / S)) : 0
    const t = Math.abs(T) > 1 / 65535 ? Math.min(0xffff, trunc(2 ** 21 / sc / T)) : 0
    out.push([(0xd7 << 24) | 2, ((s & 0xffff) << 16) | (t & 0xffff)])
  }
  return out.map(([w0, w1]) => [w0 >>> 0, w1 >>> 0])
}
