import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Channel, EventName, Events, Req, Res } from '../../src-shared/api'
import type { Catalog } from '../catalog/catalog'
import { catalogHandlers } from './catalog'
import type { Handler, Handlers, ServiceContext } from './context'
import { gfHandlers } from './gf'
import { IndexJobs } from './index-jobs'
import { reHandlers } from './re'
import { sceneHandlers } from './scene'
import { snapHandlers } from './snap'
import { stadiumHandlers } from './stadium'

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
    this.handlers = { ...catalogHandlers(this.jobs), ...sceneHandlers, ...gfHandlers, ...reHandlers, ...snapHandlers, ...stadiumHandlers }
    this.ctx = {
      catalog,
      emit: (e, p) => this.emit(e, p),
      allowPath: (p, purpose) => this.allowPath(p, purpose),
      grantPath: (p) => this.granted.add(path.resolve(p)),
    }
  }

  has(channel: string): channel is Channel {
    return Object.prototype.hasOwnProperty.call(this.handlers, channel)
  }

  async invoke<C extends Channel>(channel: C, req: Req<C>): Promise<Res<C>> {
    const h = this.handlers[channel] as Handler<C> | undefined
    if (!h) throw new Error(`unknown channel ${channel}`)
    return await h(req, this.ctx)
  }

  on(listener: (event: EventName, payload: unknown) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const l of this.listeners) l(event, payload)
  }

  /** A path is allowed when it is (inside) an indexed source or a path the user chose. */
  allowPath(p: string, purpose: 'read' | 'write'): string {
    const abs = path.resolve(p)
    let real = abs
    try {
      real = fs.realpathSync(abs)
    } catch {
      /* a path to be written may not exist yet */
    }
    const roots = [...this.granted, ...this.catalog.sources().map((s) => s.path)]
    const within = (p: string, root: string) => p === root || p.startsWith(root + path.sep)
    const inside = (root: string) => within(real, root) || within(abs, root)
    // Writes may also go into the folder of a chosen path (Save As… next to the chosen file).
    const dir = path.dirname(abs)
    const ok = roots.some(inside) || (purpose === 'write' && roots.some((r) => within(dir, r) || within(dir, path.dirname(r))))
    if (!ok) throw new AccessDenied(p, purpose)
    return abs
  }

  dispose(): void {
    this.jobs.cancelAll()
  }
}
