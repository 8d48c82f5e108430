import { describe, expect, it } from 'vitest'
import { fitZoom } from '../../../../../src-renderer/components/gf/fit-zoom'

/** Zoom that fits the pane, computed by hand for each case. */
describe('fitZoom', () => {
  it('whole factors when the pictures fit at 1×', () => {
    // one 64×64 picture in 700×500: min(700/64, 500/64) = 7.8 → 7
    expect(fitZoom(700, 500, 64, 64)).toBe(7)
    // two side by side, gap 12: (700 − 12)/128 = 5.375, 500/64 = 7.8 → 5
    expect(fitZoom(700, 500, 64, 64, 2)).toBe(5)
    // capped at 16
    expect(fitZoom(4000, 4000, 8, 8)).toBe(16)
  })
  it('halves, quarters, eighths when they do not', () => {
    // two 512×512 in 700×600: (700 − 12)/1024 = 0.67 → 1/2
    expect(fitZoom(700, 600, 512, 512, 2)).toBe(0.5)
    // 1024×1024 in 300×300: 0.29 → 1/4
    expect(fitZoom(300, 300, 1024, 1024)).toBe(0.25)
    expect(fitZoom(50, 50, 1024, 1024)).toBe(0.125)
  })
  it('an unmeasured pane gives 1×', () => {
    expect(fitZoom(0, 0, 64, 64)).toBe(1)
  })
})
