import type { AssetDraft } from '../detector'
import type { N64Rom } from '../../../src-shared/formats/n64/rom'

/**
 * Cheap enumeration of a snap ROM's assets for the catalog (called by the N64 detector once the
 * ROM is identified). The snap format issue deepens this.
 */
export function enumerateSnapRom(_rom: N64Rom): AssetDraft[] {
  return []
}
