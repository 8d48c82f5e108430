/**
 * The three user flows of Modbench, end to end in browser mode on the bundled samples
 * (resources/samples: our own synthetic files), as a first-time user walks them from an empty
 * catalog that indexes the samples on start:
 *  1. explore a ROM: welcome page → a Snap stage (revealed in the tree, drawn in the viewport),
 *     step out to the game with the keyboard (overview lists the stages), search a Stadium
 *     species and open it from the keyboard (revealed in the tree, drawn);
 *  2. edit a pose: open the template motlist, rotate a bone, undo/redo with Ctrl+Z /
 *     Ctrl+Shift+Z, Save As… a `.motlist.663` that `modbench re info` / `re sample` read back
 *     with the edited rotation;
 *  3. replace a texture: find it by name, replace it from a PNG, repack the set into a new
 *     folder: only that texture's bytes change, and `gf extract` gives back the PNG.
 * Screenshots are kept in test-artifacts/flow-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import type { Browser, Locator, Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { answerFileBrowser, framesDrawn, launchBrowser, openApp, repoRoot, screenshot, startServe, type Served } from './harness'
import { eulerToQuat, quatAngle, type EulerOrder, type Quat, type Vec3 } from '../../src-shared/formats/re/euler'

const samples = path.join(repoRoot, 'resources', 'samples')
const gfSample = path.join(samples, 'gf-set')
const cli = path.join(repoRoot, 'bin', 'modbench.mjs')

let served: Served
let browser: Browser
let dir: string
/** The sample set's files as they were when the test started (other tools never touch them). */
const gfBefore = new Map<string, Buffer>()
const sampleHashes = new Map<string, string>()

function hashTree(root: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out.set(path.relative(root, p), createHash('sha256').update(fs.readFileSync(p)).digest('hex'))
    }
  }
  walk(root)
  return out
}

function runJson<T>(args: string[]): T {
  return JSON.parse(execFileSync(process.execPath, [cli, ...args, '--json'], { cwd: repoRoot, encoding: 'utf8' })) as T
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-flows-'))
  for (const n of fs.readdirSync(gfSample)) if (/^\d\.bin$/.test(n)) gfBefore.set(n, fs.readFileSync(path.join(gfSample, n)))
  for (const [k, v] of hashTree(samples)) sampleHashes.set(k, v)
  // A fresh catalog: browser mode indexes the bundled samples on its first start.
  served = await startServe({ db: path.join(dir, 'catalog.sqlite') })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await served?.close()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

interface Pixels { width: number; height: number; data: Uint8Array }

async function pixels(el: Locator): Promise<Pixels> {
  const png = PNG.sync.read(await el.screenshot())
  return { width: png.width, height: png.height, data: new Uint8Array(png.data) }
}
/** Pixels that differ between two pictures of the same element. */
function changed(a: Pixels, b: Pixels): number {
  let n = 0
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 24) n++
  }
  return n
}
/** Pixels away from the background (the most frequent colour) by more than a small margin. */
function foreground(p: Pixels): number {
  const counts = new Map<number, number>()
  for (let i = 0; i < p.data.length; i += 4) {
    const k = (p.data[i]! << 16) | (p.data[i + 1]! << 8) | p.data[i + 2]!
    counts.set(k, (counts.get(k) ?? 0) + 1)
  }
  const bg = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
  const br = bg >> 16, bgG = (bg >> 8) & 255, bb = bg & 255
  let n = 0
  for (let i = 0; i < p.data.length; i += 4) if (Math.abs(p.data[i]! - br) + Math.abs(p.data[i + 1]! - bgG) + Math.abs(p.data[i + 2]! - bb) > 30) n++
  return n
}
/** Strongly coloured pixels (grid lines and background are grey; textures are not). */
function colourful(p: Pixels): number {
  let n = 0
  for (let i = 0; i < p.data.length; i += 4) {
    const r = p.data[i]!, g = p.data[i + 1]!, b = p.data[i + 2]!
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) n++
  }
  return n
}
/**
 * Waits until two pictures with frames drawn between them agree (the engine finished loading and
 * drawing): a condition on drawn frames, not on elapsed time (issue 27).
 */
async function settled(el: Locator, page: Page): Promise<Pixels> {
  let last = await pixels(el)
  for (let i = 0; i < 60; i++) {
    await framesDrawn(page, 3)
    const now = await pixels(el)
    if (changed(last, now) === 0) return now
    last = now
  }
  return last
}
const selectedTreeRow = (page: Page) => page.locator('[data-testid^="tree-row-"].selected')

describe('user flows on the bundled samples (browser mode, Chromium)', () => {
  it('flow 1: open the app and explore a ROM (Snap stage, Stadium model)', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    // First start: the welcome page offers the flows once the samples are indexed.
    await page.getByTestId('welcome').waitFor({ timeout: 60_000 })
    const snapCard = page.locator('[data-testid="welcome-snap"]:not([disabled])')
    await snapCard.waitFor({ timeout: 120_000 })
    await screenshot(page, 'flow-1-welcome')

    // One click: the first stage opens and is revealed (selected) in the tree.
    await snapCard.click()
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await expect.poll(() => selectedTreeRow(page).innerText()).toContain('Beach')
    await expect.poll(() => page.getByTestId('inspector').innerText()).toContain('snap-stage')
    await expect.poll(() => page.getByTestId('status-path').innerText()).toBe('snap-sample.z64.gz › Pokémon Snap (unverified) › Beach')
    const anim = page.getByTestId('snap-toggle-anim')
    if (await anim.count()) await anim.uncheck()
    const snapCanvas = page.getByTestId('snap-canvas')
    const stage = await settled(snapCanvas, page)
    expect(foreground(stage), 'the stage draws over the background').toBeGreaterThan(stage.width * stage.height * 0.05)
    await screenshot(page, 'flow-1-snap-stage')
    // The drawn pixels are the stage's: hiding its rooms and skybox changes the picture.
    for (const t of ['snap-toggle-path', 'snap-toggle-nonpath', 'snap-toggle-skybox']) await page.getByTestId(t).uncheck()
    const empty = await settled(snapCanvas, page)
    expect(changed(stage, empty), 'hiding the rooms removes what was drawn').toBeGreaterThan(stage.width * stage.height * 0.03)
    for (const t of ['snap-toggle-path', 'snap-toggle-nonpath', 'snap-toggle-skybox']) await page.getByTestId(t).check()

    // Keyboard in the tree: → expands the stage, ↓ walks into its room group and rooms; the one
    // stage view stays (no reload) and follows the selected room.
    const tree = page.getByTestId('asset-tree')
    const selectedKind = () => selectedTreeRow(page).getAttribute('data-kind')
    await page.getByTestId('snap-stage').evaluate((el) => ((el as HTMLElement & { mark?: number }).mark = 1))
    await tree.focus()
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => page.locator('[data-testid="tree-row-asset"][data-kind="snap-room-group"]').count()).toBe(2)
    await page.keyboard.press('ArrowDown')
    await expect.poll(selectedKind).toBe('snap-room-group')
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => page.locator('[data-testid="tree-row-asset"][data-kind="snap-room"]').count()).toBeGreaterThan(1)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => selectedTreeRow(page).innerText()).toContain('Path room 1')
    await expect.poll(() => page.getByTestId('snap-room-path-1').getAttribute('class')).toContain('sel')
    await page.getByTestId('snap-room-data').waitFor()
    expect(await page.getByTestId('snap-stage').evaluate((el) => (el as HTMLElement & { mark?: number }).mark), 'the stage view was kept').toBe(1)
    await screenshot(page, 'flow-1-snap-room')

    // ← steps out (to the group, collapses it, to the stage, collapses it) up to the game,
    // whose overview lists the stages.
    for (const kind of ['snap-room-group', 'snap-room-group', 'snap-stage', 'snap-stage', 'snap-game']) {
      await page.keyboard.press('ArrowLeft')
      await expect.poll(selectedKind).toBe(kind)
    }
    await page.getByTestId('overview').waitFor()
    await expect.poll(() => selectedTreeRow(page).getAttribute('data-kind')).toBe('snap-game')
    await expect.poll(() => page.getByTestId('overview-child').count()).toBe(7)
    await screenshot(page, 'flow-1-snap-game-overview')
    // A stage from the overview opens like one from the tree.
    await page.getByTestId('overview-child').filter({ hasText: 'Tunnel' }).click()
    await page.locator('[data-testid="snap-stage"][data-stage="tunnel"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await expect.poll(() => selectedTreeRow(page).innerText()).toContain('Tunnel')

    // Search a species, open the hit from the keyboard: it is revealed in the tree and drawn.
    // "/" outside a text field jumps to the search box.
    const search = page.getByTestId('search-input')
    await page.getByTestId('asset-tree').focus()
    await page.keyboard.press('/')
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.type('Bulbasaur')
    // the hits of the whole word (those of "B", "Bu", … typed before it may still be listed a moment)
    await page.locator('[data-testid="search-results"][data-query="Bulbasaur"]').waitFor({ timeout: 30_000 })
    expect(await page.getByTestId('search-hit').first().innerText()).toContain('stadium-sample')
    await search.press('ArrowDown')
    await search.press('Enter')
    await page.locator('[data-testid="stadium-view"][data-model="001_bulbasaur"]').waitFor({ timeout: 60_000 })
    await expect.poll(() => selectedTreeRow(page).innerText()).toContain('001 Bulbasaur')
    const stadiumCanvas = page.getByTestId('stadium-canvas')
    const model = await settled(stadiumCanvas, page)
    expect(colourful(model), 'the textured model is drawn').toBeGreaterThan(model.width * model.height * 0.01)
    await page.getByTestId('stadium-toggle-textures').uncheck()
    const plain = await settled(stadiumCanvas, page)
    expect(changed(model, plain), 'the colours come from the model’s textures').toBeGreaterThan(model.width * model.height * 0.005)
    await page.getByTestId('stadium-toggle-textures').check()
    await screenshot(page, 'flow-1-stadium-model')
    // Its animations are in the tree under it: picking one there switches the clip in place.
    await page.getByTestId('stadium-view').evaluate((el) => ((el as HTMLElement & { mark?: number }).mark = 1))
    await tree.focus()
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => page.locator('[data-testid="tree-row-asset"][data-kind="stadium-animation"]').count()).toBeGreaterThan(2)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await expect.poll(selectedKind).toBe('stadium-animation')
    const clipName = (await selectedTreeRow(page).locator('.name').innerText()).trim()
    const clipIndex = Number(clipName.split(' ')[0])
    await expect.poll(() => page.getByTestId(`stadium-clip-${clipIndex}`).getAttribute('class')).toContain('active')
    expect(await page.getByTestId('stadium-view').evaluate((el) => (el as HTMLElement & { mark?: number }).mark), 'the model view was kept').toBe(1)
    await screenshot(page, 'flow-1-stadium-clip')
    // Esc clears the search; the selection stays.
    await search.press('Escape')
    expect(await search.inputValue()).toBe('')
    expect(await page.getByTestId('search-results').count()).toBe(0)
    await expect.poll(() => selectedTreeRow(page).innerText()).toContain(clipName)
    // Typing in the tree jumps to the next row whose name starts with the letters.
    await tree.focus()
    await page.keyboard.type('gf')
    await expect.poll(() => selectedTreeRow(page).getAttribute('data-kind')).toBe('gf-set')
    await page.getByTestId('gf-texture-grid').waitFor()
    // The brand goes back to the start page.
    await page.getByTestId('menu-home').click()
    await page.getByTestId('welcome').waitFor()
    expect(await selectedTreeRow(page).count()).toBe(0)
    expect(pageErrors).toEqual([])
  })

  it('flow 2: edit a pose and save a .motlist (RE)', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await page.locator('[data-testid="welcome-re"]:not([disabled])').waitFor({ timeout: 120_000 })
    await page.getByTestId('welcome-re').click()
    await page.getByTestId('re-pose-editor').waitFor({ timeout: 60_000 })
    await page.locator('[data-testid="re-bone-list"] [data-bone]').first().waitFor({ timeout: 60_000 })
    await expect.poll(() => selectedTreeRow(page).innerText()).toContain('sample.motlist.663')

    // Hiding the inspector gives the editor's 3D view the room; showing it again restores it.
    const canvasWidth = async () => (await page.getByTestId('re-canvas').boundingBox())!.width
    const w0 = await canvasWidth()
    await page.getByTestId('toggle-inspector').click()
    await expect.poll(canvasWidth).toBeGreaterThan(w0 + 150)
    await page.getByTestId('toggle-inspector').click()
    await expect.poll(canvasWidth).toBeLessThan(w0 + 5)
    await page.getByTestId('inspector').waitFor()

    // Find the bone by name, rotate it 30° about Y.
    await page.getByTestId('re-bone-search').fill('head')
    await page.locator('[data-testid="re-bone-list"] [data-bone]', { hasText: /^\s*Head\s*$/ }).click()
    await page.getByTestId('re-bone-search').fill('')
    expect(await page.getByTestId('re-selected-bone').textContent()).toBe('Head')
    const y0 = Number(await page.inputValue('[data-testid="re-euler-y"]'))
    const yEdit = Math.abs(y0 - 30) < 1 ? 45 : 30
    await page.fill('[data-testid="re-euler-y"]', String(yEdit))
    await page.press('[data-testid="re-euler-y"]', 'Enter')
    await page.getByTestId('re-dirty').waitFor()
    await screenshot(page, 'flow-2-pose-edited')

    // Ctrl+Z undoes the edit, Ctrl+Shift+Z redoes it (focus outside the number fields).
    await page.getByTestId('re-canvas').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('Control+z')
    await page.getByTestId('re-dirty').waitFor({ state: 'detached' })
    expect(Number(await page.inputValue('[data-testid="re-euler-y"]'))).toBeCloseTo(y0, 3)
    await page.keyboard.press('Control+Shift+z')
    await page.getByTestId('re-dirty').waitFor()
    expect(Number(await page.inputValue('[data-testid="re-euler-y"]'))).toBeCloseTo(yEdit, 3)

    const order = (await page.inputValue('[data-testid="re-order"]')) as EulerOrder
    const deg = await Promise.all(['x', 'y', 'z'].map(async (a) => Number(await page.inputValue(`[data-testid="re-euler-${a}"]`))))
    const expected = eulerToQuat(deg.map((d) => (d * Math.PI) / 180) as Vec3, order)

    // Save As… (browser mode's file browser; the path typed).
    const out = path.join(dir, 'poses', 'head_turn.motlist.663')
    await page.getByTestId('re-save').click()
    await answerFileBrowser(page, out)
    await page.locator('[data-testid="re-status"]:has-text("Saved")').waitFor({ timeout: 60_000 })
    expect(await page.getByTestId('re-dirty').count()).toBe(0)
    await screenshot(page, 'flow-2-pose-saved')

    // The saved file, read back by the CLI: a motlist 663 with a rotation track for Head whose
    // pose is the edited rotation.
    expect(fs.existsSync(out)).toBe(true)
    const info = runJson<{ kind: string; version: number; motions: { tracks: { bone: string; channels: string[] }[] }[] }>(['re', 'info', out])
    expect(info.kind).toBe('motlist')
    expect(info.version).toBe(663)
    expect(info.motions[0]!.tracks.some((t) => t.bone === 'Head' && t.channels.includes('rotation'))).toBe(true)
    const pose = runJson<{ bone: string; rotation: Quat }[]>(['re', 'sample', out, '--motion', '0', '--frame', '0'])
    const head = pose.find((b) => b.bone === 'Head')
    expect(head, 'the saved motion animates Head').toBeDefined()
    expect(quatAngle(head!.rotation, expected)).toBeLessThan(1e-4)
    expect(pageErrors).toEqual([])
  })

  it('flow 3: replace a texture and repack a 0–8.bin set (GF)', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    // The texture's original pixels and its place in 1.bin, from the CLI.
    const textures = runJson<{ file: string; entry: number; name: string; width: number; height: number; format: string }[]>(['gf', 'textures', gfSample])
    const tex = textures.find((t) => t.file === '1.bin' && t.format === 'RGBA8')!
    expect(tex, 'the sample set has an RGBA8 texture in 1.bin').toBeDefined()
    const gfInfo = runJson<{ files: { file: string; entries: { index: number; offset: number; length: number; kind: string }[] }[] }>(['gf', 'info', gfSample])
    const entry = gfInfo.files.find((f) => f.file === '1.bin')!.entries.find((e) => e.index === tex.entry)!
    expect(entry.kind).toBe('texture')
    const pixelStart = entry.offset + 0x80 // after the GFTexture header

    // Our replacement picture: a diagonal two-colour pattern with varying alpha.
    const png = new PNG({ width: tex.width, height: tex.height })
    for (let y = 0; y < tex.height; y++) for (let x = 0; x < tex.width; x++) {
      const i = (y * tex.width + x) * 4
      png.data[i] = (x * 4) & 255; png.data[i + 1] = 40; png.data[i + 2] = (y * 4) & 255; png.data[i + 3] = (x + y) % 16 < 8 ? 255 : 128
    }
    const pngPath = path.join(dir, 'replacement.png')
    fs.writeFileSync(pngPath, PNG.sync.write(png))

    // Search the texture by name: the hit says which file of the set it is in; open it.
    await page.getByTestId('search-input').fill(tex.name)
    const hit = page.getByTestId('search-hit').filter({ hasText: '1.bin' }).first()
    await hit.waitFor({ timeout: 120_000 })
    await hit.click()
    await page.getByTestId('gf-texture-grid').waitFor({ timeout: 60_000 })
    await expect.poll(() => selectedTreeRow(page).innerText()).toContain(tex.name)
    const cell = page.getByTestId(`gf-cell-1.bin-${tex.entry}`)
    await cell.waitFor({ timeout: 60_000 })
    await cell.click()
    await page.getByTestId('gf-texture-view').waitFor()
    await page.getByTestId('gf-replace').click()
    await answerFileBrowser(page, pngPath)
    await page.getByTestId('gf-psnr').waitFor({ timeout: 60_000 })
    expect(await page.getByTestId('gf-psnr').innerText()).toMatch(/exact|dB/)
    await expect.poll(() => page.getByTestId('gf-pending').innerText()).toContain(tex.name)
    expect(await cell.innerText(), 'the grid marks the replaced texture').toContain('replaced')
    await screenshot(page, 'flow-3-texture-replaced')

    const outDir = path.join(dir, 'repacked-set')
    await page.getByTestId('gf-repack').click()
    await answerFileBrowser(page, outDir)
    await expect.poll(() => page.getByTestId('gf-status').innerText().catch(() => ''), { timeout: 60_000 }).toContain('changed: 1.bin')
    await screenshot(page, 'flow-3-repacked')

    // Every other file is byte-identical; 1.bin differs only inside the replaced texture's entry.
    for (const [name, before] of gfBefore) {
      const after = fs.readFileSync(path.join(outDir, name))
      if (name !== '1.bin') {
        expect(after.equals(before), `${name} unchanged`).toBe(true)
        continue
      }
      expect(after.length).toBe(before.length)
      let diffs = 0
      let outside = 0
      for (let i = 0; i < after.length; i++) {
        if (after[i] === before[i]) continue
        diffs++
        if (i < pixelStart || i >= entry.offset + entry.length) outside++
      }
      expect(diffs, 'the replaced texture changed').toBeGreaterThan(0)
      expect(outside, 'no byte outside the replaced texture’s pixels changed').toBe(0)
    }
    // The repacked texture decodes to our picture (RGBA8 is lossless), the original did not.
    execFileSync(process.execPath, [cli, 'gf', 'extract', outDir, '--out', path.join(dir, 'extracted')], { cwd: repoRoot, stdio: 'ignore' })
    execFileSync(process.execPath, [cli, 'gf', 'extract', gfSample, '--out', path.join(dir, 'extracted-orig')], { cwd: repoRoot, stdio: 'ignore' })
    const pngName = `${tex.entry}_${tex.name}.png`
    const got = PNG.sync.read(fs.readFileSync(path.join(dir, 'extracted', '1', pngName)))
    const orig = PNG.sync.read(fs.readFileSync(path.join(dir, 'extracted-orig', '1', pngName)))
    expect(Buffer.from(got.data).equals(Buffer.from(png.data))).toBe(true)
    expect(Buffer.from(orig.data).equals(Buffer.from(png.data))).toBe(false)
    expect(pageErrors).toEqual([])
  })

  it('left the bundled samples untouched', () => {
    expect(hashTree(samples)).toEqual(sampleHashes)
  })
})
