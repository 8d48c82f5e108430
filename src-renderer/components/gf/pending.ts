import { defineStore } from 'pinia'
import { computed, ref } from 'vue'

/** A replacement waiting for "Repack set…". */
export interface PendingReplacement {
  set: string
  file: string
  entry: number
  name: string
  /** PNG bytes (dropped file) or a path (file picker). */
  png?: Uint8Array
  path?: string
  psnr: number | null
  resized: boolean
}

/** Pending texture replacements per set, with undo. */
export const useGfPendingStore = defineStore('gf-pending', () => {
  const items = ref<PendingReplacement[]>([])
  /** Removed items, most recent last (for redo-free "undo remove" we keep it simple). */
  const history = ref<PendingReplacement[][]>([])

  function snapshot(): void {
    history.value = [...history.value.slice(-49), items.value.slice()]
  }
  function add(r: PendingReplacement): void {
    snapshot()
    items.value = [...items.value.filter((x) => !(x.set === r.set && x.file === r.file && x.entry === r.entry)), r]
  }
  function remove(r: PendingReplacement): void {
    snapshot()
    items.value = items.value.filter((x) => x !== r)
  }
  function clear(set: string): void {
    snapshot()
    items.value = items.value.filter((x) => x.set !== set)
  }
  /** Undoes the last add/remove/clear. */
  function undo(): void {
    const prev = history.value[history.value.length - 1]
    if (!prev) return
    history.value = history.value.slice(0, -1)
    items.value = prev
  }
  const canUndo = computed(() => history.value.length > 0)
  function forSet(set: string): PendingReplacement[] {
    return items.value.filter((x) => x.set === set)
  }
  function find(set: string, file: string, entry: number): PendingReplacement | undefined {
    return items.value.find((x) => x.set === set && x.file === file && x.entry === entry)
  }
  return { items, add, remove, clear, undo, canUndo, forSet, find }
})
