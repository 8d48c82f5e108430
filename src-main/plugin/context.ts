/**
 * The service-handler contract: what a handler (the platform's or a domain's) gets besides its
 * request, and the part of the catalog it may use. The catalog class (src-main/catalog/catalog.ts)
 * implements `CatalogAccess`; domains see only this interface.
 */
import type { Channel, Req, Res, Events, EventName } from '../../src-shared/api'
import type { AssetRow, SourceRow } from '../../src-shared/api/catalog'

/** What handlers and scene builders may read and remember through the catalog. */
export interface CatalogAccess {
  /** The catalog file. */
  readonly path: string
  sources(): SourceRow[]
  source(id: number): SourceRow | null
  sourceByPath(p: string): SourceRow | null
  asset(id: number): AssetRow | null
  /** Children of an asset (or a source's top-level assets for `parent` null), paged. */
  children(sourceId: number, parent: number | null, offset?: number, limit?: number, after?: number): AssetRow[]
  list(filter?: { kind?: string; source?: string }): AssetRow[]
  search(text: string, limit?: number): AssetRow[]
  removeSource(id: number): void
  getSetting<T>(key: string): T | undefined
  setSetting(key: string, value: unknown): void
}

/** What every service handler gets besides its request. */
export interface ServiceContext {
  catalog: CatalogAccess
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
