/**
 * The free-fly camera on a Babylon scene: a FreeCamera driven by fly.ts (WASD/QE/arrows, Shift
 * faster, drag to look). The viewport switches between it and the orbit camera; movement keys are
 * consumed (preventDefault) only while flying, so a view's own shortcuts still work in orbit mode.
 */
import type { Scene as BScene } from '@babylonjs/core/scene.js'
import { FreeCamera } from '@babylonjs/core/Cameras/freeCamera.js'
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { baseSpeed, flyAction, flyLook, flyMove, forwardOf, keysFromCodes, type FlyState, type Vec3 } from './fly'

export class FlyController {
  readonly camera: FreeCamera
  state: FlyState = { position: [0, 0, 10], yaw: 0, pitch: 0 }
  /** Units per second at 1× (set from the scene's size). */
  base = 1
  /** The speed setting (× base). */
  multiplier = 1
  active = false
  private held = new Set<string>()
  private drag: { x: number; y: number } | null = null
  private off: (() => void)[] = []

  constructor(scene: BScene, private canvas?: HTMLCanvasElement) {
    this.camera = new FreeCamera('viewport/fly', Vector3.Zero(), scene)
    this.camera.inputs.clear()
    if (canvas) this.listen(canvas)
  }

  get speed(): number {
    return this.base * this.multiplier
  }

  /** Scales clipping and speed to a scene of bounding radius r. */
  fit(radius: number): void {
    const r = Math.max(radius, 1e-3)
    this.base = baseSpeed(r)
    this.camera.minZ = r * 0.002
    this.camera.maxZ = r * 200
  }

  setState(s: FlyState): void {
    this.state = s
    this.place()
  }

  /** Key held (KeyboardEvent.code): true when it is a fly key (tests drive this without DOM events). */
  key(code: string, down: boolean): boolean {
    if (!flyAction(code)) return false
    if (down) this.held.add(code)
    else this.held.delete(code)
    return true
  }

  look(dx: number, dy: number): void {
    this.state = flyLook(this.state, dx, dy)
    this.place()
  }

  /** Moves by the held keys for dt seconds. */
  tick(dt: number): void {
    if (!this.active || !this.held.size) return
    const next = flyMove(this.state, keysFromCodes(this.held), this.speed, dt)
    if (next !== this.state) {
      this.state = next
      this.place()
    }
  }

  place(): void {
    const p = this.state.position
    const f = forwardOf(this.state.yaw, this.state.pitch)
    this.camera.position.set(p[0], p[1], p[2])
    this.camera.setTarget(new Vector3(p[0] + f[0], p[1] + f[1], p[2] + f[2]))
  }

  /** A point `dist` ahead of the camera (where the orbit camera looks when flying ends). */
  ahead(dist: number): Vec3 {
    const p = this.state.position
    const f = forwardOf(this.state.yaw, this.state.pitch)
    return [p[0] + f[0] * dist, p[1] + f[1] * dist, p[2] + f[2] * dist]
  }

  private listen(c: HTMLCanvasElement): void {
    if (c.tabIndex < 0) c.tabIndex = 0 // keys reach the canvas once it is clicked
    const on = <K extends keyof HTMLElementEventMap>(t: EventTarget, type: K, fn: (e: HTMLElementEventMap[K]) => void) => {
      t.addEventListener(type, fn as EventListener)
      this.off.push(() => t.removeEventListener(type, fn as EventListener))
    }
    on(c, 'keydown', (e) => {
      if (this.active && !e.ctrlKey && !e.metaKey && !e.altKey && this.key(e.code, true)) {
        e.preventDefault()
        e.stopPropagation()
      }
    })
    on(c, 'keyup', (e) => {
      if (this.key(e.code, false) && this.active) e.preventDefault()
    })
    on(c, 'blur', () => this.held.clear())
    on(c, 'pointerdown', (e) => {
      if (!this.active) return
      this.drag = { x: e.clientX, y: e.clientY }
      c.focus()
    })
    on(c, 'pointermove', (e) => {
      if (!this.active || !this.drag || !e.buttons) return
      this.look(e.clientX - this.drag.x, e.clientY - this.drag.y)
      this.drag = { x: e.clientX, y: e.clientY }
    })
    on(c, 'pointerup', () => (this.drag = null))
  }

  dispose(): void {
    for (const f of this.off) f()
    this.off = []
    this.camera.dispose()
  }
}
