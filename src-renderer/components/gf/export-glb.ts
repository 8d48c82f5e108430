/**
 * Export .glb of a GF set from its model view (`gf:exportGlb`, the CLI's `gf export` code): asks
 * where to write (native dialog or the file browser; both confirm replacing a file), writes the
 * LOD shown, with the set's pending texture replacements when the user keeps them included
 * (default yes), and returns what it wrote with a line that says which textures it holds.
 */
import type { GfModelApi } from '@shared/api/gf-model'
import { bridge } from '../../bridge'
import { askPath } from '../../files/ask-path'
import { defaultGlbPath, glbFileName } from '../../scene-export'
import { replacementReqs, type PendingReplacement } from './pending-storage'
import { archiveSet, besideDump } from './set-path'

export { replacementReqs }

export interface GfGlbExport {
  set: string
  /** Name for the dialog and the default file name. */
  name: string
  lod: 'high' | 'low'
  /** The replacements to write (empty: the stored textures). */
  replacements: readonly PendingReplacement[]
}

type Invoke = <K extends 'gf:exportGlb'>(channel: K, req: GfModelApi[K]['req']) => Promise<GfModelApi[K]['res']>

/** What the export wrote, said in one line (which textures the glb holds). */
export function exportLine(r: { out: string; bytes: number; replaced: number }): string {
  const which = r.replaced ? `with ${r.replaced} pending replacement${r.replaced === 1 ? '' : 's'}` : 'with the stored textures'
  return `Wrote ${r.out} (${r.bytes.toLocaleString()} bytes) ${which}`
}

/** Asks for a path and exports; null when cancelled. */
export async function exportGfGlb(x: GfGlbExport, choose: (title: string, def: string) => Promise<string | null> = (title, def) => askPath({ kind: 'save-file', title, defaultPath: def, filters: [{ name: 'glTF binary', extensions: ['glb'] }] }), invoke: Invoke = (c, r) => bridge.invoke(c, r)): Promise<GfModelApi['gf:exportGlb']['res'] | null> {
  const a = archiveSet(x.set)
  // a set inside the archive: beside the dump, never inside its romfs folder
  const def = a ? besideDump(a.archive, glbFileName(x.name)) : defaultGlbPath({ id: 0, name: x.name, sourcePath: x.set })
  const out = await choose(`Export ${x.name} as .glb`, def)
  if (!out) return null
  return invoke('gf:exportGlb', { set: x.set, out, lod: x.lod, replacements: replacementReqs(x.replacements), overwrite: true })
}
