/**
 * One clip for a stage view that plays everything at once (the viewport plays one clip): the
 * stage's material animation plus each actor's first animation at every instance, each repeated
 * on its own period (looping clips) or held (one-shot clips) over the longest of them. Sampled
 * keys are copied, so the view shows what the separate clips of the export hold.
 */
import type { Animation, Channel, Scene } from '../../scene/types'

const MAX_KEYS = 4000

/** Keys of `times`/`values` (`width` floats per key) repeated with period `d` until `total`. */
function repeat(times: Float32Array, values: Float32Array, width: number, d: number, total: number): { times: Float32Array; values: Float32Array } {
  if (!(d > 0) || times.length < 2) return { times, values }
  const t: number[] = [], v: number[] = []
  for (let r = 0; r * d < total && t.length < MAX_KEYS; r++) {
    for (let k = r === 0 ? 0 : 1; k < times.length && t.length < MAX_KEYS; k++) {
      const at = times[k]! + r * d
      if (at > total + 1e-6) break
      t.push(at)
      for (let c = 0; c < width; c++) v.push(values[k * width + c]!)
    }
  }
  return { times: new Float32Array(t), values: new Float32Array(v) }
}

/**
 * Puts a combined `stage animation` clip first in `scene.animations` (the stage's material clip
 * and the `<actor> <header>` clips listed in `actorClips` stay after it). Returns false when there
 * is nothing to combine.
 */
export function addStageClip(scene: Scene, actorClips: Animation[]): boolean {
  const material = scene.animations.find((a) => (a.extras?.snap as { kind?: string } | undefined)?.kind === 'stageMaterialAnimation')
  const parts = [...(material ? [material] : []), ...actorClips.filter((a) => a.channels.length || a.uvTracks?.length || a.textureSwaps?.length)]
  if (!actorClips.length || !parts.length) return false
  const total = Math.max(...parts.map((p) => p.duration))
  const channels: Channel[] = []
  const clip: Animation = { name: 'stage animation', duration: total, frameRate: 30, channels, loop: true, visibility: [], uvTracks: [], textureSwaps: [], colorTracks: [], extras: { snap: { kind: 'stageAnimation', parts: parts.map((p) => p.name) } } }
  for (const p of parts) {
    const d = p.loop === false ? 0 : p.duration
    for (const c of p.channels) {
      const width = c.path === 'rotation' ? 4 : 3
      const r = repeat(c.times, c.values, width, d, total)
      channels.push({ ...c, times: r.times, values: r.values })
    }
    for (const u of p.uvTracks ?? []) clip.uvTracks!.push({ ...u, ...repeat(u.times, u.values, 4, d, total) })
    for (const u of p.colorTracks ?? []) clip.colorTracks!.push({ ...u, ...repeat(u.times, u.values, 4, d, total) })
    for (const s of p.textureSwaps ?? []) {
      const r = repeat(s.times, new Float32Array(s.textures), 1, d, total)
      clip.textureSwaps!.push({ ...s, times: r.times, textures: new Uint32Array(r.values) })
    }
    for (const v of p.visibility ?? []) {
      const r = repeat(v.times, new Float32Array(v.visible), 1, d, total)
      clip.visibility!.push({ ...v, times: r.times, visible: new Uint8Array(r.values) })
    }
  }
  for (const k of ['visibility', 'uvTracks', 'textureSwaps', 'colorTracks'] as const) if (!clip[k]!.length) delete clip[k]
  scene.animations.unshift(clip)
  return true
}
