/**
 * Two steps of the catalog store's tree (stores/catalog.ts) that only read and replace rows:
 * a "Load more…" row replaced by the next page, and the rows the user had open expanded again
 * in a list being rebuilt off-screen.
 */
import type { ShallowRef } from 'vue'
import type { TreeRow } from './catalog-tree'

type FetchChildren = (row: TreeRow, offset: number, after?: number) => Promise<TreeRow[]>

/** Replaces the "Load more…" `row` with the next page of its parent's children (found by key: rows may have moved). */
export async function loadMoreRows(rows: ShallowRef<TreeRow[]>, fetchChildren: FetchChildren, row: TreeRow): Promise<void> {
  const more = row.more!
  const parentKey = more.parent === null ? `s${row.sourceId}` : `a${more.parent}`
  const parentRow = rows.value.find((r) => r.key === parentKey)
  if (!parentRow) return
  const kids = await fetchChildren(parentRow, more.offset, more.after)
  const j = rows.value.findIndex((r) => r.key === row.key)
  if (j < 0) return
  const copy = rows.value.slice()
  copy.splice(j, 1, ...kids)
  rows.value = copy
}

/**
 * Expands, in a list being built (not the shown one), every row whose key is in `openKeys`,
 * top-down. Returns false when a newer refresh started meanwhile (the list is then thrown away).
 */
export async function expandOpenRows(list: TreeRow[], openKeys: ReadonlySet<string>, fetchChildren: FetchChildren, current: () => boolean): Promise<boolean> {
  for (let i = 0; i < list.length; i++) {
    const r = list[i]!
    if (r.type === 'folder' || r.expanded || !r.hasChildren || !openKeys.has(r.key)) continue
    let kids: TreeRow[]
    try {
      kids = await fetchChildren(r, 0)
    } catch {
      kids = []
    }
    if (!current()) return false
    list.splice(i, 1, { ...r, expanded: true }, ...kids)
  }
  return true
}
