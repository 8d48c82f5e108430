import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, openApp, screenshot, startServe, type Served } from './harness'

/**
 * Issue 14 item 7, "one look", in real Chromium on the bundled samples: each view (Snap stage,
 * Stadium model, GF set and GF model, RE pose editor, demo viewport) has only themed buttons (the MbButton
 * class), a tooltip on every control (its own title or its label's), and an Inspector without
 * JSON text. Screenshots of each view are kept in test-artifacts/.
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

interface LookReport { buttons: number; unthemed: string[]; controls: number; untitled: string[] }

/** Every button of the view and whether it is themed; every control and whether it has a tooltip. */
async function look(page: Page, root: string): Promise<LookReport> {
  return page.locator(`[data-testid="${root}"]`).evaluate((el) => {
    const name = (c: Element) => `${c.tagName.toLowerCase()}[${c.getAttribute('data-testid') ?? ''}] "${(c.textContent ?? '').trim().slice(0, 30)}"`
    const buttons = [...el.querySelectorAll('button')]
    const controls = [...el.querySelectorAll('button, select, input, textarea')].filter((c) => (c as HTMLInputElement).type !== 'hidden')
    const tip = (c: Element) => !!(c.getAttribute('title')?.trim() || c.closest('label[title]')?.getAttribute('title')?.trim())
    return {
      buttons: buttons.length,
      unthemed: buttons.filter((b) => !b.classList.contains('mb-button')).map(name),
      controls: controls.length,
      untitled: controls.filter((c) => !tip(c)).map(name),
    }
  })
}

/** The Inspector's value cells: none may read as JSON text. */
async function inspectorJson(page: Page): Promise<string[]> {
  const cells = await page.locator('[data-testid="inspector"] td').allInnerTexts()
  expect(cells.length, 'the Inspector shows rows').toBeGreaterThan(0)
  return cells.filter((t) => /^\s*[{[]/.test(t) || /"\s*:/.test(t) || /[{}]/.test(t))
}

async function checkView(page: Page, root: string, shot: string): Promise<void> {
  const r = await look(page, root)
  expect(r.buttons, `${root} has buttons`).toBeGreaterThan(0)
  expect(r.unthemed, `${root}: buttons without the themed component`).toEqual([])
  expect(r.untitled, `${root}: controls without a tooltip`).toEqual([])
  expect(await inspectorJson(page), `${root}: JSON in the Inspector`).toEqual([])
  await screenshot(page, shot)
}

async function search(page: Page, query: string, kind: string): Promise<void> {
  await page.getByTestId('search-input').fill(query)
  const hit = page.getByTestId('search-hit').filter({ hasText: kind }).first()
  await hit.waitFor({ timeout: 60_000 })
  await hit.click()
}

describe('one look (Chromium, browser mode, samples)', () => {
  it('Snap stage, Snap actor, Stadium model, GF set and model, RE pose editor: themed buttons, tooltips, no JSON', async () => {
    const { page, pageErrors } = await openApp(browser, served)

    await search(page, 'Beach', 'snap-stage')
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('snap-room-path-2').click()
    // the checker itself sees a plain, untitled button (so the checks below can fail)
    await page.getByTestId('snap-stage').evaluate((el) => el.appendChild(Object.assign(document.createElement('button'), { textContent: 'plain', id: 'look-probe' })))
    const probe = await look(page, 'snap-stage')
    expect(probe.unthemed).toEqual(['button[] "plain"'])
    expect(probe.untitled).toEqual(['button[] "plain"'])
    await page.locator('#look-probe').evaluate((el) => el.remove())
    await checkView(page, 'snap-stage', 'one-look-snap-stage')
    // one name per room: the stage's room list says what the tree and the scene say
    expect(await page.getByTestId('snap-room-path-2').innerText()).toContain('Path room 2')
    // F frames the rooms from the keyboard (leaves the rail camera)
    await page.getByTestId('snap-rail-on').check()
    await page.getByTestId('snap-canvas').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('f')
    await expect.poll(() => page.getByTestId('snap-rail-on').isChecked()).toBe(false)

    // the Snap actor's own view (HD toggle, Frame, its animations)
    await search(page, 'Raichu', 'snap-actor')
    await page.locator('[data-testid="snap-actor-view"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await checkView(page, 'snap-actor-view', 'one-look-snap-actor')

    await search(page, 'Bulbasaur', 'stadium-model')
    await page.locator('[data-testid="stadium-view"][data-model="001_bulbasaur"]').waitFor({ timeout: 60_000 })
    await checkView(page, 'stadium-view', 'one-look-stadium-model')
    // W toggles the wireframe in this view too, and the render panel shows it
    const wire = page.getByTestId('stadium-toggle-wireframe')
    const before = await wire.isChecked()
    await page.getByTestId('stadium-canvas').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('w')
    await expect.poll(() => wire.isChecked()).toBe(!before)

    const gf = page.locator('[data-testid="tree-row-source"]', { hasText: 'gf-set' }).first()
    await gf.waitFor({ timeout: 60_000 })
    await gf.click()
    await page.waitForSelector('[data-testid="gf-cell-1.bin-0"]', { timeout: 60_000 })
    await checkView(page, 'gf-texture-grid', 'one-look-gf-set')
    await page.getByTestId('gf-show-model').click()
    await page.waitForSelector('[data-testid="gf-model-view"]', { timeout: 60_000 })
    await page.waitForSelector('[data-testid^="gf-motion-"]', { timeout: 60_000 })
    await checkView(page, 'gf-model-view', 'one-look-gf-model')

    const re = page.locator('[data-testid="tree-row-source"]', { hasText: 'sample.motlist.663' }).first()
    await re.waitFor({ timeout: 60_000 })
    await re.click()
    await page.waitForSelector('[data-testid="re-pose-editor"]', { timeout: 60_000 })
    await page.waitForSelector('[data-testid="re-bone-list"] [data-bone]', { timeout: 60_000 })
    await page.locator('[data-testid="re-bone-list"] [data-bone]').nth(1).click()
    await checkView(page, 're-pose-editor', 'one-look-re-pose')

    await page.getByTestId('menu-help').click()
    await page.getByTestId('menu-demo-scene').click()
    await page.locator('[data-testid="viewport-panel"][data-scene="Demo scene"]').waitFor({ timeout: 60_000 })
    await checkView(page, 'viewport-panel', 'one-look-demo-viewport')

    expect(pageErrors).toEqual([])
  })
})
