import { describe, expect, it } from 'vitest'
import * as path from 'node:path'
import { browserOpener, chooseStart, electronBinary, type StartProbe } from '../../../../src-main/launch/start-mode'

const PKG = path.join('/repo', 'node_modules', 'electron')

/** A probe over an in-memory file system: `files` maps path → content. */
function probe(files: Record<string, string>, env: Record<string, string> = { DISPLAY: ':0' }, over: Partial<StartProbe> = {}): StartProbe {
  return {
    platform: 'linux',
    nodeVersion: '22.12.0',
    env,
    electronDir: PKG,
    exists: (f) => f in files,
    readText: (f) => files[f] ?? null,
    ...over,
  }
}
const installed = { [path.join(PKG, 'path.txt')]: 'electron', [path.join(PKG, 'dist', 'electron')]: '' }

describe('npm start: Electron or browser mode', () => {
  it('runs Electron when path.txt names a binary that exists in dist/', () => {
    expect(chooseStart(probe(installed))).toEqual({ mode: 'electron', binary: path.join(PKG, 'dist', 'electron') })
  })

  it('falls back to browser mode, naming the missing binary, when the download never happened', () => {
    // the state after `npm install` without network: the package is there, path.txt and dist/ are not
    const m = chooseStart(probe({}))
    expect(m.mode).toBe('browser')
    expect(m.mode === 'browser' && m.reason).toBe(`Electron's binary is missing (${path.join(PKG, 'dist')}; it downloads on first use and could not here)`)
  })

  it('on a Node older than 22.12 the reason says the download needs a newer Node', () => {
    const m = chooseStart(probe({}, { DISPLAY: ':0' }, { nodeVersion: '20.20.2' }))
    expect(m.mode === 'browser' && m.reason).toBe(`Electron's binary is missing (${path.join(PKG, 'dist')}; its download needs Node 22.12 or later, this is Node 20.20.2)`)
    expect(chooseStart(probe({}, { DISPLAY: ':0' }, { nodeVersion: '24.1.0' }))).toMatchObject({ reason: expect.stringContaining('could not here') })
    expect(chooseStart(probe({}, { DISPLAY: ':0' }, { nodeVersion: '22.11.9' }))).toMatchObject({ reason: expect.stringContaining('needs Node 22.12') })
  })

  it('falls back when path.txt is there but the binary is gone (a half-finished download)', () => {
    expect(chooseStart(probe({ [path.join(PKG, 'path.txt')]: 'electron' })).mode).toBe('browser')
  })

  it('falls back when the electron package is not installed at all', () => {
    const m = chooseStart(probe({}, { DISPLAY: ':0' }, { electronDir: null }))
    expect(m).toEqual({ mode: 'browser', reason: "Electron's binary is missing (node_modules/electron; it downloads on first use and could not here)" })
  })

  it('on Linux without a display, browser mode even with the binary', () => {
    const m = chooseStart(probe(installed, {}))
    expect(m.mode).toBe('browser')
    expect(m.mode === 'browser' && m.reason).toMatch(/no display/)
    expect(chooseStart(probe(installed, { WAYLAND_DISPLAY: 'wayland-0' })).mode).toBe('electron')
    expect(chooseStart(probe(installed, {}, { platform: 'darwin' })).mode).toBe('electron')
  })

  it('MODBENCH_BROWSER=1 asks for browser mode', () => {
    expect(chooseStart(probe(installed, { DISPLAY: ':0', MODBENCH_BROWSER: '1' })).mode).toBe('browser')
  })

  it('follows electron\'s own overrides: ELECTRON_OVERRIDE_DIST_PATH and electron-vite\'s ELECTRON_EXEC_PATH', () => {
    const dist = { '/opt/electron/electron': '' }
    expect(electronBinary(probe(dist, { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' }))).toBe('/opt/electron/electron')
    expect(electronBinary(probe({}, { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron' }))).toBeNull()
    expect(electronBinary(probe({ '/usr/bin/sleep': '' }, { ELECTRON_EXEC_PATH: '/usr/bin/sleep' }))).toBe('/usr/bin/sleep')
    // an override that points nowhere is "missing", not a fall-through to the package's binary
    expect(electronBinary(probe(installed, { ELECTRON_EXEC_PATH: '/nowhere' }))).toBeNull()
  })
})

describe('opening the system browser', () => {
  const url = 'http://127.0.0.1:5000/?token=ab'
  const yes = () => true
  const no = () => false
  it('xdg-open on Linux when installed and there is a display', () => {
    expect(browserOpener({ platform: 'linux', env: { DISPLAY: ':0' } }, url, yes)).toEqual(['xdg-open', url])
    expect(browserOpener({ platform: 'linux', env: { DISPLAY: ':0' } }, url, no)).toBeNull()
    // without a display xdg-open would start a text browser in the terminal
    expect(browserOpener({ platform: 'linux', env: {} }, url, yes)).toBeNull()
  })
  it('open on macOS, the URL handler on Windows, nothing with BROWSER=none', () => {
    expect(browserOpener({ platform: 'darwin', env: {} }, url, no)).toEqual(['open', url])
    expect(browserOpener({ platform: 'win32', env: {} }, url, no)).toEqual(['rundll32', 'url.dll,FileProtocolHandler', url])
    expect(browserOpener({ platform: 'darwin', env: { BROWSER: 'none' } }, url, yes)).toBeNull()
  })
})
