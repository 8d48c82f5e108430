/**
 * GF texture flow in browser mode, against a real catalog and real files (our synthetic set):
 * select the set → texture grid with badges → open a texture → Replace… (path prompt) shows the
 * PSNR and before/after fitted to the pane → the cell's thumbnail shows the new picture → the
 * replacement is pending and survives a reload → Replace from folder… reports what matched, what
 * has the wrong size and what matched nothing → Repack set… writes a new set beside the input in
 * which only the replaced textures' file changed, indexes it and selects it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { execFileSync } from 'node:child_process'
import type { Browser } from 'playwright-core'
import { answerFileBrowser, launchBrowser, openApp, repoRoot, screenshot, startServe, type Served } from './harness'
import { buildSyntheticSet, gradientPicture } from '../fixtures/gf/build-set'
import { encodePng } from '../../src-main/domains/gf/png'

let served: Served
let browser: Browser
let dir: string
let setDir: string

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-gf-'))
  setDir = path.join(dir, 'pm0999')
  fs.mkdirSync(setDir)
  for (const [n, b] of buildSyntheticSet(2).files) fs.writeFileSync(path.join(setDir, n), b)
  fs.writeFileSync(path.join(setDir, 'new-body.png'), encodePng(gradientPicture(64, 64, 21, 8), 64, 64))
  // a folder of PNGs named as gf extract writes them (inside the indexed set: browser mode reads there)
  fs.mkdirSync(path.join(setDir, 'pngs', '1'), { recursive: true })
  fs.writeFileSync(path.join(setDir, 'pngs', '1', '0_pm0999_00_BodyA1.png'), encodePng(gradientPicture(128, 128, 5, 3), 128, 128))
  fs.writeFileSync(path.join(setDir, 'pngs', 'pm0999_00_Rim.png'), encodePng(gradientPicture(8, 8, 5), 8, 8))
  fs.writeFileSync(path.join(setDir, 'pngs', 'nobody.png'), encodePng(gradientPicture(8, 8, 5), 8, 8))
  const db = path.join(dir, 'catalog.sqlite')
  execFileSync(process.execPath, [path.join(repoRoot, 'bin', 'modbench.mjs'), 'index', setDir, '--db', db], { stdio: 'ignore' })
  served = await startServe({ db, samples: false })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** The RGBA pixels of the canvas under `selector` (drawn at the picture's own size). */
async function canvasPixels(page: import('playwright-core').Page, selector: string): Promise<number[]> {
  return page.$eval(selector, (c) => {
    const cv = c.tagName === 'CANVAS' ? (c as HTMLCanvasElement) : c.querySelector('canvas')!
    return Array.from(cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data)
  })
}

/** Mean absolute difference of the colour channels of two RGBA arrays. */
function meanDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0, n = 0
  for (let i = 0; i < a.length; i += 4) for (let c = 0; c < 3; c++, n++) sum += Math.abs(a[i + c]! - b[i + c]!)
  return sum / n
}

describe('GF textures in the app', () => {
  it('grid, texture view, replace with PSNR (fitted split, new thumbnail), reload keeps it, batch replace report, repack indexed and selected', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await page.click('[data-testid="tree-row-source"]')
    await page.waitForSelector('[data-testid="gf-cell-3.bin-9"]', { timeout: 60_000 })
    const cell = await page.textContent('[data-testid="gf-cell-1.bin-1"]')
    expect(cell).toContain('pm0999_00_BodyB1')
    expect(cell).toContain('64×64')
    expect(cell).toContain('ETC1A4')
    await screenshot(page, 'gf-grid')
    const cellSel = '[data-testid="gf-cell-1.bin-1"]'
    await page.waitForSelector(`${cellSel} [data-testid="gf-thumb"] canvas`)
    const oldThumb = await canvasPixels(page, `${cellSel} canvas`)
    const newPicture = gradientPicture(64, 64, 21, 8)
    await page.click(cellSel)
    await page.waitForSelector('[data-testid="gf-texture-view"]')
    await page.click('[data-testid="gf-replace"]')
    await answerFileBrowser(page, path.join(setDir, 'new-body.png'))
    await page.waitForSelector('[data-testid="gf-psnr"]', { timeout: 60_000 })
    const psnr = Number(/([\d.]+) dB/.exec((await page.textContent('[data-testid="gf-psnr"]'))!)![1])
    expect(psnr).toBeGreaterThan(30)
    expect(await page.textContent('[data-testid="gf-pending"]')).toContain('pm0999_00_BodyB1')
    // the split view is fitted: both pictures inside the pane, larger than 1×
    const stage = (await page.locator('[data-testid="gf-stage"]').boundingBox())!
    const figs = await page.locator('[data-testid="gf-stage"] figure canvas').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))
    expect(figs).toHaveLength(2)
    for (const f of figs) {
      expect(f.width).toBeGreaterThan(64)
      expect(f.x + f.width).toBeLessThanOrEqual(stage.x + stage.width + 1)
      expect(f.y + f.height).toBeLessThanOrEqual(stage.y + stage.height + 1)
    }
    expect(figs[1]!.y).toBe(figs[0]!.y)
    // the cell's thumbnail now shows the re-encoded new picture (ETC1A4: close, not exact)
    await page.waitForSelector(`${cellSel} [data-testid="gf-thumb-new"]`)
    const newThumb = await canvasPixels(page, `${cellSel} canvas`)
    expect(meanDiff(newThumb, newPicture)).toBeLessThan(6)
    expect(meanDiff(oldThumb, newPicture)).toBeGreaterThan(20)
    await screenshot(page, 'gf-replace')

    // a reload keeps the pending replacement of this set, thumbnail included
    await page.reload()
    await page.click('[data-testid="tree-row-source"]')
    await page.waitForSelector(`${cellSel} [data-testid="gf-thumb-new"]`, { timeout: 60_000 })
    expect(await page.textContent('[data-testid="gf-pending"]')).toContain('pm0999_00_BodyB1')
    expect(meanDiff(await canvasPixels(page, `${cellSel} canvas`), newPicture)).toBeLessThan(6)

    // batch replace from a folder: one match, one wrong size, one unknown name
    await page.click('[data-testid="gf-batch-replace"]')
    await answerFileBrowser(page, path.join(setDir, 'pngs'))
    await page.click('[data-testid="gf-batch-apply"]') // the matching is shown first (issue 22)
    await page.waitForSelector('[data-testid="gf-batch-report"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="gf-batch-matched"]')).toContain('1/0_pm0999_00_BodyA1.png → 1.bin #0')
    expect(await page.textContent('[data-testid="gf-batch-wrong-size"]')).toContain('8×8, the texture pm0999_00_Rim is 32×16')
    expect(await page.textContent('[data-testid="gf-batch-unmatched"]')).toContain('nobody.png')
    expect(await page.textContent('[data-testid="gf-pending"]')).toContain('pm0999_00_BodyA1')
    await page.waitForSelector('[data-testid="gf-cell-1.bin-0"] [data-testid="gf-thumb-new"]')
    await screenshot(page, 'gf-batch-replace')

    // repack beside the set: the new set is indexed and selected, its grid says what was written
    const out = path.join(dir, 'pm0999-repacked')
    await page.click('[data-testid="gf-repack"]')
    await answerFileBrowser(page, out)
    await page.waitForSelector('[data-testid="gf-status"]', { timeout: 60_000 })
    // the status is written once the service has answered, i.e. once the folder is in place; it
    // names the folder written, so a path other than the one typed shows here, not as ENOENT
    const written = (await page.textContent('[data-testid="gf-status"]'))!
    expect(written).toContain(`to ${out} (changed: 1.bin)`)
    for (const n of ['0.bin', '2.bin', '3.bin', '4.bin', '8.bin']) {
      expect(fs.readFileSync(path.join(out, n)).equals(fs.readFileSync(path.join(setDir, n)))).toBe(true)
    }
    expect(fs.readFileSync(path.join(out, '1.bin')).equals(fs.readFileSync(path.join(setDir, '1.bin')))).toBe(false)
    await page.waitForFunction(() => document.querySelector('[data-testid="asset-tree"] .row.selected')?.textContent?.includes('pm0999-repacked'), null, { timeout: 60_000 })
    await page.waitForSelector('[data-testid="gf-cell-1.bin-1"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="gf-status"]')).toContain(`repacked from ${setDir}`)
    await screenshot(page, 'gf-repacked')
    expect(pageErrors).toEqual([])
  })
})
