/**
 * What the pose editor's side panel reads out of the pose: the bones that differ from the rest
 * pose (the tree marks them), the selected bone's Euler angles in the chosen order and unit, its
 * name and its quaternion.
 */
import { computed, type ComputedRef } from 'vue'
import { quatToEuler, quatAngle, type Vec3 } from '@shared/formats/re/euler'
import { getQuat } from '@shared/formats/re/pose-edit'
import type { usePoseStore } from './pose-store'

type PoseStore = ReturnType<typeof usePoseStore>
interface Skeleton {
  names: readonly string[]
  rotations: Float64Array
}

export function usePoseReadout(sessions: PoseStore, skeleton: ComputedRef<Skeleton | null>) {
  const posed = computed(() => {
    const s = skeleton.value
    const cur = sessions.current
    const out = new Set<number>()
    if (!s || !cur) return out
    for (let i = 0; i < s.names.length; i++) if (quatAngle(getQuat(cur, i), getQuat(s.rotations, i)) > 1e-6) out.add(i)
    return out
  })
  const euler = computed<Vec3 | null>(() => {
    const cur = sessions.current
    const b = sessions.selected
    if (!cur || b < 0) return null
    return quatToEuler(getQuat(cur, b), sessions.order)
  })
  const shownEuler = computed(() => euler.value?.map((v) => (sessions.unit === 'deg' ? +((v * 180) / Math.PI).toFixed(3) : +v.toFixed(5))) ?? null)
  const selectedName = computed(() => (sessions.selected >= 0 ? (skeleton.value?.names[sessions.selected] ?? '') : ''))
  const selectedQuat = computed(() => (sessions.current && sessions.selected >= 0 ? getQuat(sessions.current, sessions.selected).map((v) => v.toFixed(5)).join(', ') : ''))
  return { posed, euler, shownEuler, selectedName, selectedQuat }
}
