/**
 * The catalog entries of one Snap actor: its own entry and, when the actor has an HD photo model,
 * the sibling entry for it (actor-index.ts lists it under the same `Actors` group with
 * `locator.hd`). The actor view switches between the two.
 */
import type { AssetRow } from '@shared/api'
import { bridge } from '../../bridge'

export interface ActorEntries {
  base: number
  hd: number | null
}

const sameActor = (a: AssetRow, b: AssetRow) => a.kind === b.kind && a.locator.stage === b.locator.stage && a.locator.actor === b.locator.actor

/** Finds the actor's normal and HD entries among `asset`'s siblings. */
export async function actorEntries(asset: AssetRow): Promise<ActorEntries> {
  const isHd = asset.locator.hd === true
  if (!isHd && asset.metadata.hd !== true) return { base: asset.id, hd: null }
  const siblings = await bridge.invoke('catalog:children', { sourceId: asset.sourceId, parent: asset.parent, limit: 1000 })
  const other = siblings.find((s) => s.id !== asset.id && sameActor(s, asset) && (s.locator.hd === true) !== isHd)
  if (isHd) return { base: other?.id ?? asset.id, hd: asset.id }
  return { base: asset.id, hd: other?.id ?? null }
}
