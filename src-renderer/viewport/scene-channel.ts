/**
 * The one channel through which scene views get what they show first (a `scene:open` scene, or a
 * view's own first call such as `gf:model`). The centre pane asks for it as soon as a selection
 * is known (`prefetchCall`, from the renderer manifest's `viewCalls`), in parallel with the view's
 * code and the tree reveal; the view that mounts later takes that same answer (`requestCall`)
 * instead of asking again. Free of Babylon: the shell loads it at once.
 */
import type { Channel, Req, Res } from '@shared/api'
import type { Scene } from '@shared/scene/types'
import { bridge } from '../bridge'

export type SceneId = number | 'demo'

/** A request a view starts with. */
export interface ViewCall<C extends Channel = Channel> {
  channel: C
  req: Req<C>
}

/** How long an early answer waits for its view (a selection left at once is not kept). */
const KEEP_MS = 20_000
const early = new Map<string, { at: number; answer: Promise<unknown> }>()
const keyOf = (channel: Channel, req: unknown) => `${channel} ${JSON.stringify(req)}`

/** Asks now; the next `requestCall` of the same channel and request takes the answer. */
export function prefetchCall<C extends Channel>(channel: C, req: Req<C>): void {
  const now = performance.now()
  for (const [k, e] of early) if (now - e.at > KEEP_MS) early.delete(k)
  const key = keyOf(channel, req)
  if (early.has(key)) return
  const answer = bridge.invoke(channel, req)
  // the view that takes it reports a failure; an answer nobody takes must not surface as unhandled
  answer.catch(() => undefined)
  early.set(key, { at: now, answer })
  // a selection moves on: keep the last few only
  while (early.size > 4) early.delete(early.keys().next().value as string)
}

/** The answer of a call: the early one when it was asked for (taken once), else a new request. */
export function requestCall<C extends Channel>(channel: C, req: Req<C>): Promise<Res<C>> {
  const key = keyOf(channel, req)
  const e = early.get(key)
  early.delete(key)
  if (e && performance.now() - e.at <= KEEP_MS) return e.answer as Promise<Res<C>>
  return bridge.invoke(channel, req)
}

/** Asks for a catalog scene now (see prefetchCall). */
export function prefetchScene(id: SceneId): void {
  prefetchCall('scene:open', { id })
}

/** The scene of `id`: the early answer when one was asked for, else a new request. */
export function requestScene(id: SceneId): Promise<Scene> {
  return requestCall('scene:open', { id })
}

/** Forgets early answers (the catalog changed under them). */
export function forgetPrefetched(): void {
  early.clear()
}
