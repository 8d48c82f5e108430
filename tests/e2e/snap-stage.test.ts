import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, openApp, screenshot, startServe, type Served } from './harness'
import { canvasPixels, changed, foreground, settled } from './pixels'

/**
 * Pokémon Snap stage view on the bundled sample ROM (resources/samples/snap-sample.z64.gz, our own
 * synthetic data): open the Beach, see its rooms, toggle a room group, select a room, ride the
 * rail camera; its actors: frame one, hide it.
 */
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

/** Opens the app, searches `query` and opens the first hit of asset kind `kind`. */
async function openHit(query: string, kind: string): Promise<Awaited<ReturnType<typeof openApp>>> {
  const app = await openApp(browser, served)
  await app.page.getByTestId('search-input').fill(query)
  const hit = app.page.getByTestId('search-hit').filter({ hasText: kind }).first()
  await hit.waitFor({ timeout: 60_000 })
  await hit.click()
  return app
}

describe('Snap stage view (Chromium, browser mode, sample ROM)', () => {
  it('opens the Beach, toggles a room group, selects a room and rides the rail', async () => {
    const { page, pageErrors } = await openHit('Beach', 'snap-stage')
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await expect.poll(async () => await page.getByTestId('snap-rooms').locator('li').count()).toBe(8)

    // Still picture: material animation off, rail camera at the start of the track.
    await page.getByTestId('snap-toggle-anim').uncheck()
    await page.getByTestId('snap-rail-on').check()
    await page.getByTestId('snap-rail-scrub').fill('0')
    const start = await settled(page, 'snap-canvas')
    expect(foreground(start), 'the stage is drawn').toBeGreaterThan(start.width * start.height * 0.05)
    await screenshot(page, 'snap-stage-rail-start')

    // Hiding the path rooms removes the ground under the rail.
    await page.getByTestId('snap-toggle-path').uncheck()
    const noPath = await settled(page, 'snap-canvas')
    expect(changed(start, noPath), 'hiding the path rooms changes the picture').toBeGreaterThan(2000)
    await page.getByTestId('snap-toggle-path').check()

    // Selecting a room shows its data.
    await page.getByTestId('snap-room-path-2').click()
    await expect.poll(async () => await page.getByTestId('snap-room-data').innerText()).toMatch(/renderKind\s+B/)

    // Scrubbing the rail moves the camera along the track.
    await page.getByTestId('snap-rail-scrub').fill('3000')
    const later = await settled(page, 'snap-canvas')
    expect(changed(start, later), 'the rail camera moved').toBeGreaterThan(2000)
    await screenshot(page, 'snap-stage-rail-3000')

    // Play advances the rail frame.
    const before = await page.getByTestId('snap-rail-frame').innerText()
    await page.getByTestId('snap-rail-play').click()
    await page.waitForTimeout(800)
    await page.getByTestId('snap-rail-play').click()
    expect(await page.getByTestId('snap-rail-frame').innerText()).not.toBe(before)
    expect(pageErrors).toEqual([])
  })

  it('lists the actors placed at their spawns; frame one, hide it', async () => {
    const { page, pageErrors } = await openHit('Beach', 'snap-stage')
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    const list = page.getByTestId('snap-actors')
    await expect.poll(async () => await list.locator('li').allInnerTexts()).toEqual([expect.stringContaining('spawn 0 Pikachu'), expect.stringContaining('spawn 2 Raichu'), expect.stringContaining('zero-one')])
    await page.getByTestId('snap-toggle-anim').uncheck()
    const raichu = list.locator('li').filter({ hasText: 'Raichu' })
    await raichu.getByRole('button').click()
    const framed = await settled(page, 'snap-canvas')
    await screenshot(page, 'snap-stage-actor-framed')
    // hiding the framed actor changes the picture (it fills the view)
    await raichu.getByRole('checkbox').uncheck()
    const hidden = await settled(page, 'snap-canvas')
    expect(changed(framed, hidden), 'hiding the framed actor changes the picture').toBeGreaterThan(500)
    expect(pageErrors).toEqual([])
  })

  it('an actor opens in the viewport: its animations in the clip list, the skeleton overlay, scrubbing', async () => {
    const { page, pageErrors } = await openHit('raichu', 'snap-actor')
    const clip = page.getByTestId('anim-clip')
    await clip.waitFor({ timeout: 60_000 })
    await expect.poll(async () => await clip.locator('option').allInnerTexts()).toEqual([expect.stringMatching(/^0x802C[0-9A-F]{4} \(20 f @ 30 fps\)$/), expect.stringMatching(/^0x802C[0-9A-F]{4} \(10 f @ 15 fps\)$/)])
    await page.getByTestId('toggle-skeleton').check()
    const a = await settled(page, 'viewport-canvas')
    await screenshot(page, 'snap-actor-view')
    expect(foreground(a), 'the actor is drawn').toBeGreaterThan(500)
    expect(pageErrors).toEqual([])
  })
})
