/**
 * The one channel through which scene views get their neutral scenes (`scene:open`). The centre
 * pane asks for the scene as soon as a selection is known (`prefetchScene`), in parallel with the
 * view's code and the tree reveal; the view that mounts later takes that same answer
 * (`requestScene`) instead of asking again. Browser-free of Babylon: the shell loads it at once.
 */
import type { Scene } from '@shared/scene/types'
import { bridge } from '../bridge'

export type SceneId = number | 'demo'

/** How long an early answer waits for its view (a selection left at once is not kept). */
const KEEP_MS = 20_000
const early = new Map<SceneId, { at: number; scene: Promise<Scene> }>()

/** Asks for a scene now; the next `requestScene(id)` takes the answer. */
export function prefetchScene(id: SceneId): void {
  const now = performance.now()
  for (const [k, e] of early) if (now - e.at > KEEP_MS) early.delete(k)
  if (early.has(id)) return
  const scene = bridge.invoke('scene:open', { id })
  // the view that takes it reports a failure; an answer nobody takes must not surface as unhandled
  scene.catch(() => undefined)
  early.set(id, { at: now, scene })
  // a selection moves on: keep the last few only
  while (early.size > 4) early.delete(early.keys().next().value as SceneId)
}

/** The scene of `id`: the early answer when one was asked for (taken once), else a new request. */
export function requestScene(id: SceneId): Promise<Scene> {
  const e = early.get(id)
  early.delete(id)
  if (e && performance.now() - e.at <= KEEP_MS) return e.scene
  return bridge.invoke('scene:open', { id })
}

/** Forgets early answers (the catalog changed under them). */
export function forgetPrefetched(): void {
  early.clear()
}
