import { APP_MENUS, type AppCommandId, type AppCommandSpec } from '@shared/app-menu'
import { editTarget } from './stores/edit-commands'
import { useCatalogStore } from './stores/catalog'
import { useNodeActionsStore } from './stores/node-actions'
import { useWorkspaceStore } from './stores/workspace'
import { rowPath } from './tree-actions'

/** One entry of the Edit or View menu (its id, label, shortcut from APP_MENUS), with what it does. */
export interface AppCommand extends AppCommandSpec {
  enabled(): boolean
  /** For toggles: whether it is on (the menu shows a check). */
  checked?(): boolean
  run(): void | Promise<void>
}

type Behaviour = Pick<AppCommand, 'enabled' | 'checked' | 'run'>

/** The Edit and View menus' entries (issue 25): undo/redo the editing view, copy path, panel toggles. */
export function appCommands(): { edit: AppCommand[]; view: AppCommand[] } {
  const catalog = useCatalogStore()
  const actions = useNodeActionsStore()
  const workspace = useWorkspaceStore()
  const selectedPath = () => (catalog.selected ? rowPath(catalog.selected, catalog.sources) : null)
  const nudge = (): void => void requestAnimationFrame(() => window.dispatchEvent(new Event('resize')))
  const does: Record<AppCommandId, Behaviour> = {
    undo: { enabled: () => editTarget.value?.canUndo() ?? false, run: () => editTarget.value?.undo() },
    redo: { enabled: () => editTarget.value?.canRedo() ?? false, run: () => editTarget.value?.redo() },
    'copy-path': {
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
    tree: { enabled: () => true, checked: () => workspace.tree, run: () => { workspace.toggleTree(); nudge() } },
    inspector: { enabled: () => true, checked: () => workspace.inspector, run: () => { workspace.toggleInspector(); nudge() } },
  }
  const build = (list: readonly AppCommandSpec[]): AppCommand[] => list.map((spec) => ({ ...spec, ...does[spec.id] }))
  return { edit: build(APP_MENUS.edit), view: build(APP_MENUS.view) }
}
