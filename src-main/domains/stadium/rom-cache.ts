/** The Stadium ROM last opened for a catalog source (images are 32 MiB: one at a time), shared by the scene builder and the handlers. */
import type { AssetRow, SourceRow } from '../../../src-shared/api/catalog'
import { FormatError } from '../../../src-shared/binary'
import type { StadiumRom } from '../../../src-shared/formats/stadium/model'

const romCache = new Map<string, { key: string; sr: StadiumRom }>()

export async function romOf(source: SourceRow, open: () => Promise<StadiumRom>): Promise<StadiumRom> {
  const key = `${source.path}:${source.size}:${source.mtime}:${source.hash}`
  const hit = romCache.get(source.path)
  if (hit && hit.key === key) return hit.sr
  const sr = await open()
  romCache.clear() // one ROM at a time: images are 32 MiB
  romCache.set(source.path, { key, sr })
  return sr
}

export function fileOf(asset: AssetRow): number {
  const f = asset.locator.file
  if (typeof f !== 'number') throw new FormatError(`asset ${asset.id} has no model file index`, { structure: 'catalog locator' })
  return f
}

