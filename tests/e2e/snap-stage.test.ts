import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, openApp, screenshot, startServe, type Served } from './harness'

/**
 * Pokémon Snap stage view on the bundled sample ROM (resources/samples/snap-sample.z64.gz, our own
 * synthetic data): open the Beach, see its rooms, toggle a room group, select a room, ride the
 * rail camera.
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

type Pixels = { width: number; height: number; data: Uint8Array }

async function canvasPixels(page: Page): Promise<Pixels> {
  const r = await page.evaluate(() => {
    const c = document.querySelector('[data-testid="snap-canvas"]') as HTMLCanvasElement
    const off = document.createElement('canvas')
    off.width = c.width
    off.height = c.height
    const ctx = off.getContext('2d')!
    ctx.drawImage(c, 0, 0)
    const img = ctx.getImageData(0, 0, c.width, c.height).data
    const w = Math.ceil(c.width / 2), h = Math.ceil(c.height / 2)
    const out = new Uint8Array(w * h * 3)
    let o = 0
    for (let y = 0; y < c.height; y += 2) for (let x = 0; x < c.width; x += 2) {
      const i = (y * c.width + x) * 4
      out[o++] = img[i]!; out[o++] = img[i + 1]!; out[o++] = img[i + 2]!
    }
    let bin = ''
    for (let i = 0; i < out.length; i += 0x8000) bin += String.fromCharCode(...out.subarray(i, i + 0x8000))
    return { width: w, height: h, b64: btoa(bin) }
  })
  return { width: r.width, height: r.height, data: new Uint8Array(Buffer.from(r.b64, 'base64')) }
}

function changed(a: Pixels, b: Pixels): number {
  let n = 0
  for (let i = 0; i < a.data.length; i += 3) {
    if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 24) n++
  }
  return n
}

function foreground(p: Pixels): number {
  const bg = p.data.slice(0, 3)
  let n = 0
  for (let i = 0; i < p.data.length; i += 3) if (Math.abs(p.data[i]! - bg[0]!) + Math.abs(p.data[i + 1]! - bg[1]!) + Math.abs(p.data[i + 2]! - bg[2]!) > 24) n++
  return n
}

async function settled(page: Page): Promise<Pixels> {
  let last = await canvasPixels(page)
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(250)
    const now = await canvasPixels(page)
    if (changed(last, now) === 0) return now
    last = now
  }
  return last
}

describe('Snap stage view (Chromium, browser mode, sample ROM)', () => {
  it('opens the Beach, toggles a room group, selects a room and rides the rail', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await page.getByTestId('search-input').fill('Beach')
    const hit = page.getByTestId('search-hit').filter({ hasText: 'snap-stage' }).first()
    await hit.waitFor({ timeout: 60_000 })
    await hit.click()
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await expect.poll(async () => await page.getByTestId('snap-rooms').locator('li').count()).toBe(8)

    // Still picture: material animation off, rail camera at the start of the track.
    await page.getByTestId('snap-toggle-anim').uncheck()
    await page.getByTestId('snap-rail-on').check()
    await page.getByTestId('snap-rail-scrub').fill('0')
    const start = await settled(page)
    expect(foreground(start), 'the stage is drawn').toBeGreaterThan(start.width * start.height * 0.05)
    await screenshot(page, 'snap-stage-rail-start')

    // Hiding the path rooms removes the ground under the rail.
    await page.getByTestId('snap-toggle-path').uncheck()
    const noPath = await settled(page)
    expect(changed(start, noPath), 'hiding the path rooms changes the picture').toBeGreaterThan(2000)
    await page.getByTestId('snap-toggle-path').check()

    // Selecting a room shows its data.
    await page.getByTestId('snap-room-path-2').click()
    await expect.poll(async () => await page.getByTestId('snap-room-data').innerText()).toMatch(/renderKind\s+B/)

    // Scrubbing the rail moves the camera along the track.
    await page.getByTestId('snap-rail-scrub').fill('3000')
    const later = await settled(page)
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
})
