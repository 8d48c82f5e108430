import { onBeforeUnmount, onMounted, shallowRef } from 'vue'
import { matches } from '../shortcut'

/**
 * What Edit → Undo / Redo act on: the view that edits something (the pose editor, a GF set's pending replacements) registers
 * itself while it is shown; with none, the entries are greyed. The menu never knows a view.
 */
export interface EditTarget {
  /** What is edited, for the entries' tooltips ("pose"). */
  label: string
  canUndo(): boolean
  canRedo(): boolean
  undo(): void
  redo(): void
}

export const editTarget = shallowRef<EditTarget | null>(null)

/**
 * Registers `target` for the life of the calling component. With `keys`, Ctrl+Z / Ctrl+Shift+Z
 * (the Edit menu's shortcuts) run it too, unless a text field has the focus (its own undo then).
 */
export function useEditTarget(target: EditTarget, opts: { keys?: boolean } = {}): void {
  const onKey = (e: KeyboardEvent): void => {
    const t = e.target as HTMLElement | null
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return
    const redo = matches(e, 'Ctrl+Shift+Z') || matches(e, 'Ctrl+Y')
    if (!redo && !matches(e, 'Ctrl+Z')) return
    e.preventDefault()
    if (redo && target.canRedo()) target.redo()
    else if (!redo && target.canUndo()) target.undo()
  }
  onMounted(() => {
    editTarget.value = target
    if (opts.keys) window.addEventListener('keydown', onKey)
  })
  onBeforeUnmount(() => {
    if (editTarget.value === target) editTarget.value = null
    window.removeEventListener('keydown', onKey)
  })
}
