import type { Channel, Req, Res, Events, EventName } from '../../src-shared/api'
import type { Catalog } from '../catalog/catalog'

/** What every service handler gets besides its request. */
export interface ServiceContext {
  catalog: Catalog
  /** Sends an event to the UI (IPC or the browser-mode event stream). */
  emit<E extends EventName>(event: E, payload: Events[E]): void
  /**
   * Throws unless `path` is a file the user indexed or chose (browser mode refuses anything
   * else, e.g. `../../etc/passwd`). Returns the resolved absolute path. A write to an existing file
   * is refused (code `exists`) unless `overwrite` is true: the request says the user confirmed.
   */
  allowPath(path: string, purpose: 'read' | 'write', opts?: { overwrite?: boolean }): string
  /** Marks a path the user explicitly chose (file picker, drop, CLI argument). */
  grantPath(path: string): void
}

export type Handler<C extends Channel> = (req: Req<C>, ctx: ServiceContext) => Promise<Res<C>> | Res<C>
export type Handlers = { [C in Channel]?: Handler<C> }
