/**
 * A loaded Stadium model → the neutral scene (pokemon-stadium.md §16): pivot + scale nodes per
 * joint so glTF's TRS hierarchy reproduces the game's chain exactly (mode 0 keeps scale out of
 * the chain), one skinned mesh with rigid weights and identity inverse binds, materials from the
 * combiner preset / render layer / cull mode, textures with wrap modes, baked 30 fps animations
 * and eye texture animations as texture-swap tracks.
 *
 * Structure first: `loadModel` (model.ts) walks the geo layout and runs the display lists into
 * triangles, `readStadiumSceneData` (scene-data.ts) decodes the textures and samples the joint
 * keys. `stadiumScene` then only converts, in small steps through the shared scene assembler:
 * nodes, skin joints, materials and meshes (scene-meshes.ts), texture animations, skeletal
 * animations, extras.
 */
import { SceneAssembler, identityMatrices } from '../../scene/assemble'
import type { Animation, Channel, Scene, TextureSwapTrack, Vec3 } from '../../scene/types'
import { levelLocals, type LevelLocal, type TrigMode } from './joint-math'
import { eyeSwapTracks } from './eye-tracks'
import type { StadiumModel } from './model'
import { StadiumMeshes } from './scene-meshes'
import { readStadiumSceneData, type StadiumSceneData } from './scene-data'

export { wrapFromTile, alphaModeForLayer, presetMaterial } from './scene-meshes'

export const FRAME_RATE = 30

export interface StadiumSceneOptions {
  /** Channel interpolation; the game samples integer frames (STEP is bit-exact). Default LINEAR. */
  interpolation?: 'LINEAR' | 'STEP'
  trig?: TrigMode
  /** Add the RDP half-texel to UVs (§9). Default false. */
  halfTexel?: boolean
}

/** Scene node indices of each matrix level: pivot (U) and leaf (M). */
export interface LevelNodes {
  pivot: number[]
  leaf: number[]
}

/** What the conversion steps share. */
interface Ctx {
  m: StadiumModel
  data: StadiumSceneData
  a: SceneAssembler
  trig: TrigMode
  interp: 'LINEAR' | 'STEP'
  /** The bind pose's node-local TRS per level. */
  rest: LevelLocal[]
  ln: LevelNodes
}

/**
 * §16.1: the scene root is `model_root`, carrying the geo layout's 0x1C root scale. The instance
 * level (identity) and that scale level are one node when the scale is the root's only child
 * level and nothing is drawn or attached at the instance level itself; with no 0x1C at all the
 * instance node is `model_root` with scale 1. Returns the folded scale level, or −1.
 */
function foldedRootScale(m: StadiumModel): number {
  const levels = m.graph.levels
  const rootKids = levels.filter((l) => l.parent === 0)
  const usedAtRoot = m.graph.attachPoints.some((a) => a.level === 0) || (m.dl?.triangles ?? []).some((t) => t.v.some((v) => v.bone === 0))
  return rootKids.length === 1 && rootKids[0]!.kind === 'scale' && !usedAtRoot ? rootKids[0]!.index : -1
}

/** Nodes of every matrix level (a pivot + scale pair per joint), then the attach points. */
function levelNodes(ctx: Ctx): void {
  const { m, a, rest, ln } = ctx
  const { levels, bones } = m.graph
  const sep = levels.map((l) => l.kind === 'joint' && bones[l.bone]!.mode === 0)
  const nodes = a.scene.nodes
  const unique = (n: string) => a.uniqueName(n)
  let scales = 0
  let xforms = 0
  const fold = foldedRootScale(m)
  const hasScale = levels.some((l) => l.kind === 'scale')
  for (const l of levels) {
    const r = rest[l.index]!
    if (l.kind === 'root') {
      nodes.push({ name: unique(fold >= 0 || !hasScale ? 'model_root' : 'model'), parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: fold >= 0 ? [...rest[fold]!.pivotS] as Vec3 : [1, 1, 1], extras: { level: 'instance', ...(fold >= 0 ? { rootScaleAt: levels[fold]!.at } : {}) } })
      ln.pivot.push(0)
      ln.leaf.push(0)
      continue
    }
    if (l.index === fold) {
      scales++
      ln.pivot.push(0)
      ln.leaf.push(0)
      continue
    }
    const p = l.parent
    if (l.kind === 'joint') {
      const b = bones[l.bone]!
      const parent = b.mode === 0 && sep[p] ? ln.pivot[p]! : ln.leaf[p]!
      const pivot = nodes.length
      nodes.push({ name: unique(b.name), parent, translation: r.pivotT, rotation: r.pivotR, scale: r.pivotS, extras: { bone: b.index, jointId: b.jointId, rawFlags: b.rawFlags, mode: b.mode, animChannel: b.animChannel, role: 'pivot' } })
      nodes.push({ name: unique(`${b.name}_scale`), parent: pivot, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: r.leafS, extras: { bone: b.index, role: 'scale' } })
      ln.pivot.push(pivot)
      ln.leaf.push(pivot + 1)
    } else {
      const name = l.kind === 'scale' ? (scales++ === 0 ? 'model_root' : `scale_${scales - 1}`) : `xform_${xforms++}`
      nodes.push({ name: unique(name), parent: ln.leaf[p]!, translation: r.pivotT, rotation: r.pivotR, scale: r.pivotS, extras: { level: l.kind, at: l.at } })
      ln.pivot.push(nodes.length - 1)
      ln.leaf.push(nodes.length - 1)
    }
  }
  for (const at of m.graph.attachPoints) {
    nodes.push({ name: unique(`attach_${at.id}`), parent: ln.pivot[at.level]!, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], extras: { attachId: at.id, bone: at.bone } })
  }
}

/** Skin joints: every bone's leaf in bone order, then other levels that own vertices. */
function skinJoints(ctx: Ctx): { joints: number[]; jointOfLevel: Map<number, number> } {
  const { m, ln } = ctx
  const jointOfLevel = new Map<number, number>()
  const joints: number[] = []
  for (const b of m.graph.bones) {
    jointOfLevel.set(b.level, joints.length)
    joints.push(ln.leaf[b.level]!)
  }
  for (const t of m.dl?.triangles ?? []) {
    for (const v of t.v) {
      if (!jointOfLevel.has(v.bone)) {
        jointOfLevel.set(v.bone, joints.length)
        joints.push(ln.leaf[v.bone]!)
      }
    }
  }
  return { joints, jointOfLevel }
}

/** The skinned mesh and its node, when the display lists drew anything. */
function meshAndSkin(ctx: Ctx, meshes: StadiumMeshes, joints: number[]): void {
  const { m, a } = ctx
  const mesh = a.mesh(m.slug, meshes.primitives())
  if (mesh === undefined) return
  a.scene.skins.push({ name: `${m.slug}_skin`, joints, inverseBindMatrices: identityMatrices(joints.length), skeleton: 0 })
  a.node({ name: a.uniqueName(`${m.slug}_mesh`), parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh, skin: 0 })
}

export interface TextureAnimationTracks {
  index: number
  frames: number
  startFrame: number
  loopStartFrame: number
  hold: boolean
  tracks: { material: number; textures: number[] }[]
}

/** Texture animations: per material with a channel, the scene texture at each frame. */
function textureAnimationTracks(ctx: Ctx, meshes: StadiumMeshes): TextureAnimationTracks[] {
  const { m, a } = ctx
  return m.textureAnimations.map((ta) => {
    const tracks: { material: number; textures: number[] }[] = []
    meshes.sources.forEach((mi, k) => {
      if (mi.channel < 0 || !mi.state) return
      const ch = ta.channels[mi.channel]
      if (!ch || ch.stream.length === 0) return
      const texs = ch.stream.map((ti) => meshes.texture(ti, mi.state!.paletteIndex, mi.state!) ?? a.scene.materials[k]!.texture)
      // a frame whose texture decodes nowhere (and no material texture to fall back on): no track
      if (texs.some((t) => t === undefined)) {
        a.warn(`texture animation ${ta.index}: material ${k} has frames without a decodable texture; track dropped`)
        return
      }
      tracks.push({ material: k, textures: texs as number[] })
    })
    return { index: ta.index, frames: ta.frameCount, startFrame: ta.startFrame, loopStartFrame: ta.loopStartFrame, hold: ta.hold, tracks }
  })
}

/** One baked channel of `n` frames; constant ones collapse to one or two keys, or vanish when they equal the rest pose. */
function bakedChannel(ctx: Ctx, locals: LevelLocal[][], times: Float32Array, levelIndex: number, node: number, path: Channel['path'], get: (L: LevelLocal) => number[], restV: number[]): Channel | null {
  const n = locals.length
  const interp = ctx.interp
  const w = path === 'rotation' ? 4 : 3
  const vals = new Float32Array(n * w)
  let prev: number[] | null = null
  for (let f = 0; f < n; f++) {
    let v = get(locals[f]![levelIndex]!)
    if (path === 'rotation' && prev && v[0]! * prev[0]! + v[1]! * prev[1]! + v[2]! * prev[2]! + v[3]! * prev[3]! < 0) v = v.map((x) => -x)
    prev = v
    vals.set(v, f * w)
  }
  const constant = vals.every((x, i) => Math.abs(x - vals[i % w]!) < 1e-7)
  if (!constant) return { node, path, times, values: vals, interpolation: interp }
  const first = Array.from(vals.subarray(0, w))
  const same = first.every((x, i) => Math.abs(x - Math.fround(restV[i]!)) < 1e-6) || (path === 'rotation' && first.every((x, i) => Math.abs(x + Math.fround(restV[i]!)) < 1e-6))
  if (same) return null
  if (n === 1) return { node, path, times: Float32Array.of(0), values: Float32Array.from(first), interpolation: interp }
  return { node, path, times: Float32Array.of(0, times[n - 1]!), values: Float32Array.from([...first, ...first]), interpolation: interp }
}

/** Skeletal animation channels, baked per frame through the game's maths (§16.2). */
function skeletalChannels(ctx: Ctx, ai: number): Channel[] {
  const { m, ln, rest } = ctx
  const { levels, bones } = m.graph
  const a = m.animations[ai]!
  const poses = ctx.data.poses[ai]!
  const n = poses.length
  const locals: LevelLocal[][] = []
  for (let f = 0; f < n; f++) locals.push(levelLocals(levels, bones, (b) => poses[f]![b]!, ctx.trig))
  const times = new Float32Array(n) // one key-time array shared by the clip's full channels
  for (let f = 0; f < n; f++) times[f] = f / FRAME_RATE
  const channels: Channel[] = []
  const add = (levelIndex: number, node: number, path: Channel['path'], get: (L: LevelLocal) => number[], restV: number[]) => {
    const ch = bakedChannel(ctx, locals, times, levelIndex, node, path, get, restV)
    if (ch) channels.push(ch)
  }
  for (const l of levels) {
    if (l.kind !== 'joint') continue
    const b = bones[l.bone]!
    if (b.animChannel < 0 || 3 * b.animChannel + 2 >= a.records.length) {
      // Unanimated joints can still move when an ancestor's animated scale changes their pre-scale.
      if (b.mode !== 0) continue
    }
    const r = rest[l.index]!
    add(l.index, ln.pivot[l.index]!, 'translation', (L) => L.pivotT, r.pivotT)
    add(l.index, ln.pivot[l.index]!, 'rotation', (L) => L.pivotR, r.pivotR)
    if (b.mode === 0) add(l.index, ln.leaf[l.index]!, 'scale', (L) => L.leafS, r.leafS)
    else add(l.index, ln.pivot[l.index]!, 'scale', (L) => L.pivotS, r.pivotS)
  }
  return channels
}

/** The scene's extras: source, bones with their nodes, attach points, callbacks, texture animations, counts, warnings. */
function stadiumExtras(m: StadiumModel, ln: LevelNodes, texAnimTracks: TextureAnimationTracks[], meshes: StadiumMeshes, warnings: string[]): Scene['extras'] {
  const bones = m.graph.bones
  return {
    game: 'stadium',
    file: m.file,
    species: m.species,
    name: m.name,
    slug: m.slug,
    frameRate: FRAME_RATE,
    bones: bones.map((b) => ({ name: b.name, jointId: b.jointId, rawFlags: b.rawFlags, mode: b.mode, animChannel: b.animChannel, parent: b.parent, pivotNode: ln.pivot[b.level], leafNode: ln.leaf[b.level] })),
    attachPoints: m.graph.attachPoints.map((a) => ({ id: a.id, bone: a.bone, boneName: a.bone >= 0 ? bones[a.bone]!.name : null })),
    callbacks: m.graph.callbacks.map((c) => ({ address: c.address, arg: c.arg, bone: c.bone })),
    textureAnimations: texAnimTracks,
    triangles: meshes.triangles,
    vertices: meshes.vertices,
    renderLayers: m.dl?.layers ?? [],
    warnings,
  }
}

/** The scene of a loaded model: the structure step, then the conversion. */
export function buildStadiumScene(m: StadiumModel, opts: StadiumSceneOptions = {}): Scene {
  return stadiumScene(m, readStadiumSceneData(m), opts)
}

/** The conversion step: reads no module byte (everything comes from `m`'s structures and `data`). */
export function stadiumScene(m: StadiumModel, data: StadiumSceneData, opts: StadiumSceneOptions = {}): Scene {
  const trig = opts.trig ?? 'game'
  const { levels, bones } = m.graph
  const bind = (b: number) => ({ t: [...bones[b]!.translation] as Vec3, r: [...bones[b]!.rotation] as Vec3, s: [...bones[b]!.scale] as Vec3 })
  const asm = new SceneAssembler(m.slug, {}, [...m.warnings])
  const ctx: Ctx = { m, data, a: asm, trig, interp: opts.interpolation ?? 'LINEAR', rest: levelLocals(levels, bones, bind, trig), ln: { pivot: [], leaf: [] } }
  const { ln } = ctx
  const scene = asm.scene
  const warnings = asm.warnings
  levelNodes(ctx)
  const { joints, jointOfLevel } = skinJoints(ctx)
  const meshes = new StadiumMeshes(asm, m, data.pixels, opts.halfTexel === true)
  meshes.addTriangles(m.dl?.triangles ?? [], jointOfLevel)
  meshAndSkin(ctx, meshes, joints)
  const texAnimTracks = textureAnimationTracks(ctx, meshes)
  // Skeletal animations with their paired eye texture animation.
  m.animations.forEach((a, ai) => {
    const n = Math.max(1, a.frameCount)
    const channels = skeletalChannels(ctx, ai)
    const label = m.labels.labels[ai]!
    const paired = label.pairedTextureAnimation
    // The eyes run on their own counter (§13.3): whole frames, their own start, length and loop.
    const textureSwaps: TextureSwapTrack[] = paired >= 0 && texAnimTracks[paired] ? eyeSwapTracks(texAnimTracks[paired]!, FRAME_RATE) : []
    const anim: Animation = {
      name: label.name,
      duration: (n - 1) / FRAME_RATE,
      frameRate: FRAME_RATE,
      channels,
      loop: !a.hold,
      // the game's counter (§12.5): whole frames, wrapping to loopStartFrame
      integerFrames: true,
      loopStart: Math.min(Math.max(0, a.loopStartFrame), n - 1) / FRAME_RATE,
      ...(textureSwaps.length ? { textureSwaps } : {}),
      extras: {
        index: a.index, frames: a.frameCount, startFrame: a.startFrame, loopStartFrame: a.loopStartFrame, flagsRaw: a.flags, hermite: a.hermite,
        endBehavior: a.hold ? 'clamp' : 'wrap', pairedTextureAnimation: paired, moves: label.moves, moveIds: label.moveIds, contexts: label.contexts,
      },
    }
    scene.animations.push(anim)
  })

  scene.extras = stadiumExtras(m, ln, texAnimTracks, meshes, warnings)
  return scene
}
