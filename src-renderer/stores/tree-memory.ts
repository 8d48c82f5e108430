/**
 * What the tree looked like, kept for a reload (issue 25: a reload outside a scene view came back
 * to the start page with the tree collapsed): the rows the user opened, the folder groups they
 * folded and the selected node's key. Kept per tab (sessionStorage), like the page's own state.
 */
const KEY = 'modbench-tree'

export interface TreeMemory {
  open: string[]
  folded: string[]
  selected: string | null
}

export function loadTreeMemory(): TreeMemory {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<TreeMemory> | null
    const keys = (x: unknown) => (Array.isArray(x) ? x.filter((k): k is string => typeof k === 'string') : [])
    return { open: keys(v?.open), folded: keys(v?.folded), selected: typeof v?.selected === 'string' ? v.selected : null }
  } catch {
    return { open: [], folded: [], selected: null }
  }
}

export function saveTreeMemory(m: TreeMemory): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(m))
  } catch {
    // storage full or off: the tree is simply not restored
  }
}
