/**
 * GF texture flow in browser mode, against a real catalog and real files (our synthetic set):
 * select the set → texture grid with badges → open a texture → Replace… (path prompt) shows the
 * PSNR and before/after → the replacement is pending → Repack set… writes a new set in which only
 * the replaced texture's file changed.
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

describe('GF textures in the app', () => {
  it('grid, texture view, replace with PSNR, repack', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await page.click('[data-testid="tree-row-source"]')
    await page.waitForSelector('[data-testid="gf-cell-3.bin-9"]', { timeout: 60_000 })
    const cell = await page.textContent('[data-testid="gf-cell-1.bin-1"]')
    expect(cell).toContain('pm0999_00_BodyB1')
    expect(cell).toContain('64×64')
    expect(cell).toContain('ETC1A4')
    await screenshot(page, 'gf-grid')
    await page.click('[data-testid="gf-cell-1.bin-1"]')
    await page.waitForSelector('[data-testid="gf-texture-view"]')
    await page.click('[data-testid="gf-replace"]')
    await answerFileBrowser(page, path.join(setDir, 'new-body.png'))
    await page.waitForSelector('[data-testid="gf-psnr"]', { timeout: 60_000 })
    const psnr = Number(/([\d.]+) dB/.exec((await page.textContent('[data-testid="gf-psnr"]'))!)![1])
    expect(psnr).toBeGreaterThan(30)
    expect(await page.textContent('[data-testid="gf-pending"]')).toContain('pm0999_00_BodyB1')
    await screenshot(page, 'gf-replace')
    await page.click('[data-testid="gf-repack"]')
    await answerFileBrowser(page, path.join(setDir, 'repacked'))
    await page.waitForSelector('[data-testid="gf-status"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="gf-status"]')).toContain('changed: 1.bin')
    for (const n of ['0.bin', '2.bin', '3.bin', '4.bin', '8.bin']) {
      expect(fs.readFileSync(path.join(setDir, 'repacked', n)).equals(fs.readFileSync(path.join(setDir, n)))).toBe(true)
    }
    expect(fs.readFileSync(path.join(setDir, 'repacked', '1.bin')).equals(fs.readFileSync(path.join(setDir, '1.bin')))).toBe(false)
    expect(pageErrors).toEqual([])
  })
})
