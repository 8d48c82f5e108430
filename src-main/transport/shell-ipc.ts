/**
 * The Electron shell's own IPC channels (`dialog:pick`, `shell:reveal`, `files:dropped`) and the
 * rule for the two API channels that widen what may be read (`fs:grant`, `index:start`): in the
 * app they accept only paths the user chose in a native dialog or dropped on the window (or places
 * already open to reads: indexed sources, chosen places, written outputs). Browser mode keeps its
 * typed-path prompt (`fs:grant` there is the user's own choice behind the token).
 *
 * Dropped paths come from the preload: `webUtils.getPathForFile` gives a path only for a File the
 * user dropped or picked in a file input (a File the page builds has none), and the preload reports
 * each such path on `files:dropped` before handing it to the page.
 */
import * as path from 'node:path'
import type { BrowserWindow, Dialog, IpcMain, IpcMainEvent, IpcMainInvokeEvent, Shell } from 'electron'
import { checkValue } from '../../src-shared/api/schema'
import { shellSchemas } from '../../src-shared/api/requests'
import { AccessDenied, type Services } from '../services/index'
import { UntrustedSender } from './shell-guards'

/** Where chosen paths are kept between runs (the catalog's settings), so "Open Recent" still works. */
export interface ChosenStore {
  load(): string[]
  save(paths: string[]): void
}

/** Paths the user chose in a native dialog or dropped on the window (the last `MAX_CHOSEN`, kept between runs). */
export class ChosenPaths {
  private paths: Set<string>
  constructor(private readonly store?: ChosenStore) {
    this.paths = new Set(store?.load() ?? [])
  }
  add(p: string): void {
    const abs = path.resolve(p)
    this.paths.delete(abs)
    this.paths.add(abs)
    while (this.paths.size > MAX_CHOSEN) this.paths.delete(this.paths.values().next().value!)
    this.store?.save([...this.paths])
  }
  has(p: string): boolean {
    return this.paths.has(path.resolve(p))
  }
}
const MAX_CHOSEN = 500

/**
 * Throws `AccessDenied` when an IPC call of `fs:grant` or `index:start` names a path the user did
 * not choose: not chosen or dropped, not readable already (inside an indexed source or a chosen
 * place), not the folder an indexed source is in (the tree's folder row), not the bundled samples.
 */
export function chosenPathsGate(services: Services, chosen: ChosenPaths, samples: string): (channel: string, req: unknown) => void {
  const ok = (p: string) => {
    const abs = path.resolve(p)
    if (chosen.has(abs) || abs === path.resolve(samples)) return true
    // the tree's folder rows ("Index this folder again"): the folder an indexed source is in, not above
    if (services.catalog.sources().some((s) => path.dirname(s.path) === abs)) return true
    try {
      services.allowPath(p, 'read')
      return true
    } catch {
      return false
    }
  }
  return (channel, req) => {
    const paths = channel === 'fs:grant' ? [(req as { path: string }).path] : channel === 'index:start' ? (req as { paths: string[] }).paths : []
    for (const p of paths) if (!ok(p)) throw new AccessDenied(p, `${channel}: not chosen in a dialog or dropped on the window`)
  }
}

export interface ShellIpcDeps {
  ipcMain: IpcMain
  dialog: Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'>
  shell: Pick<Shell, 'showItemInFolder'>
  window: () => BrowserWindow | null
  services: Services
  chosen: ChosenPaths
  /** Why a sender is refused, or null (`senderProblem`). */
  trust: (e: IpcMainEvent | IpcMainInvokeEvent) => string | null
}

/** Registers the shell's own channels; returns a function that removes them. */
export function registerShellIpc(d: ShellIpcDeps): () => void {
  const { ipcMain, dialog, services, chosen } = d
  const trusted = (channel: string, e: IpcMainEvent | IpcMainInvokeEvent) => {
    const why = d.trust(e)
    if (why) throw new UntrustedSender(channel, why)
  }
  const choose = (p: string) => {
    chosen.add(p)
    services.ctx.grantPath(p)
    return p
  }
  ipcMain.handle('dialog:pick', async (e, raw: unknown) => {
    trusted('dialog:pick', e)
    const opts = checkValue('dialog:pick', shellSchemas['dialog:pick'], raw)
    const win = d.window()!
    if (opts.kind === 'save-file') {
      // Windows and macOS ask before replacing by themselves; on Linux it takes this property.
      const r = await dialog.showSaveDialog(win, { title: opts.title, defaultPath: opts.defaultPath, filters: opts.filters, properties: ['showOverwriteConfirmation', 'createDirectory'] })
      return r.canceled || !r.filePath ? null : choose(r.filePath)
    }
    const r = await dialog.showOpenDialog(win, { title: opts.title, defaultPath: opts.defaultPath, filters: opts.filters, properties: [opts.kind === 'open-folder' ? 'openDirectory' : 'openFile', 'createDirectory'] })
    return r.canceled || !r.filePaths[0] ? null : choose(r.filePaths[0])
  })
  // Reveal in folder: only what the user indexed or chose (the same rule as every read).
  ipcMain.handle('shell:reveal', (e, raw: unknown) => {
    trusted('shell:reveal', e)
    d.shell.showItemInFolder(services.allowPath(checkValue('shell:reveal', shellSchemas['shell:reveal'], raw), 'read'))
  })
  // Sent (not invoked) by the preload, so it is recorded before the page's `index:start` that follows.
  const onDropped = (e: IpcMainEvent, raw: unknown) => {
    try {
      trusted('files:dropped', e)
      for (const p of checkValue('files:dropped', shellSchemas['files:dropped'], raw)) chosen.add(p)
    } catch {
      /* refused: nothing recorded */
    }
  }
  ipcMain.on('files:dropped', onDropped)
  return () => {
    ipcMain.removeHandler('dialog:pick')
    ipcMain.removeHandler('shell:reveal')
    ipcMain.off('files:dropped', onDropped)
  }
}
