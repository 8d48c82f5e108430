/**
 * Geo layout bytecode → graph nodes, as the game's interpreter builds them
 * (pokemon-stadium.md §5; pret `src/geo_layout.c`, `src/geo_layout.h`, `src/11BA0.c`).
 *
 * A node-list stack `nodes[0..31]` with depth d: 0x05 copies nodes[d] to nodes[d+1] and opens,
 * 0x06 closes; a node-creating command stores its node at nodes[d] and links it under
 * nodes[d−1]. 0x00/0x03 call (0x00 also saves the depth), 0x01/0x04 return, 0x02 jumps.
 * Parsing only: the draw walk (model-graph.ts) decides what is drawn.
 */
import { LimitError, hex, type Reader } from '../../binary'
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

/** The interpreter's state while one layout runs. */
interface GeoRun {
  readonly mod: Module
  readonly start: number
  readonly warnings: string[]
  /** The node-list stack, `nodes[d]` the current node. */
  readonly nodes: (GeoNode | null)[]
  /** Return stack of calls (0x00 also saves the depth). */
  readonly stack: { ret: number; depth?: number }[]
  d: number
  root: GeoNode | null
  pc: number
}

const S = 'GeoLayout'
/** What a command did to the program counter. */
const STEP = 0, JUMPED = 1, ENDED = 2, NODE = 3

export function parseGeoLayout(mod: Module, start: number): GeoLayout {
  const r = mod.r
  const opcodes: Record<string, number> = {}
  const run: GeoRun = { mod, start, warnings: [], nodes: new Array(32).fill(null), stack: [], d: 0, root: null, pc: start }
  let steps = 0
  for (;;) {
    const pc = run.pc
    if (++steps > GEO_MAX_STEPS) throw new LimitError(`more than ${GEO_MAX_STEPS} commands: the layout loops`, { file: mod.file, structure: S, offset: pc })
    const op = r.u8At(pc, 'GeoLayout.opcode')
    if (op >= GEO_CMD_SIZE.length) {
      run.warnings.push(`geo layout ${hex(start)}: unknown opcode ${hex(op)} at ${hex(pc)}; layout stopped there`)
      break
    }
    const size = GEO_CMD_SIZE[op]!
    r.check(pc, size, `GeoLayout.cmd${hex(op)}`)
    opcodes[hex(op)] = (opcodes[hex(op)] ?? 0) + 1
    const done = control(run, op)
    if (done === JUMPED) continue
    if (done === ENDED) return { offset: start, root: run.root, opcodes, warnings: run.warnings }
    if (done === NODE) link(run, readNode(mod, op, pc), op)
    run.pc += size
  }
  return { offset: start, root: run.root, opcodes, warnings: run.warnings }
}

/** Calls, returns, jumps, the node-list stack and node modifiers; NODE for a node-creating command. */
function control(run: GeoRun, op: number): number {
  const { mod, pc, nodes, stack } = run
  switch (op) {
    case 0x00:
    case 0x03: {
      if (stack.length >= GEO_MAX_CALL_DEPTH) throw new LimitError('geo layout calls nest deeper than 16', { file: mod.file, structure: S, offset: pc })
      const t = target(run, op === 0x00 ? 'GeoLayout.branchAndLink' : 'GeoLayout.branch')
      stack.push(op === 0x00 ? { ret: pc + 8, depth: run.d } : { ret: pc + 8 })
      run.pc = t
      return JUMPED
    }
    case 0x01:
    case 0x04: {
      const e = stack.pop()
      if (!e) {
        if (op === 0x04) run.warnings.push(`geo layout ${hex(run.start)}: return at ${hex(pc)} with an empty stack`)
        return ENDED
      }
      if (op === 0x01 && e.depth !== undefined) run.d = e.depth
      run.pc = e.ret
      return JUMPED
    }
    case 0x02:
      run.pc = target(run, 'GeoLayout.jump')
      return JUMPED
    case 0x05:
      if (run.d + 1 >= nodes.length) throw mod.error('node stack overflow (more than 32 open levels)', S, pc)
      nodes[run.d + 1] = nodes[run.d]!
      run.d++
      return STEP
    case 0x06:
      if (run.d === 0) throw mod.error('close (0x06) without a matching open', S, pc)
      run.d--
      return STEP
    case 0x07:
    case 0x15:
      return STEP
    case 0x08:
      if (nodes[run.d]) nodes[run.d]!.callbacks.push({ at: pc, address: mod.r.u32At(pc + 4), arg: mod.r.u32At(pc + 8) })
      else run.warnings.push(`callback at ${hex(pc)} with no current node`)
      return STEP
    case 0x12:
      throw mod.error('opcode 0x12 never advances (the game would hang)', S, pc)
    case 0x25:
      if (nodes[run.d]) nodes[run.d]!.flags |= 0x04
      return STEP
    default:
      return NODE
  }
}

/** The file offset a call/jump at `pc` goes to (a FormatError naming `field` when outside the module). */
function target(run: GeoRun, field: string): number {
  return run.mod.off(run.mod.r.u32At(run.pc + 4, field), field, run.pc + 4)
}

/** Stores a new node at nodes[d] and links it under nodes[d−1] (or makes it the root). */
function link(run: GeoRun, node: GeoNode, op: number): void {
  const d = run.d
  run.nodes[d] = node
  if (d > 0) {
    const parent = run.nodes[d - 1]
    if (parent) parent.children.push(node)
    else run.warnings.push(`node ${hex(op)} at ${hex(run.pc)} has no parent node; the game would not draw it`)
  } else if (!run.root) {
    run.root = node
  } else {
    run.warnings.push(`second top-level node ${hex(op)} at ${hex(run.pc)}; the game links it nowhere`)
  }
}

const vec3s = (r: Reader, o: number, f: string): Vec3 => [r.i16At(o, f), r.i16At(o + 2, f), r.i16At(o + 4, f)]
const fx = (r: Reader, o: number, f: string): Vec3 => [r.u32At(o, f) / 65536, r.u32At(o + 4, f) / 65536, r.u32At(o + 8, f) / 65536]

/** The node a node-creating command at `pc` makes. */
function readNode(mod: Module, op: number, pc: number): GeoNode {
  const r = mod.r
  const base = { at: pc, children: [] as GeoNode[], flags: 0, callbacks: [] as GeoCallback[] }
  switch (op) {
    case 0x17:
      return { ...base, op, textureCount: r.i16At(pc + 2), paletteCount: r.i16At(pc + 4), vertexCount: r.i16At(pc + 6), textureTable: ptrOrNone(mod, r.u32At(pc + 8)), paletteTable: ptrOrNone(mod, r.u32At(pc + 0x0c)), vertexPool: ptrOrNone(mod, r.u32At(pc + 0x10)) }
    case 0x18:
      return { ...base, op, kind: r.u8At(pc + 1), yOffset: r.i16At(pc + 2), scaleX: r.i16At(pc + 4), scaleZ: r.i16At(pc + 6) }
    case 0x19:
      return { ...base, op, zMin: r.i16At(pc + 4), zMax: r.i16At(pc + 6) }
    case 0x1a:
      return { ...base, op, param: r.u8At(pc + 1), childIndex: r.i16At(pc + 2) }
    case 0x1b:
      return { ...base, op, rotationDeg: vec3s(r, pc + 4, 'TransformNode.rotation'), translation: vec3s(r, pc + 0x0a, 'TransformNode.translation') }
    case 0x1c:
      return { ...base, op, scale: fx(r, pc + 4, 'ScaleNode.scale') }
    case 0x1d:
      return { ...base, op, jointId: r.u8At(pc + 1), rawFlags: r.u8At(pc + 2), animChannel: r.i8At(pc + 3), translation: vec3s(r, pc + 4, 'Joint.translation'), rotation: vec3s(r, pc + 0x0a, 'Joint.rotation'), scale: fx(r, pc + 0x10, 'Joint.scale') }
    case 0x1e:
      return { ...base, op, layer: r.u8At(pc + 1), jointId: r.i16At(pc + 2), dl: ptrOrNone(mod, r.u32At(pc + 4)) }
    case 0x20:
      return { ...base, op, layer: r.u8At(pc + 1), rotationDeg: vec3s(r, pc + 4, 'TransformDl.rotation'), translation: vec3s(r, pc + 0x0a, 'TransformDl.translation'), dl: ptrOrNone(mod, r.u32At(pc + 0x10)) }
    case 0x21:
      return { ...base, op, layer: r.u8At(pc + 1), offset: vec3s(r, pc + 2, 'BillboardDl.offset'), scale: r.i32At(pc + 8) / 65536, dl: ptrOrNone(mod, r.u32At(pc + 0x0c)) }
    case 0x22:
      return { ...base, op, layer: r.u8At(pc + 1), dl: ptrOrNone(mod, r.u32At(pc + 4)) }
    case 0x23:
      return { ...base, op, preset: r.u8At(pc + 1), texAnimChannel: r.i16At(pc + 2), dl: ptrOrNone(mod, r.u32At(pc + 4)), textureIndex: r.i16At(pc + 8), paletteIndex: r.i16At(pc + 0x0a), prim: [r.u8At(pc + 0x0c), r.u8At(pc + 0x0d), r.u8At(pc + 0x0e), r.u8At(pc + 0x0f)] }
    case 0x24:
      return { ...base, op, attachId: r.i16At(pc + 2) }
    default:
      return { ...base, op } as OtherNode
  }
}
