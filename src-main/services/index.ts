import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Channel, EventName, Events, Req, Res } from '../../src-shared/api'
import type { Catalog } from '../catalog/catalog'
import { catalogHandlers } from './catalog'
import type { Handler, Handlers, ServiceContext } from '../plugin/context'
import { domainHandlers } from '../plugin/registry'
import { IndexJobs } from './index-jobs'
import { sceneHandlers } from './scene'
import { filesHandlers } from './files'
import { OutputExists } from '../node/atomic'
import { explainCatalogError } from '../catalog/catalog-errors'

export class AccessDenied extends Error {
  constructor(p: string, purpose: string) {
    super(`access to ${p} (${purpose}) is refused: only files you indexed or chose can be opened`)
    this.name = 'AccessDenied'
  }
}

/**
 * The services behind the API contract, independent of how they are called (Electron IPC or
 * browser mode's HTTP server).
 */
export class Services {
  readonly jobs: IndexJobs
  private handlers: Handlers
  private granted = new Set<string>()
  private listeners = new Set<(event: EventName, payload: unknown) => void>()
  readonly ctx: ServiceContext

  constructor(readonly catalog: Catalog) {
    this.jobs = new IndexJobs(
      catalog.path,
      (p) => this.emit('index:progress', p),
      () => this.emit('catalog:changed', { sourceIds: [] }),
    )
    // The platform's channels, then every registered domain's (each loads its module on first use).
    this.handlers = { ...catalogHandlers(this.jobs), ...filesHandlers(() => this.granted), ...sceneHandlers, ...domainHandlers() }
    this.ctx = {
      catalog,
      emit: (e, p) => this.emit(e, p),
      allowPath: (p, purpose, opts) => this.allowPath(p, purpose, opts),
      grantPath: (p) => this.granted.add(path.resolve(p)),
    }
  }

  has(channel: string): channel is Channel {
    return Object.prototype.hasOwnProperty.call(this.handlers, channel)
  }

  async invoke<C extends Channel>(channel: C, req: Req<C>): Promise<Res<C>> {
    const h = this.handlers[channel] as Handler<C> | undefined
    if (!h) throw new Error(`unknown channel ${channel}`)
    try {
      return await h(req, this.ctx)
    } catch (e) {
      // SQLite's errors reach the UI naming the catalog and what to do, never as SQLite's text alone
      throw explainCatalogError(e, this.catalog.path)
    }
  }

  on(listener: (event: EventName, payload: unknown) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const l of this.listeners) l(event, payload)
  }

  /**
   * A path is allowed when it is (inside) an indexed source or a path the user chose; writes may
   * also create a new file or folder next to one (Save As… beside the template), never replace
   * an existing one there. Symbolic links are resolved first, so a link inside an indexed folder
   * cannot reach anything outside it. A write never replaces an existing file unless the request
   * says `overwrite: true` (the user confirmed it): the refusal carries the code `exists`.
   */
  allowPath(p: string, purpose: 'read' | 'write', opts: { overwrite?: boolean } = {}): string {
    const abs = path.resolve(p)
    const real = realish(abs)
    const roots = [...new Set([...this.granted, ...this.catalog.sources().map((s) => s.path)].map(realish))]
    const within = (q: string, root: string) => q === root || q.startsWith(root.endsWith(path.sep) ? root : root + path.sep)
    const isNew = () => !fs.existsSync(real)
    const ok = roots.some((r) => within(real, r)) || (purpose === 'write' && roots.some((r) => path.dirname(real) === path.dirname(r)) && isNew())
    if (!ok) throw new AccessDenied(p, purpose)
    if (purpose === 'write' && !opts.overwrite && fs.statSync(real, { throwIfNoEntry: false })?.isFile()) throw new OutputExists(abs)
    return abs
  }

  dispose(): void {
    this.jobs.cancelAll()
  }
}

/**
 * The real path of `p`: symbolic links resolved in the longest part that exists (a path about to
 * be written may not exist yet, but the folder it goes into does).
 */
function realish(p: string): string {
  let head = path.resolve(p)
  const rest: string[] = []
  for (let i = 0; i < 256; i++) {
    try {
      return path.join(fs.realpathSync(head), ...rest)
    } catch {
      const up = path.dirname(head)
      if (up === head) break
      rest.unshift(path.basename(head))
      head = up
    }
  }
  return path.resolve(p)
}
