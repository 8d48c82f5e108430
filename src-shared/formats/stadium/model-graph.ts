/**
 * The draw walk over the geo graph, as the game's draw routines visit it
 * (pokemon-stadium.md §5.2, §8.2, §11.4, §14; pret `src/12D80.c` D_8006F0A4 dispatch).
 *
 * Produces the matrix-stack levels (instance root, 0x1C scale, 0x1B/0x20 transforms, 0x1D joints),
 * the bones, the DL nodes (with the material, owning level and bone latched at visit time),
 * attachment points, callbacks and shadows. 0x1A selectors draw only the selected child; among
 * sibling 0x19 depth-range nodes only the nearest range (smallest zMin) is drawn, so no LOD is
 * drawn twice.
 */
import { LimitError, hex } from '../../binary'
import type { GeoLayout, GeoNode, JointDlNode, JointNode, MaterialNode, ModelHeaderNode, Vec3 } from './geo-layout'

export type LevelKind = 'root' | 'scale' | 'transform' | 'joint'

export interface Level {
  index: number
  kind: LevelKind
  /** Parent level, −1 for the instance root. */
  parent: number
  /** For 'joint': the bone index. */
  bone: number
  /** For 'scale': the scale; for 'transform': translation and ZXY rotation in binary angles. */
  scale?: Vec3
  translation?: Vec3
  rotation?: Vec3
  /** File offset of the command that made it. */
  at: number
}

/** Joint mode from rawFlags (§11.2): (flags & 1) ? 0 : 1, then |2 when flags & 2. */
export function jointMode(rawFlags: number): number {
  let mode = rawFlags & 1 ? 0 : 1
  if (rawFlags & 2) mode |= 2
  return mode
}

export interface Bone {
  index: number
  level: number
  /** Nearest enclosing joint, −1 at the top. */
  parent: number
  jointId: number
  rawFlags: number
  mode: number
  animChannel: number
  translation: Vec3
  /** Binary angles. */
  rotation: Vec3
  scale: Vec3
  at: number
  name: string
}

export interface MaterialState {
  at: number
  preset: number
  texAnimChannel: number
  /** File offset of the material DL, −1 when absent/external. */
  dl: number
  textureIndex: number
  paletteIndex: number
  prim: [number, number, number, number]
}

export interface DrawCall {
  /** Traversal order. */
  order: number
  op: number
  at: number
  layer: number
  bucket: number
  /** File offset of the DL. */
  dl: number
  /** Matrix-stack level whose draw matrix the DL uses. */
  level: number
  /** Owning bone (nearest enclosing joint, or the named joint for 0x1E), −1 for none. */
  bone: number
  material: MaterialState | null
  /** 0x25 flag: render-state flush after this DL. */
  flush: boolean
}

export interface AttachPoint {
  id: number
  level: number
  bone: number
  at: number
}

export interface CallbackRef {
  at: number
  address: number
  arg: number
  bone: number
  level: number
}

export interface ModelGraph {
  levels: Level[]
  bones: Bone[]
  draws: DrawCall[]
  attachPoints: AttachPoint[]
  callbacks: CallbackRef[]
  shadows: { at: number; kind: number; yOffset: number; scaleX: number; scaleZ: number; level: number }[]
  header: ModelHeaderNode | null
  warnings: string[]
}

const ANGLE = (deg: number): number => Math.trunc((deg * 32768) / 180) // (deg << 15) / 180, C division

export function buildModelGraph(layouts: GeoLayout[], file?: string): ModelGraph {
  const w = new GraphWalk(file)
  const g = w.g
  for (const l of layouts) {
    if (l.root) w.visit(l.root, 0, -1, 0)
    g.warnings.push(...l.warnings)
  }
  // The shadow node also records attachment point 100 when no such id exists (func_80014D70).
  const sh = g.shadows[0]
  if (sh && !g.attachPoints.some((a) => a.id === 100)) g.attachPoints.push({ id: 100, level: sh.level, bone: -1, at: sh.at })
  return g
}

/** The walk's state: the graph being built, the latched material, the draw counter and the (level, bone) chain. */
class GraphWalk {
  readonly g: ModelGraph = { levels: [{ index: 0, kind: 'root', parent: -1, bone: -1, at: -1 }], bones: [], draws: [], attachPoints: [], callbacks: [], shadows: [], header: null, warnings: [] }
  material: MaterialState | null = null
  order = 0
  readonly warnedOnce = new Set<string>()
  /** Chain of (level, bone) from the root to the current node, for 0x1E lookups. */
  readonly chain: { level: number; bone: number }[] = []

  constructor(readonly file: string | undefined) {}

  warn(key: string, msg: string): void {
    if (!this.warnedOnce.has(key)) {
      this.warnedOnce.add(key)
      this.g.warnings.push(msg)
    }
  }

  addLevel(l: Omit<Level, 'index'>): number {
    const levels = this.g.levels
    levels.push({ ...l, index: levels.length })
    return levels.length - 1
  }

  draw(n: GeoNode & { layer: number; dl: number }, level: number, bone: number): void {
    if (n.dl < 0) {
      this.warn(`extdl${n.at}`, `DL node ${hex(n.op)} at ${hex(n.at)} points outside the module (common DL or code); skipped`)
      return
    }
    const bucket = n.layer & 0x0f
    this.g.draws.push({ order: this.order++, op: n.op, at: n.at, layer: n.layer, bucket, dl: n.dl, level, bone, material: this.material, flush: (n.flags & 4) !== 0 })
  }

  visit(n: GeoNode, level: number, bone: number, depth: number): void {
    if (depth > 256) throw new LimitError('geo graph deeper than 256 levels (layouts calling each other too deep)', { file: this.file, structure: `GeoNode ${hex(n.at)}` })
    for (const cb of n.callbacks) this.g.callbacks.push({ at: cb.at, address: cb.address, arg: cb.arg, bone, level })
    switch (n.op) {
      case 0x1c:
        level = this.addLevel({ kind: 'scale', parent: level, bone: -1, scale: n.scale, at: n.at })
        break
      case 0x1b:
        level = this.addLevel({ kind: 'transform', parent: level, bone: -1, translation: n.translation, rotation: n.rotationDeg.map(ANGLE) as Vec3, at: n.at })
        break
      case 0x20:
        level = this.addLevel({ kind: 'transform', parent: level, bone: -1, translation: n.translation, rotation: n.rotationDeg.map(ANGLE) as Vec3, at: n.at })
        this.draw(n, level, bone)
        break
      case 0x1d:
        bone = this.joint(n, level, bone)
        level = this.g.bones[bone]!.level
        break
      case 0x1a: {
        const k = n.children[n.childIndex]
        if (n.children.length > 1 || n.childIndex !== 0) this.warn(`sel${n.at}`, `selector at ${hex(n.at)}: drew child ${n.childIndex} of ${n.children.length}`)
        if (k) {
          this.chain.push({ level, bone })
          this.visit(k, level, bone, depth + 1)
          this.chain.pop()
        }
        return
      }
      default:
        this.leaf(n, level, bone)
    }
    this.chain.push({ level, bone })
    this.visitChildren(n, level, bone, depth)
    this.chain.pop()
  }

  /** A 0x1D joint: a new bone and its matrix level; returns the bone index. */
  joint(j: JointNode, level: number, bone: number): number {
    const g = this.g
    const b: Bone = { index: g.bones.length, level: -1, parent: bone, jointId: j.jointId, rawFlags: j.rawFlags, mode: jointMode(j.rawFlags), animChannel: j.animChannel, translation: j.translation, rotation: j.rotation, scale: j.scale, at: j.at, name: `bone${String(j.jointId).padStart(2, '0')}` }
    if (b.mode >= 2) this.warn(`bb${j.at}`, `joint ${j.jointId} at ${hex(j.at)} is a billboard (rawFlags ${hex(j.rawFlags)}); exported as an ordinary TRS joint`)
    b.level = this.addLevel({ kind: 'joint', parent: level, bone: b.index, at: j.at })
    g.bones.push(b)
    return b.index
  }

  /** Nodes that leave the matrix level and bone as they are: header, DLs, material, attachment, shadow, groups. */
  leaf(n: GeoNode, level: number, bone: number): void {
    const g = this.g
    switch (n.op) {
      case 0x17:
        if (!g.header) g.header = n
        else this.warn('hdr2', `second model header at ${hex(n.at)} ignored`)
        break
      case 0x1e:
        this.jointDraw(n, level, bone)
        break
      case 0x21:
        this.warn(`bbdl${n.at}`, `billboard DL (0x21) at ${hex(n.at)} drawn with the enclosing matrix (no camera offline)`)
        this.draw(n, level, bone)
        break
      case 0x22:
        this.draw(n, level, bone)
        break
      case 0x23: {
        const m = n as MaterialNode
        this.material = { at: m.at, preset: m.preset, texAnimChannel: m.texAnimChannel, dl: m.dl, textureIndex: m.textureIndex, paletteIndex: m.paletteIndex, prim: m.prim }
        break
      }
      case 0x24:
        if (g.attachPoints.length >= 12) this.warn('att12', `more than 12 attachment points; the game keeps 12`)
        g.attachPoints.push({ id: n.attachId, level, bone, at: n.at })
        break
      case 0x18:
        g.shadows.push({ at: n.at, kind: n.kind, yOffset: n.yOffset, scaleX: n.scaleX, scaleZ: n.scaleZ, level })
        break
      case 0x0d:
        this.warn(`0d${n.at}`, `draw root (0x0D) at ${hex(n.at)} inside a model; treated as a group`)
        break
      case 0x1f:
        this.warn(`1f${n.at}`, `animated-object instance (0x1F) at ${hex(n.at)} inside a model; treated as a group`)
        break
      default:
        break
    }
  }

  /** A 0x1E DL drawn with the named enclosing joint's matrix (the nearest enclosing joint when none has that id). */
  jointDraw(n: JointDlNode, level: number, bone: number): void {
    let found = -1
    for (let i = this.chain.length - 1; i >= 0; i--) {
      const c = this.chain[i]!
      if (c.bone >= 0 && this.g.bones[c.bone]!.jointId === n.jointId) {
        found = c.bone
        break
      }
    }
    if (found < 0) {
      this.warn(`1e${n.at}`, `0x1E at ${hex(n.at)} names joint ${n.jointId}, which is not an enclosing joint; using the nearest enclosing joint`)
      this.draw(n, level, bone)
    } else {
      this.draw(n, this.g.bones[found]!.level, found)
    }
  }

  visitChildren(n: GeoNode, level: number, bone: number, depth: number): void {
    const kids = n.children
    // Depth-range LOD siblings: draw only the nearest range.
    const ranges = kids.filter((k) => k.op === 0x19) as (GeoNode & { zMin: number })[]
    const lod = ranges.length ? ranges.reduce((a, b) => (b.zMin < a.zMin ? b : a)) : null
    if (ranges.length > 1) this.warn(`lod${n.at}`, `${ranges.length} depth-range (0x19) siblings under ${hex(n.at)}: drew only the nearest (zMin ${lod!.zMin})`)
    for (const k of kids) {
      if (k.op === 0x19 && k !== lod) continue
      this.visit(k, level, bone, depth + 1)
    }
  }
}
