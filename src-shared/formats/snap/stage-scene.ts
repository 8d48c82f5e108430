/**
 * A Snap stage as a neutral scene (pokemon-snap.md §3, §5, §9, §10): rooms as nodes at their
 * world placement (worldPos × 100; kinds A–D get no yaw, §3.4), one mesh per room with one
 * primitive per material, textures decoded to RGBA8, vertex colours (unlit draws) or normals
 * (lit draws), the skybox at identity, the main track and object paths as curves, spawns as
 * marker nodes and extras. Game units, right-handed, Y up (no axis flip, §10).
 */
import { hex } from '../../binary'
import { computeUV, decodeTextureRef, stateKey, vertexNormal, wrapMode, type DrawCall, type TextureRef } from '../n64/f3dex2'
import { OtherModeH } from '../n64/gbi'
import { combinerUses } from '../n64/gbi'
import type { Animation, ColorTrack, Material, Mesh, Primitive, Scene, SceneNode, Texture, TextureSwapTrack, UVTrack, Curve } from '../../scene/types'
import { bakeMaterialAnim } from './material-anim'
import { emptyScene } from '../../scene/types'
import { PATH_TYPE_NAMES, samplePath } from './interp-data'
import { cartPose, sampleTrackWorld } from './main-track'
import { buildModelDraws, type ModelDraws } from './room-model'
import { UnmappedAddressError } from './address-map'
import { spawnWorldPosition, stageObjectCount, type Room, type Stage } from './stage'
import type { GfxNode } from './node-list'
import { spawnName } from './species'
import { groundAt, readHeightMap, type HeightMap } from './height-map'
import { RENDER_FUNCS, STATIC_DRAW_DL, STATIC_DRAW_NODES } from './world'
import type { SnapMaterial } from './material'

export interface StageSceneOptions {
  /** Points per B-spline segment for the main-track curve (default 8). */
  trackSamples?: number
  /** Points per object path curve (default 64). */
  pathSamples?: number
  skybox?: boolean
  /** Max DL commands per list (runaway guard). */
  maxCommands?: number
  /** Bake the stage material animation (default true). */
  materialAnimation?: boolean
}

export interface StageSceneStats {
  rooms: number
  triangles: number
  drawCalls: number
  commands: number
  textures: number
  warnings: string[]
}

type M4 = number[]

/** What `SceneBuilder.mesh` reads of a model's draw calls (rooms: ModelDraws; actors: ActorDraws). */
export type MeshDraws = Pick<ModelDraws, 'nodes' | 'drawCalls'>
const IDENT: M4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

/** Column-major T · Rz · Ry · Rx · S (§4.3). */
function nodeLocal(n: GfxNode): M4 {
  const [rx, ry, rz] = n.rotation
  const cx = Math.cos(rx), sx = Math.sin(rx), cy = Math.cos(ry), sy = Math.sin(ry), cz = Math.cos(rz), sz = Math.sin(rz)
  const r = [
    cy * cz, cy * sz, -sy,
    sx * sy * cz - cx * sz, sx * sy * sz + cx * cz, sx * cy,
    cx * sy * cz + sx * sz, cx * sy * sz - sx * cz, cx * cy,
  ]
  const [sx_, sy_, sz_] = n.scale
  return [r[0]! * sx_, r[1]! * sx_, r[2]! * sx_, 0, r[3]! * sy_, r[4]! * sy_, r[5]! * sy_, 0, r[6]! * sz_, r[7]! * sz_, r[8]! * sz_, 0, n.translation[0], n.translation[1], n.translation[2], 1]
}

function mul(a: M4, b: M4): M4 {
  const o = new Array<number>(16).fill(0)
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0
    for (let k = 0; k < 4; k++) s += a[k * 4 + r]! * b[c * 4 + k]!
    o[c * 4 + r] = s
  }
  return o
}

/** Rest world matrices (column-major) of a node list, parents first (§4.3). */
export function nodeWorlds(nodes: GfxNode[]): M4[] {
  const out: M4[] = []
  for (const n of nodes) out.push(n.parent >= 0 ? mul(out[n.parent]!, nodeLocal(n)) : nodeLocal(n))
  return out
}

/** glTF-style alpha mode from othermode L (§5.7). */
function alphaModeOf(dc: DrawCall & { layer: number }): 'OPAQUE' | 'MASK' | 'BLEND' {
  const L = dc.state.otherModeL
  const twoCycle = ((dc.state.otherModeH >>> OtherModeH.CYCLETYPE) & 3) === 1
  const m = twoCycle ? (L >>> 20) & 3 : (L >>> 22) & 3
  if (L & (1 << 14) && m === 1) return 'BLEND'
  if ((L & 3) === 1 || (L & (1 << 12) && L & (1 << 13))) return 'MASK'
  if (dc.layer === 1 || !(L & (1 << 5))) return 'BLEND'
  return 'OPAQUE'
}

function refKey(r: TextureRef): string {
  return `${r.addr},${r.paletteAddr ?? ''},${r.fmt},${r.siz},${r.width},${r.height},${r.rowBytes},${r.tile.cms},${r.tile.cmt},${r.tile.masks},${r.tile.maskt}`
}

/** Texture, material and mesh building shared by stages and actors (actor-scene.ts). */
export class SceneBuilder {
  scene: Scene
  private textures = new Map<string, number>()
  private materials = new Map<string, number>()
  warnings: string[] = []
  /** Scene material → the Snap material (tag) and texture state it was made from. */
  matInfo = new Map<number, { tag: number | string; ref: TextureRef | null; sScale: number; tScale: number; filterOn: boolean; usesPrim: boolean; draws: MeshDraws }>()
  constructor(private stage: Pick<Stage, 'map'>, name: string) {
    this.scene = emptyScene(name)
  }

  texture(ref: TextureRef, filterOn: boolean): number | undefined {
    const key = refKey(ref)
    const hit = this.textures.get(key)
    if (hit !== undefined) return hit
    let rgba: Uint8Array
    try {
      rgba = decodeTextureRef(ref, this.stage.map)
    } catch (e) {
      if (e instanceof UnmappedAddressError) throw e
      this.warnings.push(`texture ${hex(ref.addr)}: ${(e as Error).message}`)
      return undefined
    }
    const t: Texture = {
      name: `tex_${ref.addr.toString(16)}${ref.paletteAddr ? `_pal_${ref.paletteAddr.toString(16)}` : ''}`,
      width: ref.width, height: ref.height, rgba,
      wrapS: wrapMode(ref.tile.cms, ref.tile.masks), wrapT: wrapMode(ref.tile.cmt, ref.tile.maskt),
      filter: filterOn ? 'linear' : 'nearest',
    }
    this.scene.textures.push(t)
    this.textures.set(key, this.scene.textures.length - 1)
    return this.scene.textures.length - 1
  }

  material(dc: DrawCall & { layer: number }, tex0: number | undefined): number {
    const s = dc.state
    const lit = (s.geometryMode & 0x20000) !== 0
    const twoCycle = ((s.otherModeH >>> OtherModeH.CYCLETYPE) & 3) === 1
    const usesPrim = combinerUses(s.combineHi, s.combineLo, 3, twoCycle)
    const prim = usesPrim ? s.primColor.map((c) => c / 255) : [1, 1, 1, 1]
    const alphaMode = alphaModeOf(dc)
    const doubleSided = (s.geometryMode & 0x600) === 0
    const key = [tex0 ?? -1, prim.join(','), alphaMode, doubleSided, lit, s.combineHi, s.combineLo, s.otherModeL, dc.layer].join(';')
    const hit = this.materials.get(key)
    if (hit !== undefined) return hit
    const m: Material = {
      name: `mat_${this.scene.materials.length}${typeof s.tag === 'number' ? `_m${s.tag}` : ''}`,
      baseColor: [prim[0]!, prim[1]!, prim[2]!, prim[3]!],
      texture: tex0,
      alphaMode,
      ...(alphaMode === 'MASK' ? { alphaCutoff: 0.5 } : {}),
      doubleSided,
      vertexColors: !lit,
      unlit: !lit,
      extras: {
        combine: [hex(s.combineHi), hex(s.combineLo)], otherModeH: hex(s.otherModeH), otherModeL: hex(s.otherModeL),
        geometryMode: hex(s.geometryMode), layer: dc.layer, materialIndex: s.tag, envColor: s.envColor, lights: s.lights,
      },
    }
    this.scene.materials.push(m)
    this.materials.set(key, this.scene.materials.length - 1)
    return this.scene.materials.length - 1
  }

  /** One mesh for a model's draw calls, merged per material; null when it has no triangles. */
  mesh(name: string, draws: MeshDraws, opts: { halfTexel?: boolean; skinned?: boolean } = {}): { mesh: number; triangles: number } | null {
    const worlds = draws.nodes ? nodeWorlds(draws.nodes) : null
    const groups = new Map<number, { pos: number[]; nrm: number[]; uv: number[]; col: number[]; idx: number[]; bones: number[]; lit: boolean; textured: boolean }>()
    let triangles = 0
    for (const dc of draws.drawCalls) {
      const ref = dc.state.textures[0] ?? null
      const filterOn = ((dc.state.otherModeH >>> OtherModeH.TEXTFILT) & 3) !== 0
      const tex = ref ? this.texture(ref, filterOn) : undefined
      const mat = this.material(dc, tex)
      if (typeof dc.state.tag === 'number' && !this.matInfo.has(mat)) {
        const twoCycle = ((dc.state.otherModeH >>> OtherModeH.CYCLETYPE) & 3) === 1
        this.matInfo.set(mat, { tag: dc.state.tag, ref, sScale: dc.state.texture.sScale, tScale: dc.state.texture.tScale, filterOn, usesPrim: combinerUses(dc.state.combineHi, dc.state.combineLo, 3, twoCycle), draws })
      }
      const lit = (dc.state.geometryMode & 0x20000) !== 0
      let g = groups.get(mat)
      if (!g) groups.set(mat, (g = { pos: [], nrm: [], uv: [], col: [], idx: [], bones: [], lit, textured: tex !== undefined }))
      const base = g.pos.length / 3
      for (const v of dc.vertices) {
        let x = v.x, y = v.y, z = v.z
        let n = lit ? vertexNormal(v) : null
        const w = worlds?.[v.bone]
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
        g.bones.push(v.bone)
        if (n) g.nrm.push(...n)
        else g.col.push(v.c0 / 255, v.c1 / 255, v.c2 / 255, v.a / 255)
        if (ref && g.textured) {
          const [u, vv] = computeUV(v.s, v.t, dc.state.texture, ref, opts.halfTexel)
          g.uv.push(u, vv)
        } else if (g.textured) g.uv.push(0, 0)
      }
      for (const i of dc.indices) g.idx.push(base + i)
      triangles += dc.indices.length / 3
    }
    const prims: Primitive[] = []
    for (const [material, g] of groups) {
      if (!g.idx.length) continue
      const p: Primitive = { positions: new Float32Array(g.pos), indices: new Uint32Array(g.idx), material }
      if (g.lit && g.nrm.length === g.pos.length) p.normals = new Float32Array(g.nrm)
      if (!g.lit && g.col.length === (g.pos.length / 3) * 4) p.colors = new Float32Array(g.col)
      if (g.textured && g.uv.length === (g.pos.length / 3) * 2) p.uvs = new Float32Array(g.uv)
      if (opts.skinned) {
        // one bone per vertex with weight 1 (§6 rule 4); positions are bind pose (rule 5)
        p.joints = new Uint16Array(g.bones.length * 4)
        p.weights = new Float32Array(g.bones.length * 4)
        g.bones.forEach((bone, i) => { p.joints![i * 4] = bone; p.weights![i * 4] = 1 })
      }
      prims.push(p)
    }
    if (!prims.length) return null
    const mesh: Mesh = { name, primitives: prims }
    this.scene.meshes.push(mesh)
    return { mesh: this.scene.meshes.length - 1, triangles }
  }

  node(n: SceneNode): number {
    this.scene.nodes.push(n)
    return this.scene.nodes.length - 1
  }
}

function roomName(r: Room): string {
  return `${r.group === 'path' ? 'path room' : 'non-path room'} ${r.index}`
}

/** Builds the neutral scene of a parsed stage. */
export function buildStageScene(stage: Stage, opts: StageSceneOptions = {}): { scene: Scene; stats: StageSceneStats } {
  const b = new SceneBuilder(stage, stage.info.title)
  const stats: StageSceneStats = { rooms: 0, triangles: 0, drawCalls: 0, commands: 0, textures: 0, warnings: b.warnings }
  const s = stage.setup
  const root = b.node({
    name: stage.info.name, parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1],
    extras: { snap: { kind: 'stage', overlayIndex: stage.info.overlayIndex, gameSceneId: stage.info.gameSceneId, fog: { min: s.fogDistanceMin, max: s.fogDistanceMax, color: s.fogColor }, background: s.backgroundColor } },
  })
  const groups = {
    path: b.node({ name: 'path rooms', parent: root, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], extras: { snap: { kind: 'roomGroup', group: 'path' } } }),
    nonPath: b.node({ name: 'non-path rooms', parent: root, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], extras: { snap: { kind: 'roomGroup', group: 'nonPath' } } }),
  }
  const spawnsGroup = b.node({ name: 'spawns', parent: root, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], extras: { snap: { kind: 'spawnGroup' } } })
  const spawnList: Record<string, unknown>[] = []
  const animSources: [ModelDraws, number, string][] = []
  let skyDraws: ModelDraws | null = null
  let heightMap: HeightMap | null = null
  let groundWarned = false
  if (stage.info.collision) {
    try {
      heightMap = readHeightMap(stage.map, stage.info.collision)
    } catch (e) {
      b.warnings.push(`height map: ${(e as Error).message}`)
    }
  }
  const staticMeshes = new Map<number, { mesh: number; triangles: number } | null>()
  const pathIndexOf = new Map<string, number>()
  stage.paths.forEach((p, i) => pathIndexOf.set(`${p.room.group}:${p.room.index}:${p.spawn}`, i))
  for (const room of [...stage.pathRooms, ...stage.nonPathRooms]) {
    const label = `${room.group === 'path' ? 'pathRooms' : 'nonPathRooms'}[${room.index}]`
    let mesh: { mesh: number; triangles: number } | null = null
    let draws: ModelDraws | null = null
    if (room.gfx) {
      draws = buildModelDraws(stage.map, room.gfx, `${label}.gfx`, { maxCommands: opts.maxCommands })
      for (const w of draws.warnings) b.warnings.push(`${label}: ${w}`)
      mesh = b.mesh(roomName(room), draws)
      if (room.gfx.materialAnim) animSources.push([draws, room.gfx.materialAnim, label])
      stats.drawCalls += draws.drawCalls.length
      stats.commands += draws.commands
    }
    const d = room.desc
    const nodeIndex = b.node({
      name: roomName(room), parent: groups[room.group],
      translation: [d.worldPos[0] * 100, d.worldPos[1] * 100, d.worldPos[2] * 100], rotation: [0, 0, 0, 1], scale: [1, 1, 1],
      ...(mesh ? { mesh: mesh.mesh } : {}),
      extras: {
        snap: {
          kind: 'room', group: room.group, index: room.index, descriptor: hex(d.addr), gfx: room.gfx ? hex(room.gfx.addr) : null,
          worldPos: d.worldPos, yaw: d.yaw, reversed: d.reversed, renderFunc: room.gfx ? hex(room.gfx.renderFunc) : null, renderKind: draws?.kind ?? null,
          materials: draws?.materials.length ?? 0, triangles: mesh?.triangles ?? 0, spawns: d.spawns.length, drawnStatics: d.drawnStatics.length, collisionStatics: d.collisionStatics.length,
          numControlLines: room.gfx?.numControlLines ?? 0,
        },
      },
    })
    stats.rooms++
    stats.triangles += mesh?.triangles ?? 0
    // drawn static objects (§3.6): children of kind A/B rooms, T(position·100)·R(rpy)·S(scale)
    d.drawnStatics.forEach((so, i) => {
      const entry = stage.statics.find((e) => e.id === so.id)
      if (!entry) return void b.warnings.push(`${label}.drawnStatics[${i}]: id ${so.id} is not in the static draw table`)
      if (draws && draws.kind !== 'A' && draws.kind !== 'B') return void b.warnings.push(`${label}.drawnStatics[${i}]: the game attaches statics only to kind A/B rooms (this is ${draws.kind})`)
      let cached = staticMeshes.get(so.id)
      if (cached === undefined) {
        const nodesPayload = entry.drawFunc === STATIC_DRAW_NODES
        if (!nodesPayload && entry.drawFunc !== STATIC_DRAW_DL) b.warnings.push(`static ${so.id}: draw function ${hex(entry.drawFunc)} is not a known one; reading its payload as a DL`)
        const sd = buildModelDraws(stage.map, { gfxData: entry.payload, renderFunc: nodesPayload ? RENDER_FUNCS.typeB : RENDER_FUNCS.typeA, textures: [] }, `static ${so.id}`, { maxCommands: opts.maxCommands })
        for (const w of sd.warnings) b.warnings.push(`static ${so.id}: ${w}`)
        stats.commands += sd.commands
        stats.drawCalls += sd.drawCalls.length
        cached = b.mesh(`static ${so.id}`, sd)
        staticMeshes.set(so.id, cached)
      }
      stats.triangles += cached?.triangles ?? 0
      b.node({
        name: `static ${so.id} (${roomName(room)} #${i})`, parent: nodeIndex,
        translation: [so.position[0] * 100, so.position[1] * 100, so.position[2] * 100], rotation: eulerToQuat(so.rotation), scale: so.scale,
        ...(cached ? { mesh: cached.mesh } : {}),
        extras: { snap: { kind: 'static', id: so.id, room: room.index, group: room.group, drawFunc: hex(entry.drawFunc), payload: hex(entry.payload) } },
      })
    })
    d.spawns.forEach((sp, i) => {
      const world = spawnWorldPosition(room, sp)
      const pathIndex = pathIndexOf.get(`${room.group}:${room.index}:${i}`)
      let groundY: number | null = null
      if (heightMap) {
        try {
          groundY = groundAt(stage.map, heightMap, world[0], world[2])?.y ?? null
        } catch (e) {
          if (!groundWarned) b.warnings.push(`height map: ${(e as Error).message}`)
          groundWarned = true
        }
      }
      // world: the noclip rule ((block + translation) × 100, Y included); groundY: the height map under
      // (X, Z), which the game uses instead of translation.y for ground spawns (§3.5)
      const info = { room: room.index, group: room.group, spawn: i, id: sp.id, name: spawnName(sp.id), behavior: sp.behavior, translation: sp.translation, euler: sp.euler, world, groundY, path: pathIndex ?? null }
      spawnList.push(info)
      const q = eulerToQuat(sp.euler)
      b.node({ name: `${spawnName(sp.id)} (${roomName(room)} #${i})`, parent: spawnsGroup, translation: world, rotation: q, scale: [1, 1, 1], extras: { snap: { kind: 'spawn', ...info } } })
    })
  }
  if (stage.skybox && opts.skybox !== false) {
    const sky = stage.skybox
    const draws = buildModelDraws(stage.map, sky, 'SkyBox', { oneCycle: sky.renderFunc === 0x800e1ca4, maxCommands: opts.maxCommands, skybox: true })
    for (const w of draws.warnings) b.warnings.push(`skybox: ${w}`)
    const mesh = b.mesh('skybox', draws)
    skyDraws = draws
    stats.drawCalls += draws.drawCalls.length
    stats.commands += draws.commands
    stats.triangles += mesh?.triangles ?? 0
    b.node({ name: 'skybox', parent: root, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], ...(mesh ? { mesh: mesh.mesh } : {}), extras: { snap: { kind: 'skybox', renderFunc: hex(sky.renderFunc), animationSpeed: stage.setup.skyboxAnimSpeed } } })
  }
  // stage material animation (§7.6): rooms on the global timer, the skybox at WorldSetup+0x10
  const animModels: { draws: ModelDraws; table: number; speed: number; label: string }[] = []
  for (const [draws, table, label] of animSources) animModels.push({ draws, table, speed: 1, label })
  if (skyDraws && stage.skybox?.animation) animModels.push({ draws: skyDraws, table: stage.skybox.animation, speed: stage.setup.skyboxAnimSpeed > 0 ? stage.setup.skyboxAnimSpeed : 1, label: 'skybox' })
  const anim = opts.materialAnimation === false ? null : bakeStageMaterialAnimation(b, stage, animModels)
  if (anim) b.scene.animations.push(anim)
  // curves
  const curves: Curve[] = []
  if (stage.track.length) {
    // the same samples as `snap track` (both ends of every segment, so the curve reaches the end)
    const pts = sampleTrackWorld(stage.track, opts.trackSamples ?? 8)
    curves.push({ name: 'main track', points: new Float32Array(pts.flat()), node: -1, color: [1, 0.85, 0.1], extras: { snap: { kind: 'mainTrack', blocks: stage.track.map((t) => ({ room: t.room, start: 0, duration: t.duration })) } } })
    // the rail with the game's timing (arc-length paths, cpTime 0.5): 30 samples per block
    // (position per moveTime step, plus the blended scale-X speed factor and cart yaw there, §9)
    const timed: number[] = []
    const speeds: number[] = []
    const yaws: number[] = []
    const push = (pose: ReturnType<typeof cartPose>) => {
      timed.push(...pose.position)
      speeds.push(Math.round(pose.speed * 1e6) / 1e6)
      yaws.push(Math.round(pose.yaw * 1e6) / 1e6)
    }
    for (const blk of stage.track) for (let k = 0; k < 30; k++) push(cartPose(blk, k / 30))
    push(cartPose(stage.track[stage.track.length - 1]!, 1))
    curves.push({ name: 'main track (game timing)', points: new Float32Array(timed), node: -1, color: [1, 0.5, 0.1], extras: { snap: { kind: 'mainTrackTimed', samplesPerBlock: 30, speeds, yaws } } })
  }
  stage.paths.forEach((p, i) => {
    const pts = samplePath(p.path, opts.pathSamples ?? 64, 100)
    const sp = p.room.desc.spawns[p.spawn]!
    curves.push({
      name: `path ${i}: ${spawnName(sp.id)} (${roomName(p.room)} #${p.spawn})`, points: new Float32Array(pts.flat()), node: -1, color: [0.2, 0.8, 1],
      extras: { snap: { kind: 'objectPath', index: i, type: PATH_TYPE_NAMES[p.path.type] ?? p.path.type, numPoints: p.path.numPoints, duration: p.path.duration, addr: hex(p.path.addr), spawnId: sp.id, room: p.room.index, group: p.room.group } },
    })
  })
  b.scene.curves = curves
  b.scene.extras = {
    snap: {
      stage: stage.info.name, title: stage.info.title, overlayIndex: stage.info.overlayIndex, gameSceneId: stage.info.gameSceneId,
      pathRooms: stage.pathRooms.length, nonPathRooms: stage.nonPathRooms.length, hasSkybox: stage.skybox !== null, objects: stageObjectCount(stage),
      spawns: spawnList,
      track: stage.track.map((t) => ({ room: t.room, position: t.position, yaw: t.yaw, reversed: t.reversed, duration: t.duration })),
      warnings: [...stage.warnings, ...b.warnings].slice(0, 100),
    },
  }
  stats.textures = b.scene.textures.length
  stats.warnings = [...stage.warnings, ...b.warnings]
  return { scene: b.scene, stats }
}

/** RPY Euler (Rz·Ry·Rx, §4.3) → quaternion [x, y, z, w]. */
export function eulerToQuat(e: [number, number, number]): [number, number, number, number] {
  const [x, y, z] = e
  const cx = Math.cos(x / 2), sx = Math.sin(x / 2), cy = Math.cos(y / 2), sy = Math.sin(y / 2), cz = Math.cos(z / 2), sz = Math.sin(z / 2)
  // q = qz * qy * qx
  return [
    sx * cy * cz - cx * sy * sz,
    cx * sy * cz + sx * cy * sz,
    cx * cy * sz - sx * sy * cz,
    cx * cy * cz + sx * sy * sz,
  ]
}

export { stateKey, IDENT }

const signed12 = (x: number) => (x << 20) >> 20

/** Drops keys that lie on the line through their neighbours (per `width` floats per key). */
function decimate(times: number[], values: number[], width: number, eps = 1e-5): { times: number[]; values: number[] } {
  if (times.length <= 2) return { times, values }
  const keepT: number[] = [times[0]!], keepV: number[] = values.slice(0, width)
  for (let i = 1; i < times.length - 1; i++) {
    const t0 = keepT[keepT.length - 1]!, t1 = times[i]!, t2 = times[i + 1]!
    let straight = true
    for (let c = 0; c < width && straight; c++) {
      const a = keepV[keepV.length - width + c]!, v = values[i * width + c]!, z = values[(i + 1) * width + c]!
      const lin = a + ((z - a) * (t1 - t0)) / (t2 - t0 || 1)
      if (Math.abs(lin - v) > eps) straight = false
    }
    if (!straight) { keepT.push(t1); keepV.push(...values.slice(i * width, i * width + width)) }
  }
  keepT.push(times[times.length - 1]!)
  keepV.push(...values.slice(values.length - width))
  return { times: keepT, values: keepV }
}

/** A model's material-track table: `node` (actors) selects the per-node material list and tags `node:m`. */
export interface MaterialTrackSource { draws: MeshDraws & { materials: SnapMaterial[] }; table: number; speed: number; label: string; node?: number; materials?: SnapMaterial[] }

/** Bakes material tracks into the scene's UV, texture-swap and colour tracks (§7.6). */
export function bakeStageMaterialAnimation(b: SceneBuilder, stage: Pick<Stage, 'map'>, models: MaterialTrackSource[]): Animation | null {
  const uvTracks: UVTrack[] = []
  const textureSwaps: TextureSwapTrack[] = []
  const colorTracks: ColorTrack[] = []
  let duration = 0
  const done = new Set<number>()
  for (const model of models) {
    const mats = model.materials ?? model.draws.materials
    const n = mats.length
    let table: number[]
    try {
      const r = stage.map.view(model.table, n * 4, 'material track table', `${model.label}.materialAnim`)
      table = Array.from({ length: n }, (_, i) => r.u32At(i * 4, `${model.label}.materialAnim[${i}]`))
    } catch (e) {
      if (e instanceof UnmappedAddressError) throw e
      b.warnings.push(`${model.label}: material animation: ${(e as Error).message}`)
      continue
    }
    table.forEach((ptr, m) => {
      if (!ptr) return
      const mat = mats[m]!
      const tag = model.node ? `${model.node}:${m}` : m
      let baked: ReturnType<typeof bakeMaterialAnim>
      try {
        baked = bakeMaterialAnim(stage.map, mat, ptr, `${model.label}.materialAnim[${m}]`)
      } catch (e) {
        if (e instanceof UnmappedAddressError) throw e
        b.warnings.push(`${model.label}: material ${m} animation: ${(e as Error).message}`)
        return
      }
      if (!baked) return
      const fps = 30 * model.speed
      duration = Math.max(duration, baked.length / fps)
      for (const [sceneMat, info] of b.matInfo) {
        if (info.draws !== model.draws || info.tag !== tag || done.has(sceneMat)) continue
        done.add(sceneMat)
        const ref = info.ref
        const times = baked.frames.map((f) => f.frame / fps)
        if (ref) {
          const uls0 = signed12(ref.tile.uls), ult0 = signed12(ref.tile.ult)
          const values: number[] = []
          let moves = false
          for (const f of baked.frames) {
            const rs = f.sScale !== null && info.sScale ? f.sScale / info.sScale : 1
            const rt = f.tScale !== null && info.tScale ? f.tScale / info.tScale : 1
            const offU = f.uls === null ? 0 : (uls0 * rs - signed12(f.uls)) / (4 * ref.width)
            const offV = f.ult === null ? 0 : (ult0 * rt - signed12(f.ult)) / (4 * ref.height)
            if (Math.abs(offU) > 1e-6 || Math.abs(offV) > 1e-6 || Math.abs(rs - 1) > 1e-6 || Math.abs(rt - 1) > 1e-6) moves = true
            values.push(offU, offV, rs, rt)
          }
          if (moves) {
            const d = decimate(times, values, 4)
            uvTracks.push({ material: sceneMat, times: new Float32Array(d.times), values: new Float32Array(d.values) })
          }
          // flipbook / palette animation: a texture per (image, palette) pair
          const pairs = baked.frames.map((f) => `${f.imageIndex},${f.paletteIndex}`)
          if (new Set(pairs).size > 1) {
            const keyT: number[] = [], keyX: number[] = []
            let last = ''
            baked.frames.forEach((f, i) => {
              if (pairs[i] === last) return
              last = pairs[i]!
              let tex: number | undefined
              try {
                const addr = stage.map.view(mat.images + f.imageIndex * 4, 4, 'images', 'Texture.images').u32At(0)
                const pal = ref.paletteAddr !== undefined && mat.palettes ? stage.map.view(mat.palettes + f.paletteIndex * 4, 4, 'palettes', 'Texture.palettes').u32At(0) : ref.paletteAddr
                tex = b.texture({ ...ref, addr, paletteAddr: pal }, info.filterOn)
              } catch (e) {
                b.warnings.push(`${model.label}: material ${m} frame ${f.frame}: ${(e as Error).message}`)
              }
              if (tex === undefined) return
              keyT.push(times[i]!)
              keyX.push(tex)
            })
            if (keyT.length > 1) textureSwaps.push({ material: sceneMat, times: new Float32Array(keyT), textures: new Uint32Array(keyX) })
          }
        }
        if (info.usesPrim && new Set(baked.frames.map((f) => f.prim)).size > 1) {
          const values: number[] = []
          for (const f of baked.frames) values.push(((f.prim >>> 24) & 255) / 255, ((f.prim >>> 16) & 255) / 255, ((f.prim >>> 8) & 255) / 255, (f.prim & 255) / 255)
          const d = decimate(times, values, 4)
          colorTracks.push({ material: sceneMat, times: new Float32Array(d.times), values: new Float32Array(d.values) })
        }
      }
    })
  }
  if (!uvTracks.length && !textureSwaps.length && !colorTracks.length) return null
  return {
    name: 'material animation', duration, frameRate: 30, channels: [], loop: true,
    ...(uvTracks.length ? { uvTracks } : {}), ...(textureSwaps.length ? { textureSwaps } : {}), ...(colorTracks.length ? { colorTracks } : {}),
    extras: { snap: { kind: 'stageMaterialAnimation', note: 'stage material tracks run on the global timer; noclip loops them' } },
  }
}
