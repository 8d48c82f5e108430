/**
 * `npm run bench views` (issue 26 item 5): opening a view by permalink in browser mode, in headless
 * Chromium (SwiftShader, a software GPU: figures are relative). For a Snap stage, a Stadium model
 * and a GF model of the bundled samples: navigation → first drawn frame, beside the floor, the raw
 * fetch of the same bytes (the ROM or the set's files) from the same server in the same page; the
 * ratio is the goal's figure (≤ 5×). Each run is a fresh browser context (nothing cached).
 * BENCH_VIEWS_RUNS runs per view (default 3, the median is printed).
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Browser } from 'playwright-core'
import type { Report } from './run'
import { launchBrowser, startServe, type Served } from '../tests/e2e/harness'
import { openCatalog } from '../src-main/catalog/catalog'

interface Target {
  label: string
  kind: string
  id: number
  /** The files whose bytes the view is made from, on disk. */
  files: string[]
}

/** The views measured: the first asset of each kind (breadth first, as the welcome page's links). */
const VIEWS = [
  { label: 'Snap stage', kind: 'snap-stage' },
  { label: 'Stadium model', kind: 'stadium-model' },
  { label: 'GF model', kind: 'gf-model' },
]

/**
 * Resolves in the page with when the view first drew, in ms since navigation started: the view's
 * own mark (`data-first-frame-ms` on its viewport host) when it has one; else the first animation
 * frame after the view's scene answer arrived whose canvas shows more than it did before (the
 * empty grid), read back small each frame (that read-back makes the fallback slightly late).
 * A string, not a function: tsx's name helpers do not exist in the page.
 */
const FIRST_FRAME = `new Promise((resolve) => {
  const scene = /\\/api\\/(scene%3Aopen|scene%3A|stadium%3Amodel|gf%3Amodel|snap%3A)/
  const off = document.createElement('canvas')
  off.width = 96
  off.height = 60
  const ctx = off.getContext('2d', { willReadFrequently: true })
  const biggest = () => {
    let best = null
    for (const c of document.querySelectorAll('canvas')) if (c.width * c.height > 0 && c.getBoundingClientRect().width > 0 && (!best || c.width * c.height > best.width * best.height)) best = c
    return best
  }
  const shown = (c) => {
    ctx.drawImage(c, 0, 0, off.width, off.height)
    const d = ctx.getImageData(0, 0, off.width, off.height).data
    let n = 0
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 24) n++
    return n
  }
  let before = 0
  const tick = () => {
    const mark = document.querySelector('[data-first-frame-ms]:not([data-first-frame-ms=""])')
    if (mark) return resolve({ ms: Number(mark.getAttribute('data-first-frame-ms')), how: 'mark' })
    const arrived = performance.getEntriesByType('resource').some((e) => scene.test(e.name) && e.responseEnd > 0)
    const c = biggest()
    if (c) {
      const n = shown(c)
      if (!arrived) before = n
      else if (n > before * 1.2 + 20) return resolve({ ms: performance.now(), how: 'pixels' })
    }
    if (performance.now() > 120000) return resolve({ ms: NaN, how: 'timeout' })
    requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
})`

/**
 * Where the time went in the page: the server's own time for the view's scene calls (their
 * `Server-Timing` app share, summed) and the viewport's User Timing measures (creation, scene build).
 */
const STEPS = `(() => {
  const scene = /\\/api\\/(scene%3Aopen|stadium%3Amodel|gf%3Amodel|snap%3A)/
  const server = performance.getEntriesByType('resource').filter((e) => scene.test(e.name)).reduce((n, e) => n + (e.serverTiming || []).filter((t) => t.name === 'app').reduce((m, t) => m + t.duration, 0), 0)
  const measure = (name) => performance.getEntriesByName(name).reduce((n, e) => n + e.duration, 0)
  return { server, build: measure('mb:scene-build') + measure('mb:viewport-create') }
})()`

/** Ms to fetch every URL of URLS (all at once, bodies read), uncached. */
const RAW_FETCH = `(async () => {
  const t = performance.now()
  await Promise.all(URLS.map(async (u) => (await fetch(u, { cache: 'no-store' })).arrayBuffer()))
  return performance.now() - t
})()`

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** Waits for the samples to be indexed, then finds the first asset of each view's kind. */
async function targets(db: string): Promise<Target[]> {
  for (let waited = 0; ; waited += 500) {
    const catalog = openCatalog(db)
    try {
      const found = VIEWS.map((v) => find(catalog, v))
      if (found.every((t) => t !== null)) return found as Target[]
      if (waited > 180_000) throw new Error(`bench views: no ${VIEWS.filter((_, i) => !found[i]).map((v) => v.kind).join(', ')} in the samples' catalog after 180 s`)
    } finally {
      catalog.close()
    }
    await new Promise((r) => setTimeout(r, 500))
  }
}

function find(catalog: ReturnType<typeof openCatalog>, view: { label: string; kind: string }): Target | null {
  for (const src of catalog.sources().filter((s) => s.status === 'indexed')) {
    let level: (number | null)[] = [null]
    for (let depth = 0; depth < 5 && level.length; depth++) {
      const next: number[] = []
      for (const parent of level) {
        const kids = catalog.children(src.id, parent, 0, 500)
        const hit = kids.find((k) => k.kind === view.kind)
        if (hit) {
          const files = fs.statSync(src.path).isDirectory() ? fs.readdirSync(src.path).filter((f) => /^\d\.bin$/i.test(f)).map((f) => path.join(src.path, f)) : [src.path]
          return { ...view, id: hit.id, files }
        }
        next.push(...kids.filter((k) => k.childCount > 0).map((k) => k.id))
      }
      level = next
    }
  }
  return null
}

async function measure(browser: Browser, served: Served, t: Target): Promise<{ open: number; raw: number; how: string; server: number; build: number }> {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 860 } })
  try {
    const page = await ctx.newPage()
    await page.goto(`${served.url}${served.url.includes('?') ? '&' : '?'}asset=${t.id}`)
    const first = (await page.evaluate(FIRST_FRAME)) as { ms: number; how: string }
    const steps = (await page.evaluate(STEPS)) as { server: number; build: number }
    // BENCH_VIEWS_SHOTS=DIR: what was on screen when the first frame was taken as drawn
    if (process.env.BENCH_VIEWS_SHOTS) await page.screenshot({ path: path.join(process.env.BENCH_VIEWS_SHOTS, `views-${t.kind}.png`) })
    const urls = t.files.map((f) => `/api/file?token=${encodeURIComponent(served.token)}&path=${encodeURIComponent(f)}`)
    const raw = (await page.evaluate(RAW_FETCH.replace('URLS', JSON.stringify(urls)))) as number
    return { open: first.ms, raw, how: first.how, ...steps }
  } finally {
    await ctx.close()
  }
}

export async function run(report: Report): Promise<void> {
  const runs = Math.max(1, Number(process.env.BENCH_VIEWS_RUNS ?? 3))
  const served = await startServe()
  const browser = await launchBrowser()
  try {
    for (const t of await targets(served.db)) {
      const open: number[] = []
      const raw: number[] = []
      const how = new Set<string>()
      const server: number[] = []
      const build: number[] = []
      for (let r = 0; r < runs; r++) {
        const m = await measure(browser, served, t)
        open.push(m.open)
        raw.push(m.raw)
        how.add(m.how)
        server.push(m.server)
        build.push(m.build)
      }
      const bytes = t.files.reduce((n, f) => n + fs.statSync(f).size, 0)
      const steps = `server's own time for the scene calls ${median(server).toFixed(0)} ms (first run ${server[0]!.toFixed(0)}), viewport + scene build ${median(build).toFixed(0)} ms`
      const note = `median of ${runs}, fresh context each; first frame by ${[...how].join('/')}; ${steps}`
      report('views', `${t.label}: permalink → first drawn frame`, median(open), 'ms', note)
      report('views', `${t.label}: floor, raw fetch of its ${t.files.length} file(s), ${(bytes / 1024).toFixed(0)} KiB`, median(raw), 'ms', 'same server, same page')
      report('views', `${t.label}: ratio to the floor (goal ≤ 5)`, median(open) / median(raw), '×')
    }
  } finally {
    await browser.close()
    await served.close()
  }
}
