/**
 * The structure step of an actor model (pokemon-snap.md §4.1, §4.2, §6): the node tree, each
 * node's material list, and the display lists run per render kind with the bone bookkeeping of
 * §6 — a node's own DL loads vertices under its bone, a preDL (kinds I/J) under its parent's, and
 * cached vertices keep the bone they were loaded with, so triangles stitched across two nodes
 * come out with per-vertex bones. Conversion to a neutral scene is actor-scene.ts.
 */
import { FormatError, hex } from '../../binary'
import type { DrawCall, F3dex2 } from '../n64/f3dex2'
import type { AddressMap } from './address-map'
import { readMaterial, type SnapMaterial } from './material'
import { readNodeList, type GfxNode } from './node-list'
import { layerList, newInterp, runModelDl } from './room-model'
import { readMaterialList } from './world'

export type ActorRenderKind = 'A' | 'B' | 'C' | 'D' | 'I' | 'J'

/** Render functions by kind (§4.2 table). */
const KINDS: [ActorRenderKind, number[]][] = [
  ['A', [0x80014d60, 0x800a1530, 0x800a1560]],
  ['B', [0x80014f98, 0x800a15d8, 0x803594dc, 0x803595e4]],
  ['C', [0x800153ec, 0x800a1590]],
  ['D', [0x80015890, 0x800a1608, 0x800a16f8, 0x80359534, 0x8035963c, 0x802dfae4]],
  ['I', [0x8001679c, 0x800a1650, 0x800a1680, 0x8035942c, 0x8035958c, 0x802de26c]],
  ['J', [0x80016c88, 0x800a16b0, 0x80359484]],
]

export function actorRenderKind(fn: number): ActorRenderKind | undefined {
  for (const [k, list] of KINDS) if (list.includes(fn >>> 0)) return k
  return undefined
}

export interface ActorDraws {
  kind: ActorRenderKind
  nodes: GfxNode[]
  /** Material list of each node ([] when the node has none). */
  nodeMaterials: SnapMaterial[][]
  /** Node 0's list (what material tracks of node 0 and `MeshDraws` users index). */
  materials: SnapMaterial[]
  drawCalls: (DrawCall & { layer: number })[]
  warnings: string[]
  commands: number
}

export interface ActorModelSource {
  tree: number
  /** ptr → per-node array of material-list pointers (PokemonInitData+0x04), 0 = none. */
  textures: number
  renderFunc: number
}

/** `{u32 layer; ptr preDL; ptr dl}` entries until layer 4 (kind J). */
function splitLayerList(map: AddressMap, addr: number, field: string): { layer: number; pre: number; dl: number }[] {
  const out: { layer: number; pre: number; dl: number }[] = []
  for (let i = 0; i < 64; i++) {
    const r = map.view(addr + i * 12, 12, 'LayerSplitDL', `${field}[${i}]`)
    const layer = r.u32At(0, 'LayerSplitDL.layer')
    if (layer === 4) return out
    if (layer > 4) throw new FormatError(`layer ${layer} is not 0..4`, { file: map.file, structure: `${field}[${i}]`, offset: r.base })
    out.push({ layer, pre: r.u32At(4, 'LayerSplitDL.preDL'), dl: r.u32At(8, 'LayerSplitDL.dl') })
  }
  throw new FormatError('no layer-4 terminator within 64 entries', { file: map.file, structure: field, offset: map.romOffset(addr) })
}

function nodeMaterialLists(map: AddressMap, textures: number, nodes: GfxNode[], field: string): SnapMaterial[][] {
  if (!textures) return nodes.map(() => [])
  return nodes.map((n) => readMaterialList(map, textures + n.index * 4, `${field}.textures[node ${n.index}]`)
    .map((p, i) => readMaterial(map, p, `${field}.textures[node ${n.index}][${i}]`)))
}

/** Runs the model's display lists. Throws FormatError / LimitError on bad or runaway data. */
export function buildActorDraws(map: AddressMap, src: ActorModelSource, field: string, opts: { maxCommands?: number } = {}): ActorDraws {
  const warnings: string[] = []
  const kind = actorRenderKind(src.renderFunc)
  if (!kind) throw new FormatError(`render function ${hex(src.renderFunc)} is not one of the known kinds A–J (§4.2)`, { file: map.file, structure: `${field}.fnRender` })
  const nodes = readNodeList(map, src.tree, `${field}.tree`)
  if (!nodes.length) throw new FormatError('the node list is empty', { file: map.file, structure: `${field}.tree`, offset: map.romOffset(src.tree) })
  const nodeMaterials = nodeMaterialLists(map, src.textures, nodes, field)
  const current = { materials: nodeMaterials[0]!, node: 0 }
  const drawCalls: (DrawCall & { layer: number })[] = []
  const interps = new Map<number, F3dex2>()
  const interpFor = (layer: number) => {
    let it = interps.get(layer)
    if (!it) interps.set(layer, (it = newInterp(layer, false, map, current, warnings, opts.maxCommands ?? 400_000)))
    return it
  }
  const run = (dl: number, layer: number, bone: number, what: string) => {
    if (!dl) return
    const it = interpFor(layer)
    runModelDl(it, map, dl, bone, `${field} node ${bone} ${what} ${hex(dl)}`)
    for (const d of it.takeDrawCalls()) drawCalls.push({ ...d, layer })
  }
  const useMaterials = (n: GfxNode) => {
    // the game emits the segment-0x0E setup only for a node that has materials (§4.2)
    if (nodeMaterials[n.index]!.length) { current.materials = nodeMaterials[n.index]!; current.node = n.index }
  }
  const single = kind === 'A' || kind === 'C'
  for (const n of single ? nodes.slice(0, 1) : nodes) {
    if (!n.payload) continue
    const parent = n.parent >= 0 ? n.parent : n.index
    const at = `${field}.tree[${n.index}].payload`
    if (kind === 'A' || kind === 'B') { useMaterials(n); run(n.payload, 0, n.index, 'DL') }
    else if (kind === 'C' || kind === 'D') { useMaterials(n); for (const e of layerList(map, n.payload, at)) run(e.dl, e.layer, n.index, 'DL') }
    else if (kind === 'I') {
      const r = map.view(n.payload, 8, 'SplitDL', at)
      const pre = r.u32At(0, 'SplitDL.preDL'), dl = r.u32At(4, 'SplitDL.dl')
      // preDL with the parent's matrix and the previous node's segment 0x0E (§4.2, §6 rule 2)
      run(pre, 0, parent, 'preDL')
      useMaterials(n)
      run(dl, 0, n.index, 'DL')
    } else {
      const entries = splitLayerList(map, n.payload, at).filter((e) => e.dl)
      for (const e of entries) run(e.pre, e.layer, parent, 'preDL')
      useMaterials(n)
      for (const e of entries) run(e.dl, e.layer, n.index, 'DL')
    }
  }
  if (single && nodes.length > 1) warnings.push(`render kind ${kind} draws only the first node; ${nodes.length - 1} more nodes ignored`)
  let commands = 0
  for (const it of interps.values()) commands += it.commandCount
  return { kind, nodes, nodeMaterials, materials: nodeMaterials[0]!, drawCalls, warnings, commands }
}
