import { describe, expect, it } from 'vitest'
import type { ModbenchBridge } from '../../../src-shared/api'
import { sharingInFlight } from '../../../src-renderer/in-flight'

/** Identical read-only calls in flight share one request; others, and later ones, are asked again (issue 26). */
describe('sharingInFlight', () => {
  function counting() {
    const asked: string[] = []
    const release: (() => void)[] = []
    const inner = {
      transport: 'http',
      on: () => () => {},
      invoke: (channel: string, req: unknown) => {
        asked.push(`${channel} ${JSON.stringify(req)}`)
        return new Promise((resolve) => release.push(() => resolve({ channel, req, n: asked.length })))
      },
    } as unknown as ModbenchBridge
    return { bridge: sharingInFlight(inner), asked, releaseAll: () => release.splice(0).forEach((r) => r()) }
  }

  it('answers identical reads in flight with one request, the same answer to each', async () => {
    const { bridge, asked, releaseAll } = counting()
    const a = bridge.invoke('catalog:children', { sourceId: 1, parent: null, offset: 0, limit: 10 })
    const b = bridge.invoke('catalog:children', { sourceId: 1, parent: null, offset: 0, limit: 10 })
    const c = bridge.invoke('catalog:children', { sourceId: 1, parent: 5, offset: 0, limit: 10 })
    expect(asked).toHaveLength(2)
    releaseAll()
    const [ra, rb, rc] = await Promise.all([a, b, c])
    expect(rb).toBe(ra)
    expect(rc).not.toBe(ra)
    // settled: the next identical call is a new request
    const d = bridge.invoke('catalog:children', { sourceId: 1, parent: null, offset: 0, limit: 10 })
    expect(asked).toHaveLength(3)
    releaseAll()
    await d
  })

  it('never shares writes or jobs', async () => {
    const { bridge, asked, releaseAll } = counting()
    const one = bridge.invoke('index:start', { paths: ['/a'] })
    const two = bridge.invoke('index:start', { paths: ['/a'] })
    expect(asked).toEqual(['index:start {"paths":["/a"]}', 'index:start {"paths":["/a"]}'])
    releaseAll()
    expect(await one).not.toBe(await two)
    expect(bridge.transport).toBe('http')
  })
})
