import { assetKindInfo, sourceKindInfo } from '@shared/domains'
import type { KindAction } from '@shared/domain'
import type { TreeRow } from './stores/catalog-tree'

/** Every entry a node's context menu can have: the kind-specific ones come from the manifests. */
export type TreeActionId = 'open' | KindAction | 'reindex' | 'remove' | 'reveal' | 'copy-path'

export interface TreeAction {
  id: TreeActionId
  label: string
  /** A line between groups of entries. */
  separatorBefore?: boolean
}

const KIND_LABELS: Record<KindAction, string> = { export: 'Export…', replace: 'Replace…', extract: 'Extract PNGs' }

/** The file or folder a row stands for on disk: a folder group's path, a source's, an asset's source. */
export function rowPath(row: TreeRow, sources: readonly { id: number; path: string }[]): string | null {
  if (row.type === 'folder') return row.folder ?? null
  return row.source?.path ?? row.asset?.sourcePath ?? sources.find((s) => s.id === row.sourceId)?.path ?? null
}

/**
 * The context menu of a tree row, matching its kind: Open for all; Export…/Replace…/Extract PNGs
 * as the kind's manifest lists them (`actions`); Re-index, Reveal in folder and Copy path wherever
 * there is a path; Remove from catalog on sources (a failed source too). "Load more…" rows have none.
 */
export function treeActions(row: TreeRow): TreeAction[] {
  if (row.type === 'more') return []
  const out: TreeAction[] = [{ id: 'open', label: row.type === 'folder' ? (row.expanded ? 'Collapse' : 'Expand') : 'Open' }]
  const info = row.type === 'source' ? sourceKindInfo(row.kind) : row.type === 'asset' ? assetKindInfo(row.kind) : undefined
  ;(info?.actions ?? []).forEach((a, i) => out.push({ id: a, label: KIND_LABELS[a], separatorBefore: i === 0 }))
  out.push({ id: 'reindex', label: row.type === 'folder' ? 'Index this folder again' : 'Re-index', separatorBefore: true })
  if (row.type === 'source') out.push({ id: 'remove', label: 'Remove from catalog' })
  out.push({ id: 'reveal', label: 'Reveal in folder', separatorBefore: true }, { id: 'copy-path', label: 'Copy path' })
  return out
}
