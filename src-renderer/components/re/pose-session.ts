import { defineStore } from 'pinia'
import { markRaw, ref, computed } from 'vue'
import type { ReTemplate } from '@shared/api/re'
import { PoseHistory } from '@shared/formats/re/pose-edit'
import { DEFAULT_EULER_ORDER, type EulerOrder } from '@shared/formats/re/euler'

/**
 * Pose editor sessions, one per template path. They live in a store, not in the editor
 * component, so selecting another asset never drops unsaved edits; closing the window with
 * unsaved edits asks first (beforeunload).
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

export const usePoseSessions = defineStore('re-pose-sessions', () => {
  // Not reactive itself (typed arrays and the history stay raw); `revision` drives the views.
  const sessions = new Map<string, PoseSession>()
  /** Bumped on every edit so computed views refresh (the history itself is not reactive). */
  const revision = ref(0)
  const order = ref<EulerOrder>(DEFAULT_EULER_ORDER)
  const unit = ref<'deg' | 'rad'>('deg')

  function open(template: ReTemplate): PoseSession {
    const existing = sessions.get(template.path)
    if (existing && existing.template.skeleton.names.length === template.skeleton.names.length) return existing
    const s: PoseSession = markRaw({ template, history: markRaw(new PoseHistory(template.skeleton.rotations)), poseName: template.name || 'pose', selected: -1, savedPath: null })
    sessions.set(template.path, s)
    storage()?.setItem(LAST_TEMPLATE, template.path)
    return s
  }

  const anyDirty = computed(() => {
    void revision.value
    for (const s of sessions.values()) if (s.history.dirty) return true
    return false
  })

  function touch(): void {
    revision.value++
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

  return { revision, order, unit, open, anyDirty, touch, lastTemplate, lastFolder, rememberFolder }
})
