/**
 * The set a GF view works on, as the services name it: a set folder (the `gf-set` source), or set
 * N of a model archive as `ARCHIVE#N` (a `gf-garc-set` asset of a `gf-models` source).
 */
import type { AssetRow, SourceRow } from '@shared/api'

export function gfSetPath(asset: AssetRow | null, source: SourceRow | null, sources: readonly Pick<SourceRow, 'id' | 'path'>[]): string | null {
  const src = source?.path ?? asset?.sourcePath ?? sources.find((s) => s.id === asset?.sourceId)?.path ?? null
  if (asset?.kind === 'gf-garc-set' && src !== null) {
    const n = asset.locator.set
    return typeof n === 'number' ? `${src}#${n}` : null
  }
  return src
}

/** `ARCHIVE#N` → the archive and N; a folder set → null. */
export function archiveSet(set: string): { archive: string; set: number } | null {
  const m = /^(.+)#(\d+)$/.exec(set)
  return m ? { archive: m[1]!, set: Number(m[2]) } : null
}

/**
 * A default output beside the dump (`<folder holding romfs>-<what>`), never inside it: for an
 * archive found in no `romfs` folder, beside the archive file.
 */
export function besideDump(archive: string, what: string): string {
  const sep = archive.includes('\\') && !archive.includes('/') ? '\\' : '/'
  const parts = archive.split(/[\\/]/)
  const at = parts.lastIndexOf('romfs', parts.length - 2)
  const dump = at > 0 ? parts.slice(0, at).join(sep) : archive
  return `${dump.replace(/[\\/]+$/, '')}-${what}`
}
