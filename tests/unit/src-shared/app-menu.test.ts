import { describe, expect, it } from 'vitest'
import { APP_MENUS, accelerator } from '../../../src-shared/app-menu'

/** The Edit/View description both menus are built from (issue 25): Electron accelerators from the shown shortcuts. */
describe('app menus', () => {
  it('turns a shown shortcut into an Electron accelerator (Ctrl is Cmd on macOS)', () => {
    expect(accelerator('Ctrl+Shift+Z')).toBe('CmdOrCtrl+Shift+Z')
    expect(accelerator('Alt+Shift+C')).toBe('Alt+Shift+C')
    expect(accelerator('Ctrl+B')).toBe('CmdOrCtrl+B')
  })

  it('no two entries share an id or a shortcut', () => {
    const all = [...APP_MENUS.edit, ...APP_MENUS.view]
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length)
    expect(new Set(all.map((c) => c.shortcut)).size).toBe(all.length)
  })
})
