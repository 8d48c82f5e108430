/**
 * "Write mod…" of a model archive (`gf:writeMod`): the archive's sets with pending replacements,
 * where the mod goes (a LayeredFS folder for a title, or a new archive file) and the request.
 */
import type { GfModelApi } from '@shared/api/gf-model'
import { GF_TITLES } from '@shared/formats/gf/titles'
import { replacementReqs, type PendingReplacement } from './pending-storage'
import { besideDump } from './set-path'

export type ModTarget = { kind: 'layeredfs'; dir: string; title: string } | { kind: 'archive'; out: string }

/** `a/0/9/4`: the archive's path below its romfs folder (LayeredFS mirrors it), else its file name. */
export function romfsPath(archive: string): string {
  const parts = archive.split(/[\\/]/).filter(Boolean)
  const at = parts.lastIndexOf('romfs', parts.length - 2)
  return at >= 0 ? parts.slice(at + 1).join('/') : parts[parts.length - 1] ?? archive
}

/** Where the mod file lands for a target (shown before writing). */
export function modFile(archive: string, t: ModTarget): string {
  if (t.kind === 'archive') return t.out
  return `${t.dir.replace(/[\\/]+$/, '')}/luma/titles/${t.title.toUpperCase()}/romfs/${romfsPath(archive)}`
}

/** The default target: a LayeredFS folder beside the dump, for Ultra Sun. */
export function defaultTarget(archive: string): ModTarget {
  return { kind: 'layeredfs', dir: besideDump(archive, 'mod'), title: GF_TITLES[0]!.id }
}

/** The request for the sets (`ARCHIVE#N` → its pending list) and the target. */
export function writeModReq(archive: string, lists: ReadonlyMap<string, readonly PendingReplacement[]>, t: ModTarget, jobId: string, overwrite = false): GfModelApi['gf:writeMod']['req'] {
  const sets = [...lists].map(([set, list]) => ({ set: Number(set.slice(set.lastIndexOf('#') + 1)), replacements: replacementReqs(list) })).filter((s) => s.replacements.length)
  return { archive, sets, target: t.kind === 'layeredfs' ? { layeredfs: t.dir, title: t.title } : { out: t.out }, jobId, resize: true, ...(overwrite ? { overwrite } : {}) }
}

/** One line saying what was written. */
export function writtenLine(r: GfModelApi['gf:writeMod']['res']): string {
  const sets = r.sets.map((s) => `set ${s.set} (${s.replaced} texture${s.replaced === 1 ? '' : 's'}${s.changed.length ? `, ${s.changed.join(', ')}` : ''})`)
  return `Wrote ${r.out}: ${sets.join('; ')}`
}
