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
