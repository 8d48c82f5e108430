import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { Browser } from 'playwright-core'
import { answerFileBrowser, launchBrowser, openApp, screenshot, startServe, type Served } from './harness'
import { genericRom } from '../fixtures/platform/n64'

let served: Served
let browser: Browser
let files: string

beforeAll(async () => {
  files = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-files-'))
  fs.writeFileSync(path.join(files, 'e2e-game.z64'), genericRom('E2E TEST GAME', 'NE2E'))
  served = await startServe()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
  fs.rmSync(files, { recursive: true, force: true })
})

describe('browser mode API', () => {
  it('refuses API requests without the token (401)', async () => {
    const res = await fetch(`${served.origin}/api/catalog:sources`, { method: 'POST', body: '{}' })
    expect(res.status).toBe(401)
    const ok = await fetch(`${served.origin}/api/catalog:sources`, { method: 'POST', body: '{}', headers: { 'x-modbench-token': served.token } })
    expect(ok.status).toBe(200)
  })

  it('refuses paths outside what the user indexed or chose', async () => {
    for (const p of ['/etc/passwd', '../../etc/passwd', path.join(files, '..', '..', 'etc', 'passwd')]) {
      const res = await fetch(`${served.origin}/api/file?path=${encodeURIComponent(p)}&token=${served.token}`)
      expect(res.status).toBe(403)
    }
    const raw = await fetch(`${served.origin}/..%2F..%2F..%2Fetc%2Fpasswd`)
    expect([403, 404]).toContain(raw.status)
    expect(await raw.text()).not.toContain('root:')
  })

  it('binds 127.0.0.1 only', () => {
    expect(new URL(served.url).hostname).toBe('127.0.0.1')
  })
})

describe('app shell in Chromium', () => {
  it('indexes, shows the tree, searches, selects, and shows the inspector', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    // The empty catalog indexed the bundled samples on start; open a file through the File menu.
    await page.getByTestId('menu-file').click()
    await page.getByTestId('menu-open-file').click()
    await answerFileBrowser(page, path.join(files, 'e2e-game.z64'))
    const row = page.locator('[data-testid="tree-row-source"]', { hasText: 'e2e-game.z64' })
    await row.waitFor({ timeout: 60_000 })
    await page.getByTestId('search-input').fill('e2e')
    const hit = page.getByTestId('search-hit').filter({ hasText: 'E2E TEST GAME (NE2E)' })
    await hit.waitFor()
    await hit.click()
    await expect.poll(() => page.getByTestId('inspector').innerText()).toContain('NE2E')
    await row.click()
    await expect.poll(() => page.getByTestId('inspector').innerText()).toContain('n64-rom')
    await screenshot(page, 'platform-shell')
    expect(pageErrors).toEqual([])
    await page.close()
  })
})

describe('asset tree at scale', () => {
  it('shows 100 000 rows virtualized: few DOM rows, the last row reachable by scrolling', async () => {
    const { openCatalog } = await import('../../src-main/catalog/catalog')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-big-'))
    const db = path.join(dir, 'big.sqlite')
    const cat = openCatalog(db)
    const drafts = []
    for (let g = 0; g < 5; g++) {
      drafts.push({ key: `g${g}`, kind: 'group', name: `group ${g}`, locator: {} })
      for (let i = 0; i < 20_000; i++) drafts.push({ key: `g${g}a${i}`, parentKey: `g${g}`, kind: 'texture', name: `tex_${g}_${i}`, locator: {} })
    }
    cat.replaceSource({ path: path.join(dir, 'big-set'), size: 1, mtime: 1, hash: 'big', kind: 'gf-set' }, drafts)
    cat.close()
    const big = await startServe({ db, samples: false })
    try {
      const { page, pageErrors } = await openApp(browser, big)
      const src = page.locator('[data-testid="tree-row-source"]').first()
      await src.waitFor()
      await src.dblclick()
      for (let g = 4; g >= 0; g--) {
        const row = page.locator('[data-testid="tree-row-asset"]', { hasText: `group ${g}` }).first()
        await row.waitFor()
        await row.dblclick()
        await page.locator('[data-testid="tree-row-asset"]', { hasText: `tex_${g}_0` }).first().waitFor()
      }
      const domRows = await page.locator('[data-testid^="tree-row-"]').count()
      expect(domRows).toBeLessThan(200)
      await page.getByTestId('asset-tree').evaluate((el) => (el.scrollTop = el.scrollHeight))
      await page.locator('[data-testid="tree-row-asset"]', { hasText: 'tex_4_19999' }).waitFor()
      await screenshot(page, 'tree-100k')
      expect(pageErrors).toEqual([])
      await page.close()
    } finally {
      await big.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
