/**
 * Export .glb from the UI: one function every view's Export button and the tree's context menu
 * call. It asks where to write (native save dialog in Electron, a path prompt in browser mode),
 * calls `scene:export` (the CLI's export code on the main side), asks before replacing an existing
 * file, and reports progress from `scene:progress`.
 */
import type { SceneExportStage, SceneExportSummary } from '@shared/api/scene'
import type { ModbenchBridge } from '@shared/api'
import { bridge as defaultBridge, errorCode } from './bridge'

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
  /** Where to write (null: cancelled). Default: the bridge's save dialog, else `window.prompt`. */
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
 * The proposed output: `<folder holding the source>/<name>.glb`. For a folder source that is the
 * folder's parent, so an output never lands inside an input folder.
 */
export function defaultGlbPath(t: ExportTarget): string {
  const file = glbFileName(t.name)
  const src = t.sourcePath?.replace(/[\\/]+$/, '')
  if (!src) return file
  const cut = Math.max(src.lastIndexOf('/'), src.lastIndexOf('\\'))
  return cut > 0 ? `${src.slice(0, cut)}${src[cut]}${file}` : file
}

let jobSeq = 0

/** Asks for a path and exports; null when the user cancelled. Errors (other than cancel) are thrown. */
export async function exportSceneToFile(t: ExportTarget, h: ExportHooks = {}): Promise<SceneExportSummary | null> {
  const b = h.bridge ?? defaultBridge
  const choose =
    h.choosePath ??
    (async (title: string, def: string) => {
      if (b.pick) {
        const p = await b.pick({ kind: 'save-file', title, defaultPath: def, filters: [{ name: 'glTF binary', extensions: ['glb'] }] })
        // Electron's native save dialog has already asked about replacing an existing file;
        // browser mode's picker has not.
        return p ? { path: p, confirmed: b.transport === 'electron' } : null
      }
      const p = window.prompt(title, def)
      return p ? { path: p, confirmed: false } : null
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
