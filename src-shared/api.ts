/**
 * The typed contract between the UI and the services. Channels are `domain:verb`; each domain
 * declares its channels in `src-shared/api/<domain>.ts`. The same contract is served by Electron
 * IPC (preload → ipcMain.handle) and by browser mode's loopback HTTP server.
 */
import type { CatalogApi, CatalogEvents } from './api/catalog'
import type { SceneApi, SceneEvents } from './api/scene'
import type { GfApi, GfEvents } from './api/gf'
import type { GfModelApi } from './api/gf-model'
import type { ReApi } from './api/re'
import type { SnapApi } from './api/snap'
import type { StadiumApi } from './api/stadium'
import type { FilesApi } from './api/files'
import type { AppCommandName } from './app-menu'

export type * from './api/catalog'
export type * from './api/files'

export type Api = CatalogApi & FilesApi & SceneApi & GfApi & GfModelApi & ReApi & SnapApi & StadiumApi
export type Channel = keyof Api
export type Req<C extends Channel> = Api[C]['req']
export type Res<C extends Channel> = Api[C]['res']

/** Electron's native menu asks the window to run one of its commands (the Edit/View entries of APP_MENUS, Help's demo). */
export interface AppEvents {
  'app:command': { command: AppCommandName }
}

export type Events = CatalogEvents & GfEvents & SceneEvents & AppEvents

/** Every event name browser mode's event stream carries (it has no native menu: no `app:command`). */
export const EVENT_NAMES = ['index:progress', 'catalog:changed', 'gf:progress', 'scene:progress'] as const satisfies readonly (keyof Events)[]
export type EventName = keyof Events

/** What the renderer gets: `window.modbench` in Electron, an HTTP client in browser mode. */
export interface ModbenchBridge {
  invoke<C extends Channel>(channel: C, req: Req<C>): Promise<Res<C>>
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void
  /** Asks the user for files/folders (native dialog in Electron, path prompt in browser mode). */
  pick?(opts: { kind: 'open-file' | 'open-folder' | 'save-file'; title?: string; defaultPath?: string; filters?: { name: string; extensions: string[] }[] }): Promise<string | null>
  /** Shows a file in the system's file manager (Electron only; browser mode opens its file browser there). */
  reveal?(path: string): Promise<void>
  transport: 'electron' | 'http'
}

/** Error reply carried across either transport. */
export interface ApiErrorReply {
  /**
   * `code`: a structured reason the UI may branch on (e.g. `no-scene`: the asset's kind has no 3D
   * scene). `field`: the request's field that does not fit the contract (code `bad-request`, e.g.
   * `replacements[0].entry`).
   */
  error: { message: string; name: string; file?: string; structure?: string; offset?: number; code?: string; field?: string }
}
