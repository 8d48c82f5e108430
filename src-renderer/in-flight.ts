import type { Channel, ModbenchBridge } from '@shared/api'

/**
 * Read-only channels whose identical calls (same channel, same request) share one request while
 * it is in flight (issue 26: the tree, the view and a refresh asked the same thing at once).
 * Writers, jobs and answers a caller may change (scenes, pictures) are never shared.
 */
const SHARED: ReadonlySet<Channel> = new Set<Channel>(['catalog:sources', 'catalog:children', 'catalog:asset', 'catalog:reveal', 'catalog:search', 'fs:list', 'fs:stat', 'gf:textures', 'snap:stages'])

/** `bridge` with identical read-only calls in flight answered by one request. */
export function sharingInFlight(bridge: ModbenchBridge): ModbenchBridge {
  const inFlight = new Map<string, Promise<unknown>>()
  const invoke: ModbenchBridge['invoke'] = (channel, req) => {
    if (!SHARED.has(channel)) return bridge.invoke(channel, req)
    const key = `${channel} ${JSON.stringify(req)}`
    const have = inFlight.get(key)
    if (have) return have as never
    const p = bridge.invoke(channel, req).finally(() => inFlight.delete(key))
    inFlight.set(key, p)
    return p
  }
  return { ...bridge, invoke }
}
