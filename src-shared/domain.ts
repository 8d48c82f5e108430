/**
 * The shape of a game's shared manifest (`src-shared/formats/<game>/domain.ts`): what the rest of
 * Modbench needs to know about a game without reading its files — its source and asset kinds (a
 * typed union), how each kind shows (label, tree icon, overview hint, overview summary), which
 * kinds open a 3D scene and which open an editor, and the welcome page's card. Pure data and pure
 * functions: the renderer and the Node side both read it. The list of manifests is
 * `src-shared/domains.ts`; see docs/ARCHITECTURE.md ("Adding a format").
 */

/**
 * What a node's context menu offers besides the entries every node has (Open, Re-index, Remove
 * from catalog, Reveal in folder, Copy path): `export` (Export…), `replace` (Replace…), `extract`
 * (Extract PNGs). The view that shows the kind carries the action out (useNodeAction).
 */
export type KindAction = 'export' | 'replace' | 'extract'

/** How one kind (of source or asset) shows and opens. */
export interface KindInfo {
  /** The context menu's kind-specific entries, in menu order. */
  actions?: readonly KindAction[]
  /** A short human name ("Stage", "GF set"). */
  label: string
  /** The tree's icon: one character. */
  icon: string
  /** The overview's line of advice: what a newcomer can do from here. */
  hint?: string
  /** A neutral scene can be built for it (the node manifest has its scene builder). */
  scene?: boolean
  /** An editor view opens it (the renderer manifest names the component). */
  editor?: boolean
  /** The overview of a descendant (a spawn list, a spawn) offers to open its nearest ancestor of this kind. */
  landmark?: boolean
  /** A source of this kind shows in the tree under this name, from its path (default: the file name). */
  sourceName?(path: string): string
  /** The overview's one-line summary of an asset of this kind, from its metadata (parts joined by ' · '). */
  summary?(metadata: Record<string, unknown>): (string | null)[]
}

/** A card of the welcome page: one click to the first thing of a kind in the catalog. */
export interface WelcomeCard<S extends string = string, A extends string = string> {
  id: string
  title: string
  text: string
  /** Enabled when the catalog holds a source of one of these kinds (the first one present is opened). */
  sources: readonly S[]
  /** Reveal the first asset of this kind in that source (otherwise the source itself is selected). */
  opens?: A
}

/** The welcome page's line about a game: what of it you open, and what Modbench does with it. */
export interface DomainAbout {
  /** The files, in a few words (`N64 ROM`, `.mot/.motlist files`). */
  files: string
  /** One sentence: what you can see and do. */
  does: string
}

export interface SharedDomain<A extends string = string, S extends string = string> {
  /** The game's folder name on every side: `snap`, `stadium`, `gf`, `re`. */
  id: string
  /** The game's full name, for messages. */
  title: string
  /** Its line on the welcome page (a platform without one, like the N64's, is not listed). */
  about?: DomainAbout
  sourceKinds: { readonly [K in S]: KindInfo }
  assetKinds: { readonly [K in A]: KindInfo }
  welcome?: readonly WelcomeCard<S, A>[]
}

export type AssetKindOf<D> = D extends SharedDomain<infer A, string> ? A : never
export type SourceKindOf<D> = D extends SharedDomain<string, infer S> ? S : never

/** Typed identity: keeps the literal kind names of a manifest as its unions. */
export function defineDomain<AK extends Record<string, KindInfo>, SK extends Record<string, KindInfo>>(d: {
  id: string
  title: string
  about?: DomainAbout
  sourceKinds: SK
  assetKinds: AK
  welcome?: readonly WelcomeCard<keyof SK & string, keyof AK & string>[]
}): SharedDomain<keyof AK & string, keyof SK & string> {
  return d
}

/** A number in metadata, or null. */
export function num(m: Record<string, unknown>, key: string): number | null {
  const v = m[key]
  return typeof v === 'number' ? v : null
}

/** "3 rooms", "1 frame"; null when there is no count. */
export function count(v: number | null, one: string): string | null {
  return v === null ? null : `${v} ${one}${v === 1 ? '' : 's'}`
}
