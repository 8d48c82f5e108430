/**
 * Loads the scene-view host's code (SceneHost and the Babylon viewport under it, the largest
 * chunk) once the shell has painted and the main thread is idle, so the first scene view that
 * opens does not wait for it. A view opened sooner loads it itself (the same chunk, once).
 * `now`: the page opens a view at once (a permalink), so the chunk is asked for beside the shell's
 * first calls, before the view's scene request keeps the server busy (issue 26). Then, unless a
 * view has taken a canvas by then, the first canvas is readied (viewport/warm.ts) when idle again.
 */
export function preloadViewport(now = false): void {
  const idle = (f: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 50))
  // then, when idle again, the first canvas's engine and common programs (skipped once a view took a canvas)
  // (use-scene-host: the views' shared code, its own small chunk)
  const load = () => void Promise.all([import('./components/viewport/SceneHost.vue'), import('./components/viewport/use-scene-host')]).then(([m]) => idle(m.warmViewport)).catch(() => undefined)
  if (now) return load()
  // after the first paint (the frame after the next animation frame), then when idle
  requestAnimationFrame(() => setTimeout(() => idle(load), 0))
}
