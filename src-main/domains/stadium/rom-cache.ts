/**
 * The Stadium ROM of a catalog source for the app (scene builds and `stadium:*` requests, which
 * share it): read sparsely once while the file is unchanged (the process cache,
 * `node/game-file-cache.ts`; the image's 32 MiB are counted, though pages never read cost nothing).
 */
import type { AssetRow, SourceRow } from '../../../src-shared/api/catalog'
import { FormatError } from '../../../src-shared/binary'
import type { StadiumRom } from '../../../src-shared/formats/stadium/model'
import { gameFileCache } from '../../node/game-file-cache'
import { readStadiumRom } from './rom-file'

export function romOf(source: Pick<SourceRow, 'path'>): Promise<StadiumRom> {
  return gameFileCache.get(source.path, 'stadium-rom', async () => {
    const sr = await readStadiumRom(source.path)
    return { value: sr, bytes: sr.rom.image.byteLength }
  })
}

export function fileOf(asset: AssetRow): number {
  const f = asset.locator.file
  if (typeof f !== 'number') throw new FormatError(`asset ${asset.id} has no model file index`, { structure: 'catalog locator' })
  return f
}

