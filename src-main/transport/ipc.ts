import type { IpcMain, WebContents } from 'electron'
import type { Services } from '../services/index'
import { errorReplyOf } from '../../src-shared/transport/api-error'

/**
 * Electron transport: every API channel is an `ipcMain.handle` on the same name; events go to
 * the window as `event:<name>`. Typed arrays cross as structured clones (no JSON).
 */
export function registerIpc(ipcMain: IpcMain, services: Services, target: () => WebContents | null): () => void {
  const off = services.on((event, payload) => target()?.send(`event:${event}`, payload))
  ipcMain.handle('api:invoke', async (_e, channel: string, req: unknown) => {
    if (!services.has(channel)) return { error: { message: `unknown channel ${channel}`, name: 'NotFound' } }
    try {
      return { ok: await services.invoke(channel, req as never) }
    } catch (e) {
      return errorReplyOf(e)
    }
  })
  return () => {
    off()
    ipcMain.removeHandler('api:invoke')
  }
}
