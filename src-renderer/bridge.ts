import type { ModbenchBridge } from '@shared/api'
import { createHttpBridge } from './http-bridge'
import { sharingInFlight } from './in-flight'

/**
 * The one way the UI reaches the services: `window.modbench` from the Electron preload, or the
 * HTTP bridge in browser mode. Same typed contract either way; identical read-only calls in flight
 * share one request.
 */
export const bridge: ModbenchBridge = sharingInFlight(window.modbench ?? createHttpBridge())

/** A readable message for any error a call may throw. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

/** The structured code of an API error reply (e.g. `no-scene`), if the error carries one. */
export function errorCode(e: unknown): string | undefined {
  const c = (e as { code?: unknown } | null)?.code
  return typeof c === 'string' ? c : undefined
}
