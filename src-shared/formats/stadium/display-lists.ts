/**
 * Runs a model's display lists the way the game sends them to the RSP
 * (pokemon-stadium.md §7.4, §8; pret `src/12D80.c` func_800160E0 buckets, func_8001660C chain
 * 0 → 9, func_80015684 render-state flush, func_80016274 flush after 0x25 nodes,
 * func_80015B20 SETTIMG from the texture record + TLUT DL).
 *
 * Uses the shared F3DEX2 interpreter (../n64/f3dex2.ts) with one 64-slot vertex cache for the
 * whole stream: DL nodes are stably sorted by bucket (layer & 0xF) 0…9, traversal order within a
 * bucket; the geometry mode carries over between DL nodes and nested lists, re-initialised only
 * by the flush (first use of a bucket, after a 0x25-flagged node). Each vertex is tagged with the
 * matrix level whose DL loaded it.
 */
import { FormatError, LimitError, hex } from '../../binary'
import { F3dex2, type CachedVertex, type Memory, type TileState } from '../n64/f3dex2'
import { G, GeometryMode as GM } from '../n64/gbi'
import type { Module } from './fragment'
import type { DrawCall, MaterialState, ModelGraph } from './model-graph'
import type { ModelTables } from './model-header'

export const INITIAL_GEOMETRY_MODE = GM.SHADE | GM.CULL_BACK | GM.LIGHTING | GM.SHADING_SMOOTH // 0x220404
const FLUSH_SET = GM.SHADE | GM.CULL_BACK | GM.SHADING_SMOOTH // 0x200404
const FLUSH_CLEAR = GM.FOG | GM.TEXTURE_GEN

export interface RunOptions {
  /**
   * The seed pipeline's behaviour, for diffing against it: plain traversal order and the
   * geometry mode reset to G_CULL_BACK (0x400) at the start of every list it runs (nested G_DL targets too; a
   * called list's mode changes are lost when it returns).
   */
  pipelineParity?: boolean
  /** Traversal order with the game's geometry-mode rules (used for the order diagnostic). */
  traversalOrder?: boolean
}

export interface Triangle {
  /** The DL node that drew it. */
  draw: DrawCall
  geometryMode: number
  v: [CachedVertex, CachedVertex, CachedVertex]
}

export interface RenderTile {
  palette: number
  cms: number
  cmt: number
  masks: number
  maskt: number
}

export interface DlRun {
  triangles: Triangle[]
  /** Render-tile settings from each material's DL (key: material command offset). */
  materialTiles: Map<number, RenderTile>
  /** Triangles with a corner loaded by a DL in another bucket (§8.2 diagnostic). */
  crossBucketTriangles: number
  layers: number[]
  warnings: string[]
}

/** The module as RSP memory: link-space addresses only. */
export function moduleMemory(mod: Module): Memory {
  return {
    read(addr: number, len: number, what: string): Uint8Array {
      const a = addr >>> 0
      if (!mod.owns(a) || a - mod.base + len > mod.bytes.length) {
        throw new FormatError(`${what}: address ${hex(a)} (+${hex(len)}) is outside the module`, { file: mod.file, structure: what, offset: mod.owns(a) ? a - mod.base : undefined })
      }
      const o = a - mod.base
      return mod.bytes.subarray(o, o + len)
    },
  }
}

export function runDisplayLists(mod: Module, graph: ModelGraph, tables: ModelTables, opts: RunOptions = {}): DlRun {
  try {
    return runLists(mod, graph, tables, opts)
  } catch (e) {
    // The interpreter knows RAM addresses only: name the model file, and where the list is in the module.
    if (!(e instanceof FormatError) || e.file) throw e
    const m = /0x([0-9A-F]+)/i.exec(e.structure ?? '') ?? /0x([0-9A-F]+)/i.exec(e.detail)
    const at = m ? parseInt(m[1]!, 16) - mod.base : NaN
    const where = Number.isInteger(at) && at >= 0 && at < mod.bytes.length ? ` (module offset ${hex(at)})` : ''
    const ctx = { file: mod.file, structure: `${e.structure ?? 'DisplayList'}${where}` }
    throw e instanceof LimitError ? new LimitError(e.detail, ctx) : new FormatError(e.detail, ctx)
  }
}

/** State of one run over a model's DL nodes. */
interface ListRun {
  readonly mod: Module
  readonly tables: ModelTables
  readonly interp: F3dex2
  readonly mem: Memory
  readonly triangles: Triangle[]
  readonly materialTiles: Map<number, RenderTile>
  /** Vertex load id → bucket of the DL that loaded it. */
  readonly loadBucket: Map<number, number>
  crossBucket: number
  lastBucket: number
}

const bucketKey = (d: DrawCall) => (d.bucket > 9 ? 10 : d.bucket)

function runLists(mod: Module, graph: ModelGraph, tables: ModelTables, opts: RunOptions): DlRun {
  const warnings = new Map<string, number>()
  const warn = (m: string) => {
    // Texture sampling state is resolved from the model's tables, not from TMEM.
    if (/TMEM|has no size|needs a palette/.test(m)) return
    warnings.set(m, (warnings.get(m) ?? 0) + 1)
  }
  const parity = opts.pipelineParity === true
  const mem = moduleMemory(mod)
  const interp = listInterpreter(mod, mem, parity, warn)
  interp.geometryMode = INITIAL_GEOMETRY_MODE
  const order = parity || opts.traversalOrder ? [...graph.draws] : [...graph.draws].sort((a, b) => bucketKey(a) - bucketKey(b) || a.order - b.order)
  if (graph.draws.some((d) => d.bucket > 9)) warn('a DL node uses a render layer above 9; run after bucket 9')

  const run: ListRun = { mod, tables, interp, mem, triangles: [], materialTiles: new Map(), loadBucket: new Map(), crossBucket: 0, lastBucket: -1 }
  const layers = new Set<number>()
  for (const d of order) {
    layers.add(d.layer)
    if (!parity && bucketKey(d) !== run.lastBucket) flush(interp)
    run.lastBucket = bucketKey(d)
    const m = d.material
    // The game emits the material setup only for textured materials (§7.4).
    if (m && m.dl >= 0 && (m.textureIndex >= 0 || m.texAnimChannel >= 0)) runMaterial(run, m)
    interp.setBone(d.level)
    interp.setTag(d.order)
    if (parity) {
      interp.geometryMode = GM.CULL_BACK
      interp.touch()
    }
    interp.run(mod.base + d.dl, mem)
    collectTriangles(run, d)
    if (d.flush && !parity) flush(interp)
  }
  const w: string[] = []
  for (const [msg, n] of warnings) w.push(n > 1 ? `${msg} (×${n})` : msg)
  const crossBucket = run.crossBucket
  if (crossBucket) w.push(`${crossBucket} triangle(s) use a vertex slot loaded by a DL in another render bucket`)
  return { triangles: run.triangles, materialTiles: run.materialTiles, crossBucketTriangles: crossBucket, layers: [...layers].sort((a, b) => a - b), warnings: w }
}

/** The shared F3DEX2 interpreter with one 64-slot cache; G_DL outside the module is skipped, and parity mode runs called lists itself. */
function listInterpreter(mod: Module, mem: Memory, parity: boolean, warn: (m: string) => void): F3dex2 {
  let parityDepth = 0
  return new F3dex2({
    vertexSlots: 64,
    hooks: {
      warn,
      onCall(target, it, branch) {
        if (!mod.owns(target)) {
          warn(`G_DL to ${hex(target >>> 0)} outside the module (common DL) skipped`)
          return true
        }
        if (!parity) return false
        // The pipeline resets the mode to G_CULL_BACK (0x400) for every list it runs, nested ones included, and a
        // called list's changes are lost when it returns.
        if (++parityDepth > 18) throw new FormatError(`display-list calls nest deeper than 18 at ${hex(target >>> 0)}`, { file: mod.file, structure: 'DisplayList' })
        const saved = it.geometryMode
        it.geometryMode = GM.CULL_BACK
        it.touch()
        try {
          it.run(target, mem)
        } finally {
          parityDepth--
        }
        if (!branch) {
          it.geometryMode = saved
          it.touch()
        }
        return true
      },
    },
  })
}

/** The render-state flush (func_80015684). */
function flush(interp: F3dex2): void {
  interp.geometryMode = ((interp.geometryMode | FLUSH_SET) & ~FLUSH_CLEAR) >>> 0
  interp.touch()
}

/** A textured material's setup: TLUT DL, SETTIMG from the texture record, material DL; latches its render tile. */
function runMaterial(run: ListRun, m: MaterialState): void {
  const { mod, tables, interp, mem } = run
  const pal = tables.palettes[m.paletteIndex]
  if (m.paletteIndex >= 0 && pal && pal.dl >= 0) interp.run(mod.base + pal.dl, mem)
  const tex = tables.textures[m.textureIndex >= 0 ? m.textureIndex : 0]
  if (tex && tex.data >= 0) {
    const w0 = ((G.SETTIMG << 24) | ((tex.fmt & 7) << 21) | ((tex.siz & 3) << 19) | ((tex.width - 1) & 0xfff)) >>> 0
    interp.exec(w0, mod.base + tex.data, mem)
  }
  interp.run(mod.base + m.dl, mem)
  if (!run.materialTiles.has(m.at)) {
    const t: TileState = interp.tiles[0]!
    run.materialTiles.set(m.at, { palette: t.palette, cms: t.cms, cmt: t.cmt, masks: t.masks, maskt: t.maskt })
  }
}

/** Takes the triangles DL node `d` drew, counting those with a corner loaded in another bucket; tags new vertex loads with the bucket. */
function collectTriangles(run: ListRun, d: DrawCall): void {
  const { interp, triangles, loadBucket } = run
  const lastBucket = run.lastBucket
  let crossBucket = run.crossBucket
  for (const call of interp.takeDrawCalls()) {
    const ix = call.indices
    for (let k = 0; k + 2 < ix.length; k += 3) {
      const v: [CachedVertex, CachedVertex, CachedVertex] = [call.vertices[ix[k]!]!, call.vertices[ix[k + 1]!]!, call.vertices[ix[k + 2]!]!]
      if (v.some((x) => (loadBucket.get(x.loadId) ?? lastBucket) !== lastBucket)) crossBucket++
      triangles.push({ draw: d, geometryMode: call.state.geometryMode, v })
    }
  }
  run.crossBucket = crossBucket
  for (const v of interp.vertices) if (v && !loadBucket.has(v.loadId)) loadBucket.set(v.loadId, lastBucket)
}

/**
 * Triangles that come out differently between the game's bucket order and plain traversal
 * order (§8.2 diagnostic): compared per DL node, corner by corner (source address and matrix).
 */
export function orderDifferences(game: DlRun, traversal: DlRun): number {
  const sig = (run: DlRun) => {
    const m = new Map<number, string[]>()
    for (const t of run.triangles) {
      const list = m.get(t.draw.order) ?? []
      list.push(t.v.map((v) => `${v.addr}:${v.bone}`).join('|') + `#${t.geometryMode & GM.CULL_BOTH}`)
      m.set(t.draw.order, list)
    }
    return m
  }
  const a = sig(game)
  const b = sig(traversal)
  let diff = 0
  for (const k of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(k) ?? []
    const y = b.get(k) ?? []
    for (let i = 0; i < Math.max(x.length, y.length); i++) if (x[i] !== y[i]) diff++
  }
  return diff
}
