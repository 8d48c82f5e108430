import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { validateBytes } from 'gltf-validator'
import { artifactsDir, launchBrowser, openApp, screenshot, startServe, type Served } from './harness'
import { canvasPixels, changed, foreground, settled } from './pixels'

let served: Served
let browser: Browser

beforeAll(async () => {
  served = await startServe()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
})

describe('demo scene in the viewport (Chromium, browser mode)', () => {
  it('shows the model, animates it, and reacts to the wireframe toggle', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await page.getByTestId('menu-help').click()
    await page.getByTestId('menu-demo-scene').click()
    await page.locator('[data-testid="viewport-panel"][data-scene="Demo scene"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('anim-panel').waitFor()

    // Grid and curves off, so what differs from the background is the model itself.
    await page.getByTestId('toggle-grid').uncheck()
    await page.getByTestId('toggle-curves').uncheck()
    // Still frame of the first clip at frame 0.
    await page.getByTestId('anim-scrubber').fill('0')
    const still = await settled(page, 'viewport-canvas', true)
    const fg = foreground(still)
    console.log(`foreground ${fg} of ${still.width * still.height} sampled pixels`)
    expect(fg, 'the canvas shows something besides the background').toBeGreaterThan(still.width * still.height * 0.01)
    await screenshot(page, 'scene-demo-frame0')

    // Scrub to frame 15 of "bend" (0.5 s): the tube bends → the picture changes.
    await page.getByTestId('anim-scrubber').fill('15')
    await expect.poll(async () => await page.getByTestId('anim-frame').textContent()).toMatch(/^15 \/ 60$/)
    const bent = await settled(page, 'viewport-canvas', true)
    console.log(`frame 0 → 15: ${changed(still, bent)} pixels changed`)
    expect(changed(still, bent), 'posing frame 15 changes the picture').toBeGreaterThan(500)
    await screenshot(page, 'scene-demo-frame15')

    // Play: the frame number advances and the picture keeps changing between two moments.
    await page.getByTestId('anim-play').click()
    await expect.poll(async () => await page.getByTestId('anim-play').getAttribute('data-playing')).toBe('1')
    // the clip has played on by 10 of its 60 frames (a third of a second; waited for, not slept)
    const frameNow = async () => Number((await page.getByTestId('anim-frame').innerText()).split('/')[0])
    const f0 = await frameNow()
    const a = await canvasPixels(page, 'viewport-canvas')
    await expect.poll(async () => ((await frameNow()) - f0 + 60) % 60, { timeout: 30_000 }).toBeGreaterThanOrEqual(10)
    const b = await canvasPixels(page, 'viewport-canvas')
    console.log(`playing: ${changed(a, b)} pixels changed over 10+ frames`)
    expect(changed(a, b), 'playing changes the picture between two frames').toBeGreaterThan(300)
    await screenshot(page, 'scene-demo-playing')
    await page.getByTestId('anim-play').click()
    await expect.poll(async () => await page.getByTestId('anim-play').getAttribute('data-playing')).toBe('0')

    // Wireframe on a still frame.
    await page.getByTestId('anim-scrubber').fill('0')
    const solid = await settled(page, 'viewport-canvas', true)
    await page.getByTestId('toggle-wireframe').check()
    const wire = await settled(page, 'viewport-canvas', true)
    console.log(`wireframe: ${changed(solid, wire)} pixels changed`)
    expect(changed(solid, wire), 'wireframe changes the picture').toBeGreaterThan(2000)
    await screenshot(page, 'scene-demo-wireframe')
    await page.getByTestId('toggle-wireframe').uncheck()

    // Skeleton overlay adds lines.
    await page.getByTestId('toggle-skeleton').check()
    const skel = await settled(page, 'viewport-canvas', true)
    console.log(`skeleton: ${changed(solid, skel)} pixels changed`)
    expect(changed(solid, skel), 'the skeleton overlay draws').toBeGreaterThan(30)
    await screenshot(page, 'scene-demo-skeleton')

    // Keyboard: → steps one frame, Space plays.
    await page.getByTestId('anim-scrubber').fill('0')
    // Clicking the canvas centre (the framed tube at rest) picks it.
    await page.getByTestId('viewport-canvas').click()
    await expect.poll(async () => await page.getByTestId('viewport-picked').textContent().catch(() => '')).toMatch(/^tube · tube$/)
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await expect.poll(async () => await page.getByTestId('anim-frame').textContent()).toMatch(/^2 \/ 60$/)
    await page.keyboard.press(' ')
    await expect.poll(async () => await page.getByTestId('anim-play').getAttribute('data-playing')).toBe('1')
    await page.keyboard.press(' ')

    // Export .glb from the viewport: a download that passes the Khronos validator.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('viewport-export').click()])
    expect(download.suggestedFilename()).toBe('Demo_scene.glb')
    fs.mkdirSync(artifactsDir, { recursive: true })
    const file = path.join(artifactsDir, 'scene-demo-download.glb')
    await download.saveAs(file)
    const report = await validateBytes(new Uint8Array(fs.readFileSync(file)))
    expect(report.issues.numErrors).toBe(0)

    expect(pageErrors).toEqual([])
  })
})
