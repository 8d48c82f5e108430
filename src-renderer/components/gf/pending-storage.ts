/**
 * Pending GF texture replacements kept across reloads, one localStorage entry per set
 * (`modbench.gf.pending:<set path>`): a replacement picked from a file keeps its path, a dropped
 * PNG keeps its bytes (base64). See docs/DECISIONS.md "GF pending replacements".
 */

import type { GfReplacementReq } from '@shared/api/gf'

/** A replacement waiting for "Repack set…". */
export interface PendingReplacement {
  set: string
  file: string
  entry: number
  name: string
  /** PNG bytes (dropped file) or a path (file picker, batch folder). */
  png?: Uint8Array
  path?: string
  psnr: number | null
  resized: boolean
}

/** The part of the Web Storage API used here (tests pass a Map-backed one). */
export interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
  /** Enumeration (Web Storage has it): lets "Write mod…" find every set of an archive with a list. */
  readonly length?: number
  key?(index: number): string | null
}

/** The sets whose path starts with `prefix` that have a stored list. */
export function storedSets(storage: KeyValueStorage | null, prefix: string): string[] {
  const out: string[] = []
  if (!storage?.key || storage.length === undefined) return out
  for (let i = 0; i < storage.length; i++) {
    const k = storage.key(i)
    if (k?.startsWith(STORAGE_PREFIX + prefix)) out.push(k.slice(STORAGE_PREFIX.length))
  }
  return out
}

export const STORAGE_PREFIX = 'modbench.gf.pending:'
const VERSION = 1

interface Stored {
  v: number
  items: { file: string; entry: number; name: string; path?: string; png?: string; psnr: number | null; resized: boolean }[]
}

function toBase64(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(s)
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text)
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}

/** The text stored for a set's list (null: nothing to keep, the entry is removed). */
export function encodePending(list: PendingReplacement[]): string | null {
  if (!list.length) return null
  const items = list.map((p) => ({ file: p.file, entry: p.entry, name: p.name, psnr: p.psnr, resized: p.resized, ...(p.path !== undefined ? { path: p.path } : {}), ...(p.png ? { png: toBase64(p.png) } : {}) }))
  return JSON.stringify({ v: VERSION, items } satisfies Stored)
}

/** A set's list read back; text that is not ours (other version, damaged) gives an empty list. */
export function decodePending(set: string, text: string | null): PendingReplacement[] {
  if (!text) return []
  let parsed: Stored
  try {
    parsed = JSON.parse(text) as Stored
  } catch {
    return []
  }
  if (parsed?.v !== VERSION || !Array.isArray(parsed.items)) return []
  const out: PendingReplacement[] = []
  for (const i of parsed.items) {
    if (typeof i?.file !== 'string' || !Number.isInteger(i.entry) || (typeof i.path !== 'string' && typeof i.png !== 'string')) continue
    let png: Uint8Array | undefined
    try {
      png = typeof i.png === 'string' ? fromBase64(i.png) : undefined
    } catch {
      continue
    }
    out.push({ set, file: i.file, entry: i.entry, name: String(i.name ?? ''), psnr: typeof i.psnr === 'number' ? i.psnr : null, resized: !!i.resized, ...(typeof i.path === 'string' ? { path: i.path } : {}), ...(png ? { png } : {}) })
  }
  return out
}

/** Reads a set's list from `storage`. */
export function loadPending(storage: KeyValueStorage | null, set: string): PendingReplacement[] {
  try {
    return decodePending(set, storage?.getItem(STORAGE_PREFIX + set) ?? null)
  } catch {
    return []
  }
}

/** Writes a set's list; returns an error text when the storage refuses it (quota), else null. */
export function savePending(storage: KeyValueStorage | null, set: string, list: PendingReplacement[]): string | null {
  if (!storage) return 'no local storage: pending replacements are lost on reload'
  const text = encodePending(list)
  try {
    if (text === null) storage.removeItem(STORAGE_PREFIX + set)
    else storage.setItem(STORAGE_PREFIX + set, text)
    return null
  } catch (e) {
    return `pending replacements of this set cannot be kept for a reload (${(e as Error).message}); repack before closing`
  }
}

/** The request's replacement list: bytes for a dropped PNG, else its path. */
export function replacementReqs(list: readonly PendingReplacement[]): GfReplacementReq[] {
  return list.map((p) => ({ file: p.file, entry: p.entry, ...(p.png ? { png: p.png } : { path: p.path }) }))
}
