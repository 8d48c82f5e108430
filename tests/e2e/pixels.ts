/**
 * Reading a WebGL canvas back in end-to-end tests: the engines are made with
 * preserveDrawingBuffer, so the last frame can be copied out of the page.
 */
import type { Page } from 'playwright-core'

/** RGB, every second pixel of every second row. */
export interface Pixels {
  width: number
  height: number
  data: Uint8Array
}

/** The canvas with `data-testid=testId`, moved out of the page as base64. */
export async function canvasPixels(page: Page, testId: string): Promise<Pixels> {
  const r = await page.evaluate((id) => {
    const c = document.querySelector(`[data-testid="${id}"]`) as HTMLCanvasElement
    const off = document.createElement('canvas')
    off.width = c.width
    off.height = c.height
    const ctx = off.getContext('2d')!
    ctx.drawImage(c, 0, 0)
    const img = ctx.getImageData(0, 0, c.width, c.height).data
    const w = Math.ceil(c.width / 2)
    const h = Math.ceil(c.height / 2)
    const out = new Uint8Array(w * h * 3)
    let o = 0
    for (let y = 0; y < c.height; y += 2) {
      for (let x = 0; x < c.width; x += 2) {
        const i = (y * c.width + x) * 4
        out[o++] = img[i]!
        out[o++] = img[i + 1]!
        out[o++] = img[i + 2]!
      }
    }
    let bin = ''
    for (let i = 0; i < out.length; i += 0x8000) bin += String.fromCharCode(...out.subarray(i, i + 0x8000))
    return { width: w, height: h, b64: btoa(bin) }
  }, testId)
  return { width: r.width, height: r.height, data: new Uint8Array(Buffer.from(r.b64, 'base64')) }
}

const far = (d: Uint8Array, i: number, r: number, g: number, b: number) => Math.abs(d[i]! - r) + Math.abs(d[i + 1]! - g) + Math.abs(d[i + 2]! - b) > 24

/** Pixels whose colour differs from the background (the clear colour in the corner). */
export function foreground(p: Pixels): number {
  const [r, g, b] = [p.data[0]!, p.data[1]!, p.data[2]!]
  let n = 0
  for (let i = 0; i < p.data.length; i += 3) if (far(p.data, i, r, g, b)) n++
  return n
}

/** Pixels that differ between two pictures of the same canvas. */
export function changed(a: Pixels, b: Pixels): number {
  let n = 0
  for (let i = 0; i < a.data.length; i += 3) if (far(a.data, i, b.data[i]!, b.data[i + 1]!, b.data[i + 2]!)) n++
  return n
}

/**
 * Waits until two reads 250 ms apart agree (the engine finished loading and drawing); with
 * `nonEmpty`, the picture must also show something besides the background.
 */
export async function settled(page: Page, testId: string, nonEmpty = false): Promise<Pixels> {
  let last = await canvasPixels(page, testId)
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(250)
    const now = await canvasPixels(page, testId)
    if ((!nonEmpty || foreground(now) > 0) && changed(last, now) === 0) return now
    last = now
  }
  return last
}
