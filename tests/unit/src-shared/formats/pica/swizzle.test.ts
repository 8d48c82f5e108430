import { describe, expect, it } from 'vitest'
import { MORTON_INDEX, MORTON_X, MORTON_Y, tiledToLinear, flipRows } from '../../../../../src-shared/formats/pica/swizzle'

// Spec §15.2: storage index of each texel of an 8×8 tile, row y = 0 at the top.
const TABLE = [
  [0, 1, 4, 5, 16, 17, 20, 21],
  [2, 3, 6, 7, 18, 19, 22, 23],
  [8, 9, 12, 13, 24, 25, 28, 29],
  [10, 11, 14, 15, 26, 27, 30, 31],
  [32, 33, 36, 37, 48, 49, 52, 53],
  [34, 35, 38, 39, 50, 51, 54, 55],
  [40, 41, 44, 45, 56, 57, 60, 61],
  [42, 43, 46, 47, 58, 59, 62, 63],
]

describe('PICA tiling', () => {
  it('matches the Z-order table of spec §15.2', () => {
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) {
      const i = TABLE[y]![x]!
      expect(MORTON_INDEX[y * 8 + x]).toBe(i)
      expect([MORTON_X[i], MORTON_Y[i]]).toEqual([x, y])
    }
  })

  it('stores tiles row by row, left to right, top tile row first', () => {
    const m = tiledToLinear(16, 16)
    // texel 64 = first texel of the second tile = pixel (8, 0); texel 128 = third tile = (0, 8)
    expect(m[64]).toBe(8)
    expect(m[128]).toBe(8 * 16)
    expect(m[64 + 3]).toBe(1 * 16 + 9)
    // every pixel is hit exactly once
    expect(new Set(m).size).toBe(256)
  })

  it('flipRows swaps top and bottom rows', () => {
    const img = new Uint8Array(2 * 2 * 4)
    img[0] = 1 // (0,0) R
    img[8] = 2 // (0,1) R
    const f = flipRows(img, 2, 2)
    expect(f[0]).toBe(2)
    expect(f[8]).toBe(1)
  })
})
