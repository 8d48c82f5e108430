import type { AssetReveal, AssetRow } from '@shared/api'
import { bridge } from '../bridge'
import { assetRow, type TreeRow } from './catalog-tree'

/**
 * The tree's pages of children: asked with `catalog:children`, or taken from a `catalog:reveal`
 * answer that brought them already (issue 26: revealing an asset is one call, not one per level).
 */
export function childrenPages(page: number) {
  /** First pages a reveal brought, by the key of their row (`s<source>` or `a<asset>`); each used once. */
  const prefetched = new Map<string, AssetRow[]>()

  /** A page of a row's children: the first, or the one after the child with id `after` (paged by key, not position). */
  async function fetch(row: TreeRow, offset: number, after?: number): Promise<TreeRow[]> {
    const parent = row.type === 'source' ? null : row.asset!.id
    const given = offset === 0 && after === undefined ? prefetched.get(row.key) : undefined
    prefetched.delete(row.key)
    const kids = given ?? (await bridge.invoke('catalog:children', { sourceId: row.sourceId, parent, offset, limit: page, ...(after !== undefined ? { after } : {}) }))
    const depth = row.depth + 1
    const out = kids.map((k) => assetRow(k, depth))
    const total = row.type === 'source' ? Infinity : row.asset!.childCount
    if (kids.length === page && offset + page < total) {
      out.push({ key: `${row.key}+${offset + page}`, depth, type: 'more', name: 'Load more…', kind: '', sourceId: row.sourceId, hasChildren: false, expanded: false, loading: false, more: { parent, offset: offset + page, after: kids[kids.length - 1]!.id } })
    }
    return out
  }

  /** Keeps the levels of a reveal for the rows about to be expanded; returns their keys, top-down. */
  function prefill(reveal: AssetReveal): string[] {
    prefetched.clear()
    const keys = reveal.levels.map((l) => (l.parent === null ? `s${reveal.asset.sourceId}` : `a${l.parent}`))
    reveal.levels.forEach((l, i) => prefetched.set(keys[i]!, l.children))
    return keys
  }

  return { fetch, prefill, forget: () => prefetched.clear() }
}
