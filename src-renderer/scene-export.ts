/**
 * Export .glb from the UI: one function every view's Export button and the tree's context menu
 * call. It asks where to write (native save dialog in Electron, the file browser in browser mode),
 * calls `scene:export` (the CLI's export code on the main side), asks before replacing an existing
 * file, and reports progress from `scene:progress`.
 */
import type { SceneExportStage, SceneExportSummary } from '@shared/api/scene'
import type { ModbenchBridge } from '@shared/api'
import { bridge as defaultBridge, errorCode } from './bridge'
import { askPath } from './files/ask-path'
import { defaultOutputPath } from '@shared/output-path'

export interface ExportTarget {
  /** Catalog asset id, or 'demo' for the built-in demo scene. */
  id: number | 'demo'
  /** Shown in the dialog and used for the default file name. */
  name: string
  /** The asset's source path: the default output goes beside it (never inside a source folder). */
  sourcePath?: string | null
}

export interface ExportHooks {
  onProgress?: (stage: SceneExportStage, fraction: number) => void
  /** Where to write (null: cancelled). Default: `askPath` (native dialog or the file browser, both ask before replacing). */
  choosePath?: (title: string, defaultPath: string) => Promise<{ path: string; confirmed: boolean } | null>
  /** Whether to replace an existing file. Default `window.confirm`. */
  confirmReplace?: (path: string) => Promise<boolean> | boolean
  bridge?: ModbenchBridge
}

/** A file name from an asset name: letters, digits, `._-` kept, runs of anything else → `_`. */
export function glbFileName(name: string): string {
  const base = name.trim().replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'scene'
  return /\.glb$/i.test(base) ? base : `${base}.glb`
}

/**
 * The proposed output: `<folder holding the source>/<name>.glb` (defaultOutputPath). For a folder
 * source (a GF set) that is the folder's parent, so an output never lands inside an input folder,
 * and it is never the source itself.
 */
export function defaultGlbPath(t: ExportTarget): string {
  const file = glbFileName(t.name)
  const src = t.sourcePath?.replace(/[\\/]+$/, '')
  if (!src) return file
  return defaultOutputPath({ beside: src, name: file, inputFolders: [src], inputFiles: [src] })
}

let jobSeq = 0

/** Asks for a path and exports; null when the user cancelled. Errors (other than cancel) are thrown. */
export async function exportSceneToFile(t: ExportTarget, h: ExportHooks = {}): Promise<SceneExportSummary | null> {
  const b = h.bridge ?? defaultBridge
  const choose =
    h.choosePath ??
    (async (title: string, def: string) => {
      // Electron's native save dialog and browser mode's file browser both ask before replacing.
      const p = await askPath({ kind: 'save-file', title, defaultPath: def, filters: [{ name: 'glTF binary', extensions: ['glb'] }] })
      return p ? { path: p, confirmed: true } : null
    })
  const confirmReplace = h.confirmReplace ?? ((p: string) => window.confirm(`${p} already exists. Replace it?`))
  const picked = await choose(`Export ${t.name} as .glb`, defaultGlbPath(t))
  if (!picked) return null
  const jobId = `export-${Date.now().toString(36)}-${++jobSeq}`
  const off = h.onProgress ? b.on('scene:progress', (p) => p.jobId === jobId && h.onProgress!(p.stage, p.fraction)) : () => {}
  try {
    const run = (overwrite: boolean) => b.invoke('scene:export', { id: t.id, out: picked.path, overwrite, jobId })
    try {
      return await run(picked.confirmed)
    } catch (e) {
      if (errorCode(e) !== 'exists' || !(await confirmReplace(picked.path))) {
        if (errorCode(e) === 'exists') return null
        throw e
      }
      return await run(true)
    }
  } finally {
    off()
  }
}
