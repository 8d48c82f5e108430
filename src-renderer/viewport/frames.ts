/** The viewport's frames: one rendered frame (player, fly, listeners, camera listeners) and screenshots. */
import { getView } from './camera'
import type { ViewState } from './stage'

/** Advances playback and the fly camera by dt seconds, renders, and tells a moved camera. */
export function renderFrame(st: ViewState, dt: number): void {
  st.player?.tick(dt)
  st.fly.tick(dt)
  for (const l of st.listeners.frame) l(dt)
  st.scene.render()
  if (st.listeners.camera.size) {
    const v = getView(st)
    const key = [...v.eye, ...v.target].map((x) => x.toFixed(4)).join(',')
    if (key !== st.lastView) {
      st.lastView = key
      for (const l of st.listeners.camera) l(v)
    }
  }
}

/** The next rendered frame as a PNG data URL (rendered now when there is no render loop). */
export function screenshot(st: ViewState): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    // toBlob encodes off the main thread (toDataURL would block the frame); the drawing
    // buffer is preserved, so it still holds this frame when the encoder reads it.
    st.scene.onAfterRenderObservable.addOnce(() => {
      const c = st.engine.getRenderingCanvas() as HTMLCanvasElement | null
      if (!c) return reject(new Error('no canvas to capture'))
      c.toBlob((b) => {
        if (!b) return reject(new Error('the view could not be captured'))
        const r = new FileReader()
        r.onload = () => resolve(String(r.result))
        r.onerror = () => reject(r.error ?? new Error('the view could not be captured'))
        r.readAsDataURL(b)
      }, 'image/png')
    })
    if (!st.runLoop) renderFrame(st, 0)
  })
}
