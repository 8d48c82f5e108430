/**
 * A Snap stage as a neutral scene (pokemon-snap.md §3, §5, §9, §10): rooms as nodes at their
 * world placement (worldPos × 100; kinds A–D get no yaw, §3.4), one mesh per room with one
 * primitive per material, textures decoded to RGBA8, vertex colours (unlit draws) or normals
 * (lit draws), the skybox at identity, the main track and object paths as curves, spawns as
 * marker nodes and extras. Game units, right-handed, Y up (no axis flip, §10).
 *
 * Two steps: `readStageModels` (stage-models.ts) runs the display lists and reads every ROM byte
 * the scene needs; `stageScene` here only converts, in small steps (nodes, then materials and
 * meshes in stage-meshes.ts, animations in stage-scene-anim.ts, curves, extras), through the
 * shared scene assembler.
 */
import { hex } from '../../binary'
import { SceneAssembler } from '../../scene/assemble'
import { quatFromEulerExtrinsicXYZ } from '../../scene/math'
import type { Curve, Scene, SceneNode } from '../../scene/types'
import { PATH_TYPE_NAMES, samplePath } from './interp-data'
import { cartPose, sampleTrackWorld } from './main-track'
import { roomLabel, spawnWorldPosition, stageObjectCount, type Room, type Stage } from './stage'
import { spawnName } from './species'
import { StageMeshes } from './stage-meshes'
import { readStageModels, type PlacedStatic, type RoomModel, type StageModelOptions, type StageModels, type StaticModel } from './stage-models'
import { stageMaterialAnimation } from './stage-scene-anim'

export interface StageSceneOptions extends StageModelOptions {
  /** Points per B-spline segment for the main-track curve (default 8). */
  trackSamples?: number
  /** Points per object path curve (default 64). */
  pathSamples?: number
}

export interface StageSceneStats {
  rooms: number
  triangles: number
  drawCalls: number
  commands: number
  textures: number
  warnings: string[]
}

/** Builds the neutral scene of a parsed stage: the structure step, then the conversion. */
export function buildStageScene(stage: Stage, opts: StageSceneOptions = {}): { scene: Scene; stats: StageSceneStats } {
  return stageScene(stage, readStageModels(stage, opts), opts)
}

type MeshRef = { mesh: number; triangles: number } | null

/** What the conversion steps share. */
interface Ctx {
  stage: Stage
  models: StageModels
  a: SceneAssembler
  meshes: StageMeshes
  stats: StageSceneStats
  /** Scene mesh per static model, made at its first placement. */
  staticMeshes: Map<StaticModel, MeshRef>
  pathIndexOf: Map<string, number>
  spawnList: Record<string, unknown>[]
  groundWarned: boolean
}

/** An identity placement (fresh arrays per node). */
const at = (): Pick<SceneNode, 'translation' | 'rotation' | 'scale'> => ({ translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] })

function roomName(r: Room): string {
  return roomLabel(r)
}

/** The mesh of some draws, counted in the stats. */
function drawsMesh(ctx: Ctx, name: string, draws: StaticModel['draws']): MeshRef {
  const mesh = ctx.meshes.mesh(name, draws)
  ctx.stats.drawCalls += draws.drawCalls.length
  ctx.stats.commands += draws.commands
  return mesh
}

function stageNodes(ctx: Ctx): { root: number; groups: Record<Room['group'], number>; spawns: number } {
  const { stage, a } = ctx
  const s = stage.setup
  const root = a.node({
    name: stage.info.name, parent: -1, ...at(),
    extras: { snap: { kind: 'stage', overlayIndex: stage.info.overlayIndex, gameSceneId: stage.info.gameSceneId, fog: { min: s.fogDistanceMin, max: s.fogDistanceMax, color: s.fogColor }, background: s.backgroundColor } },
  })
  const groups = {
    path: a.node({ name: 'path rooms', parent: root, ...at(), extras: { snap: { kind: 'roomGroup', group: 'path' } } }),
    nonPath: a.node({ name: 'non-path rooms', parent: root, ...at(), extras: { snap: { kind: 'roomGroup', group: 'nonPath' } } }),
  }
  const spawns = a.node({ name: 'spawns', parent: root, ...at(), extras: { snap: { kind: 'spawnGroup' } } })
  return { root, groups, spawns }
}

/** A room: its mesh and node (at worldPos × 100, no yaw), then its statics and spawns. */
function roomNode(ctx: Ctx, rm: RoomModel, parent: number, spawnsGroup: number): void {
  const { room, label, draws } = rm
  let mesh: MeshRef = null
  if (draws) {
    for (const w of draws.warnings) ctx.a.warn(`${label}: ${w}`)
    mesh = drawsMesh(ctx, roomName(room), draws)
  }
  const d = room.desc
  const nodeIndex = ctx.a.node({
    name: roomName(room), parent,
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
  ctx.stats.rooms++
  ctx.stats.triangles += mesh?.triangles ?? 0
  for (const ps of rm.statics) staticNode(ctx, rm, ps, nodeIndex)
  rm.grounds.forEach((_, i) => spawnNode(ctx, rm, i, spawnsGroup))
}

/** A drawn static object (§3.6): child of its kind A/B room, T(position·100)·R(rpy)·S(scale). */
function staticNode(ctx: Ctx, rm: RoomModel, ps: PlacedStatic, parent: number): void {
  const { object: so, index: i, model } = ps
  if (!model) return void ctx.a.warn(`${rm.label}.drawnStatics[${i}]: ${ps.problem}`)
  let cached = ctx.staticMeshes.get(model)
  if (cached === undefined) {
    if (model.note) ctx.a.warn(`static ${so.id}: ${model.note}`)
    for (const w of model.draws.warnings) ctx.a.warn(`static ${so.id}: ${w}`)
    cached = drawsMesh(ctx, `static ${so.id}`, model.draws)
    ctx.staticMeshes.set(model, cached)
  }
  ctx.stats.triangles += cached?.triangles ?? 0
  const room = rm.room
  ctx.a.node({
    name: `static ${so.id} (${roomName(room)} #${i})`, parent,
    translation: [so.position[0] * 100, so.position[1] * 100, so.position[2] * 100], rotation: quatFromEulerExtrinsicXYZ(so.rotation), scale: so.scale,
    ...(cached ? { mesh: cached.mesh } : {}),
    extras: { snap: { kind: 'static', id: so.id, room: room.index, group: room.group, drawFunc: hex(model.entry.drawFunc), payload: hex(model.entry.payload) } },
  })
}

/** A spawn marker: the noclip world position ((block + translation) × 100) and the ground under it (§3.5). */
function spawnNode(ctx: Ctx, rm: RoomModel, i: number, parent: number): void {
  const room = rm.room
  const sp = room.desc.spawns[i]!
  const ground = rm.grounds[i]!
  if (ground.error !== undefined && !ctx.groundWarned) ctx.a.warn(`height map: ${ground.error}`)
  if (ground.error !== undefined) ctx.groundWarned = true
  const world = spawnWorldPosition(room, sp)
  const pathIndex = ctx.pathIndexOf.get(`${room.group}:${room.index}:${i}`)
  // groundY: the height map under (X, Z), which the game uses instead of translation.y for ground spawns
  const info = { room: room.index, group: room.group, spawn: i, id: sp.id, name: spawnName(sp.id), behavior: sp.behavior, translation: sp.translation, euler: sp.euler, world, groundY: ground.y, path: pathIndex ?? null }
  ctx.spawnList.push(info)
  ctx.a.node({ name: `${spawnName(sp.id)} (${roomName(room)} #${i})`, parent, translation: world, rotation: quatFromEulerExtrinsicXYZ(sp.euler), scale: [1, 1, 1], extras: { snap: { kind: 'spawn', ...info } } })
}

function skyboxNode(ctx: Ctx, parent: number): void {
  const draws = ctx.models.skybox
  const sky = ctx.stage.skybox
  if (!draws || !sky) return
  for (const w of draws.warnings) ctx.a.warn(`skybox: ${w}`)
  const mesh = drawsMesh(ctx, 'skybox', draws)
  ctx.stats.triangles += mesh?.triangles ?? 0
  ctx.a.node({ name: 'skybox', parent, ...at(), ...(mesh ? { mesh: mesh.mesh } : {}), extras: { snap: { kind: 'skybox', renderFunc: hex(sky.renderFunc), animationSpeed: ctx.stage.setup.skyboxAnimSpeed } } })
}

/** The main track (both ends of every segment, as `snap track`), its game-timed rail, and every object path. */
function stageCurves(stage: Stage, opts: StageSceneOptions): Curve[] {
  const curves: Curve[] = []
  if (stage.track.length) {
    const pts = sampleTrackWorld(stage.track, opts.trackSamples ?? 8)
    curves.push({ name: 'main track', points: new Float32Array(pts.flat()), node: -1, color: [1, 0.85, 0.1], extras: { snap: { kind: 'mainTrack', blocks: stage.track.map((t) => ({ room: t.room, start: 0, duration: t.duration })) } } })
    curves.push(timedTrack(stage))
  }
  stage.paths.forEach((p, i) => {
    const pts = samplePath(p.path, opts.pathSamples ?? 64, 100)
    const sp = p.room.desc.spawns[p.spawn]!
    curves.push({
      name: `path ${i}: ${spawnName(sp.id)} (${roomName(p.room)} #${p.spawn})`, points: new Float32Array(pts.flat()), node: -1, color: [0.2, 0.8, 1],
      extras: { snap: { kind: 'objectPath', index: i, type: PATH_TYPE_NAMES[p.path.type] ?? p.path.type, numPoints: p.path.numPoints, duration: p.path.duration, addr: hex(p.path.addr), spawnId: sp.id, room: p.room.index, group: p.room.group } },
    })
  })
  return curves
}

/**
 * The rail with the game's timing (arc-length paths, cpTime 0.5): 30 samples per block (position
 * per moveTime step, plus the blended scale-X speed factor and cart yaw there, §9).
 */
function timedTrack(stage: Stage): Curve {
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
  return { name: 'main track (game timing)', points: new Float32Array(timed), node: -1, color: [1, 0.5, 0.1], extras: { snap: { kind: 'mainTrackTimed', samplesPerBlock: 30, speeds, yaws } } }
}

function stageExtras(stage: Stage, spawnList: Record<string, unknown>[], warnings: string[]): Scene['extras'] {
  return {
    snap: {
      stage: stage.info.name, title: stage.info.title, overlayIndex: stage.info.overlayIndex, gameSceneId: stage.info.gameSceneId,
      pathRooms: stage.pathRooms.length, nonPathRooms: stage.nonPathRooms.length, hasSkybox: stage.skybox !== null, objects: stageObjectCount(stage),
      spawns: spawnList,
      track: stage.track.map((t) => ({ room: t.room, position: t.position, yaw: t.yaw, reversed: t.reversed, duration: t.duration })),
      warnings: [...stage.warnings, ...warnings].slice(0, 100),
    },
  }
}

/** The conversion step: the neutral scene of a stage from its read models. */
export function stageScene(stage: Stage, models: StageModels, opts: StageSceneOptions = {}): { scene: Scene; stats: StageSceneStats } {
  // Snap has always warned at every use of a texture that does not decode
  const a = new SceneAssembler(stage.info.title, { retryFailedTextures: true })
  const stats: StageSceneStats = { rooms: 0, triangles: 0, drawCalls: 0, commands: 0, textures: 0, warnings: a.warnings }
  const ctx: Ctx = { stage, models, a, meshes: new StageMeshes(a, models.textures), stats, staticMeshes: new Map(), pathIndexOf: new Map(), spawnList: [], groundWarned: false }
  const { root, groups, spawns } = stageNodes(ctx)
  if (models.heightMapError !== undefined) a.warn(`height map: ${models.heightMapError}`)
  stage.paths.forEach((p, i) => ctx.pathIndexOf.set(`${p.room.group}:${p.room.index}:${p.spawn}`, i))
  for (const rm of models.rooms) roomNode(ctx, rm, groups[rm.room.group], spawns)
  skyboxNode(ctx, root)
  const anim = stageMaterialAnimation(a, ctx.meshes, models)
  if (anim) a.scene.animations.push(anim)
  a.scene.curves = stageCurves(stage, opts)
  a.scene.extras = stageExtras(stage, ctx.spawnList, a.warnings)
  stats.textures = a.scene.textures.length
  stats.warnings = [...stage.warnings, ...a.warnings]
  return { scene: a.scene, stats }
}
