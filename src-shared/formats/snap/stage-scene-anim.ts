/**
 * Snap stage scene, conversion step: the stage material animation (pokemon-snap.md §7.6), baked
 * by `stage-models.ts`, as neutral UV, texture-swap and colour tracks on the scene materials the
 * animated Snap materials became. Rooms run on the global timer at 30 fps, the skybox at its speed.
 */
import type { TextureRef } from '../n64/f3dex2'
import type { SceneAssembler } from '../../scene/assemble'
import type { Animation, ColorTrack, TextureSwapTrack, UVTrack } from '../../scene/types'
import { UnmappedAddressError } from './address-map'
import type { BakedMaterialAnim } from './material-anim'
import type { MaterialSource, StageMeshes } from './stage-meshes'
import { materialTag, textureKey, type AnimatedModel, type MaterialTrack, type StageModels } from './stage-models'

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

/** Tile-origin scroll and G_TEXTURE scale per frame as [offU, offV, scaleU, scaleV]; null when nothing moves. */
function uvTrack(material: number, info: MaterialSource, ref: TextureRef, baked: BakedMaterialAnim, times: number[]): UVTrack | null {
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
  if (!moves) return null
  const d = decimate(times, values, 4)
  return { material, times: new Float32Array(d.times), values: new Float32Array(d.values) }
}

interface TrackContext {
  a: SceneAssembler
  meshes: StageMeshes
  pixels: StageModels['textures']
  label: string
}

/** The scene texture a flipbook frame shows, or undefined (with a warning) when it cannot be had. */
function frameTexture(ctx: TrackContext, track: MaterialTrack, i: number, info: MaterialSource, ref: TextureRef): number | undefined {
  const img = track.frames[i]!
  const fail = (e: Error) => void ctx.a.warn(`${ctx.label}: material ${track.material} frame ${track.baked!.frames[i]!.frame}: ${e.message}`)
  if (img.image instanceof Error) return fail(img.image)
  const pal = ref.paletteAddr !== undefined && img.palette !== null ? img.palette : ref.paletteAddr
  if (pal instanceof Error) return fail(pal)
  const frameRef = { ...ref, addr: img.image, paletteAddr: pal }
  const px = ctx.pixels.get(textureKey(frameRef))
  if (px instanceof UnmappedAddressError) return fail(px)
  return ctx.meshes.texture(frameRef, info.filterOn)
}

/** Flipbook / palette animation: a texture per (image, palette) pair; null without a change. */
function swapTrack(ctx: TrackContext, material: number, info: MaterialSource, ref: TextureRef, track: MaterialTrack, times: number[]): TextureSwapTrack | null {
  const frames = track.baked!.frames
  const pairs = frames.map((f) => `${f.imageIndex},${f.paletteIndex}`)
  if (new Set(pairs).size <= 1) return null
  const keyT: number[] = [], keyX: number[] = []
  let last = ''
  frames.forEach((_, i) => {
    if (pairs[i] === last) return
    last = pairs[i]!
    const tex = frameTexture(ctx, track, i, info, ref)
    if (tex === undefined) return
    keyT.push(times[i]!)
    keyX.push(tex)
  })
  return keyT.length > 1 ? { material, times: new Float32Array(keyT), textures: new Uint32Array(keyX) } : null
}

/** Primitive colour per frame, when the combiner reads it and it changes. */
function colorTrack(material: number, info: MaterialSource, baked: BakedMaterialAnim, times: number[]): ColorTrack | null {
  if (!info.usesPrim || new Set(baked.frames.map((f) => f.prim)).size <= 1) return null
  const values: number[] = []
  for (const f of baked.frames) values.push(((f.prim >>> 24) & 255) / 255, ((f.prim >>> 16) & 255) / 255, ((f.prim >>> 8) & 255) / 255, (f.prim & 255) / 255)
  const d = decimate(times, values, 4)
  return { material, times: new Float32Array(d.times), values: new Float32Array(d.values) }
}

interface Tracks {
  uv: UVTrack[]
  swaps: TextureSwapTrack[]
  colors: ColorTrack[]
  duration: number
  done: Set<number>
}

/** The tracks of one animated model: every scene material its animated Snap materials became. */
function modelTracks(ctx: TrackContext, model: AnimatedModel, out: Tracks): void {
  for (const track of model.tracks) {
    if (track.error !== undefined) ctx.a.warn(`${model.label}: material ${track.material} animation: ${track.error}`)
    const baked = track.baked
    if (!baked) continue
    const fps = 30 * model.speed
    out.duration = Math.max(out.duration, baked.length / fps)
    const tag = materialTag(model.node, track.material)
    for (const [sceneMat, info] of ctx.meshes.sources) {
      if (info.draws !== model.draws || info.tag !== tag || out.done.has(sceneMat)) continue
      out.done.add(sceneMat)
      const times = baked.frames.map((f) => f.frame / fps)
      const ref = info.ref
      const uv = ref ? uvTrack(sceneMat, info, ref, baked, times) : null
      if (uv) out.uv.push(uv)
      const swap = ref ? swapTrack(ctx, sceneMat, info, ref, track, times) : null
      if (swap) out.swaps.push(swap)
      const color = colorTrack(sceneMat, info, baked, times)
      if (color) out.colors.push(color)
    }
  }
}

/** The stage material animation (or an actor animation's material tracks) as one looping clip, or null when no material moves. */
export function stageMaterialAnimation(a: SceneAssembler, meshes: StageMeshes, models: Pick<StageModels, 'animated' | 'textures'>): Animation | null {
  const out: Tracks = { uv: [], swaps: [], colors: [], duration: 0, done: new Set() }
  for (const model of models.animated) {
    if (model.tableError !== undefined) {
      a.warn(`${model.label}: material animation: ${model.tableError}`)
      continue
    }
    modelTracks({ a, meshes, pixels: models.textures, label: model.label }, model, out)
  }
  if (!out.uv.length && !out.swaps.length && !out.colors.length) return null
  return {
    name: 'material animation', duration: out.duration, frameRate: 30, channels: [], loop: true,
    ...(out.uv.length ? { uvTracks: out.uv } : {}), ...(out.swaps.length ? { textureSwaps: out.swaps } : {}), ...(out.colors.length ? { colorTracks: out.colors } : {}),
    extras: { snap: { kind: 'stageMaterialAnimation', note: 'stage material tracks run on the global timer; noclip loops them' } },
  }
}
