/**
 * Snap stage and actor scenes, conversion step: draw calls (from `stage-models.ts` / `actors.ts`)
 * → neutral textures, materials and meshes through the shared assembler (pokemon-snap.md §5, §6):
 * one mesh per model, one primitive per material, textures from the decoded pixels, vertex
 * colours (unlit draws) or normals (lit draws); node-list models (kinds B/D) are flattened through
 * their node matrices, and a skinned mesh (actors) keeps each vertex's bone as its one joint.
 */
import { hex } from '../../binary'
import { computeUV, vertexNormal, wrapMode, type DrawCall, type TextureRef } from '../n64/f3dex2'
import { GeometryMode, OtherModeH, combinerUses } from '../n64/gbi'
import { drawProgram, n64ProgramKey } from '../n64/program'
import { PrimitiveBuilder, buildPrimitives, type SceneAssembler } from '../../scene/assemble'
import { mat4FromEulerExtrinsicXYZ, mat4Multiply, mat4ScaleColumns, type M4 } from '../../scene/math'
import type { Material } from '../../scene/types'
import type { GfxNode } from './node-list'
import { textureKey, type MeshDraws, type StageModels } from './stage-models'

type StageDraw = DrawCall & { layer: number }

/** Scene material → the Snap material (tag) and texture state it was made from. */
export interface MaterialSource {
  /** The Snap material's draw-call tag: its index (rooms, actor node 0) or `node:index` (materialTag). */
  tag: number | string
  ref: TextureRef | null
  sScale: number
  tScale: number
  filterOn: boolean
  usesPrim: boolean
  draws: MeshDraws
}

/** Column-major T · Rz · Ry · Rx · S (§4.3). */
const nodeLocal = (n: GfxNode): M4 => mat4ScaleColumns(mat4FromEulerExtrinsicXYZ(n.rotation, n.translation), n.scale)

/** Rest world matrices (column-major) of a node list, parents first (§4.3). */
export function nodeWorlds(nodes: GfxNode[]): M4[] {
  const out: M4[] = []
  for (const n of nodes) out.push(n.parent >= 0 ? mat4Multiply(out[n.parent]!, nodeLocal(n)) : nodeLocal(n))
  return out
}

const twoCycle = (dc: StageDraw) => ((dc.state.otherModeH >>> OtherModeH.CYCLETYPE) & 3) === 1
const isLit = (dc: StageDraw) => (dc.state.geometryMode & GeometryMode.LIGHTING) !== 0

/** glTF-style alpha mode from othermode L (§5.7). */
function alphaModeOf(dc: StageDraw): 'OPAQUE' | 'MASK' | 'BLEND' {
  const L = dc.state.otherModeL
  const m = twoCycle(dc) ? (L >>> 20) & 3 : (L >>> 22) & 3
  if (L & (1 << 14) && m === 1) return 'BLEND'
  if ((L & 3) === 1 || (L & (1 << 12) && L & (1 << 13))) return 'MASK'
  if (dc.layer === 1 || !(L & (1 << 5))) return 'BLEND'
  return 'OPAQUE'
}

export class StageMeshes {
  readonly sources = new Map<number, MaterialSource>()
  constructor(private readonly a: SceneAssembler, private readonly pixels: StageModels['textures']) {}

  /** The scene texture of a texture state, from the structure step's pixels; undefined when they failed. */
  texture(ref: TextureRef, filterOn: boolean): number | undefined {
    const key = textureKey(ref)
    return this.a.texture(key, () => {
      const rgba = this.pixels.get(key) ?? new Error('not decoded by the structure step')
      if (rgba instanceof Error) return void this.a.warn(`texture ${hex(ref.addr)}: ${rgba.message}`)
      return {
        name: `tex_${ref.addr.toString(16)}${ref.paletteAddr ? `_pal_${ref.paletteAddr.toString(16)}` : ''}`,
        width: ref.width, height: ref.height, rgba,
        wrapS: wrapMode(ref.tile.cms, ref.tile.masks), wrapT: wrapMode(ref.tile.cmt, ref.tile.maskt),
        filter: filterOn ? 'linear' : 'nearest',
      }
    })
  }

  /** TEXEL1's scene texture: like `texture`, but a texture that did not decode is just left out. */
  private texture1(ref: TextureRef, filterOn: boolean): number | undefined {
    return this.pixels.get(textureKey(ref)) instanceof Uint8Array ? this.texture(ref, filterOn) : undefined
  }

  material(dc: StageDraw, tex0: number | undefined, tex1?: number): number {
    const s = dc.state
    const program = drawProgram(s, { textures: [tex0 ?? null, tex1 ?? null], refs: [s.textures[0] ?? null, s.textures[1] ?? null] })
    const lit = isLit(dc)
    const prim = combinerUses(s.combineHi, s.combineLo, 3, twoCycle(dc)) ? s.primColor.map((c) => c / 255) : [1, 1, 1, 1]
    const alphaMode = alphaModeOf(dc)
    const doubleSided = (s.geometryMode & GeometryMode.CULL_BOTH) === 0
    // An actor node's own material (tag `node:m`) keeps its own scene material, so that its
    // material tracks animate that node only (§7.6: tracks run per node and material); rooms and
    // actor node 0 merge like-looking materials as before.
    const own = typeof s.tag === 'string' ? s.tag : ''
    const key = [tex0 ?? -1, prim.join(','), alphaMode, doubleSided, lit, dc.layer, own, n64ProgramKey(program)].join(';')
    return this.a.material(key, (index): Material => ({
      name: `mat_${index}${typeof s.tag === 'number' ? `_m${s.tag}` : typeof s.tag === 'string' ? `_n${s.tag.replace(':', 'm')}` : ''}`,
      baseColor: [prim[0]!, prim[1]!, prim[2]!, prim[3]!],
      texture: tex0,
      alphaMode,
      ...(alphaMode === 'MASK' ? { alphaCutoff: 0.5 } : {}),
      doubleSided,
      vertexColors: !lit,
      unlit: !lit,
      program: { kind: 'n64', n64: program },
      extras: {
        combine: [hex(s.combineHi), hex(s.combineLo)], otherModeH: hex(s.otherModeH), otherModeL: hex(s.otherModeL),
        geometryMode: hex(s.geometryMode), layer: dc.layer, materialIndex: s.tag, envColor: s.envColor, lights: s.lights,
      },
    }))
  }

  /** The scene material of a draw call (texture first), remembering what it was made from. */
  private drawMaterial(dc: StageDraw, draws: MeshDraws): { mat: number; ref: TextureRef | null; textured: boolean } {
    const ref = dc.state.textures[0] ?? null
    const filterOn = ((dc.state.otherModeH >>> OtherModeH.TEXTFILT) & 3) !== 0
    const tex = ref ? this.texture(ref, filterOn) : undefined
    const ref1 = dc.state.textures[1] ?? null
    const tex1 = ref1 && tex !== undefined ? (ref1 === ref ? tex : this.texture1(ref1, filterOn)) : undefined
    const mat = this.material(dc, tex, tex1)
    if (dc.state.tag !== null && !this.sources.has(mat)) {
      const s = dc.state
      this.sources.set(mat, { tag: s.tag as number | string, ref, sScale: s.texture.sScale, tScale: s.texture.tScale, filterOn, usesPrim: combinerUses(s.combineHi, s.combineLo, 3, twoCycle(dc)), draws })
    }
    return { mat, ref, textured: tex !== undefined }
  }

  /**
   * One mesh for a model's draw calls, merged per material; null when it has no triangles.
   * `skinned`: one joint per vertex, its bone, weight 1 (§6 rule 4); positions stay bind pose (rule 5).
   */
  mesh(name: string, draws: MeshDraws, opts: { halfTexel?: boolean; skinned?: boolean } = {}): { mesh: number; triangles: number } | null {
    const worlds = draws.nodes ? nodeWorlds(draws.nodes) : null
    const groups = new Map<number, PrimitiveBuilder>()
    let triangles = 0
    for (const dc of draws.drawCalls) {
      const { mat, ref, textured } = this.drawMaterial(dc, draws)
      let g = groups.get(mat)
      if (!g) groups.set(mat, (g = new PrimitiveBuilder(mat)))
      const base = g.vertexCount
      const lit = isLit(dc)
      for (const v of dc.vertices) {
        pushVertex(g, v, lit ? vertexNormal(v) : null, worlds?.[v.bone])
        if (opts.skinned) g.joint.push(v.bone)
        if (ref && textured) {
          const [u, vv] = computeUV(v.s, v.t, dc.state.texture, ref, opts.halfTexel)
          g.uv.push(u, vv)
        } else if (textured) g.uv.push(0, 0)
      }
      for (const i of dc.indices) g.idx.push(base + i)
      triangles += dc.indices.length / 3
    }
    const mesh = this.a.mesh(name, buildPrimitives(groups.values()))
    return mesh === undefined ? null : { mesh, triangles }
  }
}

/** Position (and normal, or colour) of a vertex, through its node's world matrix when it has one. */
function pushVertex(g: PrimitiveBuilder, v: DrawCall['vertices'][number], normal: [number, number, number] | null, w: M4 | undefined): void {
  let x = v.x, y = v.y, z = v.z
  let n = normal
  if (w) {
    const px = w[0]! * x + w[4]! * y + w[8]! * z + w[12]!
    const py = w[1]! * x + w[5]! * y + w[9]! * z + w[13]!
    const pz = w[2]! * x + w[6]! * y + w[10]! * z + w[14]!
    x = px; y = py; z = pz
    if (n) {
      const nx = w[0]! * n[0] + w[4]! * n[1] + w[8]! * n[2], ny = w[1]! * n[0] + w[5]! * n[1] + w[9]! * n[2], nz = w[2]! * n[0] + w[6]! * n[1] + w[10]! * n[2]
      const l = Math.hypot(nx, ny, nz) || 1
      n = [nx / l, ny / l, nz / l]
    }
  }
  g.pos.push(x, y, z)
  if (n) g.nrm.push(...n)
  else g.col.push(v.c0 / 255, v.c1 / 255, v.c2 / 255, v.a / 255)
}
