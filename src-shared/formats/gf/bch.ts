/**
 * BCH ("BCH\0", H3D) header summary (spec §13): recognised and listed, kept opaque. Layout from
 * SPICA's H3DHeader.cs / Ohana3DS-Rebirth's BCH.cs: versions at +0x04..+0x07, the contents
 * (main header) offset at +0x08; the contents start with 15 triples {pointer table, count,
 * name tree} for models, materials, shaders, textures, LUTs, lights, cameras, fogs, skeletal /
 * material / visibility / light / camera / fog animations and scenes.
 */
import { Reader } from '../../binary/reader'

export const BCH_SECTIONS = [
  'models', 'materials', 'shaders', 'textures', 'luts', 'lights', 'cameras', 'fogs',
  'skeletalAnims', 'materialAnims', 'visibilityAnims', 'lightAnims', 'cameraAnims', 'fogAnims', 'scenes',
] as const

export interface BchSummary {
  backwardVersion: number
  forwardVersion: number
  converterVersion: number
  counts: Record<(typeof BCH_SECTIONS)[number], number>
}

/** Reads the version bytes and the 15 counts; throws FormatError when they do not fit. */
export function parseBchSummary(bytes: Uint8Array, ctx: { file?: string; base?: number; entry?: number } = {}): BchSummary {
  const r = new Reader(bytes, { file: ctx.file, base: ctx.base ?? 0, structure: `BCH${ctx.entry !== undefined ? ` (entry ${ctx.entry})` : ''}` })
  const backwardVersion = r.u8At(0x04, 'BCH.backwardVersion')
  const forwardVersion = r.u8At(0x05, 'BCH.forwardVersion')
  const converterVersion = r.u16At(0x06, 'BCH.converterVersion')
  const contents = r.u32At(0x08, 'BCH.contentsOffset')
  r.check(contents, 15 * 12, 'BCH.contents')
  const counts = {} as BchSummary['counts']
  BCH_SECTIONS.forEach((name, i) => {
    counts[name] = r.u32At(contents + i * 12 + 4, `BCH.contents.${name}.count`)
  })
  return { backwardVersion, forwardVersion, converterVersion, counts }
}
