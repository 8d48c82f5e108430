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
  /** For 'more' rows: the parent to page and the offset to load from. */
  more?: { parent: number | null; offset: number }
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
      // Keep expanded sources expanded across refreshes.
      const open = new Set(rows.value.filter((r) => r.type === 'source' && r.expanded).map((r) => r.sourceId))
      rows.value = list.map(sourceRow)
      for (const r of [...rows.value]) if (open.has(r.sourceId)) await toggle(r)
    } catch (e) {
      reportError(e)
    }
  }

  async function fetchChildren(row: TreeRow, offset: number): Promise<TreeRow[]> {
    const parent = row.type === 'source' ? null : row.asset!.id
    const kids = await bridge.invoke('catalog:children', { sourceId: row.sourceId, parent, offset, limit: PAGE })
    const depth = row.depth + 1
    const out = kids.map((k) => assetRow(k, depth))
    const total = row.type === 'source' ? Infinity : row.asset!.childCount
    if (kids.length === PAGE && offset + PAGE < total) {
      out.push({ key: `${row.key}+${offset + PAGE}`, depth, type: 'more', name: 'Load more…', kind: '', sourceId: row.sourceId, hasChildren: false, expanded: false, loading: false, more: { parent, offset: offset + PAGE } })
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
      const kids = await fetchChildren(parentRow, row.more!.offset)
      const j = rows.value.indexOf(row)
      const copy = rows.value.slice()
      copy.splice(j, 1, ...kids)
      rows.value = copy
    } catch (e) {
      reportError(e)
    }
  }

  function select(row: TreeRow | null): void {
    selected.value = row
  }

  /** Selects an asset found by search (it may not be in the visible tree). */
  function selectAsset(a: AssetRow): void {
    selected.value = assetRow(a, 0)
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

  async function indexPaths(paths: string[]): Promise<void> {
    try {
      const res = await bridge.invoke('index:start', { paths })
      for (const s of res.sources) if (s.error) reportError(`${s.path}: ${s.error}`)
    } catch (e) {
      reportError(e)
    } finally {
      await loadSources()
    }
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
    timer = setTimeout(() => void loadSources(), 100)
  })

  const selectedAsset = computed(() => selected.value?.asset ?? null)

  return { sources, rows, selected, selectedAsset, query, results, searching, progress, errors, loadSources, toggle, loadMore, select, selectAsset, search, indexPaths, cancelIndexing, reportError }
})
