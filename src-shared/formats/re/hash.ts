/**
 * RE Engine bone/joint name hash (spec §6): MurmurHash3 x86 32-bit, seed 0xFFFFFFFF, over the
 * name's UTF-16LE bytes (no terminator, case-sensitive). `root` → 2879905340 (0xABA7DE3C),
 * the value `via.Joint:get_NameHash()` returns in game (seed dump).
 */
import murmur from 'murmurhash3js-revisited'

export const BONE_HASH_SEED = 0xffffffff

/** UTF-16LE bytes of a string (2 bytes per UTF-16 code unit, no BOM, no terminator). */
export function utf16le(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 2)
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    out[i * 2] = c & 0xff
    out[i * 2 + 1] = c >>> 8
  }
  return out
}

const cache = new Map<string, number>()

/** MurmurHash3_x86_32(utf16le(name), 0xFFFFFFFF) as an unsigned 32-bit number. */
export function boneHash(name: string): number {
  let h = cache.get(name)
  if (h === undefined) {
    h = murmur.x86.hash32(utf16le(name), BONE_HASH_SEED) >>> 0
    if (cache.size < 100_000) cache.set(name, h)
  }
  return h
}
