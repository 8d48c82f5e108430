import type { AssetDraft } from '../detector'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'

/**
 * Cheap enumeration of a stadium ROM's assets for the catalog (called by the N64 detector once the
 * ROM is identified). The stadium format issue deepens this.
 */
export function enumerateStadiumRom(_rom: N64Rom): AssetDraft[] {
  return []
}
