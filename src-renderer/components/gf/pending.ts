import { defineStore } from 'pinia'
import { ref } from 'vue'
import { loadPending, savePending, storedSets, type KeyValueStorage, type PendingReplacement } from './pending-storage'

export type { PendingReplacement } from './pending-storage'

function browserStorage(): KeyValueStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

/**
 * Pending texture replacements per set, with undo per set. Each set's list is kept in local
 * storage (pending-storage.ts) so it survives a reload; a set's list is read from there the first
 * time it is asked for.
 */
export const useGfPendingStore = defineStore('gf-pending', () => {
  const bySet = ref<Record<string, PendingReplacement[]>>({})
  /** Earlier lists per set, most recent last (undo). */
  const history = ref<Record<string, PendingReplacement[][]>>({})
  /** Lists undone per set, the last undone last (redo); a new change forgets them. */
  const future = ref<Record<string, PendingReplacement[][]>>({})
  /** Per set: why its list could not be saved (quota), if so. */
  const saveError = ref<Record<string, string | null>>({})
  /** Per set: a line shown atop its grid (the repack that wrote it), for this session. */
  const notes = ref<Record<string, string>>({})
  let storage: KeyValueStorage | null = browserStorage()

  /** Lists read from storage and not changed since (plain: reading is not a state change). */
  const stored = new Map<string, PendingReplacement[]>()

  function forSet(set: string): PendingReplacement[] {
    const have = bySet.value[set]
    if (have) return have
    let list = stored.get(set)
    if (!list) stored.set(set, (list = loadPending(storage, set)))
    return list
  }
  function write(set: string, list: PendingReplacement[]): void {
    history.value = { ...history.value, [set]: [...(history.value[set] ?? []).slice(-49), forSet(set)] }
    future.value = { ...future.value, [set]: [] }
    put(set, list)
  }
  function put(set: string, list: PendingReplacement[]): void {
    bySet.value = { ...bySet.value, [set]: list }
    saveError.value = { ...saveError.value, [set]: savePending(storage, set, list) }
  }
  function add(r: PendingReplacement): void {
    write(r.set, [...forSet(r.set).filter((x) => !(x.file === r.file && x.entry === r.entry)), r])
  }
  /** Adds several at once (a batch replace): one undo step. */
  function addAll(set: string, list: PendingReplacement[]): void {
    const keys = new Set(list.map((r) => `${r.file}#${r.entry}`))
    write(set, [...forSet(set).filter((x) => !keys.has(`${x.file}#${x.entry}`)), ...list])
  }
  function remove(r: PendingReplacement): void {
    write(r.set, forSet(r.set).filter((x) => !(x.file === r.file && x.entry === r.entry)))
  }
  function clear(set: string): void {
    if (forSet(set).length) write(set, [])
  }
  /** Moves `set` one step along `from` (undo: history, redo: future), keeping the list left in `to`. */
  function step(set: string, from: typeof history, to: typeof history): void {
    const steps = from.value[set] ?? []
    const next = steps[steps.length - 1]
    if (!next) return
    from.value = { ...from.value, [set]: steps.slice(0, -1) }
    to.value = { ...to.value, [set]: [...(to.value[set] ?? []), forSet(set)] }
    put(set, next)
  }
  /** Undoes the last add/remove/clear of `set`. */
  function undo(set: string): void {
    step(set, history, future)
  }
  /** Redoes the last undone change of `set`. */
  function redo(set: string): void {
    step(set, future, history)
  }
  function canUndo(set: string): boolean {
    return (history.value[set]?.length ?? 0) > 0
  }
  function canRedo(set: string): boolean {
    return (future.value[set]?.length ?? 0) > 0
  }
  function find(set: string, file: string, entry: number): PendingReplacement | undefined {
    return forSet(set).find((x) => x.file === file && x.entry === entry)
  }
  function note(set: string, text: string): void {
    notes.value = { ...notes.value, [set]: text }
  }
  /** The sets whose path starts with `prefix` (`ARCHIVE#`: the sets of one archive) that have pending replacements, in set order. */
  function setsWithPending(prefix: string): string[] {
    const all = new Set([...Object.keys(bySet.value), ...storedSets(storage, prefix)].filter((k) => k.startsWith(prefix)))
    const num = (k: string) => Number(k.slice(prefix.length)) || 0
    return [...all].filter((k) => forSet(k).length > 0).sort((a, b) => num(a) - num(b) || (a < b ? -1 : a > b ? 1 : 0))
  }
  /** Tests: use another storage (and forget what was read). */
  function useStorage(s: KeyValueStorage | null): void {
    storage = s
    stored.clear()
    bySet.value = {}
    history.value = {}
    future.value = {}
  }
  return { bySet, saveError, notes, note, add, addAll, remove, clear, undo, redo, canUndo, canRedo, forSet, find, setsWithPending, useStorage }
})
