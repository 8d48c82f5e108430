import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, openApp, startServe, type Served } from './harness'

/**
 * Opening a scene view by permalink works in parallel (issue 26): the scene is asked for as soon
 * as the selection is known, while the viewport's code (the SceneHost chunk with Babylon) still
 * loads, and the host marks its first drawn frame in the DOM. Ordering, not time: the viewport
 * chunk is held back until the scene request has gone out (or 20 s have passed), so an app that
 * asks for the scene only once the view's code has arrived fails here however fast the machine.
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

const isViewportChunk = (url: string) => /\/assets\/SceneHost-[\w-]+\.js$/.test(new URL(url).pathname)

/**
 * Records, in order, when the API `channel` is asked for and when a file matching `held` is
 * asked for and has loaded; that file is held back until the call has been asked for (or 20 s).
 */
async function holdUntilAsked(page: Page, channel: string, held: (url: string) => boolean): Promise<{ events: string[]; seen: Promise<void> }> {
  const events: string[] = []
  let asked!: () => void
  const seen = new Promise<void>((resolve) => (asked = resolve))
  page.on('request', (r) => {
    if (new URL(r.url()).pathname !== `/api/${encodeURIComponent(channel)}`) return
    events.push('asked')
    asked()
  })
  page.on('requestfinished', (r) => {
    if (held(r.url())) events.push('held file loaded')
  })
  await page.route((url) => held(url.href), async (route) => {
    events.push('held file asked')
    await Promise.race([seen, new Promise((r) => setTimeout(r, 20_000))])
    await route.continue()
  })
  return { events, seen }
}

/** The permalink of the view that `open` shows (in a page of its own, closed again). */
async function permalinkOf(open: (page: Page) => Promise<void>): Promise<string> {
  const { page } = await openApp(browser, served)
  await open(page)
  await expect.poll(() => new URL(page.url()).searchParams.get('asset')).toMatch(/^\d+$/)
  const link = page.url()
  await page.close()
  return link
}

describe('opening a view by permalink (Chromium, browser mode, sample ROM)', () => {
  it('requests the Snap stage scene before the viewport code has loaded, and marks the first drawn frame', async () => {
    const link = await permalinkOf(async (first) => {
      await first.getByTestId('search-input').fill('Beach')
      const hit = first.getByTestId('search-hit').filter({ hasText: 'snap-stage' }).first()
      await hit.waitFor({ timeout: 60_000 })
      await hit.click()
      await first.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    })

    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
    const pageErrors: string[] = []
    page.on('pageerror', (e) => pageErrors.push(e.message))
    const { events } = await holdUntilAsked(page, 'scene:open', isViewportChunk)
    await page.goto(link)
    const view = page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]')
    await view.waitFor({ timeout: 90_000 })

    expect(events.filter((e) => e === 'asked'), 'the scene is asked for once').toHaveLength(1)
    expect(events.indexOf('asked'), `order: ${events.join(' → ')}`).toBeGreaterThanOrEqual(0)
    expect(events.indexOf('held file loaded'), `order: ${events.join(' → ')}`).toBeGreaterThan(events.indexOf('asked'))
    // the first drawn frame of the new scene is marked (a time on the page's clock)
    await expect.poll(async () => Number(await view.getAttribute('data-first-frame-ms')), { timeout: 30_000 }).toBeGreaterThan(0)
    expect(pageErrors).toEqual([])
    await page.close()
  })

  it('a GF model opened by permalink asks for its model once, before the shell’s own code has loaded (the view takes the early answer)', async () => {
    const link = await permalinkOf(async (first) => {
      const gf = first.locator('[data-testid="tree-row-source"]', { hasText: 'gf-set' }).first()
      await gf.waitFor({ timeout: 60_000 })
      await gf.click()
      await first.getByTestId('gf-show-model').click()
      await first.locator('[data-testid="gf-model-view"][data-clip="0"]').waitFor({ timeout: 60_000 })
    })

    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
    const pageErrors: string[] = []
    page.on('pageerror', (e) => pageErrors.push(e.message))
    // Ordering, not time: the shell's chunk (app.ts: the Vue app that mounts the tree and the
    // centre pane) is held back until the model has been asked for (or 20 s have passed), so a
    // page that reveals the asset only once the shell has mounted fails here however fast it is.
    const { events, seen } = await holdUntilAsked(page, 'gf:model', (url) => /\/assets\/app-[\w-]+\.js$/.test(new URL(url).pathname))
    await page.goto(link)
    const view = page.locator('[data-testid="gf-model-view"][data-clip="0"]')
    await view.waitFor({ timeout: 60_000 })
    await expect.poll(async () => Number(await view.getAttribute('data-first-frame-ms')), { timeout: 30_000 }).toBeGreaterThan(0)
    await seen
    expect(events.filter((e) => e === 'asked'), 'the model is asked for once').toHaveLength(1)
    expect(events.indexOf('held file loaded'), `order: ${events.join(' → ')}`).toBeGreaterThan(events.indexOf('asked'))
    expect(events.indexOf('asked'), `order: ${events.join(' → ')}`).toBeGreaterThanOrEqual(0)
    expect(pageErrors).toEqual([])
    await page.close()
  })

  it('a permalink to an asset that is no longer in the catalog says so (the early reveal hands its answer to the shell)', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
    const pageErrors: string[] = []
    page.on('pageerror', (e) => pageErrors.push(e.message))
    const reveals: string[] = []
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === `/api/${encodeURIComponent('catalog:reveal')}`) reveals.push(r.url())
    })
    await page.goto(`${served.url}&asset=987654321`)
    const banner = () => page.evaluate(`document.querySelector('[data-testid="error-banner"]')?.title ?? ''`) as Promise<string>
    await expect.poll(banner, { timeout: 60_000 }).toMatch(/asset 987654321 is not in the catalog/)
    expect(reveals, 'revealed once').toHaveLength(1)
    expect(await page.locator('.scene-host').count()).toBe(0)
    expect(pageErrors).toEqual([])
    await page.close()
  })

  it('the first view opened by a click draws on the canvas the idle shell readied (no WebGL context of its own)', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
    const pageErrors: string[] = []
    page.on('pageerror', (e) => pageErrors.push(e.message))
    // every canvas that gets a WebGL context, in order (an init script: the page's CSP allows no eval)
    await page.addInitScript(`(() => {
      const made = (window.__webgl = [])
      const get = HTMLCanvasElement.prototype.getContext
      HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
        const ctx = get.call(this, type, ...rest)
        if (ctx && /webgl/.test(type) && !made.includes(this)) made.push(this)
        return ctx
      }
    })()`)
    await page.goto(served.url)
    const contexts = () => page.evaluate('window.__webgl.length') as Promise<number>
    // the shell loads the viewport's code and readies one canvas once it is idle, before any view opened
    await expect.poll(contexts, { timeout: 60_000 }).toBe(1)
    expect(await page.locator('.scene-host').count()).toBe(0)

    await page.getByTestId('search-input').fill('Beach')
    const hit = page.getByTestId('search-hit').filter({ hasText: 'snap-stage' }).first()
    await hit.waitFor({ timeout: 60_000 })
    await hit.click()
    const view = page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]')
    await view.waitFor({ timeout: 60_000 })
    await expect.poll(async () => Number(await view.getAttribute('data-first-frame-ms')), { timeout: 30_000 }).toBeGreaterThan(0)

    expect(await contexts(), 'the view made no context of its own').toBe(1)
    expect(await page.evaluate(`window.__webgl[0] === document.querySelector('[data-testid="snap-canvas"]')`), 'the view draws on the readied canvas').toBe(true)
    expect(pageErrors).toEqual([])
    await page.close()
  })
})
