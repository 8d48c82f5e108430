import * as path from 'node:path'

/**
 * What `npm start` does on this machine, decided without loading the `electron` package (its
 * index.js tries to download the binary when it is missing, and throws where there is no
 * network). Pure: the file system and the environment come in as arguments, so the decision is
 * unit-tested for every case.
 */

export interface StartProbe {
  platform: NodeJS.Platform
  /** process.versions.node */
  nodeVersion: string
  env: Record<string, string | undefined>
  /** The installed `electron` package folder (node_modules/electron), or null if not installed. */
  electronDir: string | null
  exists(file: string): boolean
  readText(file: string): string | null
}

export type StartMode = { mode: 'electron'; binary: string } | { mode: 'browser'; reason: string }

/**
 * The Electron executable the package would run, or null when it is absent. Follows the lookup
 * of electron's own index.js (v45): `path.txt` in the package names the executable inside
 * `dist/`; ELECTRON_OVERRIDE_DIST_PATH replaces `dist/`. electron-vite's ELECTRON_EXEC_PATH
 * names an executable directly.
 */
export function electronBinary(p: StartProbe): string | null {
  const exec = p.env.ELECTRON_EXEC_PATH
  if (exec) return p.exists(exec) ? exec : null
  if (!p.electronDir) return null
  const name = p.readText(path.join(p.electronDir, 'path.txt'))?.trim() || null
  const dist = p.env.ELECTRON_OVERRIDE_DIST_PATH
  const binary = dist ? path.join(dist, name ?? 'electron') : name ? path.join(p.electronDir, 'dist', name) : null
  return binary && p.exists(binary) ? binary : null
}

/** Electron when its binary is there and can open a window; browser mode otherwise, with the reason. */
export function chooseStart(p: StartProbe): StartMode {
  if (p.env.MODBENCH_BROWSER === '1') return { mode: 'browser', reason: 'MODBENCH_BROWSER=1 asks for browser mode' }
  const binary = electronBinary(p)
  if (!binary) {
    const where = p.electronDir ? path.join(p.electronDir, 'dist') : 'node_modules/electron'
    // Electron 45's downloader (@electron/get 5) declares node >= 22.12
    const why = nodeAtLeast(p.nodeVersion, 22, 12) ? 'it downloads on first use and could not here' : `its download needs Node 22.12 or later, this is Node ${p.nodeVersion}`
    return { mode: 'browser', reason: `Electron's binary is missing (${where}; ${why})` }
  }
  if (p.platform === 'linux' && !p.env.DISPLAY && !p.env.WAYLAND_DISPLAY) {
    return { mode: 'browser', reason: 'no display to open an Electron window on (neither DISPLAY nor WAYLAND_DISPLAY is set)' }
  }
  return { mode: 'electron', binary }
}

function nodeAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number)
  return a > major || (a === major && b >= minor)
}

/**
 * The command that opens `url` in the system browser, or null when there is none to use: on
 * Linux `xdg-open` when it is installed and there is a display (without one it would start a
 * text browser in this terminal); `open` on macOS; the URL protocol handler on Windows. BROWSER=none opts out.
 */
export function browserOpener(p: Pick<StartProbe, 'platform' | 'env'>, url: string, hasCommand: (name: string) => boolean): string[] | null {
  if (p.env.BROWSER === 'none') return null
  if (p.platform === 'darwin') return ['open', url]
  if (p.platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', url]
  if (!p.env.DISPLAY && !p.env.WAYLAND_DISPLAY) return null
  return hasCommand('xdg-open') ? ['xdg-open', url] : null
}
