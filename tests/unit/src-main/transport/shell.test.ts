/**
 * The Electron shell's guards (issue 24), proved on the real bootstrap (`src-main/index.ts`) run
 * against a fake `electron` module (Electron cannot run here; TOOLCHAIN.md "Electron in tests"):
 * navigation and new windows, permission requests and checks, the sender of every IPC channel,
 * argument checks against the contract, and `fs:grant`/`index:start` limited to paths the user
 * chose in a dialog or dropped.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { EventEmitter } from 'node:events'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
import { cli, repoRoot } from '../../../helpers/cli'
import { openCatalog } from '../../../../src-main/catalog/catalog'

type Handler = (e: unknown, ...args: unknown[]) => unknown
type Ev = { preventDefault: () => void; url?: string; prevented: boolean }

const fake = vi.hoisted(() => {
  const handle = new Map<string, Handler>()
  const on = new Map<string, Handler>()
  const state = {
    handle,
    on,
    windows: [] as { webContents: unknown }[],
    dialogResult: { canceled: true, filePaths: [] as string[], filePath: undefined as string | undefined },
    permissionRequest: null as null | ((c: unknown, p: string, cb: (ok: boolean) => void) => void),
    permissionCheck: null as null | ((c: unknown, p: string) => boolean),
    loaded: null as string | null,
    revealed: [] as string[],
    menu: null as unknown,
  }
  return state
})

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events')
  class Contents extends Emitter {
    openHandler: ((d: { url: string }) => { action: string }) | null = null
    sent: unknown[] = []
    setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
      this.openHandler = h
    }
    send(...a: unknown[]) {
      this.sent.push(a)
    }
  }
  class BrowserWindow {
    webContents = new Contents()
    constructor() {
      fake.windows.push(this)
    }
    async loadURL(u: string) {
      fake.loaded = u
    }
    async loadFile(f: string) {
      fake.loaded = pathToFileURL(f).href
    }
  }
  const session = {
    defaultSession: {
      webRequest: { onHeadersReceived: () => {} },
      setPermissionRequestHandler: (h: typeof fake.permissionRequest) => (fake.permissionRequest = h),
      setPermissionCheckHandler: (h: typeof fake.permissionCheck) => (fake.permissionCheck = h),
    },
  }
  return {
    app: { whenReady: async () => {}, addRecentDocument: () => {}, on: () => {}, quit: () => {} },
    BrowserWindow,
    dialog: {
      showOpenDialog: async () => fake.dialogResult,
      showSaveDialog: async () => fake.dialogResult,
      showMessageBoxSync: () => 1,
    },
    ipcMain: {
      handle: (c: string, h: Handler) => fake.handle.set(c, h),
      removeHandler: (c: string) => fake.handle.delete(c),
      on: (c: string, h: Handler) => fake.on.set(c, h),
      off: (c: string) => fake.on.delete(c),
    },
    Menu: { setApplicationMenu: (m: unknown) => (fake.menu = m), buildFromTemplate: (t: unknown) => t },
    session,
    shell: { showItemInFolder: (p: string) => fake.revealed.push(p) },
  }
})

let tmp: string
let contents: EventEmitter & { openHandler: ((d: { url: string }) => { action: string }) | null }
let appUrl: string
/** An IPC event from the main window's top frame showing the app, unless overridden. */
const from = (o: { sender?: unknown; url?: string; parent?: unknown; frame?: null } = {}) => ({
  sender: o.sender ?? contents,
  senderFrame: o.frame === null ? null : { url: o.url ?? appUrl, parent: o.parent ?? null },
})
const invoke = (e: unknown, channel: unknown, req: unknown) => fake.handle.get('api:invoke')!(e, channel, req) as Promise<{ ok?: unknown; error?: { name: string; code?: string; field?: string; message: string } }>
const ev = (url: string): Ev => {
  const e: Ev = { url, prevented: false, preventDefault: () => (e.prevented = true) }
  return e
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-shell-'))
  const db = path.join(tmp, 'catalog.sqlite')
  // A catalog that is not empty, so the shell does not index the bundled samples on start.
  const pose = path.join(tmp, 'indexed', 'pose.json')
  fs.mkdirSync(path.dirname(pose))
  fs.copyFileSync(path.join(repoRoot, 'resources', 'samples', 're', 'sample_wave_pose.json'), pose)
  expect((await cli(['index', pose, '--db', db])).code).toBe(0)
  for (const f of ['secret.json', 'chosen.json', 'dropped.json', 'dropped-by-other.json']) fs.writeFileSync(path.join(tmp, f), '{}')
  vi.stubEnv('MODBENCH_DB', db)
  vi.stubEnv('ELECTRON_RENDERER_URL', '')
  delete process.env.ELECTRON_RENDERER_URL
  await import('../../../../src-main/index')
  await vi.waitFor(() => expect(fake.loaded).not.toBeNull(), { timeout: 10_000 })
  appUrl = fake.loaded!
  contents = fake.windows[0]!.webContents as typeof contents
})
afterAll(() => {
  vi.unstubAllEnvs()
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('navigation and new windows', () => {
  it('stays on the app: other pages, files and schemes are denied', () => {
    expect(appUrl.startsWith('file:')).toBe(true)
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      for (const url of ['https://evil.example/', 'http://127.0.0.1:8080/', pathToFileURL(path.join(tmp, 'secret.json')).href, 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'not a url']) {
        const e = ev(url)
        contents.emit(name, e, url)
        expect(e.prevented, `${name} ${url}`).toBe(true)
      }
      // The app's own page (a reload, a permalink's query or hash) is not stopped.
      for (const url of [appUrl, `${appUrl}?asset=3`, `${appUrl}#x`]) {
        const e = ev(url)
        contents.emit(name, e, url)
        expect(e.prevented, `${name} ${url}`).toBe(false)
      }
    }
    const webview = ev('https://evil.example/')
    contents.emit('will-attach-webview', webview)
    expect(webview.prevented).toBe(true)
  })

  it('opens no new window', () => {
    expect(contents.openHandler).toBeTypeOf('function')
    for (const url of ['https://evil.example/', appUrl, 'about:blank']) expect(contents.openHandler!({ url }).action, url).toBe('deny')
  })
})

describe('permissions', () => {
  it('refuses every request and check but the clipboard write of the main window', () => {
    const asked = (c: unknown, p: string) => new Promise<boolean>((resolve) => fake.permissionRequest!(c, p, resolve))
    return (async () => {
      for (const p of ['media', 'geolocation', 'notifications', 'midi', 'openExternal', 'fullscreen', 'pointerLock', 'clipboard-read', 'hid', 'serial', 'usb']) {
        expect(await asked(contents, p), p).toBe(false)
        expect(fake.permissionCheck!(contents, p), p).toBe(false)
      }
      expect(await asked(contents, 'clipboard-sanitized-write')).toBe(true)
      expect(fake.permissionCheck!(contents, 'clipboard-sanitized-write')).toBe(true)
      const other = new EventEmitter()
      expect(await asked(other, 'clipboard-sanitized-write')).toBe(false)
      expect(fake.permissionCheck!(null, 'clipboard-sanitized-write')).toBe(false)
    })()
  })
})

describe('IPC senders', () => {
  const strangers = () => [
    ['another webContents', from({ sender: new EventEmitter() })],
    ['a sub-frame', from({ parent: {} })],
    ['a frame showing another page', from({ url: 'https://evil.example/' })],
    ['a destroyed frame', from({ frame: null })],
  ] as const

  it('api:invoke answers the main window only', async () => {
    expect((await invoke(from(), 'catalog:sources', {})).ok).toBeInstanceOf(Array)
    for (const [what, e] of strangers()) {
      const r = await invoke(e, 'catalog:sources', {})
      expect(r.ok, what).toBeUndefined()
      expect(r.error?.name, what).toBe('UntrustedSender')
    }
  })

  it('dialog:pick and shell:reveal refuse other senders', async () => {
    fake.dialogResult = { canceled: false, filePaths: [path.join(tmp, 'secret.json')], filePath: undefined }
    for (const [what, e] of strangers()) {
      await expect(fake.handle.get('dialog:pick')!(e, { kind: 'open-file' }), what).rejects.toThrow(/dialog:pick refused/)
      await expect(Promise.resolve().then(() => fake.handle.get('shell:reveal')!(e, path.join(tmp, 'indexed', 'pose.json'))), what).rejects.toThrow(/shell:reveal refused/)
    }
    expect(fake.revealed).toEqual([])
    // The dialog's answer to a stranger never became a chosen path.
    expect((await invoke(from(), 'fs:grant', { path: path.join(tmp, 'secret.json') })).error?.name).toBe('AccessDenied')
  })
})

describe('arguments against the contract', () => {
  it('api:invoke refuses a request of the wrong types naming the field', async () => {
    expect(await invoke(from(), 'catalog:asset', { id: 'x' })).toMatchObject({ error: { name: 'BadRequest', code: 'bad-request', field: 'id' } })
    expect(await invoke(from(), 'index:start', { paths: [7] })).toMatchObject({ error: { name: 'BadRequest', field: 'paths[0]' } })
    expect((await invoke(from(), 42, {})).error?.name).toBe('NotFound')
  })

  it('the shell channels check theirs', async () => {
    await expect(fake.handle.get('dialog:pick')!(from(), { kind: 'open-anything' })).rejects.toMatchObject({ name: 'BadRequest', field: 'kind' })
    await expect(fake.handle.get('dialog:pick')!(from(), { kind: 'open-file', filters: [{ name: 'x', extensions: 'png' }] })).rejects.toMatchObject({ name: 'BadRequest', field: 'filters[0].extensions' })
    await expect(Promise.resolve().then(() => fake.handle.get('shell:reveal')!(from(), 5))).rejects.toMatchObject({ name: 'BadRequest' })
  })
})

describe('fs:grant and index:start take chosen paths only', () => {
  it('refuses a path the user never chose', async () => {
    for (const p of [path.join(tmp, 'secret.json'), '/', os.homedir(), tmp]) {
      expect((await invoke(from(), 'fs:grant', { path: p })).error?.name, p).toBe('AccessDenied')
      expect((await invoke(from(), 'index:start', { paths: [p] })).error?.name, p).toBe('AccessDenied')
    }
  })

  it('accepts a dialog’s choice', async () => {
    const chosen = path.join(tmp, 'chosen.json')
    fake.dialogResult = { canceled: false, filePaths: [chosen], filePath: undefined }
    expect(await fake.handle.get('dialog:pick')!(from(), { kind: 'open-file' })).toBe(chosen)
    expect((await invoke(from(), 'fs:grant', { path: chosen })).ok).toEqual({ path: chosen })
    expect((await invoke(from(), 'index:start', { paths: [chosen] })).error).toBeUndefined()
    // kept in the catalog's settings, so "Open Recent" of it works in the next run too
    const c = openCatalog(process.env.MODBENCH_DB!)
    try {
      expect(c.getSetting<string[]>('chosen-paths')).toContain(chosen)
    } finally {
      c.close()
    }
  })

  it('accepts a path the preload reported as dropped, from the main window only', async () => {
    const dropped = path.join(tmp, 'dropped.json')
    const other = path.join(tmp, 'dropped-by-other.json')
    fake.on.get('files:dropped')!(from({ sender: new EventEmitter() }), [other])
    fake.on.get('files:dropped')!(from(), 'not a list')
    fake.on.get('files:dropped')!(from(), [dropped])
    expect((await invoke(from(), 'index:start', { paths: [dropped] })).error).toBeUndefined()
    expect((await invoke(from(), 'index:start', { paths: [other] })).error?.name).toBe('AccessDenied')
  })

  it('re-indexes what is already indexed, and the folder an indexed source is in (the tree’s folder row)', async () => {
    expect((await invoke(from(), 'index:start', { paths: [path.join(tmp, 'indexed', 'pose.json')] })).error).toBeUndefined()
    expect((await invoke(from(), 'index:start', { paths: [path.join(tmp, 'indexed')] })).error).toBeUndefined()
  })
})

describe('native menu', () => {
  type Item = { label?: string; role?: string; type?: string; accelerator?: string; registerAccelerator?: boolean; click?: () => void; submenu?: Item[] }
  const menu = () => fake.menu as Item[]
  const entries = (title: string) => menu().find((m) => m.label === title)!.submenu!.filter((i) => i.label).map((i) => [i.label, i.accelerator ?? null])

  it('has the Edit and View menus of the window’s menu bar, with their shortcuts (issue 25)', () => {
    expect(menu().map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Help'])
    expect(entries('Edit')).toEqual([['Undo', 'CmdOrCtrl+Z'], ['Redo', 'CmdOrCtrl+Shift+Z'], ['Copy path', 'Alt+Shift+C']])
    expect(entries('View')).toEqual([['Tree and search', 'CmdOrCtrl+B'], ['Inspector', 'CmdOrCtrl+I']])
    // text editing keeps the system's roles; the window answers the app's keys (no double run)
    expect(menu()[1]!.submenu!.filter((i) => i.role).map((i) => i.role)).toEqual(['cut', 'copy', 'paste', 'selectAll'])
    for (const t of ['Edit', 'View']) for (const i of menu().find((m) => m.label === t)!.submenu!.filter((x) => x.label)) expect(i.registerAccelerator, i.label).toBe(false)
  })

  it('a click asks the window to run the entry', () => {
    const sent = (contents as unknown as { sent: unknown[][] }).sent
    const click = (title: string, label: string) => menu().find((m) => m.label === title)!.submenu!.find((i) => i.label === label)!.click!()
    const before = sent.length
    click('Edit', 'Redo')
    click('View', 'Inspector')
    click('Help', 'Demo scene')
    expect(sent.slice(before)).toEqual([
      ['event:app:command', { command: 'redo' }],
      ['event:app:command', { command: 'inspector' }],
      ['event:app:command', { command: 'demo-scene' }],
    ])
  })
})

describe('preload', () => {
  it('reports a dropped file’s path to the main process before the page gets it', async () => {
    vi.resetModules()
    const sent: unknown[][] = []
    const exposed: Record<string, unknown> = {}
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (k: string, v: unknown) => (exposed[k] = v) },
      ipcRenderer: { send: (...a: unknown[]) => sent.push(a), invoke: async () => ({}), on: () => {}, off: () => {} },
      webUtils: { getPathForFile: (f: { real?: string }) => f.real ?? '' },
    }))
    await import('../../../../src-main/preload')
    const pathOf = (exposed.modbenchFiles as { pathOf(f: unknown): string }).pathOf
    expect(pathOf({})).toBe('')
    expect(sent).toEqual([])
    expect(pathOf({ real: '/home/u/rom.z64' })).toBe('/home/u/rom.z64')
    expect(sent).toEqual([['files:dropped', ['/home/u/rom.z64']]])
    vi.doUnmock('electron')
  })
})
