import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron'
import type { Services } from '../services/index'
import { errorReplyOf } from '../../src-shared/transport/api-error'
import { checkRequest } from '../../src-shared/api/requests'
import { UntrustedSender } from './shell-guards'

export interface IpcGuards {
  /** Why a sender is refused, or null (the main window's top frame showing the app). */
  trust?(e: IpcMainInvokeEvent): string | null
  /** Throws when a (valid) request may not be served from the window (`chosenPathsGate`). */
  gate?(channel: string, req: unknown): void
}

/**
 * Electron transport: every API channel is an `ipcMain.handle` on the same name; events go to
 * the window as `event:<name>`. Typed arrays cross as structured clones (no JSON). A request is
 * checked like browser mode's: its sender first, then its types against the contract.
 */
export function registerIpc(ipcMain: IpcMain, services: Services, target: () => WebContents | null, guards: IpcGuards = {}): () => void {
  const off = services.on((event, payload) => target()?.send(`event:${event}`, payload))
  ipcMain.handle('api:invoke', async (e, channel: unknown, req: unknown) => {
    try {
      const why = guards.trust?.(e)
      if (why) throw new UntrustedSender('api:invoke', why)
      if (typeof channel !== 'string' || !services.has(channel)) return { error: { message: `unknown channel ${String(channel)}`, name: 'NotFound' } }
      const checked = checkRequest(channel, req ?? {}) // no request: `{}`, as an empty HTTP body
      guards.gate?.(channel, checked)
      return { ok: await services.invoke(channel, checked) }
    } catch (err) {
      return errorReplyOf(err)
    }
  })
  return () => {
    off()
    ipcMain.removeHandler('api:invoke')
  }
}
