/**
 * The one list of the shared domain manifests. Everything generic that depends on a game — tree
 * icons, overview hints and summaries, welcome cards, which kinds open a scene or an editor, the
 * `SourceKind` union — is read from here. A new format adds its manifest to BUILT_IN (one line);
 * a test (or a plug-in) may add one at run time with `registerSharedDomain` (the Node side's
 * `registerDomain` calls it for its manifest's `shared`).
 */
import type { AssetKindOf, DomainAbout, KindInfo, SharedDomain, SourceKindOf, WelcomeCard } from './domain'
import { snapDomain } from './formats/snap/domain'
import { stadiumDomain } from './formats/stadium/domain'
import { reDomain } from './formats/re/domain'
import { gfDomain } from './formats/gf/domain'
import { n64Domain } from './formats/n64/domain'

/** In welcome-card order. */
const BUILT_IN = [snapDomain, stadiumDomain, reDomain, gfDomain, n64Domain] as const

type BuiltIn = (typeof BUILT_IN)[number]
/** Every source kind: the manifests' plus `unknown` (a file no detector could read). */
export type SourceKind = SourceKindOf<BuiltIn> | 'unknown'
/** Every asset kind of the built-in manifests. */
export type AssetKind = AssetKindOf<BuiltIn>

/** The kind of a source whose file could not be identified. */
const UNKNOWN: KindInfo = { label: 'Unknown file', icon: '▣', hint: 'A file Modbench could not identify.' }

const domains: SharedDomain[] = []

/** Adds (or, by id, replaces) a shared manifest. */
export function registerSharedDomain(d: SharedDomain): void {
  const i = domains.findIndex((x) => x.id === d.id)
  if (i >= 0) domains[i] = d
  else domains.push(d)
}

/** Removes a manifest added at run time (tests). */
export function unregisterSharedDomain(id: string): void {
  const i = domains.findIndex((x) => x.id === id)
  if (i >= 0) domains.splice(i, 1)
}

for (const d of BUILT_IN) registerSharedDomain(d as unknown as SharedDomain)

export function sharedDomains(): readonly SharedDomain[] {
  return domains
}

/** What an asset kind is (undefined for a kind no manifest declares). */
export function assetKindInfo(kind: string): KindInfo | undefined {
  for (const d of domains) if (Object.hasOwn(d.assetKinds, kind)) return d.assetKinds[kind]
  return undefined
}

/** What a source kind is (`unknown` included). */
export function sourceKindInfo(kind: string): KindInfo | undefined {
  if (kind === 'unknown') return UNKNOWN
  for (const d of domains) if (Object.hasOwn(d.sourceKinds, kind)) return d.sourceKinds[kind]
  return undefined
}

/** The manifest that declares a source or asset kind. */
export function domainOfKind(kind: string): SharedDomain | undefined {
  return domains.find((d) => Object.hasOwn(d.assetKinds, kind) || Object.hasOwn(d.sourceKinds, kind))
}

/** Every welcome card, in list order (typed by the built-in kinds, as catalog rows are). */
export function welcomeCards(): WelcomeCard<SourceKind, AssetKind>[] {
  return domains.flatMap((d) => d.welcome ?? []) as WelcomeCard<SourceKind, AssetKind>[]
}

/** The welcome page's line of every domain that has one, in list order: its title and `about`. */
export function aboutDomains(): ({ id: string; title: string } & DomainAbout)[] {
  return domains.flatMap((d) => (d.about ? [{ id: d.id, title: d.title, ...d.about }] : []))
}
