/**
 * A browser-mode permalink's first requests, made by the page's first code (main.ts) before the
 * shell's own chunk has loaded and mounted (issue 26: before, the asset was revealed once the shell
 * had mounted, and its answer waited 80–170 ms more behind the viewport chunk's evaluation before
 * the scene was asked for): the asset's `catalog:reveal` (the
 * catalog store's very request, its answer handed to the store by `takeEarlyReveal`), and once
 * that answers, the view's first calls (the view takes their answers through the scene channel)
 * and its code, or the scene of an asset shown in the plain viewport. An asset that is gone
 * (a null reveal) or a failing reveal starts nothing: the store reports it as before. Electron has
 * no permalinks: nothing is done there.
 */
import type { AssetReveal, AssetRow } from '@shared/api'
import { bridge } from './bridge'
import { loadViewCode, mayHaveScene, prefetchViewCalls, viewFor } from './domains'
import { parsePermalink, permalinksOn } from './permalink'
import { PAGE } from './stores/catalog-tree'
import { prefetchScene } from './viewport/scene-channel'

let early: { id: number; reveal: Promise<AssetReveal | null> } | null = null

/**
 * Starts a permalink's reveal (`search`: the page's query string). Null when the page opens no view
 * at once; else a promise settled once the view's first calls are out (or there are none): the
 * caller asks for the viewport's code then, not before — the browser has 6 connections to the
 * server, and the viewport's 20-odd files would hold those calls back.
 */
export function openEarly(search = location.search): Promise<void> | null {
  if (!permalinksOn(bridge.transport)) return null
  const { asset } = parsePermalink(search)
  if (asset === null) return null
  if (typeof asset !== 'number') return Promise.resolve()
  const reveal = bridge.invoke('catalog:reveal', { id: asset, limit: PAGE })
  early = { id: asset, reveal }
  // (a failure is the store's to report, when it takes the answer)
  return reveal.then(
    (r) => {
      if (r) openView(r.asset)
    },
    () => undefined,
  )
}

/**
 * What the centre pane will open for `a` (CenterPane.vue), asked for now: the view's calls before
 * its code, unlike a click's (the code pulls the viewport's 20-odd files, which would take the
 * browser's 6 connections to the server ahead of the calls).
 */
function openView(a: AssetRow): void {
  if (viewFor(a.kind)) {
    prefetchViewCalls(a, [])
    loadViewCode(a.kind)
  } else if (a.childCount === 0 && mayHaveScene(a.kind)) prefetchScene(a.id)
}

/** The early reveal of asset `id` (taken once), or null when none was asked for. */
export function takeEarlyReveal(id: number): Promise<AssetReveal | null> | null {
  const e = early
  if (e?.id !== id) return null
  early = null
  return e.reveal
}
