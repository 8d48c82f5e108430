/**
 * The structure step of a Snap stage scene: everything that reads ROM bytes. Runs the display
 * lists of the rooms, their drawn statics and the skybox through F3DEX2 (room-model.ts), decodes
 * every texture the draw calls use, looks up the ground under each spawn (height map, §3.5) and
 * bakes the stage material animation tables (§7.6) with the images/palettes their frames show.
 * `stage-scene.ts` converts the result into the neutral scene without touching the ROM.
 *
 * Failures keep the order the conversion reports them in: a texture that does not decode is
 * stored as its Error (reported where the scene uses it); an `UnmappedAddressError` outside the
 * animation frames is fatal, as before the split.
 */
import { hex } from '../../binary'
import { decodeTextureRef, type TextureRef } from '../n64/f3dex2'
import { UnmappedAddressError, type AddressMap } from './address-map'
import { groundAt, readHeightMap, type HeightMap } from './height-map'
import type { SnapMaterial } from './material'
import { bakeMaterialAnim, type BakedMaterialAnim } from './material-anim'
import { buildModelDraws, type ModelDraws } from './room-model'
import { spawnWorldPosition, type Room, type Stage } from './stage'
import { RENDER_FUNCS, STATIC_DRAW_DL, STATIC_DRAW_NODES, type StaticDrawEntry, type StaticObject } from './world'

export interface StageModelOptions {
  skybox?: boolean
  /** Max DL commands per list (runaway guard). */
  maxCommands?: number
  /** Bake the stage material animation (default true). */
  materialAnimation?: boolean
}

/** A static draw entry's model, run once per id. */
export interface StaticModel {
  id: number
  entry: StaticDrawEntry
  draws: ModelDraws
  /** Set when the draw function is not a known one. */
  note?: string
}

/** One drawn static of a room: its model, or why it is not drawn. */
export interface PlacedStatic {
  index: number
  object: StaticObject
  entry?: StaticDrawEntry
  model?: StaticModel
  problem?: string
}

export interface RoomModel {
  room: Room
  /** `pathRooms[i]` / `nonPathRooms[i]`, the prefix of its messages. */
  label: string
  draws: ModelDraws | null
  statics: PlacedStatic[]
  /** Ground height under each spawn (null: no height map or no ground), or the lookup's error. */
  grounds: { y: number | null; error?: string }[]
}

/** One frame of a flipbook / palette animation: the image and palette addresses it shows. */
export interface AnimFrameImage {
  image: number | Error
  /** From the material's palette table; null when it has none. */
  palette: number | Error | null
}

export interface MaterialTrack {
  /** Index into the model's material list (the draw calls' tag). */
  material: number
  baked: BakedMaterialAnim | null
  error?: string
  /** Per baked frame when the frames show more than one (image, palette) pair, else empty. */
  frames: AnimFrameImage[]
}

/** What the mesh and material-animation steps read of a model's draws (rooms: ModelDraws; actors: ActorDraws). */
export type MeshDraws = Pick<ModelDraws, 'nodes' | 'drawCalls' | 'materials'>

/** A model whose materials animate: its draws and material-track table (§7.6). */
export interface AnimatedSource {
  draws: MeshDraws
  table: number
  speed: number
  label: string
  /** An actor node's own material list (tags `node:m`, §4.2); default: node 0, `draws.materials`. */
  node?: number
  materials?: SnapMaterial[]
}

/** The draw-call tag of material `m` of a node's list (room-model.ts: node 0 tags with the bare index). */
export const materialTag = (node: number | undefined, m: number): number | string => (node ? `${node}:${m}` : m)

export interface AnimatedModel {
  draws: MeshDraws
  speed: number
  label: string
  node?: number
  tableError?: string
  tracks: MaterialTrack[]
}

export interface StageModels {
  rooms: RoomModel[]
  skybox: ModelDraws | null
  heightMapError?: string
  /** Decoded RGBA8 (or the decode error) by `textureKey`. */
  textures: Map<string, Uint8Array | Error>
  animated: AnimatedModel[]
}

/** What makes two texture references the same image in a Snap scene. */
export function textureKey(r: TextureRef): string {
  return `${r.addr},${r.paletteAddr ?? ''},${r.fmt},${r.siz},${r.width},${r.height},${r.rowBytes},${r.tile.cms},${r.tile.cmt},${r.tile.masks},${r.tile.maskt}`
}

function decodeInto(map: AddressMap, textures: StageModels['textures'], ref: TextureRef, fatal: boolean): void {
  const key = textureKey(ref)
  if (textures.has(key)) return
  try {
    textures.set(key, decodeTextureRef(ref, map))
  } catch (e) {
    if (fatal && e instanceof UnmappedAddressError) throw e
    textures.set(key, e as Error)
  }
}

/**
 * Decodes every texture the draw calls use into `textures`; an unmapped address is fatal for
 * TEXEL0. TEXEL1 (tile t + 1, material program only) is decoded leniently: a failure leaves the
 * program without it.
 */
export function decodeDrawTextures(map: AddressMap, textures: StageModels['textures'], draws: Pick<ModelDraws, 'drawCalls'>): void {
  for (const dc of draws.drawCalls) {
    if (dc.state.textures[0]) decodeInto(map, textures, dc.state.textures[0], true)
    if (dc.state.textures[1]) decodeInto(map, textures, dc.state.textures[1], false)
  }
}

function modelDraws(stage: Stage, textures: StageModels['textures'], run: () => ModelDraws): ModelDraws {
  const draws = run()
  decodeDrawTextures(stage.map, textures, draws)
  return draws
}

function placeStatics(stage: Stage, textures: StageModels['textures'], room: Room, draws: ModelDraws | null, cache: Map<number, StaticModel>, maxCommands?: number): PlacedStatic[] {
  return room.desc.drawnStatics.map((object, index): PlacedStatic => {
    const entry = stage.statics.find((e) => e.id === object.id)
    if (!entry) return { index, object, problem: `id ${object.id} is not in the static draw table` }
    if (draws && draws.kind !== 'A' && draws.kind !== 'B') return { index, object, entry, problem: `the game attaches statics only to kind A/B rooms (this is ${draws.kind})` }
    let model = cache.get(object.id)
    if (!model) {
      const nodesPayload = entry.drawFunc === STATIC_DRAW_NODES
      const note = !nodesPayload && entry.drawFunc !== STATIC_DRAW_DL ? `draw function ${hex(entry.drawFunc)} is not a known one; reading its payload as a DL` : undefined
      const src = { gfxData: entry.payload, renderFunc: nodesPayload ? RENDER_FUNCS.typeB : RENDER_FUNCS.typeA, textures: [] }
      const sd = modelDraws(stage, textures, () => buildModelDraws(stage.map, src, `static ${object.id}`, { maxCommands }))
      cache.set(object.id, (model = { id: object.id, entry, draws: sd, ...(note ? { note } : {}) }))
    }
    return { index, object, entry, model }
  })
}

function spawnGrounds(stage: Stage, room: Room, heightMap: HeightMap | null): RoomModel['grounds'] {
  return room.desc.spawns.map((sp) => {
    if (!heightMap) return { y: null }
    const world = spawnWorldPosition(room, sp)
    try {
      return { y: groundAt(stage.map, heightMap, world[0], world[2])?.y ?? null }
    } catch (e) {
      return { y: null, error: (e as Error).message }
    }
  })
}

function readRoom(stage: Stage, room: Room, heightMap: HeightMap | null, statics: Map<number, StaticModel>, textures: StageModels['textures'], opts: StageModelOptions): RoomModel {
  const label = `${room.group === 'path' ? 'pathRooms' : 'nonPathRooms'}[${room.index}]`
  const gfx = room.gfx
  const draws = gfx ? modelDraws(stage, textures, () => buildModelDraws(stage.map, gfx, `${label}.gfx`, { maxCommands: opts.maxCommands })) : null
  return { room, label, draws, statics: placeStatics(stage, textures, room, draws, statics, opts.maxCommands), grounds: spawnGrounds(stage, room, heightMap) }
}

/** The models whose materials animate (§7.6): rooms on the global timer, the skybox at WorldSetup+0x10. */
function animatedModels(stage: Stage, rooms: RoomModel[], skybox: ModelDraws | null): AnimatedSource[] {
  const out: AnimatedSource[] = []
  for (const r of rooms) if (r.draws && r.room.gfx?.materialAnim) out.push({ draws: r.draws, table: r.room.gfx.materialAnim, speed: 1, label: r.label })
  if (skybox && stage.skybox?.animation) out.push({ draws: skybox, table: stage.skybox.animation, speed: stage.setup.skyboxAnimSpeed > 0 ? stage.setup.skyboxAnimSpeed : 1, label: 'skybox' })
  return out
}

function readWord(map: AddressMap, addr: number, structure: string, field: string): number | Error {
  try {
    return map.view(addr, 4, structure, field).u32At(0)
  } catch (e) {
    return e as Error
  }
}

/** Image/palette addresses per baked frame, and their pixels decoded for every texture state the material is drawn with. */
function frameImages(map: AddressMap, textures: StageModels['textures'], model: AnimatedSource, m: number, baked: BakedMaterialAnim): AnimFrameImage[] {
  if (new Set(baked.frames.map((f) => `${f.imageIndex},${f.paletteIndex}`)).size < 2) return [] // no flipbook
  const mat = (model.materials ?? model.draws.materials)[m]!
  const frames = baked.frames.map((f): AnimFrameImage => ({
    image: readWord(map, mat.images + f.imageIndex * 4, 'images', 'Texture.images'),
    palette: mat.palettes ? readWord(map, mat.palettes + f.paletteIndex * 4, 'palettes', 'Texture.palettes') : null,
  }))
  const tag = materialTag(model.node, m)
  for (const dc of model.draws.drawCalls) {
    const ref = dc.state.textures[0]
    if (dc.state.tag !== tag || !ref) continue
    for (const f of frames) {
      if (f.image instanceof Error) continue
      const pal = ref.paletteAddr !== undefined && f.palette !== null ? f.palette : ref.paletteAddr
      if (pal instanceof Error) continue
      decodeInto(map, textures, { ...ref, addr: f.image, paletteAddr: pal }, false)
    }
  }
  return frames
}

/** Bakes a model's material-track table (§7.6) with the flipbook frames' pixels. */
export function readAnimated(map: AddressMap, textures: StageModels['textures'], model: AnimatedSource): AnimatedModel {
  const { draws, label } = model
  const materials = model.materials ?? draws.materials
  const out: AnimatedModel = { draws, speed: model.speed, label, ...(model.node !== undefined ? { node: model.node } : {}), tracks: [] }
  let table: number[]
  try {
    const r = map.view(model.table, materials.length * 4, 'material track table', `${label}.materialAnim`)
    table = Array.from({ length: materials.length }, (_, i) => r.u32At(i * 4, `${label}.materialAnim[${i}]`))
  } catch (e) {
    if (e instanceof UnmappedAddressError) throw e
    out.tableError = (e as Error).message
    return out
  }
  table.forEach((ptr, m) => {
    if (!ptr) return
    try {
      const baked = bakeMaterialAnim(map, materials[m]!, ptr, `${label}.materialAnim[${m}]`)
      out.tracks.push({ material: m, baked, frames: baked ? frameImages(map, textures, model, m, baked) : [] })
    } catch (e) {
      if (e instanceof UnmappedAddressError) throw e
      out.tracks.push({ material: m, baked: null, error: (e as Error).message, frames: [] })
    }
  })
  return out
}

/** Runs the stage's display lists and reads what its scene needs (see the top). */
export function readStageModels(stage: Stage, opts: StageModelOptions = {}): StageModels {
  const textures: StageModels['textures'] = new Map()
  let heightMap: HeightMap | null = null
  let heightMapError: string | undefined
  if (stage.info.collision) {
    try {
      heightMap = readHeightMap(stage.map, stage.info.collision)
    } catch (e) {
      heightMapError = (e as Error).message
    }
  }
  const statics = new Map<number, StaticModel>()
  const rooms = [...stage.pathRooms, ...stage.nonPathRooms].map((room) => readRoom(stage, room, heightMap, statics, textures, opts))
  const sky = stage.skybox && opts.skybox !== false ? stage.skybox : null
  const skybox = sky ? modelDraws(stage, textures, () => buildModelDraws(stage.map, sky, 'SkyBox', { oneCycle: sky.renderFunc === RENDER_FUNCS.drawSkyBox1Cycle, maxCommands: opts.maxCommands, skybox: true })) : null
  const animated = opts.materialAnimation === false ? [] : animatedModels(stage, rooms, skybox).map((m) => readAnimated(stage.map, textures, m))
  return { rooms, skybox, ...(heightMapError !== undefined ? { heightMapError } : {}), textures, animated }
}
