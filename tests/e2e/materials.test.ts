import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, openApp, screenshot, startServe, type Served } from './harness'
import { changed, settled, type Pixels } from './pixels'
import { materialCardCells, materialCardScene } from '../../src-shared/scene/material-card'
import { evaluateN64Pixel } from '../../src-shared/materials/n64-reference'

/**
 * Game materials in the viewport (materials.md §5): the material test card (Help → Material test
 * card) shows one flat quad per test vector, head-on, lighting off; the canvas at each quad's
 * centre must be the spec's expected colour within ±6 per 8-bit channel. The expected values are
 * the spec's tables (§5.1 N1–N9, §5.2 P1–P4) and, for the card's two extra quads, the CPU
 * reference evaluator on hand-given inputs; never read from the shader.
 */
const EXPECTED: Record<string, [number, number, number]> = {
  N1: [145, 101, 17],
  N2: [186, 48, 31],
  N3: [206, 50, 185],
  N4: [130, 128, 74],
  N5: [114, 133, 108],
  N6: [70, 190, 110],
  N7: [119, 81, 49],
  N8: [121, 123, 38],
  N9: [206, 77, 8], // dropped by the alpha compare: the quad behind
  P1: [100, 100, 13],
  P2: [50, 121, 204],
  P3: [187, 108, 108],
  P4: [10, 20, 30],
}
/** F1 (fog by blender cycle 0) and G1 (sphere texgen) through the reference evaluator. */
function extraExpected(): void {
  const program = (id: string) => {
    const p = materialCardScene().materials.find((m) => m.name === id)!.program!
    if (p.kind !== 'n64') throw new Error(`${id} is not an N64 program`)
    return p.n64
  }
  const t0: [number, number, number, number] = [206, 123, 49, 255]
  EXPECTED.F1 = evaluateN64Pixel(program('F1'), { texel0: t0, shade: [200, 200, 200, 255] }).rgb
  // Texgen at a camera-facing quad: s = t = (N·lookat + 1)/2 = ½, the texture's centre texel (240, 40, 200) (§2.7).
  EXPECTED.G1 = evaluateN64Pixel(program('G1'), { texel0: [240, 40, 200, 255], shade: [255, 255, 255, 255] }).rgb
}
extraExpected()
const TOLERANCE = 6

let served: Served
let browser: Browser

beforeAll(async () => {
  served = await startServe({ samples: false })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
})

/** Canvas size in device pixels. */
async function canvasSize(page: Page): Promise<{ w: number; h: number }> {
  return page.evaluate(() => {
    const c = document.querySelector('[data-testid="viewport-canvas"]') as HTMLCanvasElement
    return { w: c.width, h: c.height }
  })
}

/**
 * Where a point of the z = 0 plane lands on the canvas: the card's camera looks head-on from
 * (0, 0, 11) at the origin with Babylon's default vertical field of view 0.8 rad.
 */
function project(x: number, y: number, w: number, h: number): [number, number] {
  const f = h / 2 / Math.tan(0.4) / 11
  return [Math.round(w / 2 + x * f), Math.round(h / 2 - y * f)]
}

/** RGB at canvas pixel (x, y) of a half-resolution read (`canvasPixels` keeps every second pixel). */
function at(p: Pixels, x: number, y: number): [number, number, number] {
  const i = (Math.floor(y / 2) * p.width + Math.floor(x / 2)) * 3
  return [p.data[i]!, p.data[i + 1]!, p.data[i + 2]!]
}

describe('game materials (Chromium, browser mode): the material test card', () => {
  it('draws every N64 and TexEnv vector of materials.md §5 (and fog, texgen) within ±6 per channel; Simple draws them differently', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    const consoleErrors: string[] = []
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()))
    await page.getByTestId('menu-help').click()
    await page.getByTestId('menu-material-card').click()
    await page.locator('[data-testid="viewport-panel"][data-scene="Material test card"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('toggle-lighting').uncheck()
    await page.getByTestId('toggle-grid').uncheck()
    expect(await page.getByTestId('toggle-materials').inputValue(), 'game materials are the default').toBe('game')
    const game = await settled(page, 'viewport-canvas', true)
    await screenshot(page, 'materials-card-game')
    const { w, h } = await canvasSize(page)

    const misses: string[] = []
    for (const c of materialCardCells()) {
      const [px, py] = project(c.x, c.y, w, h)
      const got = at(game, px, py)
      const want = EXPECTED[c.id]!
      const off = Math.max(...got.map((v, k) => Math.abs(v - want[k]!)))
      console.log(`${c.id}: canvas (${got.join(', ')}) expected (${want.join(', ')}) max off ${off}`)
      if (off > TOLERANCE) misses.push(`${c.id}: got (${got.join(', ')}), expected (${want.join(', ')})`)
    }
    expect(misses).toEqual([])

    // The simple materials (texture × colour) are today's approximation: the picture changes.
    await page.getByTestId('toggle-materials').selectOption('simple')
    const simple = await settled(page, 'viewport-canvas', true)
    await screenshot(page, 'materials-card-simple')
    expect(changed(game, simple), 'Simple draws the card differently').toBeGreaterThan(1000)
    // Browser mode: the card has a permalink, and it opens the card.
    await expect.poll(() => new URL(page.url()).searchParams.get('asset')).toBe('material-card')
    await page.reload()
    await page.locator('[data-testid="viewport-panel"][data-scene="Material test card"]').waitFor({ timeout: 60_000 })
    expect(pageErrors).toEqual([])
    expect(consoleErrors, 'no shader failed to compile').toEqual([])
  })
})
