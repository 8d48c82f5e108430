/** Files domain of the API contract: browser mode's file browser (Electron uses native dialogs). */

/** One entry of a listed folder. */
export interface FsEntry {
  name: string
  /** Absolute path on the machine running the services. */
  path: string
  type: 'folder' | 'file'
  /** Bytes (0 for folders). */
  size: number
  /** Modification time, ms since the epoch. */
  mtime: number
  /**
   * The source kind the indexer's detectors give it (by name and first bytes; a folder by its
   * file names, e.g. a GF set), or null when no detector claims it.
   */
  kind: string | null
}

export interface FsRoot {
  label: string
  path: string
  /**
   * Why the place cannot be opened now (it no longer exists, or is no folder): shown greyed with
   * this reason, never listed on click. Absent when the place works.
   */
  unavailable?: string
}

export interface FsListing {
  /** The listed folder (absolute). */
  path: string
  /** Its parent, or null at the file system's root. */
  parent: string | null
  /** The folder's own kind (a GF set folder), as for entries. */
  kind: string | null
  /** Folders first, then files; each by name. */
  entries: FsEntry[]
  /** Places to jump to: home, the recent folders asked for, the start folder, the samples, indexed and chosen places. */
  roots: FsRoot[]
  /** More entries than a listing returns (the rest are left off). */
  truncated: boolean
}

export interface FilesApi {
  /**
   * Lists a folder (no path: the user's home); a file's path lists the folder it is in. `recent`:
   * folders the dialog used lately, returned first among the places (each checked).
   */
  'fs:list': { req: { path?: string; recent?: string[] }; res: FsListing }
  /** Whether a path exists (a save asks before replacing it): its type, or null. */
  'fs:stat': { req: { path: string }; res: { type: 'folder' | 'file'; size: number } | null }
}
