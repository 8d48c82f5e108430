/**
 * Stage structures: WorldSetup (the stage "Header"), WorldBlockSetup (the seed's StageHeader),
 * WorldBlockDescriptor (a room), WorldBlockGFX, SkyBox, StaticObject, ObjectSpawn
 * (pokemon-snap.md §3.1–§3.7, [D: src/world/world.h, include/common_structs.h]).
 */
import { FormatError, hex } from '../../binary'
import type { AddressMap } from './address-map'

export type Vec3 = [number, number, number]

export interface WorldSetup {
  addr: number
  blocksSetup: number
  staticDrawTable: number
  staticDrawCount: number
  collisionModels: number
  skyboxAnimSpeed: number
  fogDistanceMin: number
  fogDistanceMax: number
  fogColor: [number, number, number]
  backgroundColor: [number, number, number]
}

export function readWorldSetup(map: AddressMap, addr: number): WorldSetup {
  const r = map.view(addr, 0x1e, 'WorldSetup', 'Stage header (WorldSetup)')
  return {
    addr,
    blocksSetup: r.u32At(0x00, 'WorldSetup.blocksSetup'),
    staticDrawTable: r.u32At(0x04, 'WorldSetup.staticDrawTable'),
    staticDrawCount: r.i32At(0x08, 'WorldSetup.staticDrawCount'),
    collisionModels: r.u32At(0x0c, 'WorldSetup.collisionModels'),
    skyboxAnimSpeed: r.f32At(0x10, 'WorldSetup.skyboxAnimSpeed'),
    fogDistanceMin: r.u16At(0x14, 'WorldSetup.fogDistanceMin'),
    fogDistanceMax: r.u16At(0x16, 'WorldSetup.fogDistanceMax'),
    fogColor: [r.u8At(0x18), r.u8At(0x19), r.u8At(0x1a)],
    backgroundColor: [r.u8At(0x1b), r.u8At(0x1c), r.u8At(0x1d)],
  }
}

export interface WorldBlockSetup {
  addr: number
  /** Path rooms (`modelBlocks`), in track order. */
  pathRooms: number[]
  /** Non-path rooms (`uvScrollBlocks`). */
  nonPathRooms: number[]
  skybox: number
}

export function readWorldBlockSetup(map: AddressMap, addr: number): WorldBlockSetup {
  if (addr === 0) throw new FormatError('WorldSetup.blocksSetup is NULL', { file: map.file, structure: 'WorldSetup.blocksSetup' })
  const r = map.view(addr, 0x0c, 'WorldBlockSetup', 'WorldSetup.blocksSetup')
  const modelBlocks = r.u32At(0x00, 'WorldBlockSetup.modelBlocks')
  const uvScrollBlocks = r.u32At(0x04, 'WorldBlockSetup.uvScrollBlocks')
  return {
    addr,
    pathRooms: modelBlocks ? map.pointerList(modelBlocks, 'WorldBlockSetup.modelBlocks (path rooms)', 1024) : [],
    nonPathRooms: uvScrollBlocks ? map.pointerList(uvScrollBlocks, 'WorldBlockSetup.uvScrollBlocks (non-path rooms)', 1024) : [],
    skybox: r.u32At(0x08, 'WorldBlockSetup.skybox'),
  }
}

export interface StaticObject {
  id: number
  position: Vec3
  rotation: Vec3
  scale: Vec3
}

export interface ObjectSpawn {
  id: number
  behavior: number
  /** Block-local metres. */
  translation: Vec3
  euler: Vec3
  scale: Vec3
  /** InterpData pointer or 0. */
  path: number
}

export interface WorldBlockDescriptor {
  addr: number
  gfx: number
  /** Metres (×100 = game units). */
  worldPos: Vec3
  yaw: number
  reversed: boolean
  drawnStatics: StaticObject[]
  spawns: ObjectSpawn[]
  collisionStatics: StaticObject[]
}

const LIST_LIMIT = 1024

/** A finite f32 (NaN or ±Inf in a placement would only surface later as a broken scene). */
function finiteAt(r: import('../../binary').Reader, o: number, f: string): number {
  const v = r.f32At(o, f)
  if (!Number.isFinite(v)) throw r.error(`${f}: non-finite value ${v}`, o)
  return v
}

function vec3(r: import('../../binary').Reader, o: number, f: string): Vec3 {
  return [finiteAt(r, o, `${f}.x`), finiteAt(r, o + 4, `${f}.y`), finiteAt(r, o + 8, `${f}.z`)]
}

export function readStaticObjects(map: AddressMap, addr: number, field: string): StaticObject[] {
  const out: StaticObject[] = []
  if (!addr) return out
  for (let i = 0; ; i++) {
    if (i >= LIST_LIMIT) throw new FormatError(`no id −1 terminator within ${LIST_LIMIT} records`, { file: map.file, structure: field, offset: map.romOffset(addr) })
    const r = map.view(addr + i * 0x28, 4, 'StaticObject', `${field}[${i}]`)
    const id = r.i32At(0, 'StaticObject.id')
    if (id === -1) return out
    r.check(0, 0x28, `${field}[${i}]`)
    out.push({ id, position: vec3(r, 0x04, 'StaticObject.position'), rotation: vec3(r, 0x10, 'StaticObject.rotation'), scale: vec3(r, 0x1c, 'StaticObject.scale') })
  }
}

export function readObjectSpawns(map: AddressMap, addr: number, field: string): ObjectSpawn[] {
  const out: ObjectSpawn[] = []
  if (!addr) return out
  for (let i = 0; ; i++) {
    if (i >= LIST_LIMIT) throw new FormatError(`no id −1 terminator within ${LIST_LIMIT} records`, { file: map.file, structure: field, offset: map.romOffset(addr) })
    const r = map.view(addr + i * 0x30, 4, 'ObjectSpawn', `${field}[${i}]`)
    const id = r.i32At(0, 'ObjectSpawn.id')
    if (id === -1) return out
    r.check(0, 0x30, `${field}[${i}]`)
    out.push({
      id, behavior: r.i32At(0x04, 'ObjectSpawn.behavior'),
      translation: vec3(r, 0x08, 'ObjectSpawn.translation'), euler: vec3(r, 0x14, 'ObjectSpawn.euler'), scale: vec3(r, 0x20, 'ObjectSpawn.scale'),
      path: r.u32At(0x2c, 'ObjectSpawn.path'),
    })
  }
}

export function readWorldBlockDescriptor(map: AddressMap, addr: number, field: string): WorldBlockDescriptor {
  const r = map.view(addr, 0x24, 'WorldBlockDescriptor', field)
  const yaw = r.f32At(0x10, 'WorldBlockDescriptor.yaw')
  const worldPos = vec3(r, 0x04, 'WorldBlockDescriptor.worldPos')
  for (const v of [...worldPos, yaw]) {
    if (!Number.isFinite(v)) throw new FormatError(`non-finite placement value ${v}`, { file: map.file, structure: `${field} (WorldBlockDescriptor)`, offset: r.base + 4 })
  }
  return {
    addr,
    gfx: r.u32At(0x00, 'WorldBlockDescriptor.gfx'),
    worldPos, yaw,
    reversed: r.i32At(0x14, 'WorldBlockDescriptor.reversed') !== 0,
    drawnStatics: readStaticObjects(map, r.u32At(0x18, 'WorldBlockDescriptor.drawnStatics'), `${field}.drawnStatics`),
    spawns: readObjectSpawns(map, r.u32At(0x1c, 'WorldBlockDescriptor.spawns'), `${field}.spawns`),
    collisionStatics: readStaticObjects(map, r.u32At(0x20, 'WorldBlockDescriptor.collisionStatics'), `${field}.collisionStatics`),
  }
}

export interface WorldBlockGFX {
  addr: number
  gfxData: number
  /** Dereferenced once: the NULL-terminated Texture* list (empty when NULL). */
  textures: number[]
  /** The raw +0x04 pointer: a per-node array of material-list pointers (kinds B/D use entry i for node i). */
  texturesTable: number
  /** Dereferenced once: track pointer table for the materials (0 = none). */
  materialAnim: number
  renderFunc: number
  road: number
  numControlLines: number
  movementAnim: number
  movementAnimDuration: number
}

/** Dereferences a `ptr→ptr→Texture*[]` field into the material pointer list. */
export function readMaterialList(map: AddressMap, pp: number, field: string): number[] {
  if (!pp) return []
  const list = map.view(pp, 4, field).u32At(0, field)
  return list ? map.pointerList(list, `${field}[]`, 256) : []
}

export function readWorldBlockGFX(map: AddressMap, addr: number, field: string): WorldBlockGFX {
  const r = map.view(addr, 0x20, 'WorldBlockGFX', field)
  const matAnimPP = r.u32At(0x08, 'WorldBlockGFX.materialAnim')
  return {
    addr,
    gfxData: r.u32At(0x00, 'WorldBlockGFX.gfxData'),
    textures: readMaterialList(map, r.u32At(0x04, 'WorldBlockGFX.textures'), `${field}.textures`),
    texturesTable: r.u32At(0x04, 'WorldBlockGFX.textures'),
    materialAnim: matAnimPP ? map.view(matAnimPP, 4, field).u32At(0, 'WorldBlockGFX.materialAnim') : 0,
    renderFunc: r.u32At(0x0c, 'WorldBlockGFX.renderFunc'),
    road: r.u32At(0x10, 'WorldBlockGFX.road'),
    numControlLines: r.i32At(0x14, 'WorldBlockGFX.numControlLines'),
    movementAnim: r.u32At(0x18, 'WorldBlockGFX.movementAnim'),
    movementAnimDuration: r.i32At(0x1c, 'WorldBlockGFX.movementAnimDuration'),
  }
}

export interface SkyBox {
  addr: number
  gfxData: number
  renderFunc: number
  textures: number[]
  animation: number
  animationSpeed: number
}

export function readSkyBox(map: AddressMap, addr: number): SkyBox {
  const r = map.view(addr, 0x14, 'SkyBox', 'WorldBlockSetup.skybox')
  const animPP = r.u32At(0x0c, 'SkyBox.animation')
  return {
    addr,
    gfxData: r.u32At(0x00, 'SkyBox.gfxData'),
    renderFunc: r.u32At(0x04, 'SkyBox.renderFunc'),
    textures: readMaterialList(map, r.u32At(0x08, 'SkyBox.textures'), 'SkyBox.textures'),
    animation: animPP ? map.view(animPP, 4, 'SkyBox.animation').u32At(0, 'SkyBox.animation') : 0,
    animationSpeed: r.f32At(0x10, 'SkyBox.animationSpeed'),
  }
}

/** Render functions whose `gfxData` is a single DL (kind A and the skybox) [D: block.c; symbol_addrs]. */
export const RENDER_FUNCS = {
  drawSkyBox1Cycle: 0x800e1ca4,
  typeA: 0x80014d60, typeAFog: 0x800a1530, typeAFogXlu: 0x800a1560,
  typeB: 0x80014f98, typeBFog: 0x800a15d8,
  typeC: 0x800153ec, typeCFog: 0x800a1590,
  typeD: 0x80015890, typeDFog: 0x800a1608,
} as const

export type RoomRenderKind = 'A' | 'B' | 'C' | 'D'

/**
 * How `gfxData` is read for a render function (§3.4, §4.2). Unknown functions (including
 * drawSkyBox2Cycle, whose address the spec does not give) are treated as a single DL, like noclip.
 */
export function roomRenderKind(renderFunc: number): { kind: RoomRenderKind; known: boolean } {
  switch (renderFunc >>> 0) {
    case RENDER_FUNCS.typeA: case RENDER_FUNCS.typeAFog: case RENDER_FUNCS.typeAFogXlu: case RENDER_FUNCS.drawSkyBox1Cycle:
      return { kind: 'A', known: true }
    case RENDER_FUNCS.typeB: case RENDER_FUNCS.typeBFog: return { kind: 'B', known: true }
    case RENDER_FUNCS.typeC: case RENDER_FUNCS.typeCFog: return { kind: 'C', known: true }
    case RENDER_FUNCS.typeD: case RENDER_FUNCS.typeDFog: return { kind: 'D', known: true }
    default: return { kind: 'A', known: false }
  }
}

export { hex }

/** Static draw functions (§3.6, [D: src/world/60860.c]). */
export const STATIC_DRAW_DL = 0x800e30b0
export const STATIC_DRAW_NODES = 0x800e3258

export interface StaticDrawEntry {
  id: number
  drawFunc: number
  payload: number
}

/** The static draw table (`WorldSetup+0x04`): 0x0C records until id −1, at most 100 (the game's scan limit). */
export function readStaticDrawTable(map: AddressMap, addr: number): StaticDrawEntry[] {
  const out: StaticDrawEntry[] = []
  if (!addr) return out
  for (let i = 0; i < 100; i++) {
    const r = map.view(addr + i * 0x0c, 4, 'StaticDrawEntry', `WorldSetup.staticDrawTable[${i}]`)
    const id = r.i32At(0, 'StaticDrawEntry.id')
    if (id === -1) return out
    r.check(0, 0x0c, `WorldSetup.staticDrawTable[${i}]`)
    out.push({ id, drawFunc: r.u32At(4, 'StaticDrawEntry.drawFunc'), payload: r.u32At(8, 'StaticDrawEntry.payload') })
  }
  return out
}
