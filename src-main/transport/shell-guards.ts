/**
 * The Electron window's guards (issue 24), kept apart from the bootstrap so they are tested with
 * a fake `electron`: the page may only show the app itself (navigation and new windows to anything
 * else are denied), asks for no permission that is granted (the clipboard write of "Copy path"
 * excepted), and only the main window's top frame showing the app may call the main process.
 * Only types come from `electron` here.
 */
import type { Session, WebContents, WebFrameMain } from 'electron'

/**
 * Whether a URL is the app's own page: the same origin as the start URL (the dev server), or for a
 * packaged app (`file:`, whose origin is opaque) the same file, with any query or hash.
 */
export function appUrlMatcher(start: string): (url: string) => boolean {
  const home = new URL(start)
  return (url) => {
    let u: URL
    try {
      u = new URL(url)
    } catch {
      return false
    }
    if (home.protocol === 'file:') return u.protocol === 'file:' && u.host === home.host && u.pathname === home.pathname
    return u.origin === home.origin
  }
}

/**
 * Navigation away from the app (a link, `location = …`, a redirect), webviews and new windows are
 * denied. The app opens no window of its own (a window.open of its own page would carry the preload
 * and the bridge), so every new window is denied.
 */
export function guardContents(contents: WebContents, isOwn: (url: string) => boolean): void {
  const deny = (ev: { preventDefault(): void; url?: string }, url?: string) => {
    if (!isOwn(ev.url ?? url ?? '')) ev.preventDefault()
  }
  contents.on('will-navigate', deny)
  contents.on('will-frame-navigate', deny)
  contents.on('will-redirect', deny)
  contents.on('will-attach-webview', (ev) => ev.preventDefault())
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
}

/** Permissions the app's page may have: writing text to the clipboard ("Copy path"), nothing else. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write'])

/**
 * Every permission request and check is refused, except the clipboard write for the main window.
 * `isMain` tells whether a webContents is the main window's.
 */
export function guardPermissions(ses: Session, isMain: (contents: WebContents | null) => boolean): void {
  ses.setPermissionRequestHandler((contents, permission, callback) => callback(isMain(contents) && ALLOWED_PERMISSIONS.has(permission)))
  ses.setPermissionCheckHandler((contents, permission) => isMain(contents) && ALLOWED_PERMISSIONS.has(permission))
}

/** What an IPC event carries about who sent it. */
export interface IpcSender {
  sender: WebContents
  senderFrame: WebFrameMain | null
}

/**
 * Why an IPC message is refused, or null when it comes from the main window's top frame showing
 * the app's own page.
 */
export function senderProblem(e: IpcSender, main: () => WebContents | null, isOwn: (url: string) => boolean): string | null {
  const win = main()
  if (!win || e.sender !== win) return 'the sender is not the main window'
  const frame = e.senderFrame
  if (!frame || frame.parent !== null) return 'the sender is not the main window’s top frame'
  if (!isOwn(frame.url)) return `the sender shows ${frame.url}, not the app`
  return null
}

/** The error an untrusted sender gets (it is told nothing else). */
export class UntrustedSender extends Error {
  readonly code = 'untrusted-sender'
  constructor(channel: string, why: string) {
    super(`${channel} refused: ${why}`)
    this.name = 'UntrustedSender'
  }
}
