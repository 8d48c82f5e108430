/**
 * The shape of a game's node manifest (`src-main/domains/<game>/index.ts`): its shared manifest,
 * detectors, CLI commands, service handlers and scene builders. The manifest itself stays light:
 * detectors are eager (the indexer asks them synchronously; they read headers and lists only),
 * while commands, handlers and scene builders are loaded by dynamic import when first used, so a
 * command imports only its own domain's code. The list is `src-main/domains/index.ts`; generic code
 * reads the registered manifests through `./registry`.
 */
import type { Channel, SourceKind } from '../../src-shared/api'
import type { AssetRow, SourceRow } from '../../src-shared/api/catalog'
import type { AssetKindOf, SharedDomain } from '../../src-shared/domain'
import type { N64Identity, N64Rom } from '../../src-shared/formats/n64/rom'
import type { Command } from './command'
import type { AssetDraft, FileDetector, FolderDetector } from './detector'
import type { Handlers } from './context'
import type { SceneBuilder } from './scene-builder'

/** A game on the N64 that claims ROM images in the N64 detector (src-main/domains/n64/). */
export interface N64Game {
  /** How the game knows its images (MD5s, header name), declared in the game's own folder. */
  identity: N64Identity
  /** The source kind its ROMs get. */
  sourceKind: SourceKind
  /** An image whose header names no known game but has this game's layout opens as it, unverified. */
  looksLike(image: Uint8Array): boolean
  /** The cheap catalog enumeration of the image. */
  enumerate(rom: N64Rom): AssetDraft<string>[]
}

export interface NodeDomain<D extends SharedDomain = SharedDomain> {
  shared: D
  /** Each typed by its own asset kinds where it is declared (`FileDetector` checks the built-in ones). */
  fileDetectors?: FileDetector<string>[]
  folderDetectors?: FolderDetector<string>[]
  n64Games?: N64Game[]
  /** CLI commands: `groups` are their first words (`modbench snap …`); `load` imports the Command objects. */
  cli?: { groups: readonly string[]; load(): Promise<readonly Command[]> }
  /** Service handlers: the channels they serve (known without loading), `load` imports them. */
  handlers?: { channels: readonly Channel[]; load(): Promise<Handlers> }
  /** One builder per kind with `scene: true` in the shared manifest (each imports its code when called). */
  sceneBuilders?: { readonly [K in AssetKindOf<D>]?: SceneBuilder }
  /**
   * Starts what opening `asset` will need into the process caches (its game file read, hashed and
   * parsed; its scene code imported) ahead of the view's own request: `catalog:reveal` calls it
   * when a permalink names the asset. Best effort: a failure is left for the open to report.
   */
  warm?(asset: AssetRow, source: SourceRow): Promise<unknown>
}

/** Typed identity for a node manifest. */
export function defineNodeDomain<D extends SharedDomain>(d: NodeDomain<D>): NodeDomain<D> {
  return d
}

/**
 * A scene builder that imports its module on first use: `lazyBuilder(() => import('./scene-builder'), 'buildX')`.
 */
export function lazyBuilder<M extends Record<K, SceneBuilder>, K extends string>(load: () => Promise<M>, name: K): SceneBuilder {
  return async (asset, source, ctx) => (await load())[name](asset, source, ctx)
}
