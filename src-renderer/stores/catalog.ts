import { defineStore } from 'pinia'
import { shallowRef, ref, computed, watch } from 'vue'
import type { AssetKind, AssetReveal, AssetRow, IndexProgress, SourceKind, SourceRow } from '@shared/api'
import { bridge, errorMessage } from '../bridge'
import { childrenPages } from './children-pages'
import { catalogSearch } from './catalog-search'
import { PAGE, assetRow, folderKey, groupByFolder, firstOfKind, isWithin, namesDownTo, sourceRow, sourcesNamed, splitSourcePath, subtreeEnd, topRows, type TreeRow } from './catalog-tree'
import { loadTreeMemory, saveTreeMemory } from './tree-memory'
import { expandOpenRows, loadMoreRows } from './tree-pages'

export type { TreeRow } from './catalog-tree'

export const useCatalogStore = defineStore('catalog', () => {
  const sources = shallowRef<SourceRow[]>([])
  const rows = shallowRef<TreeRow[]>([])
  const selected = shallowRef<TreeRow | null>(null)
  const progress = shallowRef<IndexProgress | null>(null)
  const errors = ref<string[]>([])

  function reportError(e: unknown): void {
    errors.value = [...errors.value.slice(-4), errorMessage(e)]
  }
  const { query, results, searching, search } = catalogSearch(reportError)

  const pages = childrenPages(PAGE)
  const fetchChildren = pages.fetch

  /** Replaces the row with `key` (found again by key: rows are replaced, never edited). */
  function patchRow(key: string, next: Partial<TreeRow>): void {
    const i = rows.value.findIndex((r) => r.key === key)
    if (i < 0) return
    const copy = rows.value.slice()
    copy[i] = { ...copy[i]!, ...next }
    rows.value = copy
  }

  /**
   * What the user opened, by key (sources and assets), and the folder groups they folded: the
   * tree is rebuilt from these on every refresh, so a refresh never depends on row positions.
   * `intent` counts the user's toggles: a refresh that was built while one happened is rebuilt.
   */
  const memory = loadTreeMemory()
  const openKeys = new Set<string>(memory.open)
  const foldedFolders = new Set<string>(memory.folded)
  let intent = 0
  /** The selection before a reload, selected again once its row is listed (or the user picks). */
  let restoreKey = memory.selected
  function remember(): void {
    saveTreeMemory({ open: [...openKeys], folded: [...foldedFolders], selected: selected.value?.key ?? restoreKey })
  }
  watch(
    selected,
    (row) => {
      if (row) restoreKey = null
      remember()
    },
    { flush: 'sync' },
  )

  /** Expands or collapses a row, loading its children lazily. */
  async function toggle(row: TreeRow): Promise<void> {
    const i = rows.value.findIndex((r) => r.key === row.key)
    const cur = i >= 0 ? rows.value[i]! : null
    if (!cur?.hasChildren) return
    intent++
    if (cur.expanded) return collapseAt(i)
    if (cur.type === 'folder') {
      foldedFolders.delete(cur.key)
      remember()
      const group = groupByFolder(sources.value).find((g) => g.folder === cur.folder)
      const copy = rows.value.slice()
      copy.splice(i, 1, { ...cur, expanded: true }, ...(group?.sources ?? []).map((s) => sourceRow(s)))
      rows.value = copy
      return
    }
    openKeys.add(cur.key)
    remember()
    patchRow(cur.key, { loading: true })
    let kids: TreeRow[]
    try {
      kids = await fetchChildren(cur, 0)
    } catch (e) {
      patchRow(cur.key, { loading: false })
      reportError(e)
      return
    }
    // Found again by key: a refresh may have replaced every row (and expanded this one) meanwhile.
    const j = rows.value.findIndex((r) => r.key === cur.key)
    const now = j >= 0 ? rows.value[j]! : null
    if (!now || now.expanded) return
    if (!openKeys.has(cur.key)) return patchRow(cur.key, { loading: false })
    const copy = rows.value.slice()
    copy.splice(j, 1, { ...now, loading: false, expanded: true }, ...kids)
    rows.value = copy
  }

  function collapseAt(i: number): void {
    const row = rows.value[i]!
    const end = subtreeEnd(rows.value, i)
    for (let k = i; k < end; k++) openKeys.delete(rows.value[k]!.key)
    if (row.type === 'folder') foldedFolders.add(row.key)
    remember()
    const copy = rows.value.slice()
    copy.splice(i, end - i, { ...row, expanded: false, loading: false })
    rows.value = copy
  }

  /** Replaces a "Load more…" row with the next page of its parent's children. */
  function loadMore(row: TreeRow): Promise<void> {
    return loadMoreRows(rows, fetchChildren, row).catch(reportError)
  }

  /** Expands, in a list being built, every row the user had open (false: a newer refresh started). */
  function expandOpen(list: TreeRow[], current: () => boolean): Promise<boolean> {
    return expandOpenRows(list, openKeys, fetchChildren, current)
  }

  /** A refresh's generation: only the newest refresh may replace the rows. */
  let generation = 0

  /**
   * Reloads the sources and rebuilds the tree off-screen from what the user had open (by key),
   * then swaps it in at once, so no row is listed twice or lost; the selection stays on the same
   * node. A load that a newer one supersedes gives way to it, and its caller then waits for the
   * newest: when this returns, `sources` and `rows` are current (indexPaths relies on it).
   */
  async function loadSources(): Promise<void> {
    loads.value++
    let run = loadOnce()
    latestLoad = run
    try {
      await run
      while (latestLoad !== run) {
        run = latestLoad
        await run
      }
    } finally {
      loads.value--
    }
  }
  /** Loads running, plus one while a change event's refresh waits (`refreshing`: the tree may still change). */
  const loads = ref(0)
  let latestLoad: Promise<void> = Promise.resolve()

  async function loadOnce(): Promise<void> {
    const mine = ++generation
    const current = () => mine === generation
    try {
      for (let attempt = 0; ; attempt++) {
        const list = await bridge.invoke('catalog:sources', {})
        if (!current()) return
        const seen = intent
        const next = topRows(list, foldedFolders)
        if (!(await expandOpen(next, current))) return
        if (seen !== intent && attempt < 3) continue // the user toggled meanwhile: rebuild with it
        sources.value = list
        rows.value = next
        markListed()
        await keepSelection(list)
        await restoreSelection()
        return
      }
    } catch (e) {
      markListed()
      reportError(e)
    }
  }
  /** Settles once the sources were first listed: a reveal waits for it, so it expands rows that exist. */
  let markListed: () => void = () => {}
  const listed = new Promise<void>((resolve) => (markListed = resolve))

  /** The node selected before a reload: a listed source or folder row, or an asset (unless the URL names one). */
  async function restoreSelection(): Promise<void> {
    const key = restoreKey
    if (!key || selected.value) return
    const row = rows.value.find((r) => r.key === key)
    if (row) return select(row)
    if (!/^a\d+$/.test(key) || new URLSearchParams(location.search).has('asset')) return
    restoreKey = null
    const r = await bridge.invoke('catalog:reveal', { id: Number(key.slice(1)), limit: PAGE }).catch(() => null)
    if (r && !selected.value) await showRevealed(r)
  }

  async function keepSelection(list: SourceRow[]): Promise<void> {
    const sel = selected.value
    if (!sel) return
    const row = rows.value.find((r) => r.key === sel.key)
    if (row) selected.value = row
    else if (sel.type === 'folder') selected.value = null
    else if (!list.some((s) => s.id === sel.sourceId)) selected.value = null
    else if (sel.asset) await revealAsset(sel.asset, false)
  }

  /** Bumped with the key of a row the tree should scroll into view. */
  const revealKey = ref<{ key: string; n: number } | null>(null)
  let revealN = 0

  function select(row: TreeRow | null): void {
    selected.value = row
    if (row) revealKey.value = { key: row.key, n: ++revealN }
  }

  /**
   * Expands a row if it is collapsed (found by key: toggling replaces row objects); a source in a
   * folded folder group unfolds the group first.
   */
  async function expandKey(key: string): Promise<boolean> {
    let row = rows.value.find((r) => r.key === key)
    if (!row && key.startsWith('s')) {
      const src = sources.value.find((s) => `s${s.id}` === key)
      const folder = src ? rows.value.find((r) => r.key === folderKey(splitSourcePath(src.path).folder)) : undefined
      if (folder) await toggle(folder)
      row = rows.value.find((r) => r.key === key)
    }
    if (!row) return false
    if (!row.expanded && row.hasChildren) await toggle(row)
    return true
  }

  /**
   * Reveals an asset in the tree: expands its source and every ancestor (lazy loads), selects its
   * row and scrolls to it. When a row cannot be reached (e.g. past a paged "Load more…"), the
   * asset is still selected so the editor and inspector show it. With `user` false (a refresh
   * keeping the selection in view) nothing scrolls and a selection changed meanwhile is kept.
   * `known`: a reveal answer already at hand (openAssetId).
   */
  async function revealAsset(a: AssetRow, user = true, known?: AssetReveal | null): Promise<void> {
    // a refresh keeping the selection in view while that same asset is being revealed waits for it
    if (!user && revealing?.id === a.id) return revealing.done
    const done = revealOnce(a, user, known)
    revealing = { id: a.id, done }
    await done
    if (revealing?.done === done) revealing = null
  }
  let revealing: { id: number; done: Promise<void> } | null = null

  async function revealOnce(a: AssetRow, user: boolean, known?: AssetReveal | null): Promise<void> {
    const before = selected.value?.key
    try {
      await listed
      if (!rows.value.some((r) => r.key === `a${a.id}`)) {
        // one call brings every level's children (issue 26); the expansions below then ask nothing
        const reveal = known ?? (await bridge.invoke('catalog:reveal', { id: a.id, limit: PAGE }))
        let ok = true
        for (const key of reveal ? pages.prefill(reveal) : [`s${a.sourceId}`]) if (ok) ok = await expandKey(key)
      }
    } catch (e) {
      reportError(e)
    } finally {
      pages.forget()
    }
    const row = rows.value.find((r) => r.key === `a${a.id}`) ?? assetRow(a, 0)
    if (user) select(row)
    else if (selected.value?.key === before) selected.value = row
  }

  /**
   * Opens an asset by id (a permalink): one `catalog:reveal` call finds it and what the tree needs
   * to show it (`early`: that call, made already by the page's first code).
   */
  async function openAssetId(id: number, early?: Promise<AssetReveal | null> | null): Promise<void> {
    try {
      const reveal = await (early ?? bridge.invoke('catalog:reveal', { id, limit: PAGE }))
      if (!reveal) return reportError(`asset ${id} is not in the catalog (re-index its file, or open it from the tree)`)
      await showRevealed(reveal)
    } catch (e) {
      reportError(e)
    }
  }
  function showRevealed(r: AssetReveal): Promise<void> {
    selected.value = assetRow(r.asset, 0)
    return revealAsset(r.asset, true, r)
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
  async function openFirst(sourceKind: SourceKind, kind: AssetKind): Promise<boolean> {
    const src = sources.value.find((s) => s.kind === sourceKind && s.status !== 'error')
    try {
      const hit = src ? await firstOfKind(src.id, kind, (req) => bridge.invoke('catalog:children', req)) : null
      if (hit) await revealAsset(hit)
      return hit !== null
    } catch (e) {
      reportError(e)
      return false
    }
  }

  /**
   * Indexes paths the user chose. Indexing never moves the selection: the first new source is
   * selected only when nothing was selected, or when the caller asks (`select`: a file the user
   * just wrote is what they look at next). `open` (File → Open…): what was added is selected and
   * opened (openAdded), unless the user selected something else while it indexed.
   */
  async function indexPaths(paths: string[], opts: { select?: boolean; open?: boolean } = {}): Promise<void> {
    const before = selected.value?.key
    let found: string[] = []
    let failed = false
    try {
      const res = await bridge.invoke('index:start', { paths })
      failed = res.cancelled === true || res.sources.some((x) => x.error)
      for (const s of res.sources) if (s.error) reportError(s.error.includes(s.path) ? s.error : `${s.path}: ${s.error}`)
      found = res.sources.map((s) => s.path)
    } catch (e) {
      failed = true
      reportError(e)
    } finally {
      await loadSources()
    }
    const added = found.filter((f) => paths.some((p) => isWithin(f, p)))
    // Open… of a folder with nothing readable says so (rather than nothing at all)
    if (opts.open && !added.length && !failed) reportError(`Nothing was added: ${paths.join(', ')} holds no file Modbench recognises (a set folder needs its member files too)`)
    // what the user selected while it indexed wins over what Open… added
    if (opts.open) return selected.value?.key === before ? openAdded(added) : undefined
    const src = found[0] ? sources.value.find((s) => s.path === found[0]) : null
    if (src && (opts.select || !selected.value)) selectSource(src.id)
  }

  /** Unfolds the folder group a source path is listed in; its row key. */
  async function unfoldFolderOf(sourcePath: string): Promise<string> {
    const key = folderKey(splitSourcePath(sourcePath).folder)
    const row = rows.value.find((r) => r.key === key)
    if (row && !row.expanded) await toggle(row)
    return key
  }

  /** Selects what an Open… added: a single source expanded, or the folder group of several. */
  async function openAdded(found: string[]): Promise<void> {
    const added = sources.value.filter((s) => found.includes(s.path))
    if (added.length === 1) await expandKey(`s${added[0]!.id}`)
    if (added.length === 1) return selectSource(added[0]!.id)
    const key = added[0] ? await unfoldFolderOf(added[0].path) : null
    const row = rows.value.find((r) => r.key === key)
    if (row) select(row)
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
  /** Change events received (tests wait for the refresh of one: `data-changes` on the tree). */
  const changes = ref(0)
  bridge.on('catalog:changed', () => {
    changes.value++
    // Coalesce bursts of change events.
    if (timer) clearTimeout(timer)
    else loads.value++
    timer = setTimeout(() => {
      timer = null
      void loadSources().finally(() => loads.value--)
      // results typed before indexing finished (or before a re-index) catch up
      if (query.value.trim()) void search(query.value)
    }, 100)
  })

  /** Sources whose file or folder name holds the query: search finds files by name too. */
  const fileResults = computed<SourceRow[]>(() => sourcesNamed(sources.value, query.value))

  /** Selects a source found by name: its folder group unfolded, the row in view. */
  async function revealSource(id: number): Promise<void> {
    const src = sources.value.find((s) => s.id === id)
    if (src) await unfoldFolderOf(src.path)
    selectSource(id)
  }

  const selectedAsset = computed(() => selected.value?.asset ?? null)

  /** Names from the source down to the selection, read off the visible tree (empty if not in it). */
  const selectedPath = computed<string[]>(() => namesDownTo(rows.value, selected.value))

  /** Back to the welcome page: nothing selected. */
  function clearSelection(): void {
    restoreKey = null
    selected.value = null
  }

  const refreshing = computed(() => loads.value > 0)

  return { refreshing, changes, sources, rows, selected, selectedAsset, selectedPath, clearSelection, query, results, fileResults, revealSource, searching, progress, errors, revealKey, loadSources, toggle, loadMore, select, selectAsset, selectSource, revealAsset, openAssetId, openFirst, search, indexPaths, cancelIndexing, reportError }
})
