/**
 * Node list ("GFX node graph", decomp `UnkEC64Arg3`), 0x2C bytes per node
 * (pokemon-snap.md §4.1). Parents are rebuilt from depths.
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'

export const NODE_SIZE = 0x2c
/** `info` word that ends a node list. */
export const NODE_LIST_END = 0x12

export interface GfxNode {
  index: number
  addr: number
  info: number
  depth: number
  /** Billboard nibble `(info >>> 12) & 0xF`. */
  billboard: number
  parent: number
  /** +0x04: payload pointer, meaning set by the render kind (0 = none). */
  payload: number
  translation: [number, number, number]
  rotation: [number, number, number]
  scale: [number, number, number]
}

/**
 * Reads nodes from `addr` until the end marker (info == 0x12) or `maxNodes` nodes
 * (when a count is known, pass it as `count`: exactly that many nodes are read).
 */
export function readNodeList(map: AddressMap, addr: number, field: string, opts: { count?: number; maxNodes?: number } = {}): GfxNode[] {
  const max = opts.count ?? opts.maxNodes ?? 512
  const nodes: GfxNode[] = []
  const lastAtDepth: number[] = []
  for (let i = 0; i < max; i++) {
    const a = addr + i * NODE_SIZE
    const r = map.view(a, 4, 'GfxNode', `${field}[${i}]`)
    const info = r.u32At(0x00, 'GfxNode.info')
    if (opts.count === undefined && info === NODE_LIST_END) return nodes
    r.check(0, NODE_SIZE, `${field}[${i}]`)
    const depth = info & 0xfff
    if (depth > 0x100) throw new FormatError(`node ${i} depth ${depth} is implausible (info ${hex(info)})`, { file: map.file, structure: `${field}[${i}]`, offset: r.base })
    let parent = -1
    if (depth > 0) {
      const p = lastAtDepth[depth - 1]
      if (p === undefined) throw new FormatError(`node ${i} at depth ${depth} has no parent at depth ${depth - 1}`, { file: map.file, structure: `${field}[${i}]`, offset: r.base })
      parent = p
    }
    lastAtDepth[depth] = i
    lastAtDepth.length = depth + 1
    const fin = (o: number, f: string): number => {
      const v = r.f32At(o, f)
      if (!Number.isFinite(v)) throw r.error(`${f}: non-finite value ${v}`, o)
      return v
    }
    const v3 = (o: number, f: string): [number, number, number] => [fin(o, `GfxNode.${f}.x`), fin(o + 4, `GfxNode.${f}.y`), fin(o + 8, `GfxNode.${f}.z`)]
    nodes.push({
      index: i, addr: a, info, depth, billboard: (info >>> 12) & 0xf, parent,
      payload: r.u32At(0x04, 'GfxNode.payload'),
      translation: v3(0x08, 'translation'), rotation: v3(0x14, 'rotation'), scale: v3(0x20, 'scale'),
    })
  }
  if (opts.count !== undefined) return nodes
  throw new FormatError(`no end marker (info 0x12) within ${max} nodes`, { file: map.file, structure: field, offset: map.romOffset(addr) })
}
