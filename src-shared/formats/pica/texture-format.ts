/**
 * PICA200 texture formats (the 3DS GPU). Ids 0–13 are the hardware ids (GPUREG_TEXUNITi_TYPE);
 * the names are the words the CLI prints. Facts: spec gf-packages.md §9.2 / §10.2; the id order
 * matches SPICA's `PICATextureFormat` and 3dbrew's GPU register documentation.
 */
export const PICA_FORMATS = [
  'RGBA8', 'RGB8', 'RGBA5551', 'RGB565', 'RGBA4', 'LA8', 'HILO8', 'L8', 'A8', 'LA4', 'L4', 'A4', 'ETC1', 'ETC1A4',
] as const

export type PicaFormat = (typeof PICA_FORMATS)[number]

/** Bits per texel (ETC1 = 4: 8 bytes per 4×4 block; ETC1A4 = 8: 16 bytes per block). */
export const BITS_PER_PIXEL: Record<PicaFormat, number> = {
  RGBA8: 32, RGB8: 24, RGBA5551: 16, RGB565: 16, RGBA4: 16, LA8: 16, HILO8: 16, L8: 8, A8: 8, LA4: 8, L4: 4, A4: 4, ETC1: 4, ETC1A4: 8,
}

export function picaFormatId(f: PicaFormat): number {
  return PICA_FORMATS.indexOf(f)
}

export function isPicaFormat(s: string): s is PicaFormat {
  return (PICA_FORMATS as readonly string[]).includes(s)
}

export function isEtc(f: PicaFormat): boolean {
  return f === 'ETC1' || f === 'ETC1A4'
}

/** True when the format stores alpha (others decode to A = 255). */
export function hasAlpha(f: PicaFormat): boolean {
  return f === 'RGBA8' || f === 'RGBA5551' || f === 'RGBA4' || f === 'LA8' || f === 'A8' || f === 'LA4' || f === 'A4' || f === 'ETC1A4'
}

/** Bytes of one level of `width × height` texels. */
export function levelSize(f: PicaFormat, width: number, height: number): number {
  return (width * height * BITS_PER_PIXEL[f]) / 8
}

/**
 * Sizes of the mip chain: level i is (w >> i) × (h >> i), appended in order after level 0
 * (spec §9.2, inferred). Levels stop at `levels` or when a side would drop below 8 texels
 * (one 8×8 tile is the smallest unit the tiling can hold).
 */
export function mipChain(f: PicaFormat, width: number, height: number, levels: number): { width: number; height: number; offset: number; size: number }[] {
  const out: { width: number; height: number; offset: number; size: number }[] = []
  let offset = 0
  for (let i = 0; i < Math.max(1, levels) && i < 16; i++) {
    const w = width >> i
    const h = height >> i
    if (i > 0 && (w < 8 || h < 8)) break
    const size = levelSize(f, w, h)
    out.push({ width: w, height: h, offset, size })
    offset += size
  }
  return out
}
