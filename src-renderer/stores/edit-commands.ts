import { onBeforeUnmount, onMounted, shallowRef } from 'vue'

/**
 * What Edit → Undo / Redo act on: the view that edits something (the pose editor) registers
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

/** Registers `target` for the life of the calling component. */
export function useEditTarget(target: EditTarget): void {
  onMounted(() => (editTarget.value = target))
  onBeforeUnmount(() => {
    if (editTarget.value === target) editTarget.value = null
  })
}
