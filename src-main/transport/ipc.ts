import type { IpcMain, WebContents } from 'electron'
import type { Services } from '../services/index'
import { FormatError } from '../../src-shared/binary'

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
      const err = e instanceof Error ? e : new Error(String(e))
      const fe = err instanceof FormatError ? err : undefined
      return { error: { message: err.message, name: err.name, file: fe?.file, structure: fe?.structure, offset: fe?.offset } }
    }
  })
  return () => {
    off()
    ipcMain.removeHandler('api:invoke')
  }
}
