import type { AssetKind, AssetRow, SourceRow } from '@shared/api'
import { sourceKindInfo } from '@shared/domains'

/** Children fetched per request; the tree is virtualized, so large pages are cheap to show. */
export const PAGE = 20_000

/** One visible row of the asset tree (folders, sources and assets flattened for virtual scrolling). */
export interface TreeRow {
  key: string
  depth: number
  type: 'folder' | 'source' | 'asset' | 'more'
  name: string
  kind: string
  /** The source the row belongs to (0 for a folder group). */
  sourceId: number
  asset?: AssetRow
  source?: SourceRow
  /** For folder rows: the folder's full path (shown beside its name). */
  folder?: string
  hasChildren: boolean
  expanded: boolean
  loading: boolean
  /** For 'more' rows: the parent to page, the offset to load from and the id of the last row shown (the page key). */
  more?: { parent: number | null; offset: number; after?: number }
  error?: string | null
}

/** The folder a source lives in and its own name, split on either separator. */
export function splitSourcePath(p: string): { folder: string; name: string } {
  const trimmed = p.replace(/[\\/]+$/, '')
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'))
  if (cut < 0) return { folder: '', name: trimmed || p }
  return { folder: trimmed.slice(0, cut) || trimmed.slice(0, 1), name: trimmed.slice(cut + 1) }
}

const byName = (a: string, b: string): number => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0)

export function folderKey(folder: string): string {
  return `f${folder}`
}

export function sourceRow(s: SourceRow, depth = 1): TreeRow {
  return { key: `s${s.id}`, depth, type: 'source', name: sourceKindInfo(s.kind)?.sourceName?.(s.path) ?? splitSourcePath(s.path).name, kind: s.kind, sourceId: s.id, source: s, hasChildren: s.status === 'indexed', expanded: false, loading: false, error: s.error }
}

export function assetRow(a: AssetRow, depth: number): TreeRow {
  return { key: `a${a.id}`, depth, type: 'asset', name: a.name, kind: a.kind, sourceId: a.sourceId, asset: a, hasChildren: a.childCount > 0, expanded: false, loading: false }
}

/** The sources of one folder, sorted by name (numbers in names compare as numbers). */
export interface FolderGroup {
  folder: string
  sources: SourceRow[]
}

/**
 * Sources grouped by the folder they are in: folders sorted by path, the sources of each by their
 * own name — never by position in the list the catalog returned, so a refresh that brings new
 * sources sorting before the old ones changes nothing about the old ones' rows.
 */
export function groupByFolder(list: readonly SourceRow[]): FolderGroup[] {
  const groups = new Map<string, SourceRow[]>()
  const seen = new Set<number>()
  for (const s of list) {
    if (seen.has(s.id)) continue
    seen.add(s.id)
    const { folder } = splitSourcePath(s.path)
    const g = groups.get(folder)
    if (g) g.push(s)
    else groups.set(folder, [s])
  }
  return [...groups.entries()]
    .sort(([a], [b]) => byName(a, b))
    .map(([folder, sources]) => ({ folder, sources: sources.sort((a, b) => byName(splitSourcePath(a.path).name, splitSourcePath(b.path).name)) }))
}

/** The folder group's own row: its name is the folder's last part, its full path rides along. */
export function folderRow(g: FolderGroup, expanded: boolean): TreeRow {
  const { name } = splitSourcePath(g.folder)
  return { key: folderKey(g.folder), depth: 0, type: 'folder', name: name || g.folder || '(no folder)', kind: 'folder', sourceId: 0, folder: g.folder, hasChildren: g.sources.length > 0, expanded, loading: false }
}

/** The top of the tree: each folder, then (unless the user folded it) its sources, collapsed. */
export function topRows(list: readonly SourceRow[], foldedFolders: ReadonlySet<string>): TreeRow[] {
  const out: TreeRow[] = []
  for (const g of groupByFolder(list)) {
    const open = !foldedFolders.has(folderKey(g.folder))
    out.push(folderRow(g, open))
    if (open) for (const s of g.sources) out.push(sourceRow(s))
  }
  return out
}

/** Index just past the last descendant of the row at `i`. */
export function subtreeEnd(rows: readonly TreeRow[], i: number): number {
  const d = rows[i]!.depth
  let end = i + 1
  while (end < rows.length && rows[end]!.depth > d) end++
  return end
}

/** Whether a source path is the asked path or inside it (either separator). */
export function isWithin(p: string, asked: string): boolean {
  const a = asked.replace(/[\\/]+$/, '')
  return p === a || p.startsWith(`${a}/`) || p.startsWith(`${a}\\`)
}

/** Sources whose file or folder name holds every word of the query (case-insensitive), at most 50. */
export function sourcesNamed(list: readonly SourceRow[], query: string): SourceRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return []
  return list.filter((s) => {
    const n = splitSourcePath(s.path).name.toLowerCase()
    return words.every((w) => n.includes(w))
  }).slice(0, 50)
}

/** Names from the source down to `sel`, read off the visible rows (its own name alone if not in them). */
export function namesDownTo(list: readonly TreeRow[], sel: TreeRow | null): string[] {
  let i = sel ? list.findIndex((r) => r.key === sel.key) : -1
  if (i < 0) return sel ? [sel.name] : []
  if (list[i]!.type === 'folder') return [list[i]!.folder ?? list[i]!.name]
  const out = [list[i]!.name]
  for (let d = list[i]!.depth, j = i - 1; j >= 0 && d > 0; j--) {
    if (list[j]!.depth < d) {
      // the folder group is where the source lives, not a step of the asset's path
      if (list[j]!.type !== 'folder') out.unshift(list[j]!.name)
      d = list[j]!.depth
      i = j
    }
  }
  return out
}

type ChildrenOf = (req: { sourceId: number; parent: number | null; offset: number; limit: number }) => Promise<AssetRow[]>

/** The first asset of `kind` in a source: breadth first, four levels, the first page of each. */
export async function firstOfKind(sourceId: number, kind: AssetKind, children: ChildrenOf): Promise<AssetRow | null> {
  let level: (number | null)[] = [null]
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: number[] = []
    for (const parent of level.slice(0, 50)) {
      const kids = await children({ sourceId, parent, offset: 0, limit: 200 })
      const hit = kids.find((k) => k.kind === kind)
      if (hit) return hit
      next.push(...kids.filter((k) => k.childCount > 0).map((k) => k.id))
    }
    level = next
  }
  return null
}
