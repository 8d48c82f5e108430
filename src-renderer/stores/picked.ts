import { defineStore } from 'pinia'
import { ref } from 'vue'

/** What was last picked in a 3D view (click on a mesh): the Inspector shows it. */
export interface PickedItem {
  /** The neutral scene's name (the asset shown). */
  scene: string
  /** Neutral node index, −1 for merged static geometry. */
  node: number
  nodeName: string | null
  materialName: string | null
  point: [number, number, number]
  /** Node extras the scene builder attached (room index, spawn data…), shown as fields. */
  extras?: Record<string, unknown>
}

export const usePickedStore = defineStore('picked', () => {
  const picked = ref<PickedItem | null>(null)
  function set(p: PickedItem | null): void {
    picked.value = p
  }
  return { picked, set }
})
