/**
 * A game-neutral F3DEX2 display-list interpreter (pokemon-snap.md §5, §6; pokemon-stadium.md §8).
 *
 * It keeps the RSP/RDP state a model needs for export (vertex cache tagged with the bone/node that
 * loaded each vertex, segment table, matrix-stack depth, geometry mode, othermodes, combine,
 * colours, eight tile descriptors, a TMEM tracker), and turns triangles into draw calls that are
 * split whenever render-relevant state changes. Game-specific behaviour goes through `hooks`
 * (Snap's segment-0x0E material calls, Stadium's bucket order, unknown opcodes). Runaway input is
 * stopped by a call-depth limit and a command limit (LimitError naming the address).
 *
 * Memory is abstract: the game supplies `read(addr, len, what)` over its own address map.
 * The state's types are in `f3dex2-state.ts`, the RDP texture commands and helpers in
 * `f3dex2-rdp.ts`; this module re-exports both, so callers import from here.
 */
import { FormatError, LimitError, hex } from '../../binary'
import { G, GeometryMode, MW, OtherModeH, combinerUses } from './gbi'
import { execRdp, textureRefFor } from './f3dex2-rdp'
import { isSegmented, newTile, stateKey, type CachedVertex, type DrawCall, type DrawState, type Memory, type RdpState, type TextureImage, type TextureRef, type TextureState, type TileState, type TmemEntry } from './f3dex2-state'

export * from './f3dex2-state'
export { computeUV, decodeTextureRef, shiftFactor, wrapMode } from './f3dex2-rdp'

export interface F3dex2Hooks {
  /**
   * Called for G_DL / G_BRANCH_Z targets before they are followed. Return true when the hook
   * handled the call (e.g. Snap injects material setup for segment 0x0E).
   */
  onCall?(target: number, interp: F3dex2, branch: boolean): boolean
  /** Resolves a segmented address (top byte not 0x80..0xFF); return undefined for the default. */
  resolveSegment?(addr: number, interp: F3dex2): number | undefined
  /** Game-specific or unknown opcode; return true when handled. */
  onOpcode?(op: number, w0: number, w1: number, interp: F3dex2): boolean
  /** G_MTX (not expected in Snap asset DLs). */
  onMatrix?(addr: number, params: number, interp: F3dex2): void
  /** Diagnostics (unexpected but recoverable input). */
  warn?(message: string): void
}

export interface F3dex2Options {
  /** Vertex cache slots (F3DEX2 has 32; 64 tolerated like noclip). */
  vertexSlots?: number
  /** Maximum DL call depth (G_DL push nesting). */
  maxDepth?: number
  /** Maximum commands per `run` (stops loops and run-on lists). */
  maxCommands?: number
  /** Add the RDP texel-centre half texel when computing UVs (see `computeUV`). */
  halfTexel?: boolean
  hooks?: F3dex2Hooks
}

export class F3dex2 implements RdpState {
  readonly opts: Required<Omit<F3dex2Options, 'hooks'>>
  hooks: F3dex2Hooks

  // RSP
  vertices: (CachedVertex | null)[]
  segments = new Array<number>(16).fill(0)
  geometryMode = GeometryMode.SHADE | GeometryMode.LIGHTING
  texture: TextureState = { on: false, tile: 0, level: 0, sScale: 1, tScale: 1 }
  /** Current bone (node index) that G_VTX tags loaded vertices with. */
  bone = 0
  /** Caller-defined tag (material index …) recorded on draw calls; a change splits them. */
  tag: number | string | null = null
  lights: Record<number, [number, number, number]> = {}
  matrixDepth = 0
  half1 = 0

  // RDP
  otherModeH = 0
  otherModeL = 0
  combineHi = 0
  combineLo = 0
  primColor: [number, number, number, number] = [255, 255, 255, 255]
  primLodFrac = 0
  primMinLevel = 0
  envColor: [number, number, number, number] = [255, 255, 255, 255]
  blendColor: [number, number, number, number] = [0, 0, 0, 0]
  fogColor: [number, number, number, number] = [0, 0, 0, 0]
  timg: TextureImage = { fmt: 0, siz: 0, width: 1, addr: 0 }
  tiles: TileState[] = Array.from({ length: 8 }, newTile)
  /** TMEM word address → what was loaded there. */
  tmem = new Map<number, TmemEntry>()

  /** Draw calls produced since the last `takeDrawCalls`. */
  drawCalls: DrawCall[] = []
  /** Commands executed in total (for benchmarks). */
  commandCount = 0

  private stateDirty = true
  private current: DrawCall | null = null
  private currentKey = ''
  private vertexMap = new Map<number, number>()
  private nextLoadId = 1
  private runCommands = 0
  private currentDl = 0

  constructor(opts: F3dex2Options = {}) {
    this.opts = {
      vertexSlots: opts.vertexSlots ?? 64,
      maxDepth: opts.maxDepth ?? 18,
      maxCommands: opts.maxCommands ?? 500_000,
      halfTexel: opts.halfTexel ?? false,
    }
    this.hooks = opts.hooks ?? {}
    this.vertices = new Array<CachedVertex | null>(this.opts.vertexSlots).fill(null)
  }

  /** Marks state as changed (call after poking state fields directly). */
  touch(): void {
    this.stateDirty = true
  }

  /** Sets the current bone: vertices loaded from now on belong to it. */
  setBone(bone: number): void {
    this.bone = bone
  }

  /** Sets the caller tag (e.g. material index); a different tag starts a new draw call. */
  setTag(tag: number | string | null): void {
    if (tag !== this.tag) {
      this.tag = tag
      this.stateDirty = true
    }
  }

  /** Returns the draw calls so far and starts a fresh list (RSP/RDP state and vertex cache are kept). */
  takeDrawCalls(): DrawCall[] {
    const d = this.drawCalls
    this.drawCalls = []
    this.current = null
    this.currentKey = ''
    this.vertexMap.clear()
    this.stateDirty = true
    return d
  }

  /** Relabels every cached vertex with `bone` (noclip's simplification; §6 rule 3 note). */
  relabelCache(bone: number): void {
    for (const v of this.vertices) if (v) v.bone = bone
  }

  /** Resolves a DL/vertex/texture address through the segment table. */
  resolve(addr: number): number {
    addr >>>= 0
    if (!isSegmented(addr)) return addr
    const hooked = this.hooks.resolveSegment?.(addr, this)
    if (hooked !== undefined) return hooked >>> 0
    const seg = (addr >>> 24) & 0x0f
    const base = this.segments[seg]!
    if (base === 0 && seg !== 0) throw new FormatError(`segmented address ${hex(addr)} uses segment ${hex(seg)}, which was never set`, { structure: `DisplayList ${hex(this.currentDl)}` })
    const phys = (base + (addr & 0x00ffffff)) >>> 0
    return phys < 0x80000000 ? (phys | 0x80000000) >>> 0 : phys
  }

  private warn(msg: string): void {
    this.hooks.warn?.(msg)
  }

  /**
   * Runs the display list at `addr` until its G_ENDDL (following calls and branches).
   * Throws LimitError on runaway nesting or command counts, FormatError on unreadable memory.
   */
  run(addr: number, mem: Memory): void {
    this.runCommands = 0
    this.runList(addr, mem, 0)
  }

  private runList(start: number, mem: Memory, depth: number): void {
    // `start` is reassigned by branches (for messages)
    if (depth > this.opts.maxDepth) {
      throw new LimitError(`display-list calls nest deeper than ${this.opts.maxDepth} (a call loop?) at ${hex(start)}`, { structure: `DisplayList ${hex(start)}` })
    }
    let pc = this.resolve(start)
    for (;;) {
      if (++this.runCommands > this.opts.maxCommands) {
        throw new LimitError(`more than ${this.opts.maxCommands} display-list commands (a loop or a list that never ends) at ${hex(pc)}`, { structure: `DisplayList ${hex(start)}` })
      }
      this.currentDl = pc
      let cmd: Uint8Array
      try {
        cmd = mem.read(pc, 8, 'DisplayList command')
      } catch (e) {
        // name the list and the command only on failure (no string building per command)
        if (e instanceof FormatError) throw new FormatError(`display list ${hex(start)}: command at ${hex(pc)}: ${e.detail}`, { file: e.file, structure: e.structure, offset: e.offset })
        throw e
      }
      const w0 = ((cmd[0]! << 24) | (cmd[1]! << 16) | (cmd[2]! << 8) | cmd[3]!) >>> 0
      const w1 = ((cmd[4]! << 24) | (cmd[5]! << 16) | (cmd[6]! << 8) | cmd[7]!) >>> 0
      pc = (pc + 8) >>> 0
      const op = w0 >>> 24
      if (op === G.ENDDL) return
      if (op === G.DL || op === G.BRANCH_Z) {
        // G_BRANCH_Z: follow the near (high-detail) branch and stop the current list (pokemon-snap.md §5.2).
        const branch = op === G.BRANCH_Z || ((w0 >>> 16) & 0xff) === 1
        const target = op === G.BRANCH_Z ? this.half1 : w1
        if (this.hooks.onCall?.(target, this, branch)) {
          if (branch) return
          continue
        }
        if (branch) {
          // a branch never returns: continue in the target list at the same depth
          start = target
          pc = this.resolve(target)
          continue
        }
        this.runList(target, mem, depth + 1)
        continue
      }
      this.exec(w0, w1, mem)
    }
  }

  /**
   * Executes one non-flow command (state, vertices, triangles). Hooks may call it to inject
   * commands (Snap's material setup).
   */
  exec(w0: number, w1: number, mem: Memory): void {
    w0 >>>= 0
    w1 >>>= 0
    this.commandCount++
    const op = w0 >>> 24
    switch (op) {
      case G.NOOP: case G.SPNOOP: case G.CULLDL: case G.RDPLOADSYNC: case G.RDPPIPESYNC: case G.RDPTILESYNC: case G.RDPFULLSYNC:
      case G.FILLRECT: case G.SETFILLCOLOR: case G.SETZIMG: case G.SETCIMG: case G.SETSCISSOR: case G.SETPRIMDEPTH:
      case G.SETKEYGB: case G.SETKEYR: case G.SETCONVERT: case G.RDPHALF_2: case G.TEXRECT: case G.TEXRECTFLIP: case G.MOVEMEM:
        return
      case G.VTX:
        this.loadVertices(w0, w1, mem)
        return
      case G.MODIFYVTX:
        this.modifyVertex(w0, w1)
        return
      case G.TRI1:
        this.triangle(((w0 >>> 16) & 0xff) >>> 1, ((w0 >>> 8) & 0xff) >>> 1, (w0 & 0xff) >>> 1, mem)
        return
      case G.TRI2:
        this.triangle(((w0 >>> 16) & 0xff) >>> 1, ((w0 >>> 8) & 0xff) >>> 1, (w0 & 0xff) >>> 1, mem)
        this.triangle(((w1 >>> 16) & 0xff) >>> 1, ((w1 >>> 8) & 0xff) >>> 1, (w1 & 0xff) >>> 1, mem)
        return
      case G.QUAD: {
        // Encoded like TRI2: (a, b, c) from w0 and (a, c, d) from w1 (pokemon-snap.md §5.2).
        this.triangle(((w0 >>> 16) & 0xff) >>> 1, ((w0 >>> 8) & 0xff) >>> 1, (w0 & 0xff) >>> 1, mem)
        this.triangle(((w1 >>> 16) & 0xff) >>> 1, ((w1 >>> 8) & 0xff) >>> 1, (w1 & 0xff) >>> 1, mem)
        return
      }
      case G.TEXTURE: {
        this.texture = {
          level: (w0 >>> 11) & 7, tile: (w0 >>> 8) & 7, on: ((w0 >>> 1) & 0x7f) !== 0,
          sScale: (w1 >>> 16) / 65536, tScale: (w1 & 0xffff) / 65536,
        }
        this.stateDirty = true
        return
      }
      case G.POPMTX:
        this.matrixDepth = Math.max(0, this.matrixDepth - Math.floor(w1 / 64))
        return
      case G.GEOMETRYMODE:
        this.geometryMode = ((this.geometryMode & (w0 & 0xffffff)) | w1) >>> 0
        this.stateDirty = true
        return
      case G.MTX: {
        const p = (w0 & 0xff) ^ 1
        if (p & 1 && !(p & 4)) this.matrixDepth++
        if (this.hooks.onMatrix) this.hooks.onMatrix(w1, p, this)
        else this.warn(`G_MTX at ${hex(this.currentDl)} (matrix ${hex(w1)}) is not applied`)
        return
      }
      case G.MOVEWORD: {
        const index = (w0 >>> 16) & 0xff
        const offset = w0 & 0xffff
        if (index === MW.SEGMENT) this.segments[(offset >>> 2) & 0xf] = w1
        else if (index === MW.LIGHTCOL) {
          const n = Math.floor(offset / 0x18) + 1
          if (offset % 0x18 === 0) {
            this.lights[n] = [w1 >>> 24, (w1 >>> 16) & 0xff, (w1 >>> 8) & 0xff]
            this.stateDirty = true
          }
        }
        return
      }
      case G.RDPHALF_1:
        this.half1 = w1
        return
      default:
        // the RDP's texture and colour commands (f3dex2-rdp.ts), then the game's hook
        if (execRdp(this, op, w0, w1)) return
        if (this.hooks.onOpcode?.(op, w0, w1, this)) return
        this.warn(`unknown F3DEX2 opcode ${hex(op)} at ${hex(this.currentDl)} ignored`)
    }
  }

  /** G_VTX: `n` vertices from memory into the cache at `v0`, tagged with the current bone and a load id. */
  private loadVertices(w0: number, w1: number, mem: Memory): void {
    const n = (w0 >>> 12) & 0xff
    const v0 = ((w0 >>> 1) & 0x7f) - n
    if (n === 0) return
    if (v0 < 0 || v0 + n > this.vertices.length) {
      throw new FormatError(`G_VTX loads ${n} vertices into slots ${v0}..${v0 + n - 1}, outside the ${this.vertices.length}-slot cache`, { structure: `DisplayList command at ${hex(this.currentDl)}` })
    }
    if (v0 + n > 32) this.warn(`G_VTX at ${hex(this.currentDl)} uses slots above 31 (real F3DEX2 has 32)`)
    const addr = this.resolve(w1)
    const b = mem.read(addr, n * 16, `Vtx[${n}] at ${hex(addr)}`)
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength)
    for (let i = 0; i < n; i++) {
      const o = i * 16
      this.vertices[v0 + i] = {
        x: dv.getInt16(o), y: dv.getInt16(o + 2), z: dv.getInt16(o + 4),
        s: dv.getInt16(o + 8), t: dv.getInt16(o + 10),
        c0: b[o + 12]!, c1: b[o + 13]!, c2: b[o + 14]!, a: b[o + 15]!,
        bone: this.bone, loadId: this.nextLoadId++, addr: addr + o,
      }
    }
  }

  /** G_MODIFYVTX: a new load of one cached vertex with its texture coordinates or colour replaced. */
  private modifyVertex(w0: number, w1: number): void {
    const where = (w0 >>> 16) & 0xff
    const slot = (w0 & 0xffff) >>> 1
    const v = this.vertices[slot]
    if (!v) { this.warn(`G_MODIFYVTX at ${hex(this.currentDl)} on empty slot ${slot}`); return }
    const nv = { ...v, loadId: this.nextLoadId++ }
    if (where === 0x14) { nv.s = (w1 >> 16); nv.t = ((w1 & 0xffff) << 16) >> 16 }
    else if (where === 0x10) { nv.c0 = w1 >>> 24; nv.c1 = (w1 >>> 16) & 0xff; nv.c2 = (w1 >>> 8) & 0xff; nv.a = w1 & 0xff }
    this.vertices[slot] = nv
  }

  /** The texture reference for render tile `tileIndex`, or null (with a warning) when TMEM holds nothing there. */
  textureFor(tileIndex: number): TextureRef | null {
    return textureRefFor(this, tileIndex, (msg) => this.warn(`${msg} (draw at ${hex(this.currentDl)})`))
  }

  private snapshot(): DrawState {
    const textures: (TextureRef | null)[] = []
    if (this.texture.on) {
      textures.push(this.textureFor(this.texture.tile))
      const twoCycle = ((this.otherModeH >>> OtherModeH.CYCLETYPE) & 3) === 1
      if (this.texture.level === 0 && combinerUses(this.combineHi, this.combineLo, 2, twoCycle)) {
        const t1 = this.tiles[(this.texture.tile + 1) & 7]!
        // A tile that was never configured reuses texture 0 (Stadium-fork guard, §5.4).
        const unset = t1.line === 0 && t1.lrs === 0 && t1.lrt === 0
        textures.push(unset ? textures[0] ?? null : this.textureFor(this.texture.tile + 1))
      }
    }
    return {
      geometryMode: this.geometryMode, otherModeH: this.otherModeH, otherModeL: this.otherModeL,
      combineHi: this.combineHi, combineLo: this.combineLo,
      primColor: [...this.primColor], primLodFrac: this.primLodFrac, primMinLevel: this.primMinLevel,
      envColor: [...this.envColor], blendColor: [...this.blendColor], fogColor: [...this.fogColor],
      texture: { ...this.texture }, lights: { ...this.lights }, textures, tag: this.tag,
    }
  }

  private triangle(a: number, b: number, c: number, _mem: Memory): void {
    const va = this.vertices[a], vb = this.vertices[b], vc = this.vertices[c]
    if (!va || !vb || !vc) {
      this.warn(`triangle (${a}, ${b}, ${c}) at ${hex(this.currentDl)} uses an empty vertex slot; dropped`)
      return
    }
    if (this.stateDirty || !this.current) {
      const st = this.snapshot()
      const key = stateKey(st)
      if (!this.current || key !== this.currentKey) {
        this.current = { state: st, vertices: [], indices: [], bone: this.bone, dlAddr: this.currentDl }
        this.currentKey = key
        this.vertexMap.clear()
        this.drawCalls.push(this.current)
      }
      this.stateDirty = false
    }
    const dc = this.current
    for (const v of [va, vb, vc]) {
      let i = this.vertexMap.get(v.loadId)
      if (i === undefined) {
        i = dc.vertices.length
        dc.vertices.push(v)
        this.vertexMap.set(v.loadId, i)
      }
      dc.indices.push(i)
    }
  }
}

