/** The scene channel: an early request (at selection) is handed to the view that asks next, once. */
import { beforeEach, describe, expect, it, vi } from 'vitest'

const calls: unknown[] = []
vi.mock('../../../../src-renderer/bridge', () => ({
  bridge: {
    invoke: (channel: string, req: { id: number | 'demo' }) => {
      calls.push([channel, req.id])
      return req.id === 13 ? Promise.reject(new Error('bad stage')) : Promise.resolve({ name: `scene ${String(req.id)}` })
    },
  },
}))
const { forgetPrefetched, prefetchScene, requestScene } = await import('../../../../src-renderer/viewport/scene-channel')

describe('scene channel', () => {
  beforeEach(() => {
    calls.length = 0
    forgetPrefetched()
  })

  it('a prefetched scene is the next request’s answer: one call', async () => {
    prefetchScene(5)
    prefetchScene(5)
    expect(calls).toEqual([['scene:open', 5]])
    expect(await requestScene(5)).toEqual({ name: 'scene 5' })
    expect(calls).toEqual([['scene:open', 5]])
  })

  it('an answer is taken once; another id asks anew', async () => {
    prefetchScene(5)
    await requestScene(5)
    await requestScene(5)
    await requestScene('demo')
    expect(calls).toEqual([['scene:open', 5], ['scene:open', 5], ['scene:open', 'demo']])
  })

  it('a failed early request fails the view that takes it (and nothing else)', async () => {
    prefetchScene(13)
    await new Promise((r) => setTimeout(r, 0))
    await expect(requestScene(13)).rejects.toThrow('bad stage')
  })

  it('keeps the last four early requests only', async () => {
    for (const id of [1, 2, 3, 4, 5]) prefetchScene(id)
    calls.length = 0
    await requestScene(1)
    await requestScene(5)
    expect(calls).toEqual([['scene:open', 1]])
  })
})
