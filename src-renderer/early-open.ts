/**
 * A browser-mode permalink's first requests, made by the page's first code (main.ts) before the
 * shell's own chunk has loaded and mounted (issue 26: before, the asset was revealed once the shell
 * had mounted, and its answer waited 80–170 ms more behind the viewport chunk's evaluation before
 * the scene was asked for): the asset's `catalog:reveal` (the
 * catalog store's very request, its answer handed to the store by `takeEarlyReveal`), and once
 * that answers, the view's code and first calls (`startView`: the view takes their answers through
 * the scene channel), or the scene of an asset shown in the plain viewport. An asset that is gone
 * (a null reveal) or a failing reveal starts nothing: the store reports it as before. Electron has
 * no permalinks: nothing is done there.
 */
import type { AssetReveal, AssetRow } from '@shared/api'
import { bridge } from './bridge'
import { mayHaveScene, startView, viewFor } from './domains'
import { parsePermalink, permalinksOn } from './permalink'
import { PAGE } from './stores/catalog-tree'
import { prefetchScene } from './viewport/scene-channel'

let early: { id: number; reveal: Promise<AssetReveal | null> } | null = null

/**
 * Starts a permalink's reveal (`search`: the page's query string); true when the page opens a
 * view at once (the caller asks for the viewport's code, after the shell's own: the browser has 6
 * connections to the server, and the viewport's 20-odd files would hold the calls back).
 */
export function openEarly(search = location.search): boolean {
  if (!permalinksOn(bridge.transport)) return false
  const { asset } = parsePermalink(search)
  if (asset === null) return false
  if (typeof asset !== 'number') return true
  const reveal = bridge.invoke('catalog:reveal', { id: asset, limit: PAGE })
  early = { id: asset, reveal }
  // (a failure is the store's to report, when it takes the answer)
  reveal.then((r) => r && openView(r.asset), () => undefined)
  return true
}

/** What the centre pane will open for `a` (CenterPane.vue), asked for now. */
function openView(a: AssetRow): void {
  if (viewFor(a.kind)) startView(a, [])
  else if (a.childCount === 0 && mayHaveScene(a.kind)) prefetchScene(a.id)
}

/** The early reveal of asset `id` (taken once), or null when none was asked for. */
export function takeEarlyReveal(id: number): Promise<AssetReveal | null> | null {
  const e = early
  if (e?.id !== id) return null
  early = null
  return e.reveal
}
