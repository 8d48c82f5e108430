import { editTarget } from './stores/edit-commands'
import { useCatalogStore } from './stores/catalog'
import { useNodeActionsStore } from './stores/node-actions'
import { useWorkspaceStore } from './stores/workspace'
import { rowPath } from './tree-actions'

/** One entry of the Edit or View menu, with the shortcut that runs it from anywhere. */
export interface AppCommand {
  id: string
  label: string
  /** As shown, e.g. "Ctrl+Shift+Z"; also what `matches` reads. */
  shortcut: string
  enabled(): boolean
  /** For toggles: whether it is on (the menu shows a check). */
  checked?(): boolean
  /** The view that edits handles its own keys (Ctrl+Z in the pose editor): the menu only shows them. */
  viewKeys?: boolean
  run(): void | Promise<void>
}

/** The Edit and View menus' entries (issue 25): undo/redo the editing view, copy path, panel toggles. */
export function appCommands(): { edit: AppCommand[]; view: AppCommand[] } {
  const catalog = useCatalogStore()
  const actions = useNodeActionsStore()
  const workspace = useWorkspaceStore()
  const selectedPath = () => (catalog.selected ? rowPath(catalog.selected, catalog.sources) : null)
  const nudge = (): void => void requestAnimationFrame(() => window.dispatchEvent(new Event('resize')))
  return {
    edit: [
      { id: 'undo', label: 'Undo', shortcut: 'Ctrl+Z', viewKeys: true, enabled: () => editTarget.value?.canUndo() ?? false, run: () => editTarget.value?.undo() },
      { id: 'redo', label: 'Redo', shortcut: 'Ctrl+Shift+Z', viewKeys: true, enabled: () => editTarget.value?.canRedo() ?? false, run: () => editTarget.value?.redo() },
      {
        id: 'copy-path',
        label: 'Copy path',
        shortcut: 'Alt+Shift+C',
        enabled: () => selectedPath() !== null,
        run: async () => {
          const p = selectedPath()
          if (!p) return
          try {
            await navigator.clipboard.writeText(p)
            actions.notice = `Copied ${p}`
          } catch (e) {
            catalog.reportError(e)
          }
        },
      },
    ],
    view: [
      { id: 'tree', label: 'Tree and search', shortcut: 'Ctrl+B', enabled: () => true, checked: () => workspace.tree, run: () => { workspace.toggleTree(); nudge() } },
      { id: 'inspector', label: 'Inspector', shortcut: 'Ctrl+I', enabled: () => true, checked: () => workspace.inspector, run: () => { workspace.toggleInspector(); nudge() } },
    ],
  }
}
