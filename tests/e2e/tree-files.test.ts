/**
 * Issue 14 items 3 and 4 in real Chromium (browser mode): the tree race recipe (two sources
 * expanded, a stage selected, a folder of new ROMs whose paths sort before them indexed: every
 * source listed once, expansion kept, the new ROMs one folder group sorted by name and selected: issue 25),
 * context menus by mouse and by keyboard (Copy path, Remove from catalog), and the file browser
 * (roots, folders with kinds and sizes, navigate, pick, confirm before replacing an export).
 * Screenshots go to test-artifacts/tree-*.png and files-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { answerFileBrowser, launchBrowser, openApp, repoRoot, screenshot, startServe, type Served } from './harness'
import { genericRom } from '../fixtures/platform/n64'

let served: Served
let browser: Browser
let dir: string
/**
 * The new ROMs' folder must sort before the samples' folder (`<repo>/resources/samples`). The
 * system temp folder does not always (a clone under `/tmp/ci-…` sorts before `/tmp/mb-…`), so the
 * folder is made inside the repository, as `<repo>/.tmp-e2e-tree-…` (git ignores `.tmp-*`).
 */
let romDir: string

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(repoRoot, '.tmp-e2e-tree-'))
  romDir = path.join(dir, 'new roms')
  fs.mkdirSync(romDir)
  // written out of name order; "Game 10" must come after "Game 9"
  for (const n of [10, 3, 1, 9, 2, 4]) fs.writeFileSync(path.join(romDir, `Game ${n}.z64`), genericRom(`NEW GAME ${n}`, `NG${String(n).padStart(2, '0')}`))
  served = await startServe({ db: path.join(dir, 'catalog.sqlite') })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const rowKeys = (page: Page) => page.locator('[data-testid^="tree-row-"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key!))
const sourceRow = (page: Page, name: string) => page.locator('[data-testid="tree-row-source"]', { hasText: name })
const selected = (page: Page) => page.locator('[data-testid^="tree-row-"].selected')

describe('a tree you can trust, context menus, the file browser', () => {
  it('tree race recipe: indexing new ROMs keeps rows and expansion, and selects the new folder', async () => {
    expect(romDir.localeCompare(path.join(repoRoot, 'resources', 'samples'), undefined, { numeric: true, sensitivity: 'base' }), 'the new folder sorts first').toBeLessThan(0)
    const { page, pageErrors } = await openApp(browser, served)
    await sourceRow(page, 'snap-sample.z64.gz').waitFor({ timeout: 120_000 })
    await sourceRow(page, 'stadium-sample.z64.gz').waitFor({ timeout: 120_000 })
    // the samples are one folder group, its path shown
    const samplesGroup = page.locator(`[data-testid="tree-row-folder"][data-key="f${path.join(repoRoot, 'resources', 'samples')}"]`)
    expect(await samplesGroup.locator('.name').innerText()).toBe('samples')
    expect(await samplesGroup.getByTestId('tree-folder-path').innerText()).toBe(path.join(repoRoot, 'resources', 'samples'))
    // two sources expanded, a stage selected
    for (const name of ['stadium-sample.z64.gz', 'snap-sample.z64.gz']) {
      await sourceRow(page, name).locator('.twisty').click()
      await expect.poll(() => sourceRow(page, name).getAttribute('aria-expanded')).toBe('true')
    }
    const game = page.locator('[data-testid="tree-row-asset"][data-kind="snap-game"]')
    await game.locator('.twisty').click()
    const beach = page.locator('[data-testid="tree-row-asset"][data-kind="snap-stage"]', { hasText: 'Beach' })
    await beach.click()
    await page.locator('[data-testid="snap-stage"][data-loading="0"]').waitFor({ timeout: 60_000 })
    const before = await rowKeys(page)
    const selKey = await selected(page).getAttribute('data-key')
    await screenshot(page, 'tree-1-before')

    // index a folder of new ROMs through File → Open Folder… (the file browser, the path typed)
    const tree = page.getByTestId('asset-tree')
    const changesBefore = Number(await tree.getAttribute('data-changes'))
    await page.getByTestId('menu-file').click()
    await page.getByTestId('menu-open-folder').click()
    await answerFileBrowser(page, romDir)
    await expect.poll(() => page.locator('[data-testid="tree-row-source"]', { hasText: /^.*Game \d+\.z64/ }).count(), { timeout: 120_000 }).toBe(6)
    // the index job's change event arrived and the refresh it starts is over: the tree is final
    await expect.poll(async () => Number(await tree.getAttribute('data-changes')), { timeout: 30_000 }).toBeGreaterThan(changesBefore)
    await expect.poll(() => tree.getAttribute('data-refreshing'), { timeout: 30_000 }).toBe('0')
    const after = await rowKeys(page)
    expect(new Set(after).size, `no row twice: ${after.join(' ')}`).toBe(after.length)
    // the new group first, then the old rows exactly as they were
    expect(after.slice(after.length - before.length)).toEqual(before)
    const names = await page.locator('[data-testid="tree-row-source"]').evaluateAll((els) => els.map((e) => e.querySelector('.name')!.textContent))
    expect(names.slice(0, 6)).toEqual(['Game 1.z64', 'Game 2.z64', 'Game 3.z64', 'Game 4.z64', 'Game 9.z64', 'Game 10.z64'])
    expect(await page.locator('[data-testid="tree-row-folder"]').first().getByTestId('tree-folder-path').innerText()).toBe(romDir)
    // File → Open… selects what it added (issue 25): the new folder group, not the stage any more
    await expect.poll(() => selected(page).getAttribute('data-testid'), { timeout: 30_000 }).toBe('tree-row-folder')
    expect(await selected(page).getByTestId('tree-folder-path').innerText()).toBe(romDir)
    expect(await selected(page).getAttribute('data-key')).not.toBe(selKey)
    await screenshot(page, 'tree-2-after-indexing')
    expect(pageErrors).toEqual([])
  })

  it('context menu by mouse (Copy path) and by keyboard (Remove from catalog, Esc)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 860 }, permissions: ['clipboard-read', 'clipboard-write'] })
    const page = await ctx.newPage()
    await page.goto(served.url)
    const g3 = sourceRow(page, 'Game 3.z64')
    await g3.waitFor({ timeout: 60_000 })
    await g3.click({ button: 'right' })
    const menu = page.getByTestId('tree-menu')
    await menu.waitFor()
    expect(await menu.locator('[role="menuitem"]').allInnerTexts()).toEqual(['Open', 'Re-index', 'Remove from catalog', 'Reveal in folder', 'Copy path'])
    await screenshot(page, 'tree-3-context-menu')
    await page.getByTestId('tree-menu-copy-path').click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(path.join(romDir, 'Game 3.z64'))
    await expect.poll(() => page.getByTestId('status-notice').innerText()).toContain('Copied')

    // the GF set's menu has its manifest's entry
    const gf = sourceRow(page, 'gf-set')
    await gf.click({ button: 'right' })
    expect(await menu.locator('[role="menuitem"]').allInnerTexts()).toContain('Extract PNGs')
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('asset-tree')

    // keyboard: select Game 4 with the arrows, Shift+F10, ↓↓ to Remove, Enter
    await sourceRow(page, 'Game 3.z64').click()
    await page.getByTestId('asset-tree').focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => selected(page).innerText()).toContain('Game 4.z64')
    await page.keyboard.press('Shift+F10')
    await menu.waitFor()
    expect(await menu.getAttribute('data-row')).toBe(await selected(page).getAttribute('data-key'))
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('tree-menu-open')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('tree-menu-remove')
    await screenshot(page, 'tree-4-keyboard-menu')
    await page.keyboard.press('Enter')
    await expect.poll(() => sourceRow(page, 'Game 4.z64').count()).toBe(0)
    expect(fs.existsSync(path.join(romDir, 'Game 4.z64')), 'the file stays').toBe(true)
    expect(await sourceRow(page, 'Game 3.z64').count()).toBe(1)
    // the menu key opens it too; Reveal in folder (browser mode) opens the file browser at the file
    await sourceRow(page, 'Game 9.z64').click()
    await page.keyboard.press('ContextMenu')
    await menu.waitFor()
    await page.getByTestId('tree-menu-reveal').click()
    await page.getByTestId('file-browser').waitFor()
    await expect.poll(() => page.getByTestId('fb-folder').innerText(), { timeout: 30_000 }).toBe(romDir)
    expect(await page.locator('[data-testid="fb-entry"][data-name="Game 9.z64"]').getByTestId('fb-kind').innerText()).toBe('N64 ROM')
    await page.keyboard.press('Escape')
    await page.getByTestId('file-browser').waitFor({ state: 'detached' })
    // a folder group's overview lists its sources
    await page.locator('[data-testid="tree-row-folder"]').first().click()
    await expect.poll(() => page.getByTestId('overview-folder').innerText()).toBe(romDir)
    expect(await page.getByTestId('overview-child').count()).toBe(5)
    await ctx.close()
  })

  it('file browser: roots, kinds and sizes, navigate, pick; a save asks before replacing', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await sourceRow(page, 'gf-set').waitFor({ timeout: 60_000 })
    await page.getByTestId('menu-file').click()
    await page.getByTestId('menu-open-file').click()
    const fb = page.getByTestId('file-browser')
    await fb.waitFor()
    await page.locator('[data-testid="fb-root"][data-label="Samples"]').click()
    await expect.poll(() => page.getByTestId('fb-folder').innerText(), { timeout: 30_000 }).toBe(path.join(repoRoot, 'resources', 'samples'))
    const entry = (n: string) => page.locator(`[data-testid="fb-entry"][data-name="${n}"]`)
    expect(await entry('gf-set').getByTestId('fb-kind').innerText()).toBe('GF set folder')
    expect(await entry('gf-set').getAttribute('data-type')).toBe('folder')
    const snapSize = fs.statSync(path.join(repoRoot, 'resources', 'samples', 'snap-sample.z64.gz')).size
    expect(await entry('snap-sample.z64.gz').innerText()).toContain(`${(snapSize / 1024).toFixed(1)} KiB`)
    expect(await entry('snap-sample.z64.gz').getByTestId('fb-kind').innerText()).toBe('N64 ROM')
    await screenshot(page, 'files-1-samples')
    await entry('gf-set').dblclick()
    await expect.poll(() => page.locator('[data-testid="fb-entry"][data-type="file"]').count()).toBe(9)
    await page.getByTestId('fb-up').click()
    await entry('gf-set').waitFor()
    await page.getByTestId('fb-cancel').click()
    await fb.waitFor({ state: 'detached' })

    // pick a file by clicking through: the folder of new ROMs was indexed, so it is a root
    await page.getByTestId('menu-file').click()
    await page.getByTestId('menu-open-file').click()
    await page.getByTestId('fb-name').fill(romDir)
    await page.getByTestId('fb-ok').click()
    await expect.poll(() => page.getByTestId('fb-folder').innerText(), { timeout: 30_000 }).toBe(romDir)
    await entry('Game 2.z64').click()
    await page.getByTestId('fb-ok').click()
    await fb.waitFor({ state: 'detached' })
    await expect.poll(() => page.getByTestId('error-banner').count()).toBe(0)

    // Export PNG twice to one path: the second time the browser asks; Keep it writes nothing
    await sourceRow(page, 'gf-set').click()
    await page.getByTestId('gf-cell-1.bin-1').click()
    await page.getByTestId('gf-texture-view').waitFor()
    const png = path.join(dir, 'export', 'body.png')
    fs.mkdirSync(path.dirname(png))
    await page.getByTestId('gf-export-png').click()
    await fb.waitFor()
    // the default is beside the set, never inside it
    expect(await page.getByTestId('fb-name').inputValue()).not.toContain(`gf-set${path.sep}`)
    await answerFileBrowser(page, png)
    await expect.poll(() => fs.existsSync(png)).toBe(true)
    fs.writeFileSync(png, 'old')
    await page.getByTestId('gf-export-png').click()
    await fb.waitFor()
    await page.getByTestId('fb-name').fill(png)
    await page.getByTestId('fb-ok').click()
    await page.getByTestId('fb-confirm').waitFor()
    await screenshot(page, 'files-2-overwrite-confirm')
    await page.getByRole('button', { name: 'Keep it' }).click()
    await page.getByTestId('fb-cancel').click()
    expect(fs.readFileSync(png, 'utf8')).toBe('old')
    await page.getByTestId('gf-export-png').click()
    await answerFileBrowser(page, png, { replace: true })
    await expect.poll(() => fs.readFileSync(png).subarray(1, 4).toString()).toBe('PNG')
    expect(fs.readdirSync(path.join(repoRoot, 'resources', 'samples')).sort(), 'nothing was written beside the samples').toEqual(['gf-set', 're', 'snap-sample.z64.gz', 'stadium-sample.z64.gz'])
    expect(pageErrors).toEqual([])
  })
})
