/**
 * The parts of a Pokémon Stadium image that `openStadiumRom` and `loadModel` read, so a caller
 * can fill only those into an otherwise untouched buffer (a sparse read: the Node side allocates
 * the image's full length, which costs no memory until written, and reads these ranges from the
 * file). Ranges, in the order they depend on each other (pokemon-stadium.md):
 * - the N64 header, [0, 0x1000) (§2);
 * - the battle pointer table D_80075BD0, 153 u32 at 0x767D0, and the 0xB90-byte table each entry
 *   points at in the blob at 0x70D3A0, including the US-layout fallback for a zero pointer (§15.1);
 * - the model archive's header at 0x920000, its records, and each record's file (§3.1).
 * Bounds are the readers' own: a range they would refuse is clamped or skipped here, and the
 * readers then report it as they do on a whole image.
 */
import { MODEL_ARCHIVE_ROM } from './archive'
import { BATTLE_BLOB_ROM, BATTLE_POINTER_COUNT, BATTLE_POINTER_TABLE_ROM, BATTLE_TABLE_STRIDE } from './battle-table'

const HEADER_BYTES = 0x1000
const MAX_RECORDS = 4096

/** Calls `fill(offset, length)` for every range the Stadium readers use; `image` holds each range once filled. */
export function prefetchStadium(image: Uint8Array, fill: (offset: number, length: number) => void): void {
  const len = image.length
  const take = (offset: number, length: number): boolean => {
    if (offset >= len || length <= 0) return false
    fill(offset, Math.min(length, len - offset))
    return offset + length <= len
  }
  const u32 = (at: number) => new DataView(image.buffer, image.byteOffset + at, 4).getUint32(0)
  take(0, HEADER_BYTES)
  if (take(BATTLE_POINTER_TABLE_ROM, BATTLE_POINTER_COUNT * 4)) {
    for (let e = 0; e < BATTLE_POINTER_COUNT; e++) {
      const off = u32(BATTLE_POINTER_TABLE_ROM + e * 4) & 0xffffff
      take(BATTLE_BLOB_ROM + (off === 0 && e > 0 ? e * BATTLE_TABLE_STRIDE : off), BATTLE_TABLE_STRIDE)
    }
  }
  if (!take(MODEL_ARCHIVE_ROM, 0x10)) return
  const count = u32(MODEL_ARCHIVE_ROM + 0x0c)
  if (count === 0 || count >= MAX_RECORDS || !take(MODEL_ARCHIVE_ROM + 0x10, count * 16)) return
  for (let i = 0; i < count; i++) {
    const rec = MODEL_ARCHIVE_ROM + 0x10 + i * 16
    take(MODEL_ARCHIVE_ROM + u32(rec), u32(rec + 4))
  }
}
