/**
 * Stage material animation (pokemon-snap.md §7.3, §7.6): per-material command tracks that drive
 * the texture scroll (tile origins), texture scale, flipbook image and palette indices and the
 * primitive colour. Baked per animation frame into the quantities a renderer needs: the tile-0
 * origin and G_TEXTURE scale the game's material setup (§4.5) would emit, and the image/palette
 * pair bound to TEXEL0.
 */
import type { AddressMap } from './address-map'
import { channelSegments, channelValue, readTrack, type Track } from './anim-track'
import { materialSetupCommands, type MaterialRuntime, type SnapMaterial } from './material'

/** Material-track channel bits (§7.3). */
export const MatChannel = { IMAGE: 0, OFF_S0: 1, OFF_T0: 2, SCALE_S: 3, SCALE_T: 4, NEXT_IMAGE: 5, OFF_S1: 6, OFF_T1: 7, LOD: 8, PALETTE: 9 } as const

export interface MaterialFrame {
  frame: number
  /** Tile-0 origin (10.2 fixed point) the setup would emit, or null without flag 0x20. */
  uls: number | null
  ult: number | null
  /** G_TEXTURE scale (0..1) the setup would emit, or null without flag 0x80. */
  sScale: number | null
  tScale: number | null
  imageIndex: number
  paletteIndex: number
  /** Primitive colour RGBA8 packed. */
  prim: number
}

export interface BakedMaterialAnim {
  track: Track
  frames: MaterialFrame[]
  /** Frames in one pass (the track's blocking length). */
  length: number
  loops: boolean
}

function colourAt(track: Track, bit: number, t: number, rest: number): number {
  // commands 18–21: step (18/19) or linear (20/21) RGBA colours (§7.5)
  let c0 = rest, c1 = rest, start = 0, dur = 0, lerp = false, seen = false
  for (const c of track.commands) {
    if (c.cmd < 18 || c.cmd > 21 || !(c.mask & (1 << bit))) continue
    if (c.start > t) break
    let k = 0
    for (let b = 0; b < bit; b++) if (c.mask & (1 << b)) k++
    c0 = seen ? c1 : 0
    c1 = c.values[k]! >>> 0
    start = c.start
    dur = c.duration
    lerp = c.cmd >= 20
    seen = true
  }
  if (!seen) return rest
  const tau = t - start
  if (!lerp) return tau >= dur ? c1 : c0
  const kf = dur ? Math.max(0, Math.min(256, Math.trunc((tau * 256) / dur))) : 256
  let out = 0
  for (let s = 24; s >= 0; s -= 8) out = (out << 8) | ((((256 - kf) * ((c0 >>> s) & 0xff) + kf * ((c1 >>> s) & 0xff)) >> 8) & 0xff)
  return out >>> 0
}

/** Bakes one material's track, one sample per animation frame over one pass (at most `maxFrames`). */
export function bakeMaterialAnim(map: AddressMap, mat: SnapMaterial, trackAddr: number, field: string, maxFrames = 3600): BakedMaterialAnim | null {
  const track = readTrack(map, trackAddr, field)
  const length = Math.min(maxFrames, Math.max(0, Math.ceil(track.length)))
  const segs = channelSegments(track)
  const frames: MaterialFrame[] = []
  for (let f = 0; f <= length; f++) {
    const v = (bit: number, rest: number) => channelValue(segs.get(bit), f, rest)
    const m: SnapMaterial = {
      ...mat,
      offS0: v(MatChannel.OFF_S0, mat.offS0), offT0: v(MatChannel.OFF_T0, mat.offT0),
      scaleS: v(MatChannel.SCALE_S, mat.scaleS), scaleT: v(MatChannel.SCALE_T, mat.scaleT),
      offS1: v(MatChannel.OFF_S1, mat.offS1), offT1: v(MatChannel.OFF_T1, mat.offT1),
      primColor: colourAt(track, 0, f, mat.primColor),
    }
    const rt: MaterialRuntime = {
      imageIndex: Math.max(0, Math.trunc(v(MatChannel.IMAGE, 0))),
      nextImageIndex: Math.max(0, Math.trunc(v(MatChannel.NEXT_IMAGE, 0))),
      lodLevel: v(MatChannel.LOD, mat.primLOD / 255),
      paletteIndex: Math.max(0, v(MatChannel.PALETTE, 0)),
    }
    // The halve-mode formulas compare with the values stored in ROM, which `mat` keeps.
    const cmds = materialSetupCommands(map, { ...m, halve: mat.halve }, rt)
    let uls: number | null = null, ult: number | null = null, sScale: number | null = null, tScale: number | null = null
    for (const [w0, w1] of cmds) {
      const op = w0 >>> 24
      if (op === 0xf2 && ((w1 >>> 24) & 7) === 0) { uls = (w0 >>> 12) & 0xfff; ult = w0 & 0xfff }
      if (op === 0xd7) { sScale = (w1 >>> 16) / 65536; tScale = (w1 & 0xffff) / 65536 }
    }
    const special = (m.flags === 0 ? 0xa1 : m.flags) & 0x10
    frames.push({ frame: f, uls, ult, sScale, tScale, imageIndex: special ? Math.floor(rt.lodLevel) : rt.imageIndex, paletteIndex: Math.floor(rt.paletteIndex), prim: m.primColor })
  }
  return length > 0 ? { track, frames, length, loops: track.loopTo !== undefined } : null
}
