/**
 * Free-fly camera maths (noclip-style), no Babylon and no DOM: a position and yaw/pitch, keys →
 * movement in the camera's frame, mouse deltas → look. The scene is right-handed with +Y up;
 * yaw 0 / pitch 0 looks down −Z (glTF's camera convention), positive yaw turns right, positive
 * pitch looks up.
 */
export type Vec3 = [number, number, number]

export interface FlyState {
  position: Vec3
  /** Radians about +Y; 0 looks down −Z, π/2 looks down +X. */
  yaw: number
  /** Radians above the horizon, kept inside ±MAX_PITCH. */
  pitch: number
}

/** Which movement keys are held. */
export interface FlyKeys {
  forward: boolean
  back: boolean
  left: boolean
  right: boolean
  up: boolean
  down: boolean
  fast: boolean
}

/** Just short of straight up/down, so the view direction never lines up with the up axis. */
export const MAX_PITCH = Math.PI / 2 - 0.01
/** Speed multiplier while Shift is held. */
export const FAST_FACTOR = 4
/** The speed settings offered (× the scene's base speed). */
export const SPEED_STEPS = [0.125, 0.25, 0.5, 1, 2, 4, 8, 16] as const

const KEY_MAP: Record<string, keyof FlyKeys> = {
  KeyW: 'forward',
  ArrowUp: 'forward',
  KeyS: 'back',
  ArrowDown: 'back',
  KeyA: 'left',
  ArrowLeft: 'left',
  KeyD: 'right',
  ArrowRight: 'right',
  KeyE: 'up',
  KeyQ: 'down',
  ShiftLeft: 'fast',
  ShiftRight: 'fast',
}

/** The fly action of a `KeyboardEvent.code` (layout-independent: WASD stays put on AZERTY), or null. */
export function flyAction(code: string): keyof FlyKeys | null {
  return KEY_MAP[code] ?? null
}

/** The held keys (KeyboardEvent.code values) as fly keys. */
export function keysFromCodes(codes: Iterable<string>): FlyKeys {
  const k: FlyKeys = { forward: false, back: false, left: false, right: false, up: false, down: false, fast: false }
  for (const c of codes) {
    const a = flyAction(c)
    if (a) k[a] = true
  }
  return k
}

/** Unit view direction for yaw/pitch. */
export function forwardOf(yaw: number, pitch: number): Vec3 {
  const c = Math.cos(pitch)
  return [Math.sin(yaw) * c, Math.sin(pitch), -Math.cos(yaw) * c]
}

/** Unit right direction (horizontal): forward × up. */
export function rightOf(yaw: number): Vec3 {
  return [Math.cos(yaw), 0, Math.sin(yaw)]
}

/**
 * Where the camera is after `dt` seconds with `keys` held at `speed` units per second (× FAST_FACTOR
 * with Shift). Forward/back follow the view (pitch included), left/right stay horizontal, up/down
 * are world Y. Diagonals are not faster: the summed direction is normalised.
 */
export function flyMove(s: FlyState, keys: FlyKeys, speed: number, dt: number): FlyState {
  const f = forwardOf(s.yaw, s.pitch)
  const r = rightOf(s.yaw)
  const fb = (keys.forward ? 1 : 0) - (keys.back ? 1 : 0)
  const lr = (keys.right ? 1 : 0) - (keys.left ? 1 : 0)
  const ud = (keys.up ? 1 : 0) - (keys.down ? 1 : 0)
  const d: Vec3 = [f[0] * fb + r[0] * lr, f[1] * fb + ud, f[2] * fb + r[2] * lr]
  const len = Math.hypot(d[0], d[1], d[2])
  if (!(len > 0) || !(dt > 0) || !(speed > 0)) return s
  const step = (speed * (keys.fast ? FAST_FACTOR : 1) * dt) / len
  return { ...s, position: [s.position[0] + d[0] * step, s.position[1] + d[1] * step, s.position[2] + d[2] * step] }
}

/** Mouse look: `dx`/`dy` pixels (right/down positive) × `sensitivity` radians per pixel. */
export function flyLook(s: FlyState, dx: number, dy: number, sensitivity = 0.004): FlyState {
  const yaw = wrapAngle(s.yaw + dx * sensitivity)
  const pitch = Math.min(MAX_PITCH, Math.max(-MAX_PITCH, s.pitch - dy * sensitivity))
  return { ...s, yaw, pitch }
}

/** The fly state at `eye` looking at `target` (e.g. taking over from the orbit camera). */
export function flyFromLookAt(eye: Vec3, target: Vec3): FlyState {
  const d: Vec3 = [target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]]
  const h = Math.hypot(d[0], d[2])
  const yaw = h > 1e-12 ? Math.atan2(d[0], -d[2]) : 0
  const pitch = Math.min(MAX_PITCH, Math.max(-MAX_PITCH, Math.atan2(d[1], h)))
  return { position: [...eye], yaw, pitch }
}

/** A base speed for a scene of bounding radius `r`: crossing it takes about four seconds. */
export function baseSpeed(radius: number): number {
  return Number.isFinite(radius) && radius > 0 ? radius / 2 : 1
}

function wrapAngle(a: number): number {
  const t = Math.PI * 2
  return ((((a + Math.PI) % t) + t) % t) - Math.PI
}
