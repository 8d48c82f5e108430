import { describe, expect, it } from 'vitest'
import { gfHash } from '../../../../../src-shared/formats/gf/hash'

describe('GF hash (spec §15.8)', () => {
  it('matches the vectors', () => {
    expect(gfHash('')).toBe(0x01000193)
    expect(gfHash('a')).toBe(0x26027a08)
    expect(gfHash('Poke')).toBe(0x4ca3c810)
  })
})
