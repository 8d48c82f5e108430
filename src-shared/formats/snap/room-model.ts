/**
 * Runs a room's (or the skybox's) display lists through the F3DEX2 interpreter with Snap's
 * initial state and segment-0x0E material setup (pokemon-snap.md §3.4, §4.2, §4.5, §5.1).
 */
import { FormatError, LimitError, hex } from '../../binary'
import { F3dex2, type DrawCall } from '../n64/f3dex2'
import { GeometryMode } from '../n64/gbi'
import type { AddressMap } from './address-map'
import { materialSetupCommands, readMaterial, type SnapMaterial } from './material'
import { readNodeList, type GfxNode } from './node-list'
import { readMaterialList, roomRenderKind, type RoomRenderKind } from './world'

/** noclip's initial othermode L values (§5.1, open item 6). */
export const OTHERMODE_L_OPAQUE = 0x0c192078
export const OTHERMODE_L_XLU = 0x005049d8

export interface ModelDraws {
  kind: RoomRenderKind
  /** Nodes for kinds B/D (bone = node index); a single identity node otherwise. */
  nodes: GfxNode[] | null
  materials: SnapMaterial[]
  drawCalls: (DrawCall & { layer: number })[]
  warnings: string[]
  commands: number
}

export interface ModelSource {
  gfxData: number
  renderFunc: number
  textures: number[]
  /** Per-node material-list table (kinds B/D); node 0 uses `textures`. */
  texturesTable?: number
}

function readNodeMaterials(map: AddressMap, table: number, node: number, field: string): SnapMaterial[] {
  return readMaterialList(map, table + node * 4, `${field}.textures[node ${node}]`).map((p, i) => readMaterial(map, p, `${field}.textures[node ${node}][${i}]`))
}

/** An interpreter for one render layer with Snap's initial state and the segment-0x0E hook (§4.5, §5.1). */
export function newInterp(layer: number, oneCycle: boolean, map: AddressMap, current: { materials: SnapMaterial[]; node: number }, warnings: string[], maxCommands: number): F3dex2 {
  const interp = new F3dex2({
    maxCommands,
    hooks: {
      warn: (m) => { if (warnings.length < 200) warnings.push(m) },
      onCall: (target, it) => {
        const seg = target >>> 24
        if (seg === 0x0e) {
          const m = (target & 0x00ffffff) >>> 3
          const mat = current.materials[m]
          if (!mat) {
            warnings.push(`G_DL ${hex(target)}: material ${m} is not in the ${current.materials.length}-entry material list${current.node ? ` of node ${current.node}` : ''}`)
            return true
          }
          // node 0 tags with the bare material index (material animation keys on it)
          it.setTag(current.node ? `${current.node}:${m}` : m)
          for (const [w0, w1] of materialSetupCommands(map, mat)) it.exec(w0, w1, map)
          return true
        }
        if (seg < 0x80) warnings.push(`G_DL to segment ${hex(seg)} (${hex(target)}): unexpected in Snap asset DLs`)
        return false
      },
    },
  })
  interp.geometryMode = GeometryMode.SHADE | (layer === 0 ? GeometryMode.LIGHTING : 0)
  interp.otherModeL = layer === 0 ? OTHERMODE_L_OPAQUE : OTHERMODE_L_XLU
  interp.otherModeH = (2 << 12) | ((oneCycle ? 0 : 1) << 20)
  interp.exec((0xf5 << 24) | (2 << 19) | 0x100, 5 << 24, map)
  return interp
}

/** Runs `dl` under `bone`; an interpreter error gets the file, `structure` and the DL's ROM offset (it knows RAM addresses only). */
export function runModelDl(it: F3dex2, map: AddressMap, dl: number, bone: number, structure: string): void {
  it.setBone(bone)
  try {
    it.run(dl, map)
  } catch (e) {
    if (!(e instanceof FormatError) || e.file) throw e
    const ctx = { file: map.file, structure: `${structure}${e.structure ? ` (${e.structure})` : ''}`, offset: map.romOffset(dl) }
    throw e instanceof LimitError ? new LimitError(e.detail, ctx) : new FormatError(e.detail, ctx)
  }
}

/** Reads `{u32 layer; ptr dl}` entries until layer 4 (kinds C/D). */
export function layerList(map: AddressMap, addr: number, field: string): { layer: number; dl: number }[] {
  const out: { layer: number; dl: number }[] = []
  for (let i = 0; i < 64; i++) {
    const r = map.view(addr + i * 8, 8, 'LayerDL', `${field}[${i}]`)
    const layer = r.u32At(0, 'LayerDL.layer')
    if (layer === 4) return out
    if (layer > 4) throw new FormatError(`layer ${layer} is not 0..4`, { file: map.file, structure: `${field}[${i}]`, offset: r.base })
    out.push({ layer, dl: r.u32At(4, 'LayerDL.dl') })
  }
  throw new FormatError('no layer-4 terminator within 64 entries', { file: map.file, structure: field, offset: map.romOffset(addr) })
}

/**
 * Builds the draw calls of a room or skybox model. `oneCycle` is the skybox 1-cycle variant.
 * Throws FormatError / LimitError on bad or runaway data.
 */
export function buildModelDraws(map: AddressMap, src: ModelSource, field: string, opts: { oneCycle?: boolean; maxCommands?: number; skybox?: boolean } = {}): ModelDraws {
  const warnings: string[] = []
  const maxCommands = opts.maxCommands ?? 400_000
  const materials = src.textures.map((p, i) => readMaterial(map, p, `${field}.textures[${i}]`))
  const current = { materials, node: 0 }
  // The skybox is always one DL (drawSkyBox1Cycle / drawSkyBox2Cycle, §3.7)
  const { kind, known } = opts.skybox ? { kind: 'A' as const, known: true } : roomRenderKind(src.renderFunc)
  if (!known) warnings.push(`${field}: render function ${hex(src.renderFunc)} is not a known room kind; reading gfxData as one DL`)
  const drawCalls: (DrawCall & { layer: number })[] = []
  const interps = new Map<number, F3dex2>()
  const interpFor = (layer: number) => {
    let it = interps.get(layer)
    if (!it) interps.set(layer, (it = newInterp(layer, opts.oneCycle === true, map, current, warnings, maxCommands)))
    return it
  }
  const runDl = (dl: number, layer: number, bone: number) => {
    if (!dl) return
    const it = interpFor(layer)
    runModelDl(it, map, dl, bone, `${field} display list ${hex(dl)}`)
    for (const d of it.takeDrawCalls()) drawCalls.push({ ...d, layer })
  }
  if (!src.gfxData) return { kind, nodes: null, materials, drawCalls, warnings, commands: 0 }
  let nodes: GfxNode[] | null = null
  if (kind === 'A') runDl(src.gfxData, 0, 0)
  else if (kind === 'C') for (const e of layerList(map, src.gfxData, `${field}.gfxData`)) runDl(e.dl, e.layer, 0)
  else {
    nodes = readNodeList(map, src.gfxData, `${field}.gfxData`)
    for (const n of nodes) {
      if (!n.payload) continue
      // per-node material lists (§3.4): entry i of the +0x04 table for node i
      current.node = n.index
      current.materials = n.index === 0 || !src.texturesTable ? materials : readNodeMaterials(map, src.texturesTable, n.index, field)
      if (kind === 'B') runDl(n.payload, 0, n.index)
      else for (const e of layerList(map, n.payload, `${field}.gfxData[${n.index}]`)) runDl(e.dl, e.layer, n.index)
    }
  }
  let commands = 0
  for (const it of interps.values()) commands += it.commandCount
  return { kind, nodes, materials, drawCalls, warnings, commands }
}
