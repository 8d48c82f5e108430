/** Catalog domain of the API contract: browsing, searching and indexing. */

import type { AssetKind, SourceKind } from '../domains'

export type { AssetKind, SourceKind }
export type SourceStatus = 'indexed' | 'unchanged' | 'error'

export interface SourceRow {
  id: number
  path: string
  size: number
  mtime: number
  hash: string
  kind: SourceKind
  status: SourceStatus
  error: string | null
  indexedAt: number
}

export interface AssetRow {
  id: number
  sourceId: number
  /** Parent asset id, or null for a top-level asset of its source. */
  parent: number | null
  /** A kind a manifest declares: a misspelt kind in a comparison or a detector is a compile error. */
  kind: AssetKind
  name: string
  /** How to reopen it (offsets, addresses, entry indices): JSON object. */
  locator: Record<string, unknown>
  metadata: Record<string, unknown>
  /** Number of direct children (for lazy tree expansion). */
  childCount: number
  /** Path of the source file (for display). */
  sourcePath?: string
}

/** An asset with the children rows of each level above it, top-down (`parent` null: the source's top level). */
export interface AssetReveal {
  asset: AssetRow
  levels: { parent: number | null; children: AssetRow[] }[]
}

export interface IndexProgress {
  jobId: string
  phase: 'scan' | 'index' | 'done' | 'cancelled' | 'error'
  done: number
  total: number
  current?: string
  message?: string
}

export interface IndexResultSource {
  path: string
  kind: SourceKind
  status: SourceStatus
  assets: number
  error?: string
  /**
   * Parts left out of an indexed source, each with its error (a damaged member file of a GF set):
   * the rest of the source is indexed and usable; the command line reports these as errors (exit 1).
   */
  damaged?: string[]
}

export interface IndexResult {
  sources: IndexResultSource[]
  assets: number
  cancelled?: boolean
}

export interface CatalogApi {
  'catalog:sources': { req: Record<string, never>; res: SourceRow[] }
  /**
   * Children of an asset, or the top-level assets of a source when `parent` is null, in order.
   * Paged by key: `after` is the id of the last child already shown (the next page starts after
   * it); `offset` (a position) is still accepted and seeks the same index.
   */
  'catalog:children': { req: { sourceId: number; parent: number | null; offset?: number; limit?: number; after?: number }; res: AssetRow[] }
  'catalog:asset': { req: { id: number }; res: AssetRow | null }
  /**
   * What the tree needs to reveal an asset, in one call (issue 26): the asset, and for its source's
   * top level and each ancestor, top-down, the first `limit` children (as `catalog:children` with
   * offset 0 would give them). Null when there is no such asset.
   */
  'catalog:reveal': { req: { id: number; limit?: number }; res: AssetReveal | null }
  'catalog:search': { req: { query: string; limit?: number }; res: AssetRow[] }
  /** Forgets a source and its assets (an indexed or a failed one); its files are not touched. */
  'catalog:removeSource': { req: { id: number }; res: { removed: boolean } }
  /** Starts indexing; progress arrives as `index:progress` events; resolves when done. */
  'index:start': { req: { paths: string[]; jobId?: string }; res: IndexResult }
  'index:cancel': { req: { jobId: string }; res: { cancelled: boolean } }
  'index:samples': { req: Record<string, never>; res: IndexResult }
  /**
   * Records a path the user chose by hand (browser mode has no native dialog: the path typed at
   * the prompt is granted like a dialog's choice). Returns the absolute path.
   */
  'fs:grant': { req: { path: string }; res: { path: string } }
}

export interface CatalogEvents {
  'index:progress': IndexProgress
  'catalog:changed': { sourceIds: number[] }
}
