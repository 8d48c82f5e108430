/**
 * A stand-in for `src-renderer/bridge` in store tests: `invoke` answers as the test says, `on`
 * records listeners in `handlers` so the test can fire events (`handlers.get('catalog:changed')!(…)`).
 * Use inside `vi.mock(…, async () => (await import(…/fake-bridge)).fakeBridgeModule(…))`.
 */
export function fakeBridgeModule(invoke: (channel: string, req: Record<string, unknown>) => Promise<unknown>, handlers: Map<string, (p: unknown) => void>) {
  return {
    errorMessage: (e: unknown) => (e instanceof Error ? e.message : String(e)),
    bridge: {
      transport: 'http',
      on: (event: string, h: (p: unknown) => void) => {
        handlers.set(event, h)
        return () => handlers.delete(event)
      },
      invoke,
    },
  }
}

type Row = { id: number; sourceId: number; parent: number | null }

/**
 * `catalog:reveal` over a fake catalog's flat list of assets, as main answers it: the asset and,
 * from its source's top level down to its parent, each level's children (at most `limit`).
 */
export function revealIn<A extends Row>(assets: readonly A[], req: Record<string, unknown>): { asset: A; levels: { parent: number | null; children: A[] }[] } | null {
  const asset = assets.find((a) => a.id === req.id)
  if (!asset) return null
  const parents: (number | null)[] = []
  for (let p = asset.parent; p !== null; p = assets.find((a) => a.id === p)?.parent ?? null) parents.unshift(p)
  const limit = Number(req.limit ?? 1000)
  return { asset, levels: [null, ...parents].map((parent) => ({ parent, children: assets.filter((a) => a.sourceId === asset.sourceId && a.parent === parent).slice(0, limit) })) }
}
