/**
 * The shared scene assembler: what every scene builder (Snap stages, Stadium models, and next
 * GF models and Snap actors) uses to turn its format's structures into a neutral `Scene`, so
 * that texture/material dedup, naming and primitive packing are written once.
 *
 * A builder runs its format's structure step first (display lists, decoded pixels: everything
 * that reads file bytes), then converts in small steps (nodes, materials, meshes, animations):
 *
 *   const a = new SceneAssembler('name')
 *   const tex = a.texture(key, () => ({ name, width, height, rgba, wrapS, wrapT }))    // dedup by key
 *   const mat = a.material(key, (index) => ({ name: `mat${index}`, … }))                // dedup by key
 *   const prim = new PrimitiveBuilder(mat)                                              // one per material
 *   prim.pos.push(x, y, z); prim.col.push(r, g, b, a); prim.idx.push(i)                 // or prim.shared(key, add)
 *   const mesh = a.mesh('room', buildPrimitives([prim]))                                // undefined when empty
 *   a.node({ name: a.uniqueName('bone'), parent: -1, …, mesh })
 *   a.scene.animations.push(…); a.warn('…'); return a.scene
 *
 * Keys are the builder's own strings (whatever makes two textures/materials the same in its
 * format). `make` runs once per new key; a texture `make` may return undefined when the pixels
 * cannot be had (it reports why with `warn`): the failure is remembered and not retried, unless
 * the assembler was made with `{ retryFailedTextures: true }` (Snap's stage scene, which has
 * always warned at every use of a bad texture).
 *
 * `PrimitiveBuilder` keeps flat attribute lists; `build()` packs them into typed arrays and keeps
 * an attribute only when every vertex has it (so a lit group gets normals and an unlit one
 * colours by what was pushed). One joint per vertex (`joint`) becomes rigid skinning: that joint
 * with weight 1; four per vertex (`joints4` + `weights4`, e.g. GF's blend indices/weights) are
 * packed as they are. No byte reading here and no format knowledge.
 */
import type { Animation, Material, Mesh, Primitive, Scene, SceneNode, Texture } from './types'
import { emptyScene } from './types'

export interface AssemblerOptions {
  /** Call a texture's `make` again at every use after it failed (default false: remember it). */
  retryFailedTextures?: boolean
}

export class SceneAssembler {
  readonly scene: Scene
  /** Everything `warn` was told, in order. */
  readonly warnings: string[]
  private readonly textures = new Map<string, number>()
  private readonly materials = new Map<string, number>()
  private readonly names = new Set<string>()

  constructor(name: string, private readonly opts: AssemblerOptions = {}, warnings: string[] = []) {
    this.scene = emptyScene(name)
    this.warnings = warnings
  }

  warn(message: string): void {
    this.warnings.push(message)
  }

  /** Index of the texture for `key`, made by `make` the first time; undefined when it failed. */
  texture(key: string, make: () => Texture | undefined): number | undefined {
    const hit = this.textures.get(key)
    if (hit !== undefined) return hit >= 0 ? hit : undefined
    const t = make()
    if (!t) {
      if (!this.opts.retryFailedTextures) this.textures.set(key, -1)
      return undefined
    }
    this.scene.textures.push(t)
    this.textures.set(key, this.scene.textures.length - 1)
    return this.scene.textures.length - 1
  }

  /** Index of the material for `key`; `make(index)` builds it the first time (index: its place, for names). */
  material(key: string, make: (index: number) => Material): number {
    const hit = this.materials.get(key)
    if (hit !== undefined) return hit
    const index = this.scene.materials.length
    this.scene.materials.push(make(index))
    this.materials.set(key, index)
    return index
  }

  /** Adds a mesh when it has primitives; its index, or undefined for none. */
  mesh(name: string, primitives: Primitive[]): number | undefined {
    if (!primitives.length) return undefined
    const mesh: Mesh = { name, primitives }
    this.scene.meshes.push(mesh)
    return this.scene.meshes.length - 1
  }

  node(n: SceneNode): number {
    this.scene.nodes.push(n)
    return this.scene.nodes.length - 1
  }

  /** `name`, or `name_2`, `name_3`, … : unique among the names this method gave out. */
  uniqueName(name: string): string {
    let s = name
    for (let k = 2; this.names.has(s); k++) s = `${name}_${k}`
    this.names.add(s)
    return s
  }
}

/** Flat vertex lists of one primitive (one material), packed by `build`. */
export class PrimitiveBuilder {
  readonly pos: number[] = []
  readonly nrm: number[] = []
  readonly uv: number[] = []
  readonly col: number[] = []
  /** One joint (skin joint index) per vertex: rigid skinning. */
  readonly joint: number[] = []
  /** Or four joints and four weights per vertex (weights summing to 1). */
  readonly joints4: number[] = []
  readonly weights4: number[] = []
  readonly idx: number[] = []
  private readonly seen = new Map<string, number>()

  constructor(readonly material: number) {}

  get vertexCount(): number {
    return this.pos.length / 3
  }

  /** Index of the vertex with this key; `add` pushes its attributes the first time. */
  shared(key: string, add: () => void): number {
    let i = this.seen.get(key)
    if (i === undefined) {
      i = this.vertexCount
      this.seen.set(key, i)
      add()
    }
    return i
  }

  /** The primitive, or null without triangles. `uvs: false` drops the UVs (an untextured material). */
  build(opts: { uvs?: boolean } = {}): Primitive | null {
    if (!this.idx.length) return null
    const n = this.vertexCount
    const p: Primitive = { positions: new Float32Array(this.pos), indices: new Uint32Array(this.idx), material: this.material }
    if (this.nrm.length === n * 3) p.normals = new Float32Array(this.nrm)
    if (this.col.length === n * 4) p.colors = new Float32Array(this.col)
    if (opts.uvs !== false && this.uv.length === n * 2) p.uvs = new Float32Array(this.uv)
    if (this.joints4.length === n * 4 && this.weights4.length === n * 4) {
      p.joints = new Uint16Array(this.joints4)
      p.weights = new Float32Array(this.weights4)
    } else if (this.joint.length === n) {
      p.joints = new Uint16Array(n * 4)
      p.weights = new Float32Array(n * 4)
      for (let i = 0; i < n; i++) {
        p.joints[i * 4] = this.joint[i]!
        p.weights[i * 4] = 1
      }
    }
    return p
  }
}

/** The non-empty primitives of some builders, in order; `uvs(b)` says whether b keeps its UVs. */
export function buildPrimitives(builders: Iterable<PrimitiveBuilder>, uvs: (b: PrimitiveBuilder) => boolean = () => true): Primitive[] {
  const out: Primitive[] = []
  for (const b of builders) {
    const p = b.build({ uvs: uvs(b) })
    if (p) out.push(p)
  }
  return out
}

/** n identity matrices (16 floats each), e.g. the inverse binds of a skin posed in place. */
export function identityMatrices(n: number): Float32Array {
  const a = new Float32Array(n * 16)
  for (let i = 0; i < n; i++) a[i * 16] = a[i * 16 + 5] = a[i * 16 + 10] = a[i * 16 + 15] = 1
  return a
}

/** Where `appendModel` put a model's first mesh, material and texture in the scene it joined. */
export interface ModelOffsets {
  mesh: number
  material: number
  texture: number
}

/**
 * Instancing: adds a built model's meshes, materials and textures to `into` once (their texture
 * and material references re-based), so a model placed many times is one model with many
 * instance nodes (`mesh + offsets.mesh`, each with its own skin). Nodes, skins and animations
 * are the caller's: it knows how its instances are placed; `rebaseMaterialTracks` moves a clip's
 * material tracks along.
 */
export function appendModel(into: Scene, from: Scene): ModelOffsets {
  const off = { mesh: into.meshes.length, material: into.materials.length, texture: into.textures.length }
  into.textures.push(...from.textures)
  for (const m of from.materials) into.materials.push({ ...m, ...(m.texture !== undefined ? { texture: m.texture + off.texture } : {}) })
  for (const m of from.meshes) into.meshes.push({ ...m, primitives: m.primitives.map((p) => ({ ...p, material: p.material + off.material })) })
  return off
}

/** A model clip's UV, texture-swap and colour tracks pointed at the model's materials and textures after `appendModel`. */
export function rebaseMaterialTracks(a: Animation, off: ModelOffsets): Pick<Animation, 'uvTracks' | 'textureSwaps' | 'colorTracks'> {
  return {
    uvTracks: a.uvTracks?.map((t) => ({ ...t, material: t.material + off.material })),
    textureSwaps: a.textureSwaps?.map((t) => ({ ...t, material: t.material + off.material, textures: t.textures.map((x) => x + off.texture) })),
    colorTracks: a.colorTracks?.map((t) => ({ ...t, material: t.material + off.material })),
  }
}
