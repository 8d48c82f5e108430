import { describe, expect, it } from 'vitest'
import { menuPlace } from '../../../../../src-renderer/components/ui/menu-place'

/** A pop-up menu stays whole inside the window (issue 25: menus near the bottom were clipped). */
describe('menuPlace', () => {
  const view = { w: 1000, h: 600 }
  const size = { w: 200, h: 180 }
  it('below-right of the pointer when it fits', () => {
    expect(menuPlace({ x: 100, y: 100 }, size, view)).toEqual({ left: '100px', top: '100px' })
    // exactly touching the edges still fits: 800 + 200 = 1000, 420 + 180 = 600
    expect(menuPlace({ x: 800, y: 420 }, size, view)).toEqual({ left: '800px', top: '420px' })
  })
  it('flipped above / to the left of the pointer near the bottom and right edges', () => {
    // 590 + 180 > 600: above, 590 - 180 = 410; 950 + 200 > 1000: left, 950 - 200 = 750
    expect(menuPlace({ x: 950, y: 590 }, size, view)).toEqual({ left: '750px', top: '410px' })
  })
  it('pushed against the edge when it fits neither way; never off the top', () => {
    // 150 + 500 > 600 and 150 - 500 < 0: 600 - 500 = 100
    expect(menuPlace({ x: 10, y: 150 }, { w: 200, h: 500 }, view)).toEqual({ left: '10px', top: '100px' })
    expect(menuPlace({ x: 10, y: 150 }, { w: 200, h: 900 }, view)).toEqual({ left: '10px', top: '0px' })
  })
})
