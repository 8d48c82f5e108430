import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { validateBytes } from 'gltf-validator'
import { answerFileBrowser, clickDownFromCentre, launchBrowser, openApp, screenshot, startServe, type Served } from './harness'
import { canvasPixels, changed, foreground, settled } from './pixels'

/**
 * Pokémon Snap stage view on the bundled sample ROM (resources/samples/snap-sample.z64.gz, our own
 * synthetic data): open the Beach, see its rooms, toggle a room group, select a room, ride the
 * rail camera; its actors: frame one, hide it; an actor in its own view (animations, skeleton,
 * scrub, HD photo model).
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

/** Opens the app, searches `query` and opens the first hit of asset kind `kind`. */
async function openHit(query: string, kind: string): Promise<Awaited<ReturnType<typeof openApp>>> {
  const app = await openApp(browser, served)
  await app.page.getByTestId('search-input').fill(query)
  const hit = app.page.getByTestId('search-hit').filter({ hasText: kind }).first()
  await hit.waitFor({ timeout: 60_000 })
  await hit.click()
  return app
}

describe('Snap stage view (Chromium, browser mode, sample ROM)', () => {
  it('opens the Beach, toggles a room group, selects a room and rides the rail', async () => {
    const { page, pageErrors } = await openHit('Beach', 'snap-stage')
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await expect.poll(async () => await page.getByTestId('snap-rooms').locator('li').count()).toBe(8)

    // Still picture: material animation off, rail camera at the start of the track.
    await page.getByTestId('snap-toggle-anim').uncheck()
    await page.getByTestId('snap-rail-on').check()
    await page.getByTestId('snap-rail-scrub').fill('0')
    const start = await settled(page, 'snap-canvas')
    expect(foreground(start), 'the stage is drawn').toBeGreaterThan(start.width * start.height * 0.05)
    await screenshot(page, 'snap-stage-rail-start')

    // Hiding the path rooms removes the ground under the rail.
    await page.getByTestId('snap-toggle-path').uncheck()
    const noPath = await settled(page, 'snap-canvas')
    expect(changed(start, noPath), 'hiding the path rooms changes the picture').toBeGreaterThan(2000)
    await page.getByTestId('snap-toggle-path').check()

    // Selecting a room shows its data.
    await page.getByTestId('snap-room-path-2').click()
    await expect.poll(async () => await page.getByTestId('snap-room-data').innerText()).toMatch(/renderKind\s+B/)

    // Scrubbing the rail moves the camera along the track.
    await page.getByTestId('snap-rail-scrub').fill('3000')
    const later = await settled(page, 'snap-canvas')
    expect(changed(start, later), 'the rail camera moved').toBeGreaterThan(2000)
    await screenshot(page, 'snap-stage-rail-3000')

    // Play advances the rail frame.
    const before = await page.getByTestId('snap-rail-frame').innerText()
    await page.getByTestId('snap-rail-play').click()
    await expect.poll(() => page.getByTestId('snap-rail-frame').innerText(), { timeout: 30_000 }).not.toBe(before)
    await page.getByTestId('snap-rail-play').click()
    expect(pageErrors).toEqual([])
  })

  it('a room selected in the list, by a click in 3D or in the tree is boxed in 3D and shown in the Inspector', async () => {
    const { page, pageErrors } = await openHit('Beach', 'snap-stage')
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('snap-toggle-anim').uncheck()
    const none = await settled(page, 'snap-canvas')
    const item = page.getByTestId('snap-room-path-2')
    const name = (await item.innerText()).replace(/\s+\d+ tris$/, '')
    expect(name).toBe('Path room 2')

    // The list: the room is boxed (pixels change) and the Inspector shows its node and data.
    await item.click()
    await expect.poll(async () => await item.getAttribute('class')).toMatch(/\bsel\b/)
    const boxed = await settled(page, 'snap-canvas')
    const n = changed(none, boxed)
    console.log(`room highlight: ${n} pixels changed`)
    expect(n, 'the selected room is highlighted in 3D').toBeGreaterThan(100)
    await screenshot(page, 'snap-stage-room-selected')
    const inspector = page.getByTestId('inspector-picked')
    await expect.poll(async () => await inspector.getAttribute('data-node')).toBe(name)
    await expect.poll(async () => await inspector.innerText()).toMatch(/renderKind\s+B/)

    // Selecting it again deselects: the box and the Inspector entry go.
    await item.click()
    await expect.poll(async () => await inspector.count()).toBe(0)
    const cleared = await settled(page, 'snap-canvas')
    expect(changed(none, cleared), 'the box is gone').toBeLessThan(20)

    // A click in 3D on the stage selects the room under the pointer.
    const sel = page.getByTestId('snap-rooms').locator('li.sel')
    await clickDownFromCentre(page, 'snap-canvas', async () => (await sel.count()) > 0)
    await screenshot(page, 'snap-stage-room-picked')
    await expect.poll(async () => await sel.count()).toBe(1)
    const pickedName = (await sel.innerText()).replace(/\s+\d+ tris$/, '')
    await expect.poll(async () => await inspector.getAttribute('data-node')).toBe(pickedName)
    const pickedBox = await settled(page, 'snap-canvas')
    expect(changed(none, pickedBox), 'the picked room is highlighted').toBeGreaterThan(100)
    expect(pageErrors).toEqual([])

    // The tree (search): a room asset opens its stage with that room selected and boxed.
    const app = await openHit('Non-path room 0', 'snap-room')
    await app.page.locator('[data-testid="snap-stage"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await expect.poll(async () => await app.page.getByTestId('snap-rooms').locator('li.sel').innerText()).toMatch(/^Non-path room 0/)
    await expect.poll(async () => await app.page.getByTestId('inspector-picked').getAttribute('data-node')).toBe('Non-path room 0')
    expect(app.pageErrors).toEqual([])
  })

  it('lists the actors placed at their spawns; frame one, hide it', async () => {
    const { page, pageErrors } = await openHit('Beach', 'snap-stage')
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    const list = page.getByTestId('snap-actors')
    await expect.poll(async () => await list.locator('li').allInnerTexts()).toEqual([expect.stringContaining('spawn 0 Pikachu'), expect.stringContaining('spawn 2 Raichu'), expect.stringContaining('zero-one')])
    await page.getByTestId('snap-toggle-anim').uncheck()
    const raichu = list.locator('li').filter({ hasText: 'Raichu' })
    await raichu.getByRole('button').click()
    const framed = await settled(page, 'snap-canvas')
    await screenshot(page, 'snap-stage-actor-framed')
    // hiding the framed actor changes the picture (it fills the view)
    await raichu.getByRole('checkbox').uncheck()
    const hidden = await settled(page, 'snap-canvas')
    expect(changed(framed, hidden), 'hiding the framed actor changes the picture').toBeGreaterThan(500)
    expect(pageErrors).toEqual([])
  })

  it('the Zero-One rides the main track with the free camera as well as riding along', async () => {
    const { page, pageErrors } = await openHit('Beach', 'snap-stage')
    await page.locator('[data-testid="snap-stage"][data-stage="beach"][data-loading="0"]').waitFor({ timeout: 60_000 })
    await page.getByTestId('snap-toggle-anim').uncheck()
    const rideAlong = page.getByTestId('snap-rail-on')
    expect(await rideAlong.isChecked()).toBe(false)
    // the free camera looks at the Zero-One at the start of the track…
    const zero = page.getByTestId('snap-actors').locator('li').filter({ hasText: 'zero-one' })
    await zero.getByRole('button').click()
    const start = await settled(page, 'snap-canvas')
    // …scrubbing the ride moves the Zero-One away while the camera stays put (ride-along stays off)
    await page.getByTestId('snap-rail-scrub').fill('600')
    const later = await settled(page, 'snap-canvas')
    await screenshot(page, 'snap-stage-zero-one-free')
    expect(await rideAlong.isChecked()).toBe(false)
    expect(changed(start, later), 'the Zero-One moved along the track').toBeGreaterThan(500)
    // Play rides on with the free camera
    const before = await page.getByTestId('snap-rail-frame').innerText()
    await page.getByTestId('snap-rail-play').click()
    await expect.poll(() => page.getByTestId('snap-rail-frame').innerText(), { timeout: 30_000 }).not.toBe(before)
    await page.getByTestId('snap-rail-play').click()
    expect(await rideAlong.isChecked()).toBe(false)
    expect(pageErrors).toEqual([])
  })

  it('an actor opens in its own view: its animations listed and in the clip list, the skeleton overlay, scrubbing moves it', async () => {
    const { page, pageErrors } = await openHit('raichu', 'snap-actor')
    const view = page.locator('[data-testid="snap-actor-view"][data-actor="Raichu"][data-loading="0"]')
    await view.waitFor({ timeout: 60_000 })
    const clip = page.getByTestId('anim-clip')
    await clip.waitFor({ timeout: 60_000 })
    await expect.poll(async () => await clip.locator('option').allInnerTexts()).toEqual([expect.stringMatching(/^0x802C[0-9A-F]{4} \(20 f @ 30 fps\)$/), expect.stringMatching(/^0x802C[0-9A-F]{4} \(10 f @ 15 fps\)$/)])
    // the side list names the same two animations by header address, frames
    const anims = page.getByTestId('snap-actor-anims').locator('li')
    await expect.poll(async () => await anims.allInnerTexts()).toEqual([expect.stringMatching(/^0x802C[0-9A-F]{4} 20 f$/), expect.stringMatching(/^0x802C[0-9A-F]{4} 10 f$/)])
    // the skeleton overlay is on by default; turning it off changes the picture
    expect(await page.getByTestId('toggle-skeleton').isChecked()).toBe(true)
    await page.getByTestId('anim-play').click() // it plays on open: pause
    await expect.poll(async () => await page.getByTestId('anim-play').getAttribute('data-playing')).toBe('0')
    await page.getByTestId('anim-scrubber').fill('0')
    const a = await settled(page, 'snap-actor-canvas')
    await screenshot(page, 'snap-actor-view')
    expect(foreground(a), 'the actor is drawn').toBeGreaterThan(500)
    await page.getByTestId('toggle-skeleton').uncheck()
    const noSkel = await settled(page, 'snap-actor-canvas')
    expect(changed(a, noSkel), 'the skeleton overlay is drawn').toBeGreaterThan(20)
    await page.getByTestId('toggle-skeleton').check()
    // scrubbing the default clip (node 1 turns a quarter turn over frames 0–10) moves the actor
    await page.getByTestId('anim-scrubber').fill('10')
    await expect.poll(async () => await page.getByTestId('anim-frame').innerText()).toMatch(/^10 \//)
    const b = await settled(page, 'snap-actor-canvas')
    expect(changed(a, b), 'scrubbing poses the actor').toBeGreaterThan(200)
    // picking the second animation in the side list selects that clip
    await anims.nth(1).click()
    await expect.poll(async () => await clip.inputValue()).toBe('1')
    expect(pageErrors).toEqual([])
  })

  it('the Beach Raichu has an HD photo model: the HD toggle shows it (other pixels) and back; Export… writes the model shown', async () => {
    const { page, pageErrors } = await openApp(browser, served)
    await page.getByTestId('search-input').fill('raichu beach')
    const hit = page.getByTestId('search-hit').filter({ hasText: 'snap-actor' }).filter({ hasNotText: 'HD' }).first()
    await hit.waitFor({ timeout: 60_000 })
    await hit.click()
    const view = page.locator('[data-testid="snap-actor-view"][data-actor="Raichu"][data-loading="0"]')
    await view.waitFor({ timeout: 60_000 })
    const hd = page.getByTestId('snap-actor-hd')
    await hd.waitFor({ timeout: 30_000 })
    expect(await hd.isChecked()).toBe(false)
    // each model shown plays its first clip: pause it, then show frame 0 (scrubbing to 1 first, so
    // that a slider already at 0 still sends its input)
    const play = page.getByTestId('anim-play')
    const still = async () => {
      await expect.poll(async () => await play.getAttribute('data-playing')).toBe('1')
      await play.click()
      await expect.poll(async () => await play.getAttribute('data-playing')).toBe('0')
      await page.getByTestId('anim-scrubber').fill('1')
      await page.getByTestId('anim-scrubber').fill('0')
      await expect.poll(async () => await page.getByTestId('anim-frame').innerText()).toMatch(/^0 \//)
      return await settled(page, 'snap-actor-canvas')
    }
    const normal = await still()
    await screenshot(page, 'snap-actor-normal')
    const shown = Number(await view.getAttribute('data-shown'))
    await hd.check()
    await page.locator(`[data-testid="snap-actor-view"][data-hd="1"][data-loading="0"][data-shown="${shown + 1}"]`).waitFor({ timeout: 60_000 })
    const hdPx = await still()
    await screenshot(page, 'snap-actor-hd')
    expect(foreground(hdPx), 'the HD model is drawn').toBeGreaterThan(500)
    expect(changed(normal, hdPx), 'the HD model looks different').toBeGreaterThan(500)
    await hd.uncheck()
    await page.locator(`[data-testid="snap-actor-view"][data-hd="0"][data-loading="0"][data-shown="${shown + 2}"]`).waitFor({ timeout: 60_000 })
    const back = await still()
    await screenshot(page, 'snap-actor-back')
    expect(changed(normal, back), 'back to the normal model').toBeLessThan(200)
    // Export… writes the model shown (the HD one again): a glb with 0 validator errors
    await hd.check()
    await page.locator(`[data-testid="snap-actor-view"][data-hd="1"][data-loading="0"][data-shown="${shown + 3}"]`).waitFor({ timeout: 60_000 })
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-snap-actor-')), 'raichu-hd.glb')
    await page.getByTestId('export-glb').click()
    await answerFileBrowser(page, out)
    await expect.poll(() => fs.existsSync(out), { timeout: 60_000 }).toBe(true)
    await page.getByTestId('export-result').waitFor({ timeout: 60_000 })
    const rep = await validateBytes(new Uint8Array(fs.readFileSync(out)))
    expect(rep.issues.numErrors).toBe(0)
    const glb = fs.readFileSync(out)
    const gltf = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8')) as { scenes?: { extras?: { snap?: { hd?: boolean } } }[] }
    expect(JSON.stringify(gltf.scenes ?? [])).toContain('"hd":true')
    fs.rmSync(path.dirname(out), { recursive: true, force: true })
    expect(pageErrors).toEqual([])
  })
})
