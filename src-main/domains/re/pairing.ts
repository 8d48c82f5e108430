/**
 * The meshes of the character a motlist animates, among the catalog's `re-mesh` sources (the
 * folder-naming rule of src-shared/formats/re/character.ts): what the editor loads by itself
 * beside a motlist and what `--skeleton` can be given.
 */
import type { AssetRow } from '../../../src-shared/api/catalog'
import { motlistPairsWithMesh } from '../../../src-shared/formats/re'
import type { CatalogAccess as Catalog } from '../../plugin/context'

/** The catalog's meshes paired with `motlistPath`: same folder first, then by path. */
export function pairedMeshes(catalog: Catalog, motlistPath: string): AssetRow[] {
  const dir = (p: string) => p.replace(/[\\/][^\\/]*$/, '')
  return catalog
    .list({ kind: 're-mesh' })
    .filter((a) => a.parent === null && a.sourcePath !== undefined && motlistPairsWithMesh(motlistPath, a.sourcePath))
    .sort((a, b) => Number(dir(b.sourcePath!) === dir(motlistPath)) - Number(dir(a.sourcePath!) === dir(motlistPath)) || a.sourcePath!.localeCompare(b.sourcePath!))
}
