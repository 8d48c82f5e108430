/**
 * GF name hash (spec §4.3, SPICA `GFNV1.cs`): FNV-1 with the prime as the start value;
 * for each byte c: h = h·16777619 mod 2^32, then h ^= c. Stored next to names in GF models.
 */
export function gfHash(name: string): number {
  let h = 0x01000193
  for (let i = 0; i < name.length; i++) {
    h = Math.imul(h, 0x01000193) >>> 0
    h = (h ^ (name.charCodeAt(i) & 0xff)) >>> 0
  }
  return h
}
