/**
 * Game materials on a GPU: the heaviest bundled sample stage (the Beach) in the app in headless
 * Chromium (browser mode, WebGL2 on SwiftShader: a software GPU, so figures are relative), frame
 * time with game materials beside the simple ones, the frame-rate limit off (see FRAME_SCRIPT).
 */
import type { Page } from 'playwright-core'
import type { Report } from './run'
import { chromium } from 'playwright-core'
import { CHROMIUM, CHROMIUM_ARGS, startServe } from '../tests/e2e/harness'
import { settled } from '../tests/e2e/pixels'

/**
 * Mean ms between animation frames over `FRAMES` frames, each ending with gl.finish() on the
 * stage canvas; with the frame-rate limit off the page draws as fast as it can, so the interval is
 * the cost of a frame (the viewport's render + the GPU's drawing + compositing). A string, not a
 * function: tsx's name helpers do not exist in the page.
 */
const FRAME_SCRIPT = `new Promise((resolve) => {
  const c = document.querySelector('[data-testid="snap-canvas"]')
  const gl = c.getContext('webgl2') || c.getContext('webgl')
  let n = 0
  let t0 = 0
  const f = () => {
    gl.finish()
    if (n === 0) t0 = performance.now()
    if (n++ < FRAMES) requestAnimationFrame(f)
    else resolve((performance.now() - t0) / FRAMES)
  }
  requestAnimationFrame(() => requestAnimationFrame(f))
})`

async function frameMs(page: Page, frames: number): Promise<number> {
  return (await page.evaluate(FRAME_SCRIPT.replace(/FRAMES/g, String(frames)))) as number
}

export async function run(report: Report): Promise<void> {
  const served = await startServe()
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--disable-frame-rate-limit', '--disable-gpu-vsync'], headless: true })
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    await page.goto(served.url)
    await page.getByTestId('search-input').fill('Beach')
    const hit = page.getByTestId('search-hit').filter({ hasText: 'snap-stage' }).first()
    await hit.waitFor({ timeout: 60_000 })
    await hit.click()
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('snap-toggle-anim').uncheck()
    const size = (await page.evaluate(`(() => { const c = document.querySelector('[data-testid="snap-canvas"]'); return c.width + '×' + c.height })()`)) as string
    const select = page.getByTestId('toggle-materials')
    const figures: Record<string, number[]> = { game: [], simple: [] }
    for (let r = 0; r < 2; r++) {
      for (const mode of ['game', 'simple'] as const) {
        await select.selectOption(mode)
        await settled(page, 'snap-canvas', true)
        figures[mode]!.push(await frameMs(page, 120))
      }
    }
    const note = `Beach, canvas ${size}, Chromium + SwiftShader (software GPU), mean of 120 unthrottled frames, best of 2 runs`
    report('materials', 'GPU frame, Beach: game materials', Math.min(...figures.game!), 'ms', note)
    report('materials', 'GPU frame, Beach: simple materials', Math.min(...figures.simple!), 'ms', note)
  } finally {
    await browser.close()
    await served.close()
  }
}
