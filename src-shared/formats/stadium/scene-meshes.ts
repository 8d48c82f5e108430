/**
 * Stadium model scene, materials and meshes (pokemon-stadium.md §7, §16): materials from the
 * combiner preset / render layer / cull mode, textures with wrap modes, and one skinned mesh of
 * the display lists' triangles with rigid weights (one primitive per material), through the
 * shared scene assembler.
 */
import { GeometryMode } from '../n64/gbi'
import { PrimitiveBuilder, buildPrimitives, type SceneAssembler } from '../../scene/assemble'
import type { Material, Primitive, WrapMode } from '../../scene/types'
import type { StadiumModel } from './model'
import type { MaterialState } from './model-graph'
import type { Triangle } from './display-lists'
import { materialBank, pixelKey, type StadiumSceneData } from './scene-data'
import { stadiumProgram } from './material-program'

/** glTF wrap from a tile's cm bits and mask (§7.4): CLAMP bit → clamp, MIRROR → mirror, else repeat. */
export function wrapFromTile(cm: number, _mask: number): WrapMode {
  if (cm & 2) return 'clamp'
  return cm & 1 ? 'mirror' : 'repeat'
}

/** Alpha mode from the render layer (§7.3). */
export function alphaModeForLayer(layer: number): { alphaMode: Material['alphaMode']; alphaCutoff?: number } {
  const l = layer & 0x0f
  if (l === 1 || l === 2 || l === 3) return { alphaMode: 'OPAQUE' }
  if (l >= 5 && l <= 8) return { alphaMode: 'BLEND' }
  return { alphaMode: 'MASK', alphaCutoff: 0.5 }
}

/** Base colour and flags of a combiner preset (§7.2). */
export function presetMaterial(m: MaterialState | null): { baseColor: [number, number, number, number]; textured: boolean; unlit: boolean; vertexColors: boolean; opaqueAlpha: boolean } {
  if (!m) return { baseColor: [1, 1, 1, 1], textured: false, unlit: false, vertexColors: false, opaqueAlpha: false }
  const p = m.preset % 15
  const base = p % 5
  const group = Math.floor(p / 5)
  const prim = m.prim.map((c) => c / 255) as [number, number, number, number]
  const textured = base !== 0
  let color: [number, number, number, number] = group === 2 ? [1, 1, 1, 1] : p === 1 ? [1, 1, 1, 1] : [prim[0], prim[1], prim[2], 1]
  // cycle-1 alpha: texture (1), constant 0 → exported opaque (2), prim (0, 3), texture × prim (4)
  let alpha = 1
  if (group !== 2 && (base === 0 || base === 3 || base === 4)) alpha = prim[3]
  color = [color[0], color[1], color[2], alpha]
  return { baseColor: color, textured, unlit: group >= 1, vertexColors: group === 2, opaqueAlpha: base === 2 }
}

/** What a scene material was made from (texture animations look the channel up here). */
export interface MaterialSource {
  state: MaterialState | null
  channel: number
  textureIndex: number
}

/** A primitive under construction, with the texture size its UVs divide by. */
interface Group {
  prim: PrimitiveBuilder
  lit: boolean
  tw: number
  th: number
}

export class StadiumMeshes {
  /** Per scene material, in order. */
  readonly sources: MaterialSource[] = []
  private readonly groups = new Map<number, Group>()
  triangles = 0
  vertices = 0

  constructor(private readonly a: SceneAssembler, private readonly m: StadiumModel, private readonly pixels: StadiumSceneData['pixels'], private readonly halfTexel: boolean) {}

  /** The scene texture of texture `ti` with palette `pi` as material `mat` binds it; undefined when it does not decode. */
  texture(ti: number, pi: number, mat: MaterialState): number | undefined {
    const tile = this.m.dl?.materialTiles?.get(mat.at)
    const bank = materialBank(this.m, mat)
    const wrapS = tile ? wrapFromTile(tile.cms, tile.masks) : 'clamp'
    const wrapT = tile ? wrapFromTile(tile.cmt, tile.maskt) : 'clamp'
    return this.a.texture(`${pixelKey(ti, pi, bank)}:${wrapS}:${wrapT}`, () => {
      const d = this.pixels.get(pixelKey(ti, pi, bank)) ?? new Error('not decoded by the structure step')
      if (d instanceof Error) return void this.a.warn(`texture ${ti} (palette ${pi}): ${d.message}`)
      const rec = this.m.tables.textures[ti]!
      return { name: `${String(ti).padStart(2, '0')}_${d.width}x${d.height}${pi >= 0 && rec.fmt === 2 ? `_p${pi}${rec.siz === 0 ? `b${bank}` : ''}` : ''}`, width: d.width, height: d.height, rgba: d.rgba, wrapS, wrapT, filter: 'linear' }
    })
  }

  /** The texture indices channel `channel` of the model's texture animations shows, ascending. */
  texAnimIndices(channel: number): number[] {
    const s = new Set<number>()
    for (const ta of this.m.textureAnimations) for (const x of ta.channels[channel]?.stream ?? []) s.add(x)
    return [...s].sort((a, b) => a - b)
  }

  /** The primitive a triangle goes to: one per (material, layer, cull, lit), its material made with it. */
  private group(t: Triangle, cull: number, lit: boolean): Group {
    const ms = t.draw.material
    const key = `${ms?.at ?? -1}|${t.draw.layer & 15}|${cull === 0}|${lit}|${t.geometryMode}`
    let ti = -1
    const mi = this.a.material(key, (index) => {
      const made = this.material(index, t, cull, lit)
      ti = made.ti
      return made.material
    })
    let g = this.groups.get(mi)
    if (!g) {
      const rec = ti >= 0 ? this.m.tables.textures[ti] : undefined
      this.groups.set(mi, (g = { prim: new PrimitiveBuilder(mi), lit, tw: rec && rec.width > 0 ? rec.width : 32, th: rec && rec.height > 0 ? rec.height : 32 }))
    }
    return g
  }

  private material(index: number, t: Triangle, cull: number, lit: boolean): { material: Material; ti: number } {
    const ms = t.draw.material
    const pm = presetMaterial(ms)
    const channel = ms && ms.texAnimChannel >= 0 ? ms.texAnimChannel : -1
    let ti = ms && pm.textured ? ms.textureIndex : -1
    if (ms && pm.textured && ti < 0 && channel >= 0) ti = this.texAnimIndices(channel)[0] ?? -1
    const layerAlpha = alphaModeForLayer(t.draw.layer)
    const texture = ti >= 0 && ms ? this.texture(ti, ms.paletteIndex, ms) : undefined
    this.sources.push({ state: ms, channel, textureIndex: ti })
    const material: Material = {
      name: `mat${index}_${ms ? ms.at.toString(16) : 'none'}_L${t.draw.layer}`,
      baseColor: pm.baseColor,
      alphaMode: pm.opaqueAlpha && layerAlpha.alphaMode !== 'OPAQUE' ? 'OPAQUE' : layerAlpha.alphaMode,
      doubleSided: cull === 0,
      ...(layerAlpha.alphaCutoff !== undefined && !pm.opaqueAlpha ? { alphaCutoff: layerAlpha.alphaCutoff } : {}),
      ...(texture !== undefined ? { texture } : {}),
      ...(pm.unlit ? { unlit: true } : {}),
      ...(pm.vertexColors || !lit ? { vertexColors: true } : {}),
      program: { kind: 'n64', n64: stadiumProgram(ms, t.draw.layer, t.geometryMode, texture ?? null) },
      extras: { combinerPreset: ms?.preset ?? -1, renderLayer: t.draw.layer, textureIndex: ti, paletteIndex: ms?.paletteIndex ?? -1, texAnimChannel: channel, materialAt: ms?.at ?? -1, cull },
    }
    return { material, ti }
  }

  /** Adds the display lists' triangles (the skin joint of each vertex from its matrix level). */
  addTriangles(tris: Triangle[], jointOfLevel: Map<number, number>): void {
    let dropped = 0
    for (const t of tris) {
      const cull = t.geometryMode & GeometryMode.CULL_BOTH
      if (cull === GeometryMode.CULL_BOTH) {
        dropped++
        continue
      }
      const g = this.group(t, cull, (t.geometryMode & GeometryMode.LIGHTING) !== 0)
      const order = cull === GeometryMode.CULL_FRONT ? [0, 2, 1] : [0, 1, 2]
      for (const k of order) g.prim.idx.push(this.vertex(g, t.v[k]!, jointOfLevel.get(t.v[k]!.bone)!))
    }
    if (dropped) this.a.warn(`${dropped} triangle(s) with both cull bits set (the game draws nothing) dropped`)
  }

  private vertex(g: Group, v: Triangle['v'][number], joint: number): number {
    const p = g.prim
    return p.shared(`${v.x},${v.y},${v.z},${v.s},${v.t},${v.c0},${v.c1},${v.c2},${v.a},${joint}`, () => {
      p.pos.push(v.x, v.y, v.z)
      const h = this.halfTexel ? 0.5 : 0
      p.uv.push((v.s / 32 + h) / g.tw, (v.t / 32 + h) / g.th)
      if (g.lit) p.nrm.push(((v.c0 << 24) >> 24) / 127, ((v.c1 << 24) >> 24) / 127, ((v.c2 << 24) >> 24) / 127)
      else p.col.push(v.c0 / 255, v.c1 / 255, v.c2 / 255, v.a / 255)
      p.joint.push(joint)
    })
  }

  /** The primitives (UVs only for textured materials), counting triangles and vertices. */
  primitives(): Primitive[] {
    const builders = [...this.groups.values()].map((g) => g.prim)
    for (const b of builders) {
      this.triangles += b.idx.length / 3
      this.vertices += b.vertexCount
    }
    return buildPrimitives(builders, (b) => this.a.scene.materials[b.material]!.texture !== undefined)
  }
}
