import * as path from 'node:path'
import type { CatalogAccess, Handlers } from '../plugin/context'
import { warmAsset } from '../plugin/registry'
import { samplesDir } from '../catalog/paths'
import type { IndexJobs } from './index-jobs'
import type { AssetReveal } from '../../src-shared/api/catalog'

/** An asset, its ancestors top-down (at most 64 levels) and the first `limit` children of each level above it. */
function revealRows(catalog: CatalogAccess, id: number, limit: number): AssetReveal | null {
  const asset = catalog.asset(id)
  if (!asset) return null
  const parents: (number | null)[] = []
  for (let p = asset.parent, guard = 0; p !== null && guard < 64; guard++) {
    parents.unshift(p)
    p = catalog.asset(p)?.parent ?? null
  }
  parents.unshift(null)
  return { asset, levels: parents.map((parent) => ({ parent, children: catalog.children(asset.sourceId, parent, 0, limit) })) }
}

/** Handlers of the `catalog:*` and `index:*` channels. */
export function catalogHandlers(jobs: IndexJobs): Handlers {
  return {
    'catalog:sources': (_req, ctx) => ctx.catalog.sources(),
    'catalog:children': (req, ctx) => ctx.catalog.children(req.sourceId, req.parent, req.offset ?? 0, Math.min(req.limit ?? 1000, 100_000), req.after),
    'catalog:asset': (req, ctx) => ctx.catalog.asset(req.id),
    'catalog:reveal': (req, ctx) => {
      const rows = revealRows(ctx.catalog, req.id, Math.min(req.limit ?? 1000, 100_000))
      // a revealed asset is about to be opened (a permalink): its game file is read meanwhile
      const source = rows && ctx.catalog.source(rows.asset.sourceId)
      if (rows && source) warmAsset(rows.asset, source)
      return rows
    },
    'catalog:search': (req, ctx) => ctx.catalog.search(req.query, Math.min(req.limit ?? 200, 5000)),
    'catalog:removeSource': (req, ctx) => {
      const removed = ctx.catalog.source(req.id) !== null
      if (removed) {
        ctx.catalog.removeSource(req.id)
        ctx.emit('catalog:changed', { sourceIds: [req.id] })
      }
      return { removed }
    },
    'index:start': (req, ctx) => {
      const paths = req.paths.map((p) => path.resolve(p))
      for (const p of paths) ctx.grantPath(p)
      return jobs.start(paths, req.jobId)
    },
    'index:cancel': (req) => ({ cancelled: jobs.cancel(req.jobId) }),
    'index:samples': () => jobs.start([samplesDir()]),
    'fs:grant': (req, ctx) => {
      const abs = path.resolve(req.path)
      ctx.grantPath(abs)
      return { path: abs }
    },
  }
}
