import { defineStore } from 'pinia'
import { onBeforeUnmount, shallowRef, watch } from 'vue'
import type { KindAction } from '@shared/domain'
import type { TreeRow } from './catalog-tree'

/**
 * The tree's context menu (where it is open, for which row) and the kind-specific actions it
 * hands to the view showing the node: the menu selects the node, then posts the action; the view
 * registered for it (useNodeAction) carries it out, so no generic file knows a game's services.
 */
/** How long a notice shows (long enough to read a path twice). */
export const NOTICE_MS = 6000

export const useNodeActionsStore = defineStore('node-actions', () => {
  const menu = shallowRef<{ row: TreeRow; x: number; y: number; byKeyboard: boolean } | null>(null)
  const pending = shallowRef<{ key: string; action: KindAction } | null>(null)
  /**
   * A short line shown by the menu's owner (e.g. "Copied …"), over the window's corner (it moves
   * no control); it goes by itself after NOTICE_MS, or when the next one replaces it.
   */
  const notice = shallowRef<string | null>(null)
  let noticeTimer: ReturnType<typeof setTimeout> | null = null
  watch(notice, (n) => {
    if (noticeTimer) clearTimeout(noticeTimer)
    noticeTimer = n ? setTimeout(() => notice.value === n && (notice.value = null), NOTICE_MS) : null
  })

  function openMenu(row: TreeRow, x: number, y: number, byKeyboard = false): void {
    menu.value = { row, x, y, byKeyboard }
  }
  function closeMenu(): void {
    menu.value = null
  }
  function post(key: string, action: KindAction): void {
    pending.value = { key, action }
  }
  /** Takes the pending action if it is for `key` and `action` is one the caller handles. */
  function take(key: string | undefined, handles: readonly KindAction[]): KindAction | null {
    const p = pending.value
    if (!p || p.key !== key || !handles.includes(p.action)) return null
    pending.value = null
    return p.action
  }
  return { menu, pending, notice, openMenu, closeMenu, post, take }
})

/**
 * A view's handlers for the context menu's kind-specific entries on the node it shows (`key()`:
 * the selected row's key, or undefined when the view does not stand for the selection). Runs a
 * pending action posted before the view mounted too (the menu selects, then posts).
 */
export function useNodeAction(key: () => string | undefined, handlers: Partial<Record<KindAction, () => unknown>>): void {
  const store = useNodeActionsStore()
  const handles = Object.keys(handlers) as KindAction[]
  const stop = watch(
    () => [store.pending, key()] as const,
    () => {
      const a = store.take(key(), handles)
      if (a) void handlers[a]!()
    },
    { immediate: true },
  )
  onBeforeUnmount(stop)
}
