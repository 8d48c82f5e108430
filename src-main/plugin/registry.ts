/**
 * The registry of Node-side domains: which domains are registered, and the tables derived from
 * them. The list file (`src-main/domains/index.ts`) fills it; only the entry points (the Electron
 * main, the CLI entry) and tests import that list. Generic code (indexer, services, CLI table)
 * reads the domains here through `nodeDomains()` and never imports a domain; tests add a fake
 * domain with `registerDomain` and remove it with the function it returns.
 */
import { registerSharedDomain, unregisterSharedDomain } from '../../src-shared/domains'
import type { N64Identity } from '../../src-shared/formats/n64/rom'
import type { AssetRow, SourceRow } from '../../src-shared/api/catalog'
import type { Handler, Handlers } from './context'
import type { SceneBuilder } from './scene-builder'
import type { NodeDomain } from './domain'

const domains: NodeDomain[] = []

/** Scene builders by asset kind, from every registered domain (tests may add their own). */
export const sceneBuilders: Record<string, SceneBuilder> = {}

/** Problems of a manifest: scene kinds without a builder, builders of kinds that are not scene kinds. */
export function manifestProblems(d: NodeDomain): string[] {
  const problems: string[] = []
  const builders = (d.sceneBuilders ?? {}) as Record<string, SceneBuilder | undefined>
  for (const [kind, info] of Object.entries(d.shared.assetKinds)) {
    if (info.scene && !builders[kind]) problems.push(`${d.shared.id}: ${kind} is a scene kind without a scene builder`)
  }
  for (const kind of Object.keys(builders)) {
    if (!d.shared.assetKinds[kind]?.scene) problems.push(`${d.shared.id}: ${kind} has a scene builder but is not a scene kind of the manifest`)
  }
  return problems
}

/** Registers a domain on the Node side (and its shared manifest). Returns a function that removes it again. */
export function registerDomain(d: NodeDomain): () => void {
  const problems = manifestProblems(d)
  if (problems.length) throw new Error(`domain manifest ${d.shared.id} is inconsistent: ${problems.join('; ')}`)
  const i = domains.findIndex((x) => x.shared.id === d.shared.id)
  if (i >= 0) domains[i] = d
  else domains.push(d)
  registerSharedDomain(d.shared)
  Object.assign(sceneBuilders, d.sceneBuilders)
  return () => {
    const j = domains.indexOf(d)
    if (j >= 0) domains.splice(j, 1)
    for (const k of Object.keys(d.sceneBuilders ?? {})) delete sceneBuilders[k]
    unregisterSharedDomain(d.shared.id)
  }
}

export function nodeDomains(): readonly NodeDomain[] {
  return domains
}

/**
 * Warms the process caches for opening `asset` (its domain's `warm`), without waiting: nothing is
 * reported (the open that follows reports its own failure).
 */
export function warmAsset(asset: AssetRow, source: SourceRow): void {
  const d = domains.find((x) => Object.prototype.hasOwnProperty.call(x.shared.assetKinds, asset.kind))
  d?.warm?.(asset, source).catch(() => undefined)
}

/** How the registered N64 games know their images (their `n64Games` identities), in list order. */
export function n64Identities(): N64Identity[] {
  return domains.flatMap((d) => d.n64Games ?? []).map((g) => g.identity)
}

/**
 * The service handlers of every registered domain, each loading its domain's handler module on
 * its first call.
 */
export function domainHandlers(): Handlers {
  const out: Record<string, Handler<never>> = {}
  for (const d of domains) {
    const h = d.handlers
    if (!h) continue
    let loaded: Promise<Handlers> | undefined
    for (const ch of h.channels) {
      out[ch] = async (req, ctx) => {
        const table = (await (loaded ??= h.load())) as Record<string, Handler<never> | undefined>
        const fn = table[ch]
        if (!fn) throw new Error(`domain ${d.shared.id} declares channel ${ch} but its handlers do not serve it`)
        return fn(req, ctx)
      }
    }
  }
  return out as Handlers
}
