import { defineStore } from 'pinia'
import { shallowRef, ref, computed } from 'vue'
import type { AssetRow, IndexProgress, SourceRow } from '@shared/api'
import { bridge, errorMessage } from '../bridge'

/** One visible row of the asset tree (sources and assets flattened for virtual scrolling). */
export interface TreeRow {
  key: string
  depth: number
  type: 'source' | 'asset' | 'more'
  name: string
  kind: string
  sourceId: number
  asset?: AssetRow
  source?: SourceRow
  hasChildren: boolean
  expanded: boolean
  loading: boolean
  /** For 'more' rows: the parent to page, the offset to load from and the id of the last row shown (the page key). */
  more?: { parent: number | null; offset: number; after?: number }
  error?: string | null
}

/** Children fetched per request; the tree is virtualized, so large pages are cheap to show. */
const PAGE = 20_000

export const useCatalogStore = defineStore('catalog', () => {
  const sources = shallowRef<SourceRow[]>([])
  const rows = shallowRef<TreeRow[]>([])
  const selected = shallowRef<TreeRow | null>(null)
  const query = ref('')
  const results = shallowRef<AssetRow[]>([])
  const searching = ref(false)
  const progress = shallowRef<IndexProgress | null>(null)
  const errors = ref<string[]>([])
  let searchSeq = 0

  function reportError(e: unknown): void {
    errors.value = [...errors.value.slice(-4), errorMessage(e)]
  }

  function sourceRow(s: SourceRow): TreeRow {
    return { key: `s${s.id}`, depth: 0, type: 'source', name: s.path.split(/[\\/]/).pop() || s.path, kind: s.kind, sourceId: s.id, source: s, hasChildren: s.status === 'indexed', expanded: false, loading: false, error: s.error }
  }

  function assetRow(a: AssetRow, depth: number): TreeRow {
    return { key: `a${a.id}`, depth, type: 'asset', name: a.name, kind: a.kind, sourceId: a.sourceId, asset: a, hasChildren: a.childCount > 0, expanded: false, loading: false }
  }

  async function loadSources(): Promise<void> {
    try {
      const list = await bridge.invoke('catalog:sources', {})
      sources.value = list
      // Keep what was expanded expanded across refreshes (sources and assets, top-down), and keep
      // the selection visible: a refresh landing while a search hit or a welcome card is being
      // revealed must not fold the revealed path away.
      const open = rows.value.filter((r) => r.expanded && r.type !== 'more').map((r) => r.key)
      rows.value = list.map(sourceRow)
      for (const key of open) await expandKey(key)
      const sel = selected.value
      if (sel?.asset && !rows.value.some((r) => r.key === sel.key)) await revealAsset(sel.asset)
    } catch (e) {
      reportError(e)
    }
  }

  /** A page of a row's children: the first, or the one after the child with id `after` (paged by key, not position). */
  async function fetchChildren(row: TreeRow, offset: number, after?: number): Promise<TreeRow[]> {
    const parent = row.type === 'source' ? null : row.asset!.id
    const kids = await bridge.invoke('catalog:children', { sourceId: row.sourceId, parent, offset, limit: PAGE, ...(after !== undefined ? { after } : {}) })
    const depth = row.depth + 1
    const out = kids.map((k) => assetRow(k, depth))
    const total = row.type === 'source' ? Infinity : row.asset!.childCount
    if (kids.length === PAGE && offset + PAGE < total) {
      out.push({ key: `${row.key}+${offset + PAGE}`, depth, type: 'more', name: 'Load more…', kind: '', sourceId: row.sourceId, hasChildren: false, expanded: false, loading: false, more: { parent, offset: offset + PAGE, after: kids[kids.length - 1]!.id } })
    }
    return out
  }

  function replaceRow(row: TreeRow, next: Partial<TreeRow>): TreeRow {
    const i = rows.value.indexOf(row)
    const updated = { ...row, ...next }
    if (i >= 0) {
      const copy = rows.value.slice()
      copy[i] = updated
      rows.value = copy
    }
    return updated
  }

  /** Expands or collapses a row, loading its children lazily. */
  async function toggle(row: TreeRow): Promise<void> {
    if (!row.hasChildren) return
    const i = rows.value.indexOf(row)
    if (i < 0) return
    if (row.expanded) {
      let end = i + 1
      while (end < rows.value.length && rows.value[end]!.depth > row.depth) end++
      const copy = rows.value.slice()
      copy.splice(i + 1, end - i - 1)
      copy[i] = { ...row, expanded: false }
      rows.value = copy
      return
    }
    const loadingRow = replaceRow(row, { loading: true })
    try {
      const kids = await fetchChildren(row, 0)
      const j = rows.value.indexOf(loadingRow)
      const copy = rows.value.slice()
      copy.splice(j, 1, { ...loadingRow, loading: false, expanded: true }, ...kids)
      rows.value = copy
    } catch (e) {
      replaceRow(loadingRow, { loading: false })
      reportError(e)
    }
  }

  async function loadMore(row: TreeRow): Promise<void> {
    const parentRow = row.more!.parent === null ? rows.value.find((r) => r.type === 'source' && r.sourceId === row.sourceId) : rows.value.find((r) => r.asset?.id === row.more!.parent)
    if (!parentRow) return
    try {
      const kids = await fetchChildren(parentRow, row.more!.offset, row.more!.after)
      const j = rows.value.indexOf(row)
      const copy = rows.value.slice()
      copy.splice(j, 1, ...kids)
      rows.value = copy
    } catch (e) {
      reportError(e)
    }
  }

  /** Bumped with the key of a row the tree should scroll into view. */
  const revealKey = ref<{ key: string; n: number } | null>(null)
  let revealN = 0

  function select(row: TreeRow | null): void {
    selected.value = row
    if (row) revealKey.value = { key: row.key, n: ++revealN }
  }

  /** Expands a row if it is collapsed (re-finding it by key: toggling replaces row objects). */
  async function expandKey(key: string): Promise<boolean> {
    const row = rows.value.find((r) => r.key === key)
    if (!row) return false
    if (!row.expanded && row.hasChildren) await toggle(row)
    return true
  }

  /**
   * Reveals an asset in the tree: expands its source and every ancestor (lazy loads), selects its
   * row and scrolls to it. When a row cannot be reached (e.g. past a paged "Load more…"), the
   * asset is still selected so the editor and inspector show it.
   */
  async function revealAsset(a: AssetRow): Promise<void> {
    const chain: AssetRow[] = []
    let parent = a.parent
    try {
      for (let guard = 0; parent !== null && guard < 64; guard++) {
        const p = await bridge.invoke('catalog:asset', { id: parent })
        if (!p) break
        chain.unshift(p)
        parent = p.parent
      }
      let ok = await expandKey(`s${a.sourceId}`)
      for (const p of chain) if (ok) ok = await expandKey(`a${p.id}`)
    } catch (e) {
      reportError(e)
    }
    const row = rows.value.find((r) => r.key === `a${a.id}`)
    select(row ?? assetRow(a, 0))
  }

  /** Selects an asset found by search and reveals it in the tree. */
  function selectAsset(a: AssetRow): Promise<void> {
    selected.value = assetRow(a, 0)
    return revealAsset(a)
  }

  /** Selects a source row (expanding nothing). */
  function selectSource(sourceId: number): void {
    const row = rows.value.find((r) => r.key === `s${sourceId}`)
    if (row) select(row)
  }

  /**
   * Finds the first asset of `kind` under the first source of `sourceKind` (breadth first, a few
   * levels, first page of each level) and reveals it: the welcome page's "try this" links.
   */
  async function openFirst(sourceKind: string, kind: string): Promise<boolean> {
    const src = sources.value.find((s) => s.kind === sourceKind && s.status !== 'error')
    if (!src) return false
    try {
      let level: (number | null)[] = [null]
      for (let depth = 0; depth < 4 && level.length; depth++) {
        const next: number[] = []
        for (const parent of level.slice(0, 50)) {
          const kids = await bridge.invoke('catalog:children', { sourceId: src.id, parent, offset: 0, limit: 200 })
          const hit = kids.find((k) => k.kind === kind)
          if (hit) {
            await revealAsset(hit)
            return true
          }
          next.push(...kids.filter((k) => k.childCount > 0).map((k) => k.id))
        }
        level = next
      }
    } catch (e) {
      reportError(e)
    }
    return false
  }

  async function search(text: string): Promise<void> {
    query.value = text
    const seq = ++searchSeq
    if (!text.trim()) {
      results.value = []
      return
    }
    searching.value = true
    try {
      const found = await bridge.invoke('catalog:search', { query: text, limit: 200 })
      if (seq === searchSeq) results.value = found
    } catch (e) {
      reportError(e)
    } finally {
      if (seq === searchSeq) searching.value = false
    }
  }

  /** Indexes paths the user chose; afterwards the first of them is selected in the tree. */
  async function indexPaths(paths: string[]): Promise<void> {
    let first: string | null = null
    try {
      const res = await bridge.invoke('index:start', { paths })
      for (const s of res.sources) if (s.error) reportError(s.error.includes(s.path) ? s.error : `${s.path}: ${s.error}`)
      first = res.sources[0]?.path ?? null
    } catch (e) {
      reportError(e)
    } finally {
      await loadSources()
    }
    const src = first ? sources.value.find((s) => s.path === first) : null
    if (src) selectSource(src.id)
  }

  async function cancelIndexing(): Promise<void> {
    const id = progress.value?.jobId
    if (id) await bridge.invoke('index:cancel', { jobId: id })
  }

  let timer: ReturnType<typeof setTimeout> | null = null
  bridge.on('index:progress', (p) => {
    progress.value = p.phase === 'done' || p.phase === 'cancelled' || p.phase === 'error' ? null : p
    if (p.phase === 'error' && p.message) reportError(p.message)
  })
  bridge.on('catalog:changed', () => {
    // Coalesce bursts of change events.
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => {
      void loadSources()
      // results typed before indexing finished (or before a re-index) catch up
      if (query.value.trim()) void search(query.value)
    }, 100)
  })

  const selectedAsset = computed(() => selected.value?.asset ?? null)

  /** Names from the source down to the selection, read off the visible tree (empty if not in it). */
  const selectedPath = computed<string[]>(() => {
    const key = selected.value?.key
    const list = rows.value
    let i = key ? list.findIndex((r) => r.key === key) : -1
    if (i < 0) return selected.value ? [selected.value.name] : []
    const out = [list[i]!.name]
    for (let d = list[i]!.depth, j = i - 1; j >= 0 && d > 0; j--) {
      if (list[j]!.depth < d) {
        out.unshift(list[j]!.name)
        d = list[j]!.depth
        i = j
      }
    }
    return out
  })

  /** Back to the welcome page: nothing selected. */
  function clearSelection(): void {
    selected.value = null
  }

  return { sources, rows, selected, selectedAsset, selectedPath, clearSelection, query, results, searching, progress, errors, revealKey, loadSources, toggle, loadMore, select, selectAsset, selectSource, revealAsset, openFirst, search, indexPaths, cancelIndexing, reportError }
})
