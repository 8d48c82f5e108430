/**
 * Plays the neutral scene's clips on a built Babylon scene: node channels (via the shared
 * sampler, so the viewport shows exactly what the exporter writes), texture-swap, visibility, UV
 * and colour tracks. Time is the clip's own time in seconds; frames are `floor(time · frameRate)`.
 * A clip's `loopStart` / `integerFrames` and a swap track's own counter (period, start, hold,
 * whole frames) are honoured: such tracks read `clock`, the seconds played since the clip was
 * selected, which the clip's loop does not wrap and a scrub does not move.
 */
import type { Animation } from '@shared/scene/types'
import { clipSampleTime, clipTime, sampleChannel, sampleTextureSwap, sampleVec4Track, sampleVisibility } from '@shared/scene/sample'
import type { BuiltScene } from './build'

export interface PlayerState {
  clip: number
  time: number
  frame: number
  frameCount: number
  playing: boolean
  speed: number
  loop: boolean
}

export class AnimationPlayer {
  clip = -1
  time = 0
  /** Seconds played since the clip was selected (the clock of tracks with their own counter). */
  clock = 0
  playing = false
  speed = 1
  loop = true
  private listeners = new Set<(s: PlayerState) => void>()
  /** Nodes/materials some clip touches: reset to rest before a clip is applied. */
  private animatedNodes: number[]
  private hiddenCapable: number[]
  private tmp: number[] = []

  constructor(
    private built: BuiltScene,
    /** Called after material state (texture, colour, UV) changed. */
    private onMaterials: () => void = () => {},
  ) {
    const s = built.neutral
    this.animatedNodes = [...new Set(s.animations.flatMap((a) => a.channels.map((c) => c.node)))]
    this.hiddenCapable = [...new Set(s.animations.flatMap((a) => (a.visibility ?? []).map((v) => v.node)))]
    // A scene opened from an animation asset names the clip to show first (scene.extras.selectedAnimation).
    const sel = s.extras?.selectedAnimation
    if (s.animations.length) this.setClip(typeof sel === 'number' && sel >= 0 && sel < s.animations.length ? sel : 0)
  }

  get animation(): Animation | null {
    return this.built.neutral.animations[this.clip] ?? null
  }

  get frameRate(): number {
    return this.animation?.frameRate ?? 30
  }

  /** Last frame number (the clip spans frames 0..frameCount). */
  get frameCount(): number {
    const a = this.animation
    return a ? Math.max(0, Math.round(a.duration * a.frameRate)) : 0
  }

  get frame(): number {
    return Math.min(this.frameCount, Math.floor(this.time * this.frameRate + 1e-6))
  }

  state(): PlayerState {
    return { clip: this.clip, time: this.time, frame: this.frame, frameCount: this.frameCount, playing: this.playing, speed: this.speed, loop: this.loop }
  }

  onChange(l: (s: PlayerState) => void): () => void {
    this.listeners.add(l)
    return () => this.listeners.delete(l)
  }

  private emit(): void {
    const s = this.state()
    for (const l of this.listeners) l(s)
  }

  /** Selects a clip (−1: rest pose) and shows its first frame. */
  setClip(i: number): void {
    this.clip = i >= 0 && i < this.built.neutral.animations.length ? i : -1
    this.time = 0
    this.clock = 0
    this.loop = this.animation?.loop ?? true
    this.apply()
  }

  play(): void {
    if (!this.animation) return
    if (!this.loop && this.time >= this.animation.duration) {
      this.time = 0
      this.clock = 0
    }
    this.playing = true
    this.emit()
  }

  pause(): void {
    this.playing = false
    this.emit()
  }

  toggle(): void {
    if (this.playing) this.pause()
    else this.play()
  }

  setSpeed(s: number): void {
    this.speed = Number.isFinite(s) ? s : 1
    this.emit()
  }

  setLoop(l: boolean): void {
    this.loop = l
    this.emit()
  }

  setTime(t: number): void {
    const a = this.animation
    this.time = a ? Math.min(Math.max(0, t), a.duration) : 0
    this.apply()
  }

  setFrame(f: number): void {
    this.setTime(f / this.frameRate)
  }

  /** Pauses and shows frame `f` (a scrubber, Home/End). */
  scrub(f: number): void {
    this.pause()
    this.setFrame(Math.min(this.frameCount, Math.max(0, f)))
  }

  /** Pauses and moves `d` frames (clamped to the clip). */
  stepFrames(d: number): void {
    this.scrub(this.frame + d)
  }

  /** Advances the clock by `dt` seconds of wall time (× speed) when playing. */
  tick(dt: number): void {
    const a = this.animation
    if (!a || !this.playing || !(dt > 0)) return
    const t = this.time + dt * this.speed
    this.clock += dt * this.speed
    if (this.loop) this.time = clipTime(a, t, true)
    else if (t >= a.duration || t <= 0) {
      this.time = Math.min(Math.max(t, 0), a.duration)
      this.playing = false
    } else this.time = t
    this.apply()
  }

  /** Puts the scene in the pose and material state of the current clip at the current time. */
  apply(): void {
    const { neutral: s, nodes, materials } = this.built
    for (const i of this.animatedNodes) {
      const n = s.nodes[i]
      const tn = nodes[i]
      tn.position.set(n.translation[0], n.translation[1], n.translation[2])
      tn.rotationQuaternion!.set(n.rotation[0], n.rotation[1], n.rotation[2], n.rotation[3])
      tn.scaling.set(n.scale[0], n.scale[1], n.scale[2])
    }
    for (const i of this.hiddenCapable) nodes[i].setEnabled(true)
    for (const m of materials) {
      m.texture = m.restTexture
      m.color = [...m.neutral.baseColor] as [number, number, number, number]
      m.uv = [0, 0, 1, 1]
    }
    const a = this.animation
    if (a) {
      const t = clipSampleTime(a, this.time)
      const v = this.tmp
      for (const ch of a.channels) {
        sampleChannel(ch, t, v)
        const tn = nodes[ch.node]
        if (ch.path === 'translation') tn.position.set(v[0], v[1], v[2])
        else if (ch.path === 'scale') tn.scaling.set(v[0], v[1], v[2])
        else tn.rotationQuaternion!.set(v[0], v[1], v[2], v[3])
      }
      for (const tr of a.visibility ?? []) nodes[tr.node].setEnabled(sampleVisibility(tr, t))
      for (const tr of a.textureSwaps ?? []) materials[tr.material].texture = sampleTextureSwap(tr, t, this.clock)
      for (const tr of a.colorTracks ?? []) materials[tr.material].color = sampleVec4Track(tr, t) as [number, number, number, number]
      for (const tr of a.uvTracks ?? []) materials[tr.material].uv = sampleVec4Track(tr, t) as [number, number, number, number]
    }
    this.onMaterials()
    this.emit()
  }
}
