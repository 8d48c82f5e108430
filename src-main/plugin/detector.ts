/**
 * The detector contract: how a domain claims files or folders for the catalog and lists what they
 * hold cheaply. The indexer (src-main/indexer/) asks the registered domains' detectors.
 */
import type { AssetKind, SourceKind } from '../../src-shared/api/catalog'

/** What a detector sees of a file before deciding it is its kind. */
export interface DetectInput {
  path: string
  /** Base name, lower-case. */
  name: string
  size: number
  /** The first bytes of the file (up to 64 KiB). */
  head: Uint8Array
  /** MD5 of the whole file's bytes, when `enumerate` is called (hashed in the indexer's one read). */
  md5?: string
}

/**
 * An asset a detector found. `key` is unique within the source; `parentKey` names the parent's
 * key (absent for top-level assets). The indexer turns keys into catalog ids. `K`: the kinds it
 * may have, by default the built-in manifests' `AssetKind` union (a misspelt kind does not
 * compile); a domain registered at run time gives its own manifest's (`AssetKindOf<typeof …>`), and
 * the generic code that stores any domain's drafts takes `AssetDraft<string>`.
 */
export interface AssetDraft<K extends string = AssetKind> {
  key: string
  parentKey?: string
  kind: K
  name: string
  /** How to reopen it: offsets, virtual addresses, entry indices. */
  locator: Record<string, unknown>
  metadata?: Record<string, unknown>
  /** Extra words for full-text search (format names, species, …). */
  tags?: string[]
}

export interface EnumerateResult<K extends string = AssetKind> {
  /** Refines the source kind (e.g. `n64-rom` → `snap-rom`). */
  kind?: SourceKind
  assets: AssetDraft<K>[]
  /** Shown in the inspector for the source itself (header name, game code, MD5 …). */
  metadata?: Record<string, unknown>
  /**
   * Nothing worth a source of its own: a file met while walking a folder is then not recorded (a
   * romfs dump holds hundreds of GARC archives besides the Pokémon models); named on its own, or
   * already in the catalog, it is.
   */
  incidental?: boolean
  /** Errors of parts left out (a damaged member file): the source is indexed with the rest (IndexResultSource.damaged). */
  damaged?: unknown[]
}

/** A detector for single files: content first (magic bytes), extension second. `K`: its asset kinds (see AssetDraft). */
export interface FileDetector<K extends string = AssetKind> {
  id: string
  kind: SourceKind
  /** True when the bytes are certainly this kind (magic). */
  matchContent?(input: DetectInput): boolean
  /** Lower-case name suffixes accepted when no content detector matched (e.g. `.z64`). */
  extensions?: RegExp
  /** Reads the whole file and lists what it holds cheaply. Throws FormatError on bad input. */
  enumerate(bytes: Uint8Array, input: DetectInput): EnumerateResult<K> | Promise<EnumerateResult<K>>
  /**
   * For files too big to read whole (a romfs archive of hundreds of MiB): reads only what it needs
   * (tables, a few headers) from `input.path`. The indexer then neither reads nor hashes the whole
   * file: `hash` (a digest of what was read) stands for the content hash. Used instead of
   * `enumerate` when present (not for `.gz` files).
   */
  enumeratePartial?(input: DetectInput): Promise<EnumerateResult<K> & { hash: string }>
}

/** A detector for folders that form one source (a GF `0.bin`–`8.bin` set). `K`: its asset kinds. */
export interface FolderDetector<K extends string = AssetKind> {
  id: string
  kind: SourceKind
  /** Given the names in a folder, true when the folder is this kind of set. */
  matchFolder(names: string[]): boolean
  /** The member files of the set, in order (their bytes are passed to `enumerate`). */
  members(names: string[]): string[]
  enumerate(files: Map<string, Uint8Array>, folder: string): EnumerateResult<K> | Promise<EnumerateResult<K>>
  /**
   * A folder the user opened that is not a set but holds some of a set's files: which file and why
   * nothing could be added (damaged, or the set's other files missing) and what to do; null when
   * none of its files belong to this kind of set. `read` gives a member's bytes.
   */
  explainPartial?(names: string[], read: (name: string) => Promise<Uint8Array>): Promise<{ file: string; message: string } | null>
}
