/**
 * The USUM workflow of issue 22 in browser mode, against a real catalog and our synthetic model
 * archive (tests/fixtures/gf/build-garc.ts) at `romfs/a/0/9/4` of a dump folder: the dump's
 * "Pokémon models" in the tree → a set inside the archive opens as textures (batch replace from
 * one flat folder: the matching shown first, normal and `_shiny`) and model (pending textures
 * shown, Export .glb with them) → a replacement in a second set → "Write mod…" refuses the dump,
 * then writes one archive with both sets into a LayeredFS folder for Ultra Moon; every other entry
 * byte for byte and the dump untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { execFileSync } from 'node:child_process'
import type { Browser, Page } from 'playwright-core'
import { answerFileBrowser, launchBrowser, openApp, repoRoot, screenshot, startServe, type Served } from './harness'
import { buildModelArchive } from '../fixtures/gf/build-garc'
import { oracleReadGarc } from '../oracles/garc-reader'
import { glbImageBytes } from '../helpers/glb'
import { decodePng, encodePng } from '../../src-main/domains/gf/png'
import { GarcFile } from '../../src-main/domains/gf/garc-file'
import { findTexture, parseGfSet } from '../../src-shared/formats/gf/gf-set'
import { decodeGfTexture } from '../../src-shared/formats/gf/texture'

let served: Served
let browser: Browser
let dir: string
let archive: string
const built = buildModelArchive(6)
const solid = (w: number, h: number, rgba: number[]) => encodePng(new Uint8Array(w * h * 4).map((_, i) => rgba[i % 4]!), w, h)

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-garc-'))
  archive = path.join(dir, 'usum', 'romfs', 'a', '0', '9', '4')
  fs.mkdirSync(path.dirname(archive), { recursive: true })
  fs.writeFileSync(archive, built.bytes)
  // one flat folder: the normal eye by its bare name, the shiny one with _shiny (set 0 shares the names)
  fs.mkdirSync(path.join(dir, 'pngs'))
  fs.writeFileSync(path.join(dir, 'pngs', 'pm0999_00_Eye1.png'), solid(32, 32, [255, 0, 0, 255]))
  fs.writeFileSync(path.join(dir, 'pngs', 'pm0999_00_Eye1_shiny.png'), solid(32, 32, [0, 255, 0, 255]))
  fs.writeFileSync(path.join(dir, 'blue.png'), solid(32, 32, [0, 0, 255, 255]))
  const db = path.join(dir, 'catalog.sqlite')
  execFileSync(process.execPath, [path.join(repoRoot, 'bin', 'modbench.mjs'), 'index', path.join(dir, 'usum'), '--db', db], { stdio: 'ignore' })
  served = await startServe({ db, samples: false })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** RGBA of the first texel of a texture of set `n` in an archive file. */
async function texel(file: string, n: number, member: string, entry: number): Promise<number[]> {
  const s = await GarcFile.with(file, (g) => g.readSet(n))
  const t = findTexture(parseGfSet(s.files), member, entry)
  return Array.from(decodeGfTexture(t.bytes, t.header).subarray(0, 4))
}

const setRow = (page: Page, name: string) => page.locator('[data-kind="gf-garc-set"]').filter({ has: page.locator('.name', { hasText: new RegExp(`^${name.replace(/[()]/g, '\\$&')}$`) }) })

describe('USUM: dump → open → replace → write mod', () => {
  it('sets inside the model archive work as folders; Write mod writes both sets into a LayeredFS folder', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    const source = page.locator('[data-kind="gf-models"]')
    await source.waitFor({ timeout: 60_000 })
    expect(await source.locator('.name').textContent()).toBe('Pokémon models (a/0/9/4)')
    await source.locator('.twisty').click()
    await setRow(page, 'Pikachu').waitFor({ timeout: 60_000 })

    // set 0: batch replace from one flat folder, the matching shown before anything is queued
    await setRow(page, 'pm0999_00').click()
    await page.waitForSelector('[data-testid="gf-garc-set-view"] [data-testid="gf-cell-2.bin-2"]', { timeout: 60_000 })
    await page.click('[data-testid="gf-batch-replace"]')
    await answerFileBrowser(page, path.join(dir, 'pngs'))
    await page.waitForSelector('[data-testid="gf-batch-review"]', { timeout: 60_000 })
    expect(await page.locator('[data-testid="gf-batch-matched"]').allTextContents()).toEqual([
      'pm0999_00_Eye1.png → 1.bin #2 pm0999_00_Eye1 · normal',
      'pm0999_00_Eye1_shiny.png → 2.bin #2 pm0999_00_Eye1 · shiny',
    ])
    expect(await page.locator('[data-testid="gf-pending"]').count()).toBe(0)
    await page.click('[data-testid="gf-batch-apply"]')
    await page.waitForSelector('[data-testid="gf-batch-report"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="gf-batch-report"]')).toContain('2 replaced')
    await page.waitForSelector('[data-testid="gf-cell-2.bin-2"] [data-testid="gf-thumb-new"]')
    await screenshot(page, 'gf-garc-batch')

    // its model, with the pending textures shown; Export .glb includes them (ticked by default) and says so
    await page.click('[data-testid="gf-tab-model"]')
    await page.waitForSelector('[data-testid="gf-motion-4.bin-0"]', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="gf-model-pending"]')).toContain('2 pending textures shown')
    expect(await page.isChecked('[data-testid="gf-export-pending-toggle"]')).toBe(true)
    const glbOut = path.join(dir, 'out', 'pm0999.glb')
    fs.mkdirSync(path.dirname(glbOut))
    await page.click('[data-testid="export-glb"]')
    expect(await page.getByTestId('fb-name').inputValue()).not.toContain(`${path.sep}romfs${path.sep}`)
    await answerFileBrowser(page, glbOut)
    await expect.poll(async () => await page.getByTestId('export-result').textContent().catch(() => ''), { timeout: 60_000 }).toMatch(/^Wrote .* with 2 pending replacements$/)
    expect(Array.from(decodePng(glbImageBytes(new Uint8Array(fs.readFileSync(glbOut)), '1_2_pm0999_00_Eye1')).rgba.subarray(0, 4))).toEqual([255, 0, 0, 255])
    await screenshot(page, 'gf-garc-model')

    // set 1 (Pikachu): one texture replaced in the texture view
    await setRow(page, 'Pikachu').click()
    await page.waitForSelector('[data-testid="gf-garc-set-view"] [data-testid="gf-cell-1.bin-2"]', { timeout: 60_000 })
    await page.click('[data-testid="gf-cell-1.bin-2"]')
    await page.click('[data-testid="gf-replace"]')
    await answerFileBrowser(page, path.join(dir, 'blue.png'))
    await expect.poll(async () => await page.textContent('[data-testid="gf-pending"]').catch(() => ''), { timeout: 60_000 }).toContain('pm0025_00_Eye1')

    // Write mod: both sets; the dump itself is refused, then Ultra Moon's LayeredFS folder
    await page.click('[data-testid="gf-write-mod-toggle"]')
    const panel = page.getByTestId('gf-write-mod')
    expect(await panel.textContent()).toContain('3 pending textures in 2 sets')
    await page.check('[data-testid="gf-mod-kind-archive"]')
    await page.fill('[data-testid="gf-mod-out"]', archive)
    await page.click('[data-testid="gf-mod-write"]')
    await expect.poll(async () => await page.textContent('[data-testid="gf-mod-error"]').catch(() => ''), { timeout: 60_000 }).toMatch(/input/)
    await page.check('[data-testid="gf-mod-kind-layeredfs"]')
    await page.selectOption('[data-testid="gf-mod-title"]', '00040000001B5100')
    const sd = path.join(dir, 'sd')
    await page.fill('[data-testid="gf-mod-dir"]', sd)
    const out = path.join(sd, 'luma', 'titles', '00040000001B5100', 'romfs', 'a', '0', '9', '4')
    expect(await page.textContent('[data-testid="gf-mod-file"]')).toBe(`writes ${sd}/luma/titles/00040000001B5100/romfs/a/0/9/4`)
    await page.click('[data-testid="gf-mod-write"]')
    await expect.poll(async () => await page.textContent('[data-testid="gf-mod-result"]').catch(() => ''), { timeout: 120_000 }).toContain(`Wrote ${out}: set 0 (2 textures, 1.bin, 2.bin); set 1 (1 texture, 1.bin)`)
    await screenshot(page, 'gf-garc-write-mod')

    const before = oracleReadGarc(new Uint8Array(built.bytes))
    const after = oracleReadGarc(new Uint8Array(fs.readFileSync(out)))
    const changed = after.entries.map((e, i) => (Buffer.from(e.bytes).equals(Buffer.from(before.entries[i]!.bytes)) ? null : i)).filter((i) => i !== null)
    expect(changed).toEqual([1, 2, 10])
    expect(await texel(out, 0, '1.bin', 2)).toEqual([255, 0, 0, 255])
    expect(await texel(out, 0, '2.bin', 2)).toEqual([0, 255, 0, 255])
    expect(await texel(out, 1, '1.bin', 2)).toEqual([0, 0, 255, 255])
    expect(fs.readFileSync(archive).equals(Buffer.from(built.bytes))).toBe(true)
    expect(pageErrors).toEqual([])
  })
})
