/**
 * `npm run bench views` (issue 26 item 5): opening a view in browser mode, in headless Chromium
 * (SwiftShader, a software GPU: figures are relative), for a Snap stage, a Stadium model and a GF
 * model of the bundled samples, two ways: by permalink (navigation → first drawn frame: page load
 * included) and by a click on the asset's row in the tree once the shell is loaded and idle
 * (click → first drawn frame). Beside them the floor, the raw fetch of the same bytes (the ROM or
 * the set's files) from the same server in the same pages; the ratio is the goal's figure (≤ 5×).
 * A "where the time goes" row gives the median time of each step (STEPS). Each run is a fresh
 * browser context (nothing cached); permalink and click runs alternate.
 * BENCH_VIEWS_RUNS runs per view and way (default 3, the median is printed).
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { Report } from './run'
import { launchBrowser, startServe, type Served } from '../tests/e2e/harness'
import { openCatalog } from '../src-main/catalog/catalog'

interface Target {
  label: string
  kind: string
  id: number
  /** The files whose bytes the view is made from, on disk. */
  files: string[]
  /** Its parent in the tree (null: a child of its source) and its source, for the click path. */
  parent: number | null
  source: number
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
 * Where the time went in the page, in ms since SINCE (navigation start: 0, or the click): the
 * app's cheap User Timing marks (`mb:shell-ready` after the shell mounted, `mb:viewport-code`
 * once Babylon and the viewport's code are evaluated, `mb:viewport-create` when the view mounted
 * its viewport, `mb:scene-build`, `mb:scene-ready` when every material's program is compiled),
 * the largest script's arrival (the viewport chunk on a permalink, the view's own on a click) and the scene calls' answers (resource
 * timing, with the server's own `Server-Timing` app share summed). NaN: the step did not happen
 * after SINCE (the chunk and shell of the click path came before it).
 */
const STEPS = `(() => {
  const since = SINCE
  const after = (t) => (t >= since ? t - since : NaN)
  const res = performance.getEntriesByType('resource').filter((e) => e.startTime >= since)
  const scene = /\\/api\\/(scene%3Aopen|stadium%3Amodel|gf%3Amodel|snap%3A)/
  const calls = res.filter((e) => scene.test(e.name))
  const server = calls.reduce((n, e) => n + (e.serverTiming || []).filter((t) => t.name === 'app').reduce((m, t) => m + t.duration, 0), 0)
  const last = (name) => performance.getEntriesByName(name).at(-1)
  const mark = (name) => after(last(name)?.startTime ?? NaN)
  const end = (name) => { const e = last(name); return e ? after(e.startTime + e.duration) : NaN }
  const measure = (name) => performance.getEntriesByName(name).filter((e) => e.startTime >= since).reduce((n, e) => n + e.duration, 0)
  const chunk = res.filter((e) => /\\.js(\\?|$)/.test(e.name)).sort((a, b) => b.encodedBodySize - a.encodedBodySize)[0]
  return {
    server,
    build: measure('mb:scene-build') + measure('mb:viewport-create'),
    at: {
      shell: mark('mb:shell-ready'),
      chunk: chunk ? after(chunk.responseEnd) : NaN,
      code: mark('mb:viewport-code'),
      scene: calls.length ? Math.max(...calls.map((e) => after(e.responseEnd))) : NaN,
      mounted: after(last('mb:viewport-create')?.startTime ?? NaN),
      built: end('mb:scene-build'),
      ready: mark('mb:scene-ready'),
    },
  }
})()`

/** The steps of STEPS' `at`, in the order the report prints them. */
const STEP_NAMES = { shell: 'shell', chunk: 'largest script in', code: 'its code evaluated', scene: 'scene answer', mounted: 'view mounted', built: 'scene built', ready: 'shaders ready' } as const
type Steps = { server: number; build: number; at: Record<keyof typeof STEP_NAMES, number> }

/** Ms to fetch every URL of URLS (all at once, bodies read), uncached. */
const RAW_FETCH = `(async () => {
  const t = performance.now()
  await Promise.all(URLS.map(async (u) => (await fetch(u, { cache: 'no-store' })).arrayBuffer()))
  return performance.now() - t
})()`

/** The median (undefined for none). */
const median = (xs: number[]): number | undefined => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

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
          return { ...view, id: hit.id, files, parent, source: src.id }
        }
        next.push(...kids.filter((k) => k.childCount > 0).map((k) => k.id))
      }
      level = next
    }
  }
  return null
}

interface Run extends Steps {
  /** Ms from navigation (permalink) or from the click to the first drawn frame. */
  open: number
  raw: number
  how: string
}

/** The floor, then the run's figures (in the same page, after the view drew). */
async function finish(page: Page, served: Served, t: Target, since: number): Promise<Run> {
  const first = (await page.evaluate(FIRST_FRAME)) as { ms: number; how: string }
  const steps = (await page.evaluate(STEPS.replace('SINCE', String(since)))) as Steps
  // BENCH_VIEWS_SHOTS=DIR: what was on screen when the first frame was taken as drawn
  if (process.env.BENCH_VIEWS_SHOTS) await page.screenshot({ path: path.join(process.env.BENCH_VIEWS_SHOTS, `views-${t.kind}${since ? '-click' : ''}.png`) })
  const urls = t.files.map((f) => `/api/file?token=${encodeURIComponent(served.token)}&path=${encodeURIComponent(f)}`)
  const raw = (await page.evaluate(RAW_FETCH.replace('URLS', JSON.stringify(urls)))) as number
  return { open: first.ms - since, raw, how: first.how, ...steps }
}

const at = (served: Served, q: string) => `${served.url}${served.url.includes('?') ? '&' : '?'}${q}`

/** Permalink → first frame: a fresh context (nothing cached) opened on the asset's permalink. */
async function permalink(browser: Browser, served: Served, t: Target): Promise<Run> {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 860 } })
  try {
    const page = await ctx.newPage()
    await page.goto(at(served, `asset=${t.id}`))
    return await finish(page, served, t, 0)
  } finally {
    await ctx.close()
  }
}

/**
 * Click → first frame: a fresh context opened on the asset's parent (its source when it has none),
 * unfolded, so the tree shows the asset's row; once the viewport's code is evaluated (the shell
 * loads it while idle) and the page has been idle for half a second, the row is clicked. Page load is not in the figure.
 */
async function click(browser: Browser, served: Served, t: Target): Promise<Run> {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 860 } })
  try {
    const page = await ctx.newPage()
    await page.goto(t.parent === null ? served.url : at(served, `asset=${t.parent}`))
    const parent = page.locator(`[data-key="${t.parent === null ? `s${t.source}` : `a${t.parent}`}"]`)
    await parent.waitFor({ timeout: 60_000 })
    if ((await parent.getAttribute('aria-expanded')) !== 'true') await parent.locator('.twisty').click()
    await page.locator(`[data-key="a${t.id}"]`).waitFor({ timeout: 60_000 })
    // (polled by a promise in the page: the page's CSP forbids waitForFunction's eval)
    // then idle, half a second (a user's click comes later than that), and idle again
    await page.evaluate(`new Promise((r) => { const idle = (f) => requestIdleCallback(f, { timeout: 2000 }); const f = () => (performance.getEntriesByName('mb:viewport-code').length ? idle(() => setTimeout(() => idle(() => r()), 500)) : setTimeout(f, 20)); f() })`)
    const since = (await page.evaluate(`(() => { const t = performance.now(); document.querySelector('[data-key="a${t.id}"]').click(); return t })()`)) as number
    return await finish(page, served, t, since)
  } finally {
    await ctx.close()
  }
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–')

/** The median of each step over the runs, as "step N" in order (the steps that happened). */
function breakdown(runs: Run[]): string {
  const keys = Object.keys(STEP_NAMES) as (keyof typeof STEP_NAMES)[]
  const steps = keys.map((k) => ({ k, v: median(runs.map((r) => r.at[k]).filter(Number.isFinite)) })).filter((s): s is { k: keyof typeof STEP_NAMES; v: number } => s.v !== undefined)
  return [...steps.sort((a, b) => a.v - b.v).map((s) => `${STEP_NAMES[s.k]} ${ms(s.v)}`), `first frame ${ms(median(runs.map((r) => r.open))!)}`].join(' → ')
}

function row(report: Report, t: Target, via: 'permalink' | 'click', runs: Run[]): void {
  const how = [...new Set(runs.map((r) => r.how))].join('/')
  const open = median(runs.map((r) => r.open))!
  const floor = median(runs.map((r) => r.raw))!
  const note = `median of ${runs.length}, fresh context each; first frame by ${how}; server's own time for the scene calls ${ms(median(runs.map((r) => r.server))!)} ms, viewport + scene build ${ms(median(runs.map((r) => r.build))!)} ms`
  report('views', `${t.label}: ${via} → first drawn frame`, open, 'ms', note)
  report('views', `${t.label}: ${via}, where the time goes`, open, 'ms', `ms since the ${via === 'click' ? 'click' : 'navigation'}: ${breakdown(runs)}`)
  report('views', `${t.label}: ${via}, ratio to the floor (goal ≤ 5)`, open / floor, '×', `floor ${ms(floor)} ms in the same pages`)
}

export async function run(report: Report): Promise<void> {
  const n = Math.max(1, Number(process.env.BENCH_VIEWS_RUNS ?? 3))
  const served = await startServe()
  const browser = await launchBrowser()
  try {
    for (const t of await targets(served.db)) {
      // interleaved: a permalink run, then a click run
      const byLink: Run[] = []
      const byClick: Run[] = []
      for (let r = 0; r < n; r++) {
        byLink.push(await permalink(browser, served, t))
        byClick.push(await click(browser, served, t))
      }
      const bytes = t.files.reduce((s, f) => s + fs.statSync(f).size, 0)
      const floor = median([...byLink, ...byClick].map((r) => r.raw))!
      report('views', `${t.label}: floor, raw fetch of its ${t.files.length} file(s), ${(bytes / 1024).toFixed(0)} KiB`, floor, 'ms', 'same server, same pages, all runs')
      row(report, t, 'permalink', byLink)
      row(report, t, 'click', byClick)
    }
  } finally {
    await browser.close()
    await served.close()
  }
}
