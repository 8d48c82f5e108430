/**
 * The tree's "Export…" entry: exports the node's scene whether or not a view shows it, through
 * `exportSceneToFile` (the `scene:export` service every view's Export button and the CLI use).
 * Progress and the result go to the status line; in Electron the written file is revealed in its
 * folder. A kind offers Export… when its shared manifest lists `actions: ['export']`; a kind with a
 * scene (`scene: true`) is exported here, any other (a view-made scene such as an RE pose) is
 * handed to the view showing it (the caller posts the action; see useNodeAction).
 */
import type { SceneExportSummary } from '@shared/api/scene'
import { assetKindInfo } from '@shared/domains'
import { bridge as defaultBridge } from './bridge'
import { exportSceneToFile, type ExportHooks } from './scene-export'
import type { TreeRow } from './stores/catalog-tree'

/** The row's scene can be exported by the service: a catalog asset whose kind has a scene builder. */
export function exportsDirectly(row: TreeRow): boolean {
  return row.type === 'asset' && !!row.asset && !!assetKindInfo(row.kind)?.scene
}

export interface ExportRowHooks extends Omit<ExportHooks, 'onProgress'> {
  /** The status line (progress, then the result). */
  notice: (text: string) => void
}

/** Exports the row's scene (asks where, confirms a replace); null when cancelled. */
export async function exportRow(row: TreeRow, sourcePath: string | null, h: ExportRowHooks): Promise<SceneExportSummary | null> {
  const a = row.asset
  if (!a || !exportsDirectly(row)) throw new Error(`${row.name} has no scene to export`)
  const b = h.bridge ?? defaultBridge
  const r = await exportSceneToFile(
    { id: a.id, name: a.name, sourcePath },
    { ...h, bridge: b, onProgress: (stage, f) => h.notice(`Exporting ${a.name}… ${stage} ${Math.round(f * 100)}%`) },
  )
  if (!r) {
    h.notice(`Export of ${a.name} cancelled`)
    return null
  }
  h.notice(`Exported ${a.name} to ${r.out} (${r.bytes.toLocaleString()} bytes)`)
  // Not indexed: no detector claims .glb (docs/DECISIONS.md); shown in its folder instead.
  if (b.reveal) await b.reveal(r.out).catch(() => undefined)
  return r
}
