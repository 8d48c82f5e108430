/**
 * The shape of a game's renderer manifest (`src-renderer/components/<game>/domain.ts`): which view
 * component opens each of its editor kinds, and which selections share one view instance. The
 * list is `src-renderer/domains.ts`; the shared manifest says which kinds are editor kinds.
 */
import type { Component } from 'vue'
import type { AssetRow, SourceRow } from '@shared/api'
import type { AssetKindOf, SharedDomain, SourceKindOf } from '@shared/domain'
import type { ViewCall } from './viewport/scene-channel'

export interface RendererDomain<D extends SharedDomain = SharedDomain> {
  shared: D
  /**
   * The view of each editor kind (the shared manifest's `editor: true` kinds). Views get the props
   * `{ asset: AssetRow | null, source: SourceRow | null }`. Give kinds that share a view instance
   * the same component object.
   */
  views: { readonly [K in AssetKindOf<D> | SourceKindOf<D>]?: Component }
  /**
   * The view instance's identity for an asset: selections with the same key keep one mounted view
   * that refocuses (a Snap stage's rooms and track; a Stadium model and its animations) instead
   * of a fresh view per selection. Null: one view per selection.
   */
  viewKey?(asset: AssetRow): string | null
  /**
   * The requests the view of `asset` starts with (its scene: `scene:open`, or its own first call),
   * made as soon as the asset is selected, before the view's code has loaded; the view takes their
   * answers through the scene channel (scene-channel.ts). Absent or empty: the view asks itself.
   */
  viewCalls?(asset: AssetRow, sources: readonly SourceRow[]): ViewCall[]
}

/** Typed identity for a renderer manifest. */
export function defineRendererDomain<D extends SharedDomain>(d: RendererDomain<D>): RendererDomain<D> {
  return d
}
