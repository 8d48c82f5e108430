/**
 * The one list of the Node-side domains. Everything generic that depends on a game — the
 * indexer's detectors, the CLI's command table, the services' handler table, the scene builders —
 * is derived from the manifests registered here into the registry (src-main/plugin/registry.ts).
 * Only the entry points (src-main/index.ts, the CLI entry src-main/cli/main.ts) and tests import
 * this file; generic code reads the registry. A new format adds one `registerDomain(…)` line (its
 * shared manifest goes into src-shared/domains.ts too, for the renderer); see docs/ARCHITECTURE.md.
 * Tests register a fake domain with `registerDomain` and remove it with the function that call returns.
 */
import { registerDomain } from '../plugin/registry'
import { n64Node } from './n64/index'
import { gfNode } from './gf/index'
import { reNode } from './re/index'
import { snapNode } from './snap/index'
import { stadiumNode } from './stadium/index'

// Detectors are asked in this order (the N64 ROM detector first, as before); CLI groups list in it.
registerDomain(n64Node)
registerDomain(gfNode)
registerDomain(reNode)
registerDomain(snapNode)
registerDomain(stadiumNode)

export { registerDomain, nodeDomains, domainHandlers, sceneBuilders } from '../plugin/registry'
export type { NodeDomain, N64Game } from '../plugin/domain'
