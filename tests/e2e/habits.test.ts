/**
 * Issue 25 item 4, desktop habits, in real Chromium (browser mode): the file dialog (starts at
 * home, then at the folder used last; goes up past both; places that went are greyed with the
 * reason; a proposed output folder is offered beside the set), File → Open… selecting and opening
 * what it added. The served process gets its own HOME, so "home" is a folder this test made.
 * Screenshots go to test-artifacts/habits-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { answerFileBrowser, launchBrowser, openApp, repoRoot, screenshot, startServe, type Served } from './harness'
import { genericRom } from '../fixtures/platform/n64'
import { gradientPicture } from '../fixtures/gf/build-set'
import { encodePng } from '../../src-main/domains/gf/png'

let served: Served
let browser: Browser
let dir: string
let home: string
let mods: string
let gone: string
let pack: string

beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-habits-')))
  home = path.join(dir, 'home')
  mods = path.join(home, 'projects', 'mods')
  gone = path.join(home, 'gone')
  pack = path.join(home, 'pack')
  for (const d of [mods, gone, pack]) fs.mkdirSync(d, { recursive: true })
  fs.writeFileSync(path.join(mods, 'Mod 1.z64'), genericRom('MOD ONE', 'MD01'))
  fs.writeFileSync(path.join(gone, 'Old.z64'), genericRom('OLD ONE', 'OLD1'))
  fs.writeFileSync(path.join(pack, 'Pack A.z64'), genericRom('PACK A', 'PKA1'))
  fs.writeFileSync(path.join(pack, 'Pack B.z64'), genericRom('PACK B', 'PKB1'))
  // two copies of one ROM name and title in two folders (different bytes: two sources)
  for (const [i, t] of ['first', 'second'].entries()) {
    fs.mkdirSync(path.join(home, 'twins', t), { recursive: true })
    fs.writeFileSync(path.join(home, 'twins', t, 'Twin.z64'), genericRom('TWIN GAME', 'TWN1', 0x2000, 0x20 + i))
  }
  // a GF set whose 0.bin is damaged, and a folder holding only that 0.bin
  const bad = Buffer.from('this is no GF package '.repeat(6))
  const samplesSet = path.join(repoRoot, 'resources', 'samples', 'gf-set')
  fs.mkdirSync(path.join(home, 'damaged', 'only'), { recursive: true })
  fs.cpSync(samplesSet, path.join(home, 'damaged', 'set'), { recursive: true })
  fs.writeFileSync(path.join(home, 'damaged', 'set', '0.bin'), bad)
  fs.writeFileSync(path.join(home, 'damaged', 'only', '0.bin'), bad)
  // a picture the size of the samples' pm0999_00_BodyB1 (1.bin entry 1, 64×64)
  fs.writeFileSync(path.join(home, 'body.png'), encodePng(gradientPicture(64, 64, 21, 8), 64, 64))
  served = await startServe({ db: path.join(dir, 'catalog.sqlite'), env: { HOME: home, USERPROFILE: home } })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const sourceRow = (page: Page, name: string) => page.locator('[data-testid="tree-row-source"]', { hasText: name })
const selected = (page: Page) => page.locator('[data-testid^="tree-row-"].selected')
const folderShown = (page: Page) => page.getByTestId('fb-folder').innerText()

/** A page whose clipboard the test may read (Copy path). */
async function clipboardPage(): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 860 }, permissions: ['clipboard-read', 'clipboard-write'] })
  const page = await ctx.newPage()
  await page.goto(served.url)
  return { ctx, page }
}

async function openDialog(page: Page, item: 'menu-open-file' | 'menu-open-folder'): Promise<void> {
  await page.getByTestId('menu-file').click()
  await page.getByTestId(item).click()
  await page.getByTestId('file-browser').waitFor()
}

describe('desktop habits', () => {
  it('file dialog: starts at home then at the last folder, goes up past both, greys places that went, proposes outputs beside the set', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await sourceRow(page, 'gf-set').waitFor({ timeout: 120_000 })
    await openDialog(page, 'menu-open-file')
    await expect.poll(() => folderShown(page), { timeout: 30_000 }).toBe(home)
    // Backspace (the empty name field has the focus) and the up button climb past home
    await page.keyboard.press('Backspace')
    await expect.poll(() => folderShown(page), { timeout: 30_000 }).toBe(dir)
    await page.getByTestId('fb-up').click()
    await expect.poll(() => folderShown(page), { timeout: 30_000 }).toBe(path.dirname(dir))
    await page.getByTestId('fb-cancel').click()

    // a file chosen in a folder makes it the next start, across a reload too
    await openDialog(page, 'menu-open-file')
    await answerFileBrowser(page, path.join(gone, 'Old.z64'))
    await sourceRow(page, 'Old.z64').waitFor({ timeout: 60_000 })
    await page.reload()
    await sourceRow(page, 'Old.z64').waitFor({ timeout: 60_000 })
    await openDialog(page, 'menu-open-file')
    await expect.poll(() => folderShown(page), { timeout: 30_000 }).toBe(gone)
    await page.getByTestId('fb-cancel').click()

    // the folder goes away: its places are greyed with the reason, clicking one lists nothing and errs nothing
    fs.rmSync(gone, { recursive: true })
    await openDialog(page, 'menu-open-file')
    await expect.poll(() => folderShown(page), { timeout: 30_000 }).toBe(home)
    const place = page.locator(`[data-testid="fb-root"][data-path="${gone}"]`).first()
    expect(await place.getAttribute('data-unavailable')).toBe('no longer exists')
    expect(await place.isDisabled()).toBe(true)
    expect(await place.innerText()).toContain('no longer exists')
    await place.click({ force: true })
    expect(await folderShown(page)).toBe(home)
    expect(await page.getByTestId('fb-error').count()).toBe(0)
    // home is a place that works
    await page.getByTestId('fb-up').click()
    await expect.poll(() => folderShown(page)).toBe(dir)
    await page.locator('[data-testid="fb-root"][data-label="Home"]').click()
    await expect.poll(() => folderShown(page)).toBe(home)
    await screenshot(page, 'habits-1-places')
    await page.getByTestId('fb-cancel').click()

    // a proposed output folder is offered beside the set, never inside it, nor the start folder
    await sourceRow(page, 'gf-set').click()
    await page.getByTestId('gf-export-all').click()
    await page.getByTestId('file-browser').waitFor()
    const samples = path.join(repoRoot, 'resources', 'samples')
    await expect.poll(() => folderShown(page), { timeout: 30_000 }).toBe(samples)
    expect(await page.getByTestId('fb-name').inputValue()).toBe('gf-set-png')
    await page.getByTestId('fb-cancel').click()
    expect(pageErrors).toEqual([])
  })

  it('File → Open… selects and opens what it added: a file expanded, a folder its group', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await sourceRow(page, 'gf-set').click()
    await expect.poll(() => selected(page).innerText()).toContain('gf-set')
    await openDialog(page, 'menu-open-file')
    await answerFileBrowser(page, path.join(mods, 'Mod 1.z64'))
    await expect.poll(() => selected(page).innerText(), { timeout: 60_000 }).toContain('Mod 1.z64')
    await expect.poll(() => sourceRow(page, 'Mod 1.z64').getAttribute('aria-expanded')).toBe('true')

    await openDialog(page, 'menu-open-folder')
    await answerFileBrowser(page, pack)
    await expect.poll(() => selected(page).getAttribute('data-key'), { timeout: 60_000 }).toBe(`f${pack}`)
    await expect.poll(() => page.getByTestId('overview-child').count()).toBe(2)
    await screenshot(page, 'habits-2-opened')
    expect(pageErrors).toEqual([])
  })

  it('right-click only opens the menu (the selection and view stay); a menu near the bottom stays whole on screen', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await sourceRow(page, 'snap-sample.z64.gz').click()
    await expect.poll(() => selected(page).innerText()).toContain('snap-sample.z64.gz')
    const menu = page.getByTestId('tree-menu')
    await sourceRow(page, 'gf-set').click({ button: 'right' })
    await menu.waitFor()
    expect(await menu.getAttribute('data-row')).toBe(await sourceRow(page, 'gf-set').getAttribute('data-key'))
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('tree-menu-open')
    expect(await selected(page).innerText(), 'the selection stays').toContain('snap-sample.z64.gz')
    expect(await page.getByTestId('gf-texture-grid').count(), 'the set is not opened').toBe(0)
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })
    // the menu's Open opens it
    await sourceRow(page, 'gf-set').click({ button: 'right' })
    await page.getByTestId('tree-menu-open').click()
    await page.getByTestId('gf-texture-grid').waitFor({ timeout: 60_000 })

    // a short window: the last row sits near the bottom; its menu opens whole above the pointer
    await page.setViewportSize({ width: 1400, height: 420 })
    const last = page.locator('[data-testid^="tree-row-"]').last()
    const box = (await last.boundingBox())!
    expect(box.y + box.height, 'the last row is near the bottom').toBeGreaterThan(420 - 80)
    await last.click({ button: 'right', position: { x: 20, y: box.height - 2 } })
    await menu.waitFor()
    await expect.poll(() => menu.evaluate((m) => getComputedStyle(m).visibility)).toBe('visible')
    const mb = (await menu.boundingBox())!
    expect(mb.y).toBeGreaterThanOrEqual(0)
    expect(mb.y + mb.height, `menu ${JSON.stringify(mb)} inside a 420 px window`).toBeLessThanOrEqual(420)
    expect(mb.x + mb.width).toBeLessThanOrEqual(1400)
    await screenshot(page, 'habits-3-menu-bottom')
    await page.keyboard.press('Escape')
    expect(pageErrors).toEqual([])
  })

  it('search finds files by name, and hits that would read the same show the folder that tells them apart', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await sourceRow(page, 'gf-set').waitFor({ timeout: 60_000 })
    await openDialog(page, 'menu-open-folder')
    await answerFileBrowser(page, path.join(home, 'twins'))
    await expect.poll(() => sourceRow(page, 'Twin.z64').count(), { timeout: 60_000 }).toBe(2)
    const search = page.getByTestId('search-input')
    // a file name (the samples' ROM) is found, though no asset is named so
    await search.fill('snap-sample')
    await page.getByTestId('search-file').first().waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('search-file').allInnerTexts()).toEqual([`snap-sample.z64.gz\nsnap-rom\n${path.join(repoRoot, 'resources', 'samples')}`])
    await page.getByTestId('search-file').click()
    await expect.poll(() => selected(page).innerText()).toContain('snap-sample.z64.gz')
    // two files of one name: each shows its folder
    await search.fill('twin')
    await expect.poll(() => page.getByTestId('search-file').count(), { timeout: 30_000 }).toBe(2)
    const files = await page.getByTestId('search-file').getByTestId('search-path').allInnerTexts()
    expect(files.sort()).toEqual([path.join(home, 'twins', 'first'), path.join(home, 'twins', 'second')])
    // two assets of one name in files of one name: each shows its folder too
    await search.fill('TWIN GAME')
    await expect.poll(() => page.getByTestId('search-hit').count(), { timeout: 30_000 }).toBe(2)
    const hits = await page.getByTestId('search-hit').allInnerTexts()
    expect(hits[0]).not.toBe(hits[1])
    expect((await page.getByTestId('search-hit').getByTestId('search-path').allInnerTexts()).sort()).toEqual([path.join(home, 'twins', 'first'), path.join(home, 'twins', 'second')])
    await screenshot(page, 'habits-4-search')
    expect(pageErrors).toEqual([])
  })

  it('a notice floats over the window (nothing moves for it) and goes by itself', async () => {
    const { ctx, page } = await clipboardPage()
    await sourceRow(page, 'snap-sample.z64.gz').click()
    const pathLine = page.getByTestId('status-path')
    await pathLine.waitFor({ timeout: 60_000 })
    const boxes = () => Promise.all([pathLine.boundingBox(), page.getByTestId('status-bar').boundingBox(), page.getByTestId('toggle-inspector').boundingBox(), page.getByTestId('asset-tree').boundingBox()])
    const before = await boxes()
    await sourceRow(page, 'gf-set').click({ button: 'right' })
    await page.getByTestId('tree-menu-copy-path').click()
    const notice = page.getByTestId('status-notice')
    await expect.poll(() => notice.innerText()).toContain('Copied')
    expect(await boxes(), 'no control moved').toEqual(before)
    await screenshot(page, 'habits-5-notice')
    await notice.waitFor({ state: 'detached', timeout: 30_000 })
    expect(await boxes()).toEqual(before)
    await ctx.close()
  })

  it('the selection, the opened rows, the folded folders and the view survive a reload', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    const reFolder = page.locator(`[data-testid="tree-row-folder"][data-key="f${path.join(repoRoot, 'resources', 'samples', 're')}"]`)
    await sourceRow(page, 'gf-set').waitFor({ timeout: 60_000 })
    await sourceRow(page, 'gf-set').locator('.twisty').click()
    await expect.poll(() => sourceRow(page, 'gf-set').getAttribute('aria-expanded')).toBe('true')
    await reFolder.locator('.twisty').click()
    await expect.poll(() => reFolder.getAttribute('aria-expanded')).toBe('false')
    await sourceRow(page, 'stadium-sample.z64.gz').click()
    await expect.poll(() => page.getByTestId('status-path').innerText()).toBe('stadium-sample.z64.gz')
    // the view as shown once its children are listed (under load it still read "Loading…" here)
    await page.locator('[data-testid="overview"][data-loading="0"]').waitFor({ timeout: 60_000 })
    const view = await page.getByTestId('overview').innerText()
    expect(view).toContain('stadium-sample.z64.gz')
    const rowsBefore = await page.locator('[data-testid^="tree-row-"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key))

    await page.reload()
    await expect.poll(() => selected(page).innerText(), { timeout: 60_000 }).toContain('stadium-sample.z64.gz')
    await expect.poll(() => sourceRow(page, 'gf-set').getAttribute('aria-expanded')).toBe('true')
    expect(await reFolder.getAttribute('aria-expanded')).toBe('false')
    await expect.poll(() => page.locator('[data-testid^="tree-row-"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key))).toEqual(rowsBefore)
    await page.locator('[data-testid="overview"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await expect.poll(() => page.getByTestId('overview').innerText()).toBe(view)
    await screenshot(page, 'habits-6-reloaded')
    expect(pageErrors).toEqual([])
  })

  it('Edit (undo/redo of the pose editor, copy path) and View (panel toggles with their shortcuts) menus', async () => {
    const { ctx, page } = await clipboardPage()
    const clip = () => page.evaluate(() => navigator.clipboard.readText())
    await sourceRow(page, 'gf-set').click()
    await page.getByTestId('menu-edit').click()
    expect(await page.getByTestId('menu-undo').isDisabled(), 'nothing to undo outside an editor').toBe(true)
    expect(await page.getByTestId('menu-redo').isDisabled()).toBe(true)
    await page.getByTestId('menu-copy-path').click()
    await expect.poll(clip).toBe(path.join(repoRoot, 'resources', 'samples', 'gf-set'))
    await sourceRow(page, 'snap-sample.z64.gz').click()
    await page.keyboard.press('Alt+Shift+C')
    await expect.poll(clip).toBe(path.join(repoRoot, 'resources', 'samples', 'snap-sample.z64.gz'))

    // View: the toggles show their state and answer their shortcuts
    await page.getByTestId('menu-view').click()
    expect(await page.getByTestId('menu-inspector').getAttribute('aria-checked')).toBe('true')
    expect(await page.getByTestId('menu-tree').getAttribute('aria-checked')).toBe('true')
    await page.getByTestId('menu-inspector').click()
    await page.getByTestId('inspector').waitFor({ state: 'hidden' })
    await page.keyboard.press('Control+i')
    await page.getByTestId('inspector').waitFor({ state: 'visible' })
    await page.keyboard.press('Control+b')
    await page.getByTestId('asset-tree').waitFor({ state: 'hidden' })
    await page.getByTestId('menu-view').click()
    expect(await page.getByTestId('menu-tree').getAttribute('aria-checked')).toBe('false')
    await screenshot(page, 'habits-7-view-menu')
    await page.getByTestId('menu-tree').click()
    await page.getByTestId('asset-tree').waitFor({ state: 'visible' })

    // Edit → Undo / Redo act on the pose editor's edits
    await sourceRow(page, 'sample.motlist.663').click()
    await page.getByTestId('re-pose-editor').waitFor({ timeout: 60_000 })
    await page.locator('[data-testid="re-bone-list"] [data-bone]').first().waitFor({ timeout: 60_000 })
    await page.getByTestId('re-bone-search').fill('head')
    await page.locator('[data-testid="re-bone-list"] [data-bone]', { hasText: /^\s*Head\s*$/ }).click()
    const y0 = await page.inputValue('[data-testid="re-euler-y"]')
    const yEdit = Math.abs(Number(y0) - 30) < 1 ? '45' : '30'
    await page.fill('[data-testid="re-euler-y"]', yEdit)
    await page.press('[data-testid="re-euler-y"]', 'Enter')
    await page.getByTestId('re-dirty').waitFor()
    await page.getByTestId('menu-edit').click()
    await page.getByTestId('menu-undo').click()
    await expect.poll(() => page.inputValue('[data-testid="re-euler-y"]')).toBe(y0)
    await page.getByTestId('menu-edit').click()
    expect(await page.getByTestId('menu-redo').isDisabled()).toBe(false)
    await page.getByTestId('menu-redo').click()
    await expect.poll(async () => Number(await page.inputValue('[data-testid="re-euler-y"]'))).toBeCloseTo(Number(yEdit), 1)
    await ctx.close()
  })

  it('Edit → Undo / Redo (and their keys) step through the pending texture replacements of a GF set', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await sourceRow(page, 'gf-set').click()
    const cell = page.getByTestId('gf-cell-1.bin-1')
    await cell.waitFor({ timeout: 60_000 })
    await cell.click()
    await page.getByTestId('gf-replace').click()
    await answerFileBrowser(page, path.join(home, 'body.png'))
    await page.getByTestId('gf-psnr').waitFor({ timeout: 60_000 })
    const pending = page.getByTestId('gf-pending')
    await expect.poll(() => pending.innerText()).toContain('pm0999_00_BodyB1')
    const changed = () => cell.evaluate((c) => c.classList.contains('changed'))
    expect(await changed()).toBe(true)

    await page.getByTestId('menu-edit').click()
    expect(await page.getByTestId('menu-redo').isDisabled(), 'nothing undone yet').toBe(true)
    await page.getByTestId('menu-undo').click()
    await expect.poll(changed).toBe(false)
    expect(await pending.locator('li').count(), 'the queue is empty again').toBe(0)
    expect(await page.getByTestId('gf-redo').isDisabled(), 'the set view offers the redo too').toBe(false)
    await page.getByTestId('menu-edit').click()
    expect(await page.getByTestId('menu-undo').isDisabled()).toBe(true)
    await page.getByTestId('menu-redo').click()
    await expect.poll(changed).toBe(true)
    await expect.poll(() => pending.innerText()).toContain('pm0999_00_BodyB1')

    // the same by keys, the focus outside a text field
    await cell.focus()
    await page.keyboard.press('Control+z')
    await expect.poll(changed).toBe(false)
    await page.keyboard.press('Control+Shift+Z')
    await expect.poll(changed).toBe(true)
    await screenshot(page, 'habits-8-gf-undo')
    expect(pageErrors).toEqual([])
  })

  it('a permalink reveals its asset with one catalog call and asks nothing twice (issue 26)', async () => {
    // the permalink of a texture three levels deep (set → 1.bin → texture), found by search
    const { page } = await openApp(browser, served)
    await page.getByTestId('search-input').fill('pm0999_00_BodyB1')
    await page.getByTestId('search-hit').first().click()
    await expect.poll(() => selected(page).innerText(), { timeout: 60_000 }).toContain('pm0999_00_BodyB1')
    await expect.poll(() => new URL(page.url()).searchParams.get('asset')).toMatch(/^\d+$/)
    const link = page.url()
    await page.close()

    const { page: opened, pageErrors } = await openApp(browser, { ...served, url: 'about:blank' })
    const asked: string[] = []
    opened.on('request', (r) => {
      const channel = decodeURIComponent(new URL(r.url()).pathname.replace(/^\/api\//, ''))
      if (channel.startsWith('catalog:')) asked.push(`${channel} ${r.postDataBuffer()?.toString('hex') ?? ''}`)
    })
    await opened.goto(link)
    await expect.poll(() => selected(opened).innerText(), { timeout: 60_000 }).toContain('pm0999_00_BodyB1')
    await expect.poll(() => opened.locator('[data-testid="tree-row-asset"][aria-expanded="true"]').count()).toBe(1) // 1.bin
    const channels = asked.map((a) => a.split(' ')[0])
    console.log(`permalink open asked: ${channels.join(', ')}`)
    expect(channels.filter((c) => c === 'catalog:reveal'), channels.join(', ')).toHaveLength(1)
    expect(channels.filter((c) => c === 'catalog:children' || c === 'catalog:asset'), 'the reveal brought every level').toEqual([])
    expect(new Set(asked).size, `no identical call twice: ${channels.join(', ')}`).toBe(asked.length)
    expect(pageErrors).toEqual([])
  })

  it('damaged files: a set with a bad 0.bin keeps its other textures and says what is wrong and what to do; a folder of only a bad 0.bin says so', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await sourceRow(page, 'gf-set').click()
    await page.getByTestId('gf-texture-grid').waitFor({ timeout: 60_000 })
    const cells = page.locator('[data-testid^="gf-cell-"]')
    await expect.poll(() => cells.count(), { timeout: 60_000 }).toBeGreaterThan(0)
    const intact = await cells.count()

    await openDialog(page, 'menu-open-folder')
    await answerFileBrowser(page, path.join(home, 'damaged', 'set'))
    await expect.poll(() => selected(page).locator('.name').innerText(), { timeout: 60_000 }).toBe('set')
    expect(await selected(page).getAttribute('data-testid')).toBe('tree-row-source')
    expect(await page.getByTestId('error-banner').allInnerTexts(), 'indexed, not failed').toEqual([])
    await page.getByTestId('gf-texture-grid').waitFor({ timeout: 60_000 })
    await expect.poll(() => cells.count(), { timeout: 60_000 }).toBe(intact)
    const warn = page.locator('[data-testid="gf-texture-grid"] details.warn')
    await warn.locator('summary').click()
    const text = await warn.innerText()
    expect(text).toContain('0.bin is damaged and was left out')
    expect(text).toContain("the set's other files are usable")
    expect(text).toContain('Replace 0.bin with an intact copy')
    expect(await page.locator('[data-testid="tree-row-asset"]', { hasText: '0.bin (damaged)' }).count()).toBe(1)
    await screenshot(page, 'habits-9-damaged-set')

    await openDialog(page, 'menu-open-folder')
    await answerFileBrowser(page, path.join(home, 'damaged', 'only'))
    // the file, what is wrong with it (structure and offset) and what to do; not a generic "nothing recognised"
    const only = path.join(home, 'damaged', 'only', '0.bin')
    await expect.poll(() => page.getByTestId('error-banner').allInnerTexts(), { timeout: 60_000 }).toContainEqual(expect.stringContaining(only))
    const said = (await page.getByTestId('error-banner').allInnerTexts()).find((t) => t.includes(only))!
    expect(said).toContain('0.bin is damaged: its Package at offset 0x0 is wrong')
    expect(said).toContain('Replace 0.bin with an intact copy')
    expect(said).not.toContain('holds no file Modbench recognises')
    expect(pageErrors).toEqual([])
  })
})
