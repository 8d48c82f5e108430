/**
 * The one list of the renderer-side domain manifests: the centre pane's choice of view (which
 * component opens a kind, which selections share a view instance) is derived from it. A new
 * format adds one line to BUILT_IN; a test may add a manifest with `registerRendererDomain`
 * (it returns a function that removes it again).
 */
import type { Component } from 'vue'
import type { AssetKind, AssetRow, SourceKind, SourceRow } from '@shared/api'
import { assetKindInfo, sourceKindInfo } from '@shared/domains'
import type { RendererDomain } from './domain'
import { prefetchCall, type ViewCall } from './viewport/scene-channel'
import { snapRenderer } from './components/snap/domain'
import { stadiumRenderer } from './components/stadium/domain'
import { reRenderer } from './components/re/domain'
import { gfRenderer } from './components/gf/domain'

const BUILT_IN = [snapRenderer, stadiumRenderer, reRenderer, gfRenderer] as RendererDomain[]

const domains: RendererDomain[] = []

export function registerRendererDomain(d: RendererDomain): () => void {
  const i = domains.findIndex((x) => x.shared.id === d.shared.id)
  if (i >= 0) domains[i] = d
  else domains.push(d)
  return () => {
    const j = domains.indexOf(d)
    if (j >= 0) domains.splice(j, 1)
  }
}

for (const d of BUILT_IN) registerRendererDomain(d)

export function rendererDomains(): readonly RendererDomain[] {
  return domains
}

/** The view that opens a source or asset kind, or null (the viewport or the overview then). */
export function viewFor(kind: AssetKind | SourceKind): Component | null {
  for (const d of domains) {
    const v = (d.views as Record<string, Component | undefined>)[kind]
    if (v) return v
  }
  return null
}

/** The identity of the view instance that shows `asset` (see RendererDomain.viewKey), or null. */
export function viewKeyOf(asset: AssetRow): string | null {
  for (const d of domains) {
    if (!Object.hasOwn(d.shared.assetKinds, asset.kind)) continue
    return d.viewKey?.(asset) ?? null
  }
  return null
}

/** The requests the view of `asset` starts with (RendererDomain.viewCalls). */
export function viewCallsOf(asset: AssetRow, sources: readonly SourceRow[]): ViewCall[] {
  for (const d of domains) {
    if (!Object.hasOwn(d.shared.assetKinds, asset.kind)) continue
    return d.viewCalls?.(asset, sources) ?? []
  }
  return []
}

/** Starts loading the code of the view of `kind` (Vue's async component keeps its loader). */
export function loadViewCode(kind: AssetKind): void {
  void (viewFor(kind) as { __asyncLoader?: () => Promise<unknown> } | null)?.__asyncLoader?.().catch(() => undefined)
}

/** Asks now for the first calls of the view of `asset` (its view takes their answers: scene-channel.ts). */
export function prefetchViewCalls(asset: AssetRow, sources: readonly SourceRow[]): void {
  for (const c of viewCallsOf(asset, sources)) prefetchCall(c.channel, c.req)
}

/**
 * A leaf kind that a manifest declares without `scene` has none (no request that can only fail);
 * a kind no manifest declares is asked for, and the service's `no-scene` error code settles it.
 */
export function mayHaveScene(kind: string): boolean {
  return assetKindInfo(kind)?.scene ?? true
}

/** The tree's icon of a row: its kind's icon in the manifests (a source of an undeclared kind: ▣). */
export function rowIcon(type: 'folder' | 'source' | 'asset' | 'more', kind: string): string {
  if (type === 'folder') return '▭'
  if (type === 'source') return sourceKindInfo(kind)?.icon ?? '▣'
  return type === 'asset' ? (assetKindInfo(kind)?.icon ?? '') : ''
}
