// scratch (not committed): main-thread tasks and requests on a permalink
import * as fs from 'node:fs'
import { launchBrowser, startServe } from '../tests/e2e/harness'
import { openCatalog } from '../src-main/catalog/catalog'

const kind = process.argv[2] ?? 'gf-model'
const served = await startServe()
const browser = await launchBrowser()
try {
  let id = 0
  for (let w = 0; !id && w < 300; w++) {
    const c = openCatalog(served.db)
    for (const s of c.sources()) {
      const walk = (p: number | null, d: number): void => { if (id || d > 5) return; for (const k of c.children(s.id, p, 0, 500)) { if (k.kind === kind) { id = k.id; return } if (k.childCount) walk(k.id, d + 1) } }
      walk(null, 0)
    }
    c.close()
    if (!id) await new Promise((r) => setTimeout(r, 500))
  }
  await new Promise((r) => setTimeout(r, Number(process.env.WAIT ?? 8000)))
  // warm-up runs, then the traced one
  for (let run = 0; run < 3; run++) {
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 860 } })
    const page = await ctx.newPage()
    const cdp = await ctx.newCDPSession(page)
    const events: any[] = []
    cdp.on('Tracing.dataCollected', (d: any) => events.push(...d.value))
    const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()))
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing', transferMode: 'ReportEvents' })
    await page.goto(`${served.url}&asset=${id}`)
    await page.locator('[data-first-frame-ms]:not([data-first-frame-ms=""])').waitFor({ timeout: 60000 })
    const info = await page.evaluate(`(() => ({ origin: performance.timeOrigin, ff: Number(document.querySelector('[data-first-frame-ms]').getAttribute('data-first-frame-ms')), marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]), measures: performance.getEntriesByType('measure').map((m) => [m.name, Math.round(m.startTime), Math.round(m.duration)]), res: performance.getEntriesByType('resource').map((e) => [decodeURIComponent(e.name.replace(/^.*\\/(api|assets)\\//, '$1/')).slice(0, 50), Math.round(e.startTime), Math.round(e.connectStart), Math.round(e.requestStart), Math.round(e.responseStart), Math.round(e.responseEnd), e.encodedBodySize, (e.serverTiming||[]).map((t) => t.name + '=' + Math.round(t.duration)).join(',')]) }))()`) as any
    await cdp.send('Tracing.end')
    await done
    await ctx.close()
    if (run < 2) continue
    const nav = events.find((e) => e.name === 'navigationStart' || e.name === 'NavigationTiming')
    const t0 = info.origin * 1000 // trace ts are monotonic us; align via a user-timing mark
    const mk = events.find((e) => e.name === 'mb:shell-ready' && e.ph === 'R' || (e.name === 'mb:shell-ready'))
    const shell = info.marks.find((m: any) => m[0] === 'mb:shell-ready')[1]
    const base = mk ? mk.ts / 1000 - shell : 0
    const main = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur > 4000)
    // main thread: the thread of the mark
    const tid = mk?.tid
    console.log('first frame', info.ff)
    for (const m of info.marks) console.log('mark', m[1], m[0])
    for (const m of info.measures) console.log('measure', m[1], m[2], m[0])
    for (const r of info.res) console.log('res', r.slice(1).join(' '), r[0], r[6])
    for (const e of main.filter((e) => e.tid === tid)) {
      const inner = events.filter((x) => x.tid === tid && x.ts >= e.ts && x.ts < e.ts + e.dur && x.ph === 'X' && x.dur > 2000 && x.name !== 'RunTask').map((x) => `${x.name}${x.args?.data?.url ? ':' + x.args.data.url.replace(/^.*\//, '') : ''}${x.args?.data?.functionName ? ':' + x.args.data.functionName : ''}(${(x.dur / 1000).toFixed(0)})`).slice(0, 6)
      console.log('task', (e.ts / 1000 - base).toFixed(0), (e.dur / 1000).toFixed(0), inner.join(' '))
    }
  }
} finally {
  await browser.close()
  await served.close()
}
