/**
 * GF model flow in browser mode (issue 11), against a real catalog and our synthetic set: the set's
 * texture grid → Show model → the model view with its motions grouped by file (slot labels), play,
 * LOD and shiny toggles; a pending texture replacement shows on the model; the batch export of a
 * folder writes the glb files and the manifest.
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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-gfm-'))
  setDir = path.join(dir, 'dump', 'pm0999')
  fs.mkdirSync(setDir, { recursive: true })
  for (const [n, b] of buildSyntheticSet(1).files) fs.writeFileSync(path.join(setDir, n), b)
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

describe('GF model in the app', () => {
  it('show model, motions, play, LOD, shiny, a pending texture on the model, batch export', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await page.click('[data-testid="tree-row-source"]')
    await page.waitForSelector('[data-testid="gf-cell-1.bin-0"]', { timeout: 60_000 })
    // a pending replacement made in the texture view…
    await page.click('[data-testid="gf-cell-1.bin-0"]')
    await page.waitForSelector('[data-testid="gf-texture-view"]')
    await page.click('[data-testid="gf-replace"]')
    await answerFileBrowser(page, path.join(setDir, 'new-body.png'))
    await page.waitForSelector('[data-testid="gf-pending"]', { timeout: 60_000 })
    // …then the model
    await page.click('[data-testid="gf-show-model"]')
    await page.waitForSelector('[data-testid="gf-motion-4.bin-0"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="gf-model-pending"]')).toContain('1 pending texture shown')
    expect(await page.textContent('[data-testid="gf-motions"]')).toContain('4.bin · Fight (battle)')
    expect(await page.textContent('[data-testid="gf-motion-4.bin-0"]')).toContain('00 Idle')
    await page.click('[data-testid="gf-motion-4.bin-0"]')
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="anim-frame"]')?.textContent?.split('/')[0]) > 0, null, { timeout: 30_000 })
    await screenshot(page, 'gf-model')
    await page.click('[data-testid="gf-variant-shiny"]')
    await page.waitForSelector('[data-testid="gf-model-view"][data-variant="shiny"]')
    await page.click('[data-testid="gf-lod-low"]')
    await page.waitForSelector('[data-testid="gf-model-view"][data-lod="low"]')
    await screenshot(page, 'gf-model-low-shiny')
    // Export .glb of the model shown (the low-poly asset) through scene:export, beside the set folder
    expect(await page.getByTestId('anim-panel').count()).toBe(1)
    expect(await page.getByTestId('render-panel').count()).toBe(1)
    await page.getByTestId('export-glb').click()
    await page.getByTestId('file-browser').waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('fb-name').inputValue()).toMatch(/pm0999\.glb$/)
    const glbOut = path.join(dir, 'pm0999-low.glb')
    await answerFileBrowser(page, glbOut)
    await expect.poll(async () => await page.getByTestId('export-result').textContent().catch(() => ''), { timeout: 60_000 }).toMatch(/^Wrote /)
    const glb = fs.readFileSync(glbOut)
    expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF')
    expect(glb.readUInt32LE(8)).toBe(glb.length)
    // the low-poly model's mesh, not the high one (the synthetic set names its meshes by LOD)
    const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8')) as { meshes: { name?: string }[] }
    console.log(`gf export meshes: ${json.meshes.map((m) => m.name).join(', ')}`)
    expect(json.meshes.map((m) => m.name ?? '').some((n) => n.includes('BodyLow'))).toBe(true)
    expect(json.meshes.map((m) => m.name ?? '').some((n) => /^Body(?!Low)/.test(n))).toBe(false)
    // batch export of the dump folder
    await page.click('[data-testid="gf-batch-open"]')
    const out = path.join(dir, 'dump', 'glb-out')
    await page.click('[data-testid="gf-batch-pick-dir"]')
    await answerFileBrowser(page, path.join(dir, 'dump'))
    fs.mkdirSync(out, { recursive: true }) // the folder browser picks an existing (empty) folder
    await page.click('[data-testid="gf-batch-pick-out"]')
    await answerFileBrowser(page, out)
    // the pick resolves after the dialog closes; the field follows on the next render (a busy CI
    // machine read it one tick early), so wait for it rather than read it once
    await expect.poll(async () => await page.inputValue('[data-testid="gf-batch-out"]'), { timeout: 10_000 }).toBe(out)
    await page.click('[data-testid="gf-batch-start"]')
    await page.waitForSelector('[data-testid="gf-batch-result"], [data-testid="gf-batch-error"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="gf-batch"]')).not.toMatch(/refused|error/i)
    expect(await page.textContent('[data-testid="gf-batch-result"]')).toContain('1 of 1 sets exported')
    expect(fs.existsSync(path.join(out, 'pm0999.glb'))).toBe(true)
    expect(JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'))[0]).toMatchObject({ set: 'pm0999', glb: 'pm0999.glb' })
    expect(pageErrors).toEqual([])
  })
})
