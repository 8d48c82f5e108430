/**
 * Electron bootstrap: the thin shell. Everything it calls (catalog, services, indexer) runs and
 * is tested under plain Node; this file is the only one that imports `electron` besides the
 * preload, the IPC transport and the shell's guards (`transport/shell-*.ts`, types only).
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type MenuItemConstructorOptions } from 'electron'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
// The app's entry: loads the domain list into the registry that services, indexer and CLI table read.
import './domains/index'
import { openCatalog } from './catalog/catalog'
import { defaultDbPath, samplesDir } from './catalog/paths'
import { Services } from './services/index'
import { registerIpc } from './transport/ipc'
import { CSP } from './transport/csp'
import { appUrlMatcher, guardContents, guardPermissions, senderProblem, type IpcSender } from './transport/shell-guards'
import { ChosenPaths, chosenPathsGate, registerShellIpc } from './transport/shell-ipc'
import { editViewMenus } from './transport/shell-menu'
import type { AppCommandName } from '../src-shared/app-menu'
import { useNodePngCodec } from './node/png-codec'

// the app's exports write their PNGs with Node's zlib, as the CLI does (the same bytes)
useNodePngCodec()

let win: BrowserWindow | null = null
/** Paths the user chose in a dialog or dropped: what `fs:grant` and `index:start` accept from the window. */
let chosen = new ChosenPaths()

function recent(services: Services): string[] {
  return services.catalog.getSetting<string[]>('recent') ?? []
}

function addRecent(services: Services, p: string): void {
  const list = [p, ...recent(services).filter((x) => x !== p)].slice(0, 10)
  services.catalog.setSetting('recent', list)
  app.addRecentDocument(p)
}

async function openPaths(services: Services, paths: string[]): Promise<void> {
  for (const p of paths) {
    chosen.add(p)
    addRecent(services, p)
  }
  await services.invoke('index:start', { paths })
  buildMenu(services)
}

/** Asks the window to run a command of its menus (Edit, View, Help). */
function send(command: AppCommandName): void {
  win?.webContents.send('event:app:command', { command })
}

function buildMenu(services: Services): void {
  const open = async (props: ('openFile' | 'openDirectory' | 'multiSelections')[]) => {
    const r = await dialog.showOpenDialog(win!, { properties: props })
    if (!r.canceled && r.filePaths.length) await openPaths(services, r.filePaths)
  }
  const template: MenuItemConstructorOptions[] = [
    {
      label: 'File',
      submenu: [
        { label: 'Open File…', accelerator: 'CmdOrCtrl+O', click: () => open(['openFile', 'multiSelections']) },
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+Shift+O', click: () => open(['openDirectory']) },
        {
          label: 'Open Recent',
          submenu: recent(services).length
            ? recent(services).map((p) => ({ label: p, click: () => openPaths(services, [p]) }))
            : [{ label: '(none)', enabled: false }],
        },
        { type: 'separator' },
        { role: 'quit' },
      ],
    },
    ...editViewMenus(send),
    { label: 'Help', submenu: [{ label: 'Demo scene', click: () => send('demo-scene') }] },
  ]
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}

async function main(): Promise<void> {
  await app.whenReady()
  const catalog = openCatalog(defaultDbPath())
  const services = new Services(catalog)
  chosen = new ChosenPaths({ load: () => catalog.getSetting<string[]>('chosen-paths') ?? [], save: (list) => catalog.setSetting('chosen-paths', list) })
  session.defaultSession.webRequest.onHeadersReceived((details, cb) => cb({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } }))
  win = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Modbench',
    webPreferences: {
      preload: path.join(import.meta.dirname, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  })
  // Editors with unsaved changes cancel `beforeunload`; Electron then asks here instead of
  // closing silently or refusing silently.
  win.webContents.on('will-prevent-unload', (ev) => {
    const choice = dialog.showMessageBoxSync(win!, {
      type: 'question',
      buttons: ['Discard changes and close', 'Keep editing'],
      defaultId: 1,
      cancelId: 1,
      message: 'You have unsaved changes.',
      detail: 'Closing now loses them. Use Save As… first to keep them.',
    })
    if (choice === 0) ev.preventDefault()
  })
  const startUrl = process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(path.join(import.meta.dirname, '../renderer/index.html')).href
  const isOwn = appUrlMatcher(startUrl)
  const mainContents = () => win?.webContents ?? null
  guardContents(win.webContents, isOwn)
  guardPermissions(session.defaultSession, (c) => c !== null && c === mainContents())
  const trust = (e: IpcSender) => senderProblem(e, mainContents, isOwn)
  registerIpc(ipcMain, services, mainContents, { trust, gate: chosenPathsGate(services, chosen, samplesDir()) })
  registerShellIpc({ ipcMain, dialog, shell, window: () => win, services, chosen, trust })
  buildMenu(services)
  await win.loadURL(startUrl)
  if (catalog.sources().length === 0) services.invoke('index:start', { paths: [samplesDir()] }).catch(() => {})
  app.on('window-all-closed', () => {
    services.dispose()
    catalog.close()
    app.quit()
  })
}

void main()
