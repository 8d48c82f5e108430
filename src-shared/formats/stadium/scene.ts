/**
 * A loaded Stadium model → the neutral scene (pokemon-stadium.md §16): pivot + scale nodes per
 * joint so glTF's TRS hierarchy reproduces the game's chain exactly (mode 0 keeps scale out of
 * the chain), one skinned mesh with rigid weights and identity inverse binds, materials from the
 * combiner preset / render layer / cull mode, textures with wrap modes, baked 30 fps animations
 * and eye texture animations as texture-swap tracks.
 */
import type { Animation, Channel, Material, Primitive, Scene, SceneNode, Texture, TextureSwapTrack, WrapMode, Vec3 } from '../../scene/types'
import { levelLocals, type LevelLocal, type TrigMode } from './joint-math'
import { sampleJoint } from './skeletal-anim'
import { eyeSwapTracks } from './eye-tracks'
import { decodeModelTexture } from './model-header'
import type { StadiumModel } from './model'
import type { MaterialState } from './model-graph'
import type { Triangle } from './display-lists'

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

export function buildStadiumScene(m: StadiumModel, opts: StadiumSceneOptions = {}): Scene {
  const trig = opts.trig ?? 'game'
  const interp = opts.interpolation ?? 'LINEAR'
  const { levels, bones } = m.graph
  const warnings: string[] = [...m.warnings]
  const nodes: SceneNode[] = []
  const bind = (b: number) => ({ t: [...bones[b]!.translation] as Vec3, r: [...bones[b]!.rotation] as Vec3, s: [...bones[b]!.scale] as Vec3 })
  const rest = levelLocals(levels, bones, bind, trig)
  const ln: LevelNodes = { pivot: [], leaf: [] }
  const sep = levels.map((l) => l.kind === 'joint' && bones[l.bone]!.mode === 0)
  const names = new Set<string>()
  const unique = (n: string) => {
    let s = n
    for (let k = 2; names.has(s); k++) s = `${n}_${k}`
    names.add(s)
    return s
  }
  let scales = 0
  let xforms = 0
  // §16.1: the scene root is `model_root`, carrying the geo layout's 0x1C root scale. The instance
  // level (identity) and that scale level are one node when the scale is the root's only child
  // level and nothing is drawn or attached at the instance level itself; with no 0x1C at all the
  // instance node is `model_root` with scale 1.
  const rootKids = levels.filter((l) => l.parent === 0)
  const usedAtRoot = m.graph.attachPoints.some((a) => a.level === 0) || (m.dl?.triangles ?? []).some((t) => t.v.some((v) => v.bone === 0))
  const fold = rootKids.length === 1 && rootKids[0]!.kind === 'scale' && !usedAtRoot ? rootKids[0]!.index : -1
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
  for (const a of m.graph.attachPoints) {
    nodes.push({ name: unique(`attach_${a.id}`), parent: ln.pivot[a.level]!, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], extras: { attachId: a.id, bone: a.bone } })
  }

  // Skin joints: every bone's leaf in bone order, then other levels that own vertices.
  const jointOfLevel = new Map<number, number>()
  const joints: number[] = []
  for (const b of bones) {
    jointOfLevel.set(b.level, joints.length)
    joints.push(ln.leaf[b.level]!)
  }
  const tris = m.dl?.triangles ?? []
  for (const t of tris) {
    for (const v of t.v) {
      if (!jointOfLevel.has(v.bone)) {
        jointOfLevel.set(v.bone, joints.length)
        joints.push(ln.leaf[v.bone]!)
      }
    }
  }

  // Textures.
  const textures: Texture[] = []
  const texKey = new Map<string, number>()
  const tiles = m.dl?.materialTiles
  const textureFor = (ti: number, pi: number, mat: MaterialState): number | undefined => {
    const tile = tiles?.get(mat.at)
    const bank = tile?.palette ?? 0
    const wrapS = tile ? wrapFromTile(tile.cms, tile.masks) : 'clamp'
    const wrapT = tile ? wrapFromTile(tile.cmt, tile.maskt) : 'clamp'
    const key = `${ti}:${pi}:${bank}:${wrapS}:${wrapT}`
    const have = texKey.get(key)
    if (have !== undefined) return have >= 0 ? have : undefined // -1: this texture failed before
    try {
      const d = decodeModelTexture(m.module, m.tables, ti, pi, bank)
      const rec = m.tables.textures[ti]!
      textures.push({ name: `${String(ti).padStart(2, '0')}_${d.width}x${d.height}${pi >= 0 && rec.fmt === 2 ? `_p${pi}${rec.siz === 0 ? `b${bank}` : ''}` : ''}`, width: d.width, height: d.height, rgba: d.rgba, wrapS, wrapT, filter: 'linear' })
      texKey.set(key, textures.length - 1)
      return textures.length - 1
    } catch (e) {
      warnings.push(`texture ${ti} (palette ${pi}): ${(e as Error).message}`)
      texKey.set(key, -1)
      return undefined
    }
  }
  const texAnimIndices = (channel: number): number[] => {
    const s = new Set<number>()
    for (const ta of m.textureAnimations) for (const x of ta.channels[channel]?.stream ?? []) s.add(x)
    return [...s].sort((a, b) => a - b)
  }

  // Materials and primitives.
  const materials: Material[] = []
  interface Prim { material: number; pos: number[]; nrm: number[]; uv: number[]; col: number[]; joint: number[]; idx: number[]; map: Map<string, number>; lit: boolean; tw: number; th: number }
  const prims = new Map<string, Prim>()
  const matInfo: { state: MaterialState | null; channel: number; textureIndex: number }[] = []
  let dropped = 0
  for (const t of tris) {
    const cull = t.geometryMode & 0x600
    if (cull === 0x600) {
      dropped++
      continue
    }
    const lit = (t.geometryMode & 0x20000) !== 0
    const ms = t.draw.material
    const pm = presetMaterial(ms)
    const channel = ms && ms.texAnimChannel >= 0 ? ms.texAnimChannel : -1
    let ti = ms && pm.textured ? ms.textureIndex : -1
    if (ms && pm.textured && ti < 0 && channel >= 0) ti = texAnimIndices(channel)[0] ?? -1
    const doubleSided = cull === 0
    const layerAlpha = alphaModeForLayer(t.draw.layer)
    const key = `${ms?.at ?? -1}|${t.draw.layer & 15}|${doubleSided}|${lit}`
    let prim = prims.get(key)
    if (!prim) {
      const mi = materials.length
      const texture = ti >= 0 && ms ? textureFor(ti, ms.paletteIndex, ms) : undefined
      const mat: Material = {
        name: `mat${materials.length}_${ms ? ms.at.toString(16) : 'none'}_L${t.draw.layer}`,
        baseColor: pm.baseColor,
        alphaMode: pm.opaqueAlpha && layerAlpha.alphaMode !== 'OPAQUE' ? 'OPAQUE' : layerAlpha.alphaMode,
        doubleSided,
        ...(layerAlpha.alphaCutoff !== undefined && !pm.opaqueAlpha ? { alphaCutoff: layerAlpha.alphaCutoff } : {}),
        ...(texture !== undefined ? { texture } : {}),
        ...(pm.unlit ? { unlit: true } : {}),
        ...(pm.vertexColors || !lit ? { vertexColors: true } : {}),
        extras: { combinerPreset: ms?.preset ?? -1, renderLayer: t.draw.layer, textureIndex: ti, paletteIndex: ms?.paletteIndex ?? -1, texAnimChannel: channel, materialAt: ms?.at ?? -1, cull },
      }
      materials.push(mat)
      matInfo.push({ state: ms, channel, textureIndex: ti })
      const rec = ti >= 0 ? m.tables.textures[ti] : undefined
      prim = { material: mi, pos: [], nrm: [], uv: [], col: [], joint: [], idx: [], map: new Map(), lit, tw: rec && rec.width > 0 ? rec.width : 32, th: rec && rec.height > 0 ? rec.height : 32 }
      prims.set(key, prim)
    }
    const order = cull === 0x200 ? [0, 2, 1] : [0, 1, 2]
    for (const k of order) {
      const v = t.v[k]!
      const joint = jointOfLevel.get(v.bone)!
      const vk = `${v.x},${v.y},${v.z},${v.s},${v.t},${v.c0},${v.c1},${v.c2},${v.a},${joint}`
      let i = prim.map.get(vk)
      if (i === undefined) {
        i = prim.pos.length / 3
        prim.map.set(vk, i)
        prim.pos.push(v.x, v.y, v.z)
        const h = opts.halfTexel ? 0.5 : 0
        prim.uv.push((v.s / 32 + h) / prim.tw, (v.t / 32 + h) / prim.th)
        if (prim.lit) prim.nrm.push(((v.c0 << 24) >> 24) / 127, ((v.c1 << 24) >> 24) / 127, ((v.c2 << 24) >> 24) / 127)
        else prim.col.push(v.c0 / 255, v.c1 / 255, v.c2 / 255, v.a / 255)
        prim.joint.push(joint)
      }
      prim.idx.push(i)
    }
  }
  if (dropped) warnings.push(`${dropped} triangle(s) with both cull bits set (the game draws nothing) dropped`)

  const primitives: Primitive[] = []
  let triCount = 0
  let vertCount = 0
  for (const p of prims.values()) {
    const n = p.pos.length / 3
    const jointsArr = new Uint16Array(n * 4)
    const weights = new Float32Array(n * 4)
    for (let i = 0; i < n; i++) {
      jointsArr[i * 4] = p.joint[i]!
      weights[i * 4] = 1
    }
    primitives.push({
      positions: Float32Array.from(p.pos),
      ...(p.lit ? { normals: Float32Array.from(p.nrm) } : { colors: Float32Array.from(p.col) }),
      ...(materials[p.material]!.texture !== undefined ? { uvs: Float32Array.from(p.uv) } : {}),
      joints: jointsArr,
      weights,
      indices: Uint32Array.from(p.idx),
      material: p.material,
    })
    triCount += p.idx.length / 3
    vertCount += n
  }

  const scene: Scene = { name: m.slug, nodes, meshes: [], materials, textures, skins: [], animations: [], curves: [] }
  if (primitives.length) {
    scene.meshes.push({ name: m.slug, primitives })
    scene.skins.push({ name: `${m.slug}_skin`, joints, inverseBindMatrices: identities(joints.length), skeleton: 0 })
    nodes.push({ name: unique(`${m.slug}_mesh`), parent: -1, translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1], mesh: 0, skin: 0 })
  }

  // Texture animations: per material with a channel, the scene texture at each frame.
  const texAnimTracks = m.textureAnimations.map((ta) => {
    const tracks: { material: number; textures: number[] }[] = []
    matInfo.forEach((mi, k) => {
      if (mi.channel < 0 || !mi.state) return
      const ch = ta.channels[mi.channel]
      if (!ch || ch.stream.length === 0) return
      const texs = ch.stream.map((ti) => textureFor(ti, mi.state!.paletteIndex, mi.state!) ?? materials[k]!.texture)
      // a frame whose texture decodes nowhere (and no material texture to fall back on): no track
      if (texs.some((t) => t === undefined)) {
        warnings.push(`texture animation ${ta.index}: material ${k} has frames without a decodable texture; track dropped`)
        return
      }
      tracks.push({ material: k, textures: texs as number[] })
    })
    return { index: ta.index, frames: ta.frameCount, startFrame: ta.startFrame, loopStartFrame: ta.loopStartFrame, hold: ta.hold, tracks }
  })

  // Skeletal animations, baked per frame through the game's maths (§16.2).
  m.animations.forEach((a, ai) => {
    const n = Math.max(1, a.frameCount)
    const locals: LevelLocal[][] = []
    for (let f = 0; f < n; f++) locals.push(levelLocals(levels, bones, (b) => sampleJoint(m.module, a, bones[b]!, f), trig))
    const times = new Float32Array(n)
    for (let f = 0; f < n; f++) times[f] = f / FRAME_RATE
    const channels: Channel[] = []
    const add = (levelIndex: number, node: number, path: Channel['path'], get: (L: LevelLocal) => number[], restV: number[]) => {
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
      if (constant) {
        const first = Array.from(vals.subarray(0, w))
        const same = first.every((x, i) => Math.abs(x - Math.fround(restV[i]!)) < 1e-6) || (path === 'rotation' && first.every((x, i) => Math.abs(x + Math.fround(restV[i]!)) < 1e-6))
        if (same) return
        if (n === 1) {
          channels.push({ node, path, times: Float32Array.of(0), values: Float32Array.from(first), interpolation: interp })
        } else {
          channels.push({ node, path, times: Float32Array.of(0, times[n - 1]!), values: Float32Array.from([...first, ...first]), interpolation: interp })
        }
        return
      }
      channels.push({ node, path, times, values: vals, interpolation: interp })
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

  scene.extras = {
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
    triangles: triCount,
    vertices: vertCount,
    renderLayers: m.dl?.layers ?? [],
    warnings,
  }
  return scene
}

function identities(n: number): Float32Array {
  const a = new Float32Array(n * 16)
  for (let i = 0; i < n; i++) a[i * 16] = a[i * 16 + 5] = a[i * 16 + 10] = a[i * 16 + 15] = 1
  return a
}
