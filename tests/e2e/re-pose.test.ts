/**
 * RE pose editor in browser mode, against a real catalog and our synthetic files: select the
 * template motlist → skeleton in the 3D view and the bone tree → select a bone, edit its Euler
 * angle, undo/redo with the keyboard → apply an EMV pose entry → Save As… (path prompt) writes a
 * motlist that reads back to the edited rotations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { execFileSync } from 'node:child_process'
import type { Browser } from 'playwright-core'
import { PNG } from 'pngjs'
import { answerFileBrowser, launchBrowser, openApp, repoRoot, screenshot, startServe, type Served } from './harness'
import { buildTemplateMotlist } from '../fixtures/re/template'
import { twoPoseFile } from '../fixtures/re/poses'
import { readMotlist, sampleMot, eulerToQuat, quatAngle, quatMultiply, type Quat } from '../../src-shared/formats/re'

let served: Served
let browser: Browser
let dir: string

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-re-'))
  fs.writeFileSync(path.join(dir, 'e2e_template.motlist.663'), buildTemplateMotlist({ motlistName: 'e2e_template' }))
  fs.writeFileSync(path.join(dir, 'AppResident.Instance.Body.e2e.json'), twoPoseFile())
  const db = path.join(dir, 'catalog.sqlite')
  execFileSync(process.execPath, [path.join(repoRoot, 'bin', 'modbench.mjs'), 'index', dir, '--db', db], { stdio: 'ignore' })
  served = await startServe({ db, samples: false })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('RE pose editor in the app', () => {
  it('template → bone edit → undo/redo → EMV pose → Save As motlist', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    const src = page.locator('[data-testid="tree-row-source"]', { hasText: 'e2e_template.motlist.663' })
    await src.waitFor({ timeout: 60_000 })
    await src.click()
    await page.waitForSelector('[data-testid="re-pose-editor"]', { timeout: 60_000 })
    await page.waitForSelector('[data-testid="re-bone-list"] [data-bone="7"]', { timeout: 60_000 })
    expect(await page.locator('[data-testid="re-bone-list"] [data-bone]').count()).toBe(40)
    await page.fill('[data-testid="re-bone-search"]', 'head')
    await page.locator('[data-testid="re-bone-list"] [data-bone]', { hasText: /^\s*Head\s*$/ }).click()
    await page.fill('[data-testid="re-bone-search"]', '')
    expect(await page.textContent('[data-testid="re-selected-bone"]')).toBe('Head')
    await page.fill('[data-testid="re-euler-y"]', '30')
    await page.press('[data-testid="re-euler-y"]', 'Enter')
    await page.locator('[data-testid="re-dirty"]').waitFor()
    await screenshot(page, 're-pose-editor')
    // the 3D view drew something (joints, links, gizmo) on its canvas
    const png = await page.locator('[data-testid="re-canvas"]').screenshot()
    expect(png.byteLength).toBeGreaterThan(2000)
    // undo / redo from the keyboard (focus outside the text fields)
    await page.locator('[data-testid="re-canvas"]').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('Control+z')
    await page.locator('[data-testid="re-dirty"]').waitFor({ state: 'detached' })
    await page.keyboard.press('Control+Shift+z')
    await page.locator('[data-testid="re-dirty"]').waitFor()
    expect(Number(await page.inputValue('[data-testid="re-euler-y"]'))).toBeCloseTo(30, 3)
    // a gizmo drag on the Y ring (green) changes the bone; one Ctrl+Z undoes the whole drag
    const canvas = page.locator('[data-testid="re-canvas"]')
    const box = (await canvas.boundingBox())!
    const img = PNG.sync.read(await canvas.screenshot())
    let best: [number, number] | null = null
    // the lowest green pixel with no red or blue ring pixel within 4 px (so the drag grabs Y, not a crossing ring)
    const at = (x: number, y: number) => (y * img.width + x) * 4
    const otherRing = (x: number, y: number) => {
      for (let dy = -4; dy <= 4; dy++) for (let dx = -4; dx <= 4; dx++) {
        const xx = x + dx, yy = y + dy
        if (xx < 0 || yy < 0 || xx >= img.width || yy >= img.height) continue
        const j = at(xx, yy)
        if ((img.data[j]! > 180 && img.data[j + 1]! < 90) || (img.data[j + 2]! > 180 && img.data[j + 1]! < 90)) return true
      }
      return false
    }
    for (let y = 0; y < img.height; y++) {
      for (let x = 0; x < img.width; x++) {
        const i = at(x, y)
        if (img.data[i + 1]! > 180 && img.data[i]! < 90 && img.data[i + 2]! < 90 && (!best || y > best[1]) && !otherRing(x, y)) best = [x, y]
      }
    }
    expect(best, 'the rotation gizmo\'s green ring is drawn').not.toBeNull()
    const sx = box.x + (best![0] * box.width) / img.width
    const sy = box.y + (best![1] * box.height) / img.height
    await page.mouse.move(sx, sy)
    await page.mouse.down()
    for (let k = 1; k <= 12; k++) await page.mouse.move(sx + k * 6, sy, { steps: 2 })
    await page.mouse.up()
    await expect.poll(async () => Number(await page.inputValue('[data-testid="re-euler-y"]')), { timeout: 10_000 }).not.toBeCloseTo(30, 1)
    await screenshot(page, 're-pose-gizmo-drag')
    await canvas.click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('Control+z')
    await expect.poll(async () => Number(await page.inputValue('[data-testid="re-euler-y"]')), { timeout: 10_000 }).toBeCloseTo(30, 3)
    // Save As… through the file browser (the path typed)
    const out = path.join(dir, 'saved', 'head_turn.motlist.663')
    await page.click('[data-testid="re-save"]')
    await answerFileBrowser(page, out)
    await page.waitForSelector('[data-testid="re-status"]:has-text("Saved")', { timeout: 60_000 })
    expect(fs.existsSync(out)).toBe(true)
    const ml = readMotlist(new Uint8Array(fs.readFileSync(out)))
    const head = sampleMot(ml.mots[0]!, ml.skeleton, 0).find((b) => b.bone === 'Head')!
    expect(quatAngle(head.rotation, eulerToQuat([0.1, (30 * Math.PI) / 180, 0]))).toBeLessThan(1e-5)
    expect(await page.locator('[data-testid="re-dirty"]').count()).toBe(0)
    expect(pageErrors).toEqual([])
  })

  it('at 1280×800: the view gets most of the width, a motion plays and scrubs, R X 90 Enter and Ctrl+Z', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await page.setViewportSize({ width: 1280, height: 800 })
    const src = page.locator('[data-testid="tree-row-source"]', { hasText: 'e2e_template.motlist.663' })
    await src.waitFor({ timeout: 60_000 })
    await src.click()
    await page.waitForSelector('[data-testid="re-timeline"]', { timeout: 60_000 })
    // the bone tree starts folded at this size: the 3D view gets most of the editor's width
    expect(await page.locator('[data-testid="re-left-panel"]').isVisible()).toBe(false)
    const editorBox = (await page.locator('[data-testid="re-pose-editor"]').boundingBox())!
    const canvasBox = (await page.locator('[data-testid="re-canvas"]').boundingBox())!
    expect(canvasBox.width).toBeGreaterThan(editorBox.width * 0.6)
    // play: the frame counter runs; pause; scrub to frame 10
    const readout = page.locator('[data-testid="re-timeline-frame"]')
    await page.click('[data-testid="re-timeline-play"]')
    await expect.poll(async () => Number(/frame (\d+)/.exec((await readout.textContent()) ?? '')?.[1] ?? 0), { timeout: 20_000 }).toBeGreaterThan(0)
    await screenshot(page, 're-pose-1280-playing')
    await page.click('[data-testid="re-timeline-play"]')
    await page.locator('[data-testid="re-timeline-scrub"]').fill('10')
    await expect.poll(async () => readout.textContent()).toMatch(/frame 10 \/ \d+ · 0\.\d+ s/)
    // pick Head in the (unfolded) tree, fold it again
    await page.click('[data-testid="re-toggle-bones"]')
    await page.fill('[data-testid="re-bone-search"]', 'head')
    await page.locator('[data-testid="re-bone-list"] [data-bone]', { hasText: /^\s*Head\s*$/ }).click()
    await page.click('[data-testid="re-toggle-bones"]')
    const quat = async () => JSON.parse(`[${/\(([^)]*)\)/.exec((await page.textContent('[data-testid="re-quat"]')) ?? '')![1]}]`) as Quat
    const q0 = await quat()
    // R X 90 Enter: 90° about the bone's local X (q0 · Rx), one undo step; the view leaves the motion
    await page.keyboard.press('r')
    await page.keyboard.press('x')
    await page.keyboard.type('90')
    await expect.poll(async () => page.textContent('[data-testid="re-rotate-hud"]')).toContain('Rotate local X: 90°')
    await page.keyboard.press('Enter')
    await page.locator('[data-testid="re-rotate-hud"]').waitFor({ state: 'detached' })
    const want = quatMultiply(q0, [Math.SQRT1_2, 0, 0, Math.SQRT1_2])
    expect(quatAngle(await quat(), want)).toBeLessThan(1e-4)
    expect(await readout.textContent()).toContain('editing the pose')
    await page.locator('[data-testid="re-dirty"]').waitFor()
    await screenshot(page, 're-pose-1280-rotated')
    await page.keyboard.press('Control+z')
    await page.locator('[data-testid="re-dirty"]').waitFor({ state: 'detached' })
    expect(quatAngle(await quat(), q0)).toBeLessThan(1e-4)
    // use a frame of the motion as the start pose
    await page.locator('[data-testid="re-timeline-scrub"]').fill('12')
    await page.click('[data-testid="re-timeline-use"]')
    await page.waitForSelector('[data-testid="re-status"]:has-text("frame 12")')
    await page.locator('[data-testid="re-dirty"]').waitFor()
    expect(pageErrors).toEqual([])
  })

  it('an EMV pose entry applies onto the last template', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    // remember the template first (as the previous test did in its own page)
    const src = page.locator('[data-testid="tree-row-source"]', { hasText: 'e2e_template.motlist.663' })
    await src.waitFor({ timeout: 60_000 })
    await src.click()
    await page.waitForSelector('[data-testid="re-bone-list"] [data-bone="7"]', { timeout: 60_000 })
    const poseSrc = page.locator('[data-testid="tree-row-source"]', { hasText: 'AppResident.Instance.Body.e2e.json' })
    await poseSrc.click()
    await page.waitForSelector('[data-testid="re-status"]:has-text("Applied pose")', { timeout: 60_000 })
    expect(await page.textContent('[data-testid="re-status"]')).toContain('"ArmsDown"')
    expect(await page.textContent('[data-testid="re-pose-editor"]')).toContain('ch_Hair_07')
    await page.selectOption('[data-testid="re-pose-choice"]', 'Sit')
    await page.waitForSelector('[data-testid="re-status"]:has-text("Sit")')
    await screenshot(page, 're-pose-emv')
    expect(pageErrors).toEqual([])
  })
})
