/**
 * Electron's native Edit and View menus, built from the description the window's own menu bar
 * uses (`src-shared/app-menu.ts`), so the two cannot drift. A click sends the entry's id to the
 * window (`event:app:command`), which runs it as its menu bar would. The accelerators are shown
 * but not registered: the window's key handlers already answer them (the menu bar's, or the
 * editing view's for undo/redo), so a key never runs a command twice, and Ctrl+Z in a text field
 * stays the field's own undo. No `electron` import: the items are plain template objects.
 */
import { APP_MENUS, APP_MENU_TITLES, accelerator, type AppCommandName, type AppCommandSpec } from '../../src-shared/app-menu'

/** The part of Electron's MenuItemConstructorOptions these menus use. */
export interface NativeMenuItem {
  label?: string
  accelerator?: string
  registerAccelerator?: boolean
  type?: 'separator'
  role?: 'cut' | 'copy' | 'paste' | 'selectAll' | 'reload' | 'toggleDevTools' | 'togglefullscreen'
  submenu?: NativeMenuItem[]
  click?: () => void
}

/** The Edit and View menus; `send` delivers a command to the window. */
export function editViewMenus(send: (command: AppCommandName) => void): NativeMenuItem[] {
  const item = (c: AppCommandSpec): NativeMenuItem => ({ label: c.label, accelerator: accelerator(c.shortcut), registerAccelerator: false, click: () => send(c.id) })
  const sep: NativeMenuItem = { type: 'separator' }
  return [
    // text editing stays with the system's roles (the clipboard keys on macOS need them)
    { label: APP_MENU_TITLES.edit, submenu: [...APP_MENUS.edit.map(item), sep, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }] },
    { label: APP_MENU_TITLES.view, submenu: [...APP_MENUS.view.map(item), sep, { role: 'reload' }, { role: 'toggleDevTools' }, { role: 'togglefullscreen' }] },
  ]
}
