import { describe, expect, it } from 'vitest'
import murmur from 'murmurhash3js-revisited'
import { boneHash, utf16le } from '../../../../../src-shared/formats/re/hash'

describe('bone hash (spec §6)', () => {
  it.each([
    ['root', 2879905340, 0xaba7de3c],
    ['Hip', 1549972489, 0x5c62b409],
    ['COG', 3425867754, 0xcc3297ea],
    ['Null_Offset', 1573792880, 0x5dce2c70],
    ['Spine_0', 3992101857, 0xedf2a3e1],
    ['Head', 935285574, 0x37bf5346],
    ['L_Forearm', 581854075, 0x22ae637b],
    ['R_Toe', 829768755, 0x31754433],
  ])('%s → %d', (name, dec, hexValue) => {
    expect(dec).toBe(hexValue)
    expect(boneHash(name)).toBe(dec)
  })

  it('hashes UTF-16LE, not UTF-8 (UTF-8 "root" would be 0x32339186)', () => {
    expect(murmur.x86.hash32(new TextEncoder().encode('root'), 0xffffffff) >>> 0).toBe(0x32339186)
    expect(boneHash('root')).not.toBe(0x32339186)
  })

  it('is case-sensitive and encodes 2 bytes per code unit', () => {
    expect(boneHash('Root')).not.toBe(boneHash('root'))
    expect([...utf16le('Hi')]).toEqual([0x48, 0, 0x69, 0])
    expect([...utf16le('é')]).toEqual([0xe9, 0])
  })
})
