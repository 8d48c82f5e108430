/**
 * The Edit and View menus in one description (issue 25): the window's own menu bar (browser mode,
 * `MenuBar.vue` through `app-commands.ts`) and Electron's native menu (`src-main/app-menu.ts`) are
 * both built from it, so their entries, labels and shortcuts cannot drift. What an entry does lives
 * in the renderer; the native menu sends its id to the window (`app:command`).
 */

export interface AppCommandSpec {
  id: AppCommandId
  label: string
  /** As shown, e.g. "Ctrl+Shift+Z" (Ctrl is ⌘ on macOS too). */
  shortcut: string
  /** A panel toggle (shown with a check). */
  toggle?: true
  /** The view that edits handles these keys itself (Ctrl+Z in the pose editor): menus only show them. */
  viewKeys?: true
}

export type AppCommandId = 'undo' | 'redo' | 'copy-path' | 'tree' | 'inspector'

export const APP_MENUS = {
  edit: [
    { id: 'undo', label: 'Undo', shortcut: 'Ctrl+Z', viewKeys: true },
    { id: 'redo', label: 'Redo', shortcut: 'Ctrl+Shift+Z', viewKeys: true },
    { id: 'copy-path', label: 'Copy path', shortcut: 'Alt+Shift+C' },
  ],
  view: [
    { id: 'tree', label: 'Tree and search', shortcut: 'Ctrl+B', toggle: true },
    { id: 'inspector', label: 'Inspector', shortcut: 'Ctrl+I', toggle: true },
  ],
} as const satisfies Record<'edit' | 'view', readonly AppCommandSpec[]>

/** The menus' titles, in menu-bar order. */
export const APP_MENU_TITLES = { edit: 'Edit', view: 'View' } as const

/** Commands the native menu may send besides these (Help → Demo scene). */
export type AppCommandName = AppCommandId | 'demo-scene'

/** A shortcut as an Electron accelerator ("Ctrl+Shift+Z" → "CmdOrCtrl+Shift+Z"). */
export function accelerator(shortcut: string): string {
  return shortcut
    .split('+')
    .map((k) => (k === 'Ctrl' ? 'CmdOrCtrl' : k))
    .join('+')
}
