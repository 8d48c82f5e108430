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
// Dropped files: the page gets File objects; their paths come from webUtils in the preload. Only a
// File the user dropped (or picked in a file input) has a path on disk (one the page builds has
// none), so each path found is reported to the main process as chosen by the user before the page
// gets it (the main process accepts `index:start`/`fs:grant` only for chosen paths).
function pathOf(f: File): string {
  const p = webUtils.getPathForFile(f)
  if (p) ipcRenderer.send('files:dropped', [p])
  return p
}
contextBridge.exposeInMainWorld('modbenchFiles', { pathOf })
