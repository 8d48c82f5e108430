/**
 * End-to-end harness: starts browser mode (`modbench serve`) as a child process against a real
 * catalog, and Debian's Chromium through playwright-core. A missing browser is a failure with a
 * clear message, never a silent skip.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

export const repoRoot = path.resolve(import.meta.dirname, '..', '..')
export const artifactsDir = path.join(repoRoot, 'test-artifacts')

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
]

export interface Served {
  url: string
  origin: string
  token: string
  db: string
  proc: ChildProcess
  stderr: () => string
  close(): Promise<void>
}

/** Starts `modbench serve` on a random port; resolves once it printed its URL. */
export async function startServe(opts: { db?: string; samples?: boolean; env?: Record<string, string> } = {}): Promise<Served> {
  const db = opts.db ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-')), 'catalog.sqlite')
  const args = [path.join(repoRoot, 'bin', 'modbench.mjs'), 'serve', '--db', db, '--port', '0', ...(opts.samples === false ? ['--no-samples'] : [])]
  const proc = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } })
  let err = ''
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`modbench serve printed no URL in 120 s; stderr:\n${err}`)), 120_000)
    proc.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const line = out.split('\n')[0]!
      if (out.includes('\n')) {
        clearTimeout(timer)
        resolve(line.trim())
      }
    })
    proc.on('close', (code) => {
      clearTimeout(timer)
      reject(new Error(`modbench serve exited (${code}) before printing its URL; stderr:\n${err}`))
    })
  })
  const u = new URL(url)
  return {
    url,
    origin: u.origin,
    token: u.searchParams.get('token') ?? '',
    db,
    proc,
    stderr: () => err,
    close: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve()
        proc.once('close', () => resolve())
        proc.kill('SIGTERM')
        setTimeout(() => proc.kill('SIGKILL'), 5000).unref()
      }),
  }
}

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: end-to-end tests need Debian's chromium (apt-get install -y chromium) or CHROMIUM_PATH`)
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
}

/** Opens the app page and fails the test on any uncaught page error. */
export async function openApp(browser: Browser, served: Served): Promise<{ page: Page; pageErrors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } })
  const pageErrors: string[] = []
  page.on('pageerror', (e) => pageErrors.push(e.message))
  await page.goto(served.url)
  return { page, pageErrors }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(artifactsDir, { recursive: true })
  const file = path.join(artifactsDir, `${name}.png`)
  await page.screenshot({ path: file })
  return file
}

/**
 * Answers browser mode's file browser with a typed path (the way a user types one instead of
 * clicking through folders); a save over an existing file is confirmed when `replace` is set.
 */
export async function answerFileBrowser(page: Page, p: string, opts: { replace?: boolean } = {}): Promise<void> {
  const fb = page.getByTestId('file-browser')
  // typed once the dialog shows its folder, as a person does (issue 27: under load a listing or a
  // second request landing after the typing must not decide what OK answers)
  await page.locator('[data-testid="file-browser"][data-ready="1"]').waitFor({ timeout: 30_000 })
  const shown = await fb.getAttribute('data-shown')
  const input = page.getByTestId('fb-name')
  await input.fill(p)
  // OK answers what the field holds when it is pressed: make sure it holds the typed path
  const held = await page.waitForFunction((want) => (document.querySelector('[data-testid="fb-name"]') as HTMLInputElement | null)?.value === want, p, { timeout: 30_000 }).then(() => true, () => false)
  if (!held) {
    const now = await input.inputValue().catch(() => '(no field)')
    throw new Error(`file browser: typed ${JSON.stringify(p)}, the field holds ${JSON.stringify(now)} (request ${shown} → ${await fb.getAttribute('data-shown').catch(() => '?')})`)
  }
  await page.getByTestId('fb-ok').click()
  if (opts.replace) {
    await page.getByTestId('fb-replace').click()
  }
  await fb.waitFor({ state: 'detached', timeout: 30_000 })
}

/**
 * Waits until the page has drawn `n` more frames (animation frames: the 3D views render in them),
 * so a picture read next shows what was changed before the call, however slow the machine is.
 */
export async function framesDrawn(page: Page, n = 2): Promise<void> {
  await page.evaluate((count) => new Promise<void>((done) => {
    let left = count
    const tick = (): void => void (--left <= 0 ? done() : requestAnimationFrame(tick))
    requestAnimationFrame(tick)
  }), n)
}

/**
 * Clicks a canvas on its vertical centre line, from the middle downwards in 1 % steps, until
 * `hit()` says the click picked something (a framed stage is a strip across the middle, and a
 * click passes through the back of culled faces). Stops after 15 tries.
 */
export async function clickDownFromCentre(page: Page, testId: string, hit: () => Promise<boolean>): Promise<void> {
  const canvas = page.getByTestId(testId)
  const box = (await canvas.boundingBox())!
  for (let fy = 0.5; fy < 0.65 && !(await hit()); fy += 0.01) {
    await canvas.click({ position: { x: box.width / 2, y: box.height * fy } })
    await framesDrawn(page, 2) // the pick is shown once the views have drawn after the click
  }
}
