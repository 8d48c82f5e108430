/** The viewport's cameras: where they look (permalinks), framing the scene, orbit ↔ fly. */
import { Vector3 } from '@babylonjs/core/Maths/math.vector.js'
import { boundsCenter, boundsRadius } from '@shared/scene/bounds'
import { flyFromLookAt } from './fly'
import { poseBounds } from './explore'
import type { CameraMode, CameraView } from './types'
import type { ViewState } from './stage'

/** The active camera's eye and target. */
export function getView(st: ViewState): CameraView {
  const { camera, fly } = st
  if (st.mode === 'fly') return { eye: [...fly.state.position], target: fly.ahead(Math.max(camera.radius, 1e-3)) }
  const e = camera.position, t = camera.target
  return { eye: [e.x, e.y, e.z], target: [t.x, t.y, t.z] }
}

/** Puts the active camera at `v`. */
export function setView(st: ViewState, v: CameraView): void {
  if (st.mode === 'fly') st.fly.setState(flyFromLookAt(v.eye, v.target))
  else {
    st.camera.setTarget(new Vector3(...v.target))
    st.camera.setPosition(new Vector3(...v.eye))
  }
}

/** The fly camera where the orbit camera is, looking the same way. */
function syncFly(st: ViewState): void {
  const e = st.camera.position, t = st.camera.target
  st.fly.setState(flyFromLookAt([e.x, e.y, e.z], [t.x, t.y, t.z]))
}

/** Points the camera at the whole scene as posed now, with clipping and speeds for its size. */
export function frameScene(st: ViewState): void {
  const { camera, engine } = st
  const b = (st.built ? poseBounds(st.built.neutral, st.player) : null) ?? st.bounds ?? { min: [-1, -1, -1], max: [1, 1, 1] }
  const r = Math.max(boundsRadius(b), 1e-3)
  camera.setTarget(new Vector3(...boundsCenter(b)))
  // Fit the bounding sphere in the narrower of the two fields of view (a tall, narrow canvas
  // would otherwise cut the model at its sides).
  const vfov = camera.fov || 0.8
  engine.resize() // the canvas may have been laid out since the last resize event
  const w = engine.getRenderWidth(), h = engine.getRenderHeight()
  const aspect = w > 0 && h > 0 ? w / h : 1
  const fov = Math.min(vfov, 2 * Math.atan(Math.tan(vfov / 2) * aspect))
  camera.radius = (r / Math.sin(fov / 2)) * 1.1
  camera.alpha = Math.PI / 4
  camera.beta = Math.PI / 3
  camera.minZ = r * 0.01
  camera.maxZ = r * 100
  camera.lowerRadiusLimit = r * 0.05
  camera.upperRadiusLimit = r * 50
  camera.panningSensibility = 1000 / r
  if (st.mode === 'fly') syncFly(st)
}

/** Switches camera; the new one starts where the old one was, looking the same way. */
export function setCameraMode(st: ViewState, m: CameraMode): void {
  const { camera, fly, scene } = st
  if (m === st.mode) return
  if (m === 'fly') {
    syncFly(st)
    fly.camera.fov = camera.fov
    scene.activeCamera = fly.camera
  } else {
    const t = fly.ahead(Math.max(camera.radius, 1e-3))
    camera.setTarget(new Vector3(...t))
    camera.setPosition(new Vector3(...fly.state.position))
    scene.activeCamera = camera
  }
  st.mode = m
  fly.active = m === 'fly'
}
