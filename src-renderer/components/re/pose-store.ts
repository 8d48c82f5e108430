import { defineStore } from 'pinia'
import { markRaw, ref, computed, shallowRef } from 'vue'
import type { ReTemplate } from '@shared/api/re'
import { PoseHistory, getQuat } from '@shared/formats/re/pose-edit'
import { DEFAULT_EULER_ORDER, quatAngle, type EulerOrder } from '@shared/formats/re/euler'

/**
 * The RE pose editor's sessions and their undo history, one session per template path. They live
 * in this store, not in the editor component, so selecting another asset never drops unsaved
 * edits; closing the window with unsaved edits asks first (beforeunload). Every edit goes through
 * the store's actions on the active session (apply, drag, undo/redo, save mark); the history
 * itself is the pure `PoseHistory` of src-shared.
 */
export interface PoseSession {
  template: ReTemplate
  history: PoseHistory
  poseName: string
  selected: number
  /** Where the last save went (for Save As… defaults). */
  savedPath: string | null
}

const LAST_TEMPLATE = 'modbench.re.lastTemplate'
const LAST_FOLDER = 'modbench.re.lastFolder'

function storage(): Storage | null {
  try {
    return typeof localStorage !== 'undefined' ? localStorage : null
  } catch {
    return null
  }
}

export const usePoseStore = defineStore('re-pose', () => {
  // Not reactive itself (typed arrays and the history stay raw); `revision` drives the views.
  const sessions = new Map<string, PoseSession>()
  /** The session being edited (the last opened). */
  const active = shallowRef<PoseSession | null>(null)
  /** Bumped on every change so computed views refresh (the history itself is not reactive). */
  const revision = ref(0)
  const order = ref<EulerOrder>(DEFAULT_EULER_ORDER)
  const unit = ref<'deg' | 'rad'>('deg')

  function touch(): void {
    revision.value++
  }
  /** A getter of the active session that refreshes with `revision`. */
  const live = <T>(get: (s: PoseSession) => T, none: T) =>
    computed(() => {
      void revision.value
      const s = active.value
      return s ? get(s) : none
    })

  /** Opens (or returns the kept) session of a template and makes it the active one. */
  function open(template: ReTemplate): PoseSession {
    const existing = sessions.get(template.path)
    const s =
      existing && existing.template.skeleton.names.length === template.skeleton.names.length
        ? existing
        : markRaw({ template, history: markRaw(new PoseHistory(template.skeleton.rotations)), poseName: template.name || 'pose', selected: -1, savedPath: null })
    sessions.set(template.path, s)
    storage()?.setItem(LAST_TEMPLATE, template.path)
    active.value = s
    touch()
    return s
  }

  /** No session is being edited (kept sessions stay; opening a template makes one active). */
  function leave(): void {
    active.value = null
    touch()
  }

  const current = live((s) => s.history.current, null)
  const selected = live((s) => s.selected, -1)
  const dirty = live((s) => s.history.dirty, false)
  const canUndo = live((s) => s.history.canUndo, false)
  const canRedo = live((s) => s.history.canRedo, false)
  const anyDirty = computed(() => {
    void revision.value
    for (const s of sessions.values()) if (s.history.dirty) return true
    return false
  })

  /** Runs an edit on the active session's history and refreshes the views. */
  function edit<T>(fn: (h: PoseHistory, s: PoseSession) => T, none: T): T {
    const s = active.value
    if (!s) return none
    const r = fn(s.history, s)
    touch()
    return r
  }
  /** One undoable change (no-op when nothing changed). */
  const apply = (next: Float64Array) => edit((h) => h.apply(next), undefined)
  /** A gizmo drag: begin, live updates, end — the whole drag is one undo step. */
  const beginDrag = () => edit((h) => h.beginDrag(), undefined)
  const update = (next: Float64Array) => edit((h) => h.update(next), undefined)
  const endDrag = () => edit((h) => h.endDrag(), undefined)
  const undo = () => edit((h) => h.undo(), false)
  const redo = () => edit((h) => h.redo(), false)
  const select = (bone: number) => edit((_h, s) => (s.selected = bone), undefined)
  const setPoseName = (name: string) => edit((_h, s) => (s.poseName = name), undefined)
  /** The active pose was saved to `path`: not dirty any more. */
  const markSaved = (path: string) =>
    edit((h, s) => {
      h.markSaved()
      s.savedPath = path
    }, undefined)

  /** The bones of the active pose that differ from the reference, with their rotations (what a save writes). */
  function changedBones(): { bones: string[]; rotations: Float64Array } {
    const s = active.value
    const bones: string[] = []
    const rots: number[] = []
    if (s) {
      const sk = s.template.skeleton
      for (let i = 0; i < sk.names.length; i++) {
        const q = getQuat(s.history.current, i)
        if (quatAngle(q, getQuat(sk.rotations, i)) > 1e-9) {
          bones.push(sk.names[i]!)
          rots.push(...q)
        }
      }
    }
    return { bones, rotations: Float64Array.from(rots) }
  }

  const lastTemplate = (): string | null => storage()?.getItem(LAST_TEMPLATE) ?? null
  const lastFolder = (): string | null => storage()?.getItem(LAST_FOLDER) ?? null
  const rememberFolder = (folder: string): void => storage()?.setItem(LAST_FOLDER, folder)

  if (typeof window !== 'undefined') {
    window.addEventListener('beforeunload', (e) => {
      if (!anyDirty.value) return
      e.preventDefault()
      e.returnValue = ''
    })
  }

  return {
    revision, order, unit, active, current, selected, dirty, canUndo, canRedo, anyDirty,
    open, leave, touch, apply, beginDrag, update, endDrag, undo, redo, select, setPoseName, markSaved, changedBones,
    lastTemplate, lastFolder, rememberFolder,
  }
})
