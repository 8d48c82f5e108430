import { EVENT_NAMES, type ApiErrorReply, type ModbenchBridge, type EventName, type Events } from '@shared/api'
import { errorFromReply } from '@shared/transport/api-error'
import { decodeEnvelope, encodeEnvelope } from '@shared/transport/codec'
import { openFileDialog } from './files/file-dialog'

/**
 * Browser mode's bridge: the same contract over HTTP to `modbench serve`. The access token comes
 * from the page URL (`?token=`) and is kept for the tab's session.
 */
export function createHttpBridge(base = ''): ModbenchBridge {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) sessionStorage.setItem('modbench-token', fromUrl)
  const token = fromUrl ?? sessionStorage.getItem('modbench-token') ?? ''
  const listeners = new Map<string, Set<(p: unknown) => void>>()
  let source: EventSource | null = null

  function connect(): void {
    if (source) return
    source = new EventSource(`${base}/api/events?token=${encodeURIComponent(token)}`)
    for (const n of EVENT_NAMES) {
      source.addEventListener(n, (ev) => {
        const payload = JSON.parse((ev as MessageEvent<string>).data) as unknown
        for (const l of listeners.get(n) ?? []) l(payload)
      })
    }
  }

  const bridge: ModbenchBridge = {
    transport: 'http',
    async invoke(channel, req) {
      const res = await fetch(`${base}/api/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'x-modbench-token': token, 'content-type': 'application/x-modbench' },
        body: encodeEnvelope(req ?? {}) as unknown as BodyInit,
      })
      const bytes = new Uint8Array(await res.arrayBuffer())
      if (!res.ok) {
        let body: Partial<ApiErrorReply['error']> = { message: `${res.status} ${res.statusText}` }
        try {
          body = (JSON.parse(new TextDecoder().decode(bytes)) as ApiErrorReply).error
        } catch {
          /* not JSON */
        }
        throw errorFromReply(body)
      }
      return decodeEnvelope(bytes) as never
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      connect()
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (p: unknown) => void)
      listeners.set(event, set)
      return () => set.delete(listener as (p: unknown) => void)
    },
    async pick(opts) {
      // No native dialog in a browser tab: the file browser served by the main side (fs:list),
      // where a path can still be typed. The chosen path is granted like a dialog's choice.
      const p = await openFileDialog(opts)
      if (!p) return null
      const { path } = await bridge.invoke('fs:grant', { path: p })
      return path
    },
  }
  return bridge
}
