/**
 * Preload (sandboxed, CommonJS): exposes the typed API contract as `window.modbench` through
 * contextBridge. Nothing else of Node or Electron reaches the page.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron'
import type { ApiErrorReply, ModbenchBridge } from '../src-shared/api'
import { errorFromReply } from '../src-shared/transport/api-error'

const bridge: ModbenchBridge = {
  transport: 'electron',
  async invoke(channel, req) {
    const reply = (await ipcRenderer.invoke('api:invoke', channel, req)) as { ok?: unknown } & Partial<ApiErrorReply>
    if (reply.error) throw errorFromReply(reply.error)
    return reply.ok as never
  },
  on(event, listener) {
    const fn = (_e: unknown, payload: unknown) => listener(payload as never)
    ipcRenderer.on(`event:${event}`, fn)
    return () => ipcRenderer.off(`event:${event}`, fn)
  },
  pick: (opts) => ipcRenderer.invoke('dialog:pick', opts) as Promise<string | null>,
  reveal: (p) => ipcRenderer.invoke('shell:reveal', p) as Promise<void>,
}

contextBridge.exposeInMainWorld('modbench', bridge)
// Dropped files: the page gets File objects; their paths come from webUtils in the preload.
contextBridge.exposeInMainWorld('modbenchFiles', { pathOf: (f: File) => webUtils.getPathForFile(f) })
