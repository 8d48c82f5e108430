/**
 * Geo layout bytecode → graph nodes, as the game's interpreter builds them
 * (pokemon-stadium.md §5; pret `src/geo_layout.c`, `src/geo_layout.h`, `src/11BA0.c`).
 *
 * A node-list stack `nodes[0..31]` with depth d: 0x05 copies nodes[d] to nodes[d+1] and opens,
 * 0x06 closes; a node-creating command stores its node at nodes[d] and links it under
 * nodes[d−1]. 0x00/0x03 call (0x00 also saves the depth), 0x01/0x04 return, 0x02 jumps.
 * Parsing only: the draw walk (model-graph.ts) decides what is drawn.
 */
import { LimitError, hex } from '../../binary'
import type { Module } from './fragment'

/** Fixed command sizes by opcode (pret struct sizes; identical to the pipeline's table). */
export const GEO_CMD_SIZE: readonly number[] = [
  8, 4, 8, 8, 4, 4, 4, 8, 12, 4, 8, 24, 4, 4, 4, 4, // 0x00–0x0F
  4, 4, 4, 8, 12, 12, 4, 20, 8, 8, 4, 16, 16, 28, 8, 24, // 0x10–0x1F
  20, 16, 8, 16, 4, 4, 20, // 0x20–0x26
]

export type Vec3 = [number, number, number]

export interface GeoCallback {
  at: number
  address: number
  arg: number
}

export interface GeoNodeBase {
  op: number
  /** File offset of the command in the module. */
  at: number
  children: GeoNode[]
  /** Node flags set by 0x25 (bit 0x04: render-state flush after this DL). */
  flags: number
  callbacks: GeoCallback[]
}

export interface ModelHeaderNode extends GeoNodeBase { op: 0x17; textureCount: number; paletteCount: number; vertexCount: number; textureTable: number; paletteTable: number; vertexPool: number }
export interface ShadowNode extends GeoNodeBase { op: 0x18; kind: number; yOffset: number; scaleX: number; scaleZ: number }
export interface DepthRangeNode extends GeoNodeBase { op: 0x19; zMin: number; zMax: number }
export interface SelectorNode extends GeoNodeBase { op: 0x1a; param: number; childIndex: number }
export interface TransformNode extends GeoNodeBase { op: 0x1b; rotationDeg: Vec3; translation: Vec3 }
export interface ScaleNode extends GeoNodeBase { op: 0x1c; scale: Vec3 }
export interface JointNode extends GeoNodeBase { op: 0x1d; jointId: number; rawFlags: number; animChannel: number; translation: Vec3; rotation: Vec3; scale: Vec3 }
export interface JointDlNode extends GeoNodeBase { op: 0x1e; layer: number; jointId: number; dl: number }
export interface TransformDlNode extends GeoNodeBase { op: 0x20; layer: number; rotationDeg: Vec3; translation: Vec3; dl: number }
export interface BillboardDlNode extends GeoNodeBase { op: 0x21; layer: number; offset: Vec3; scale: number; dl: number }
export interface DlNode extends GeoNodeBase { op: 0x22; layer: number; dl: number }
export interface MaterialNode extends GeoNodeBase { op: 0x23; preset: number; texAnimChannel: number; dl: number; textureIndex: number; paletteIndex: number; prim: [number, number, number, number] }
export interface AttachNode extends GeoNodeBase { op: 0x24; attachId: number }
export interface OtherNode extends GeoNodeBase { op: 0x09 | 0x0a | 0x0b | 0x0c | 0x0d | 0x0e | 0x0f | 0x10 | 0x11 | 0x13 | 0x14 | 0x16 | 0x1f | 0x26 }

export type GeoNode = ModelHeaderNode | ShadowNode | DepthRangeNode | SelectorNode | TransformNode | ScaleNode | JointNode | JointDlNode | TransformDlNode | BillboardDlNode | DlNode | MaterialNode | AttachNode | OtherNode

export interface GeoLayout {
  offset: number
  root: GeoNode | null
  /** Opcode → count (for the §20 histograms). */
  opcodes: Record<string, number>
  warnings: string[]
}

/** Safety limits: commands executed per layout, call depth (the game's return stack holds 16). */
export const GEO_MAX_STEPS = 200_000
export const GEO_MAX_CALL_DEPTH = 16

/** A raw pointer field: the file offset when it is inside the module, else −1 (common DL or code). */
function ptrOrNone(mod: Module, ptr: number): number {
  return mod.owns(ptr) ? (ptr >>> 0) - mod.base : -1
}

export function parseGeoLayout(mod: Module, start: number): GeoLayout {
  const r = mod.r
  const warnings: string[] = []
  const opcodes: Record<string, number> = {}
  const nodes: (GeoNode | null)[] = new Array(32).fill(null)
  const stack: { ret: number; depth?: number }[] = []
  let d = 0
  let root: GeoNode | null = null
  let pc = start
  let steps = 0
  const S = 'GeoLayout'
  const vec3s = (o: number, f: string): Vec3 => [r.i16At(o, f), r.i16At(o + 2, f), r.i16At(o + 4, f)]
  const fx = (o: number, f: string): Vec3 => [r.u32At(o, f) / 65536, r.u32At(o + 4, f) / 65536, r.u32At(o + 8, f) / 65536]
  const target = (field: string): number => mod.off(r.u32At(pc + 4, field), field, pc + 4)

  for (;;) {
    if (++steps > GEO_MAX_STEPS) throw new LimitError(`more than ${GEO_MAX_STEPS} commands: the layout loops`, { file: mod.file, structure: S, offset: pc })
    const op = r.u8At(pc, 'GeoLayout.opcode')
    if (op >= GEO_CMD_SIZE.length) {
      warnings.push(`geo layout ${hex(start)}: unknown opcode ${hex(op)} at ${hex(pc)}; layout stopped there`)
      break
    }
    const size = GEO_CMD_SIZE[op]!
    r.check(pc, size, `GeoLayout.cmd${hex(op)}`)
    opcodes[hex(op)] = (opcodes[hex(op)] ?? 0) + 1
    let node: GeoNode | null = null
    const base = { at: pc, children: [] as GeoNode[], flags: 0, callbacks: [] as GeoCallback[] }
    switch (op) {
      case 0x00: {
        if (stack.length >= GEO_MAX_CALL_DEPTH) throw new LimitError('geo layout calls nest deeper than 16', { file: mod.file, structure: S, offset: pc })
        const t = target('GeoLayout.branchAndLink')
        stack.push({ ret: pc + 8, depth: d })
        pc = t
        continue
      }
      case 0x01:
      case 0x04: {
        const e = stack.pop()
        if (!e) {
          if (op === 0x04) warnings.push(`geo layout ${hex(start)}: return at ${hex(pc)} with an empty stack`)
          return { offset: start, root, opcodes, warnings }
        }
        if (op === 0x01 && e.depth !== undefined) d = e.depth
        pc = e.ret
        continue
      }
      case 0x02:
        pc = target('GeoLayout.jump')
        continue
      case 0x03: {
        if (stack.length >= GEO_MAX_CALL_DEPTH) throw new LimitError('geo layout calls nest deeper than 16', { file: mod.file, structure: S, offset: pc })
        const t = target('GeoLayout.branch')
        stack.push({ ret: pc + 8 })
        pc = t
        continue
      }
      case 0x05:
        if (d + 1 >= nodes.length) throw mod.error('node stack overflow (more than 32 open levels)', S, pc)
        nodes[d + 1] = nodes[d]!
        d++
        break
      case 0x06:
        if (d === 0) throw mod.error('close (0x06) without a matching open', S, pc)
        d--
        break
      case 0x07:
      case 0x15:
        break
      case 0x08:
        if (nodes[d]) nodes[d]!.callbacks.push({ at: pc, address: r.u32At(pc + 4), arg: r.u32At(pc + 8) })
        else warnings.push(`callback at ${hex(pc)} with no current node`)
        break
      case 0x12:
        throw mod.error('opcode 0x12 never advances (the game would hang)', S, pc)
      case 0x25:
        if (nodes[d]) nodes[d]!.flags |= 0x04
        break
      case 0x17:
        node = { ...base, op, textureCount: r.i16At(pc + 2), paletteCount: r.i16At(pc + 4), vertexCount: r.i16At(pc + 6), textureTable: ptrOrNone(mod, r.u32At(pc + 8)), paletteTable: ptrOrNone(mod, r.u32At(pc + 0x0c)), vertexPool: ptrOrNone(mod, r.u32At(pc + 0x10)) }
        break
      case 0x18:
        node = { ...base, op, kind: r.u8At(pc + 1), yOffset: r.i16At(pc + 2), scaleX: r.i16At(pc + 4), scaleZ: r.i16At(pc + 6) }
        break
      case 0x19:
        node = { ...base, op, zMin: r.i16At(pc + 4), zMax: r.i16At(pc + 6) }
        break
      case 0x1a:
        node = { ...base, op, param: r.u8At(pc + 1), childIndex: r.i16At(pc + 2) }
        break
      case 0x1b:
        node = { ...base, op, rotationDeg: vec3s(pc + 4, 'TransformNode.rotation'), translation: vec3s(pc + 0x0a, 'TransformNode.translation') }
        break
      case 0x1c:
        node = { ...base, op, scale: fx(pc + 4, 'ScaleNode.scale') }
        break
      case 0x1d:
        node = { ...base, op, jointId: r.u8At(pc + 1), rawFlags: r.u8At(pc + 2), animChannel: r.i8At(pc + 3), translation: vec3s(pc + 4, 'Joint.translation'), rotation: vec3s(pc + 0x0a, 'Joint.rotation'), scale: fx(pc + 0x10, 'Joint.scale') }
        break
      case 0x1e:
        node = { ...base, op, layer: r.u8At(pc + 1), jointId: r.i16At(pc + 2), dl: ptrOrNone(mod, r.u32At(pc + 4)) }
        break
      case 0x20:
        node = { ...base, op, layer: r.u8At(pc + 1), rotationDeg: vec3s(pc + 4, 'TransformDl.rotation'), translation: vec3s(pc + 0x0a, 'TransformDl.translation'), dl: ptrOrNone(mod, r.u32At(pc + 0x10)) }
        break
      case 0x21:
        node = { ...base, op, layer: r.u8At(pc + 1), offset: vec3s(pc + 2, 'BillboardDl.offset'), scale: r.i32At(pc + 8) / 65536, dl: ptrOrNone(mod, r.u32At(pc + 0x0c)) }
        break
      case 0x22:
        node = { ...base, op, layer: r.u8At(pc + 1), dl: ptrOrNone(mod, r.u32At(pc + 4)) }
        break
      case 0x23:
        node = { ...base, op, preset: r.u8At(pc + 1), texAnimChannel: r.i16At(pc + 2), dl: ptrOrNone(mod, r.u32At(pc + 4)), textureIndex: r.i16At(pc + 8), paletteIndex: r.i16At(pc + 0x0a), prim: [r.u8At(pc + 0x0c), r.u8At(pc + 0x0d), r.u8At(pc + 0x0e), r.u8At(pc + 0x0f)] }
        break
      case 0x24:
        node = { ...base, op, attachId: r.i16At(pc + 2) }
        break
      default:
        node = { ...base, op } as OtherNode
    }
    if (node) {
      nodes[d] = node
      if (d > 0) {
        const parent = nodes[d - 1]
        if (parent) parent.children.push(node)
        else warnings.push(`node ${hex(op)} at ${hex(pc)} has no parent node; the game would not draw it`)
      } else if (!root) {
        root = node
      } else {
        warnings.push(`second top-level node ${hex(op)} at ${hex(pc)}; the game links it nowhere`)
      }
    }
    pc += size
  }
  return { offset: start, root, opcodes, warnings }
}
