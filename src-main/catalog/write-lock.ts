/**
 * Taking turns at one catalog's write lock between processes (issue 24: two `index` runs, or the
 * app and the CLI, on one catalog). SQLite lets one connection write at a time; a batch takes the
 * lock with `BEGIN IMMEDIATE` (a deferred BEGIN that reads first cannot wait for it: its upgrade
 * fails at once with "database is locked"). A process that finds the lock taken waits without
 * blocking its event loop, retrying, and says so by touching `<catalog>-wait`; the holder, at the
 * end of each batch, sees a fresh wait file and leaves the lock free for a moment, so both runs
 * move on batch by batch instead of the second failing or waiting for the whole first run.
 */
import type Database from 'better-sqlite3'
import * as fs from 'node:fs'

/** The busy timeout of ordinary statements (a reader during a checkpoint, a single-row write). */
export const BUSY_TIMEOUT_MS = 5000
/** How long one batch may wait for the lock before giving up (another process holding it that long is stuck). */
export const WAIT_LIMIT_MS = 10 * 60_000
/** How long a holder leaves the lock free when another process waits for it. */
const TURN_GAP_MS = 120
/** A wait file touched within this is a process waiting now. */
const WAIT_FRESH_MS = 1000

export interface WaitOptions {
  signal?: AbortSignal
  /** Gives up after this long (default `WAIT_LIMIT_MS`). */
  limitMs?: number
}

/** The catalog stayed locked by another process longer than a batch may wait. */
export class CatalogBusy extends Error {
  readonly code = 'catalog-busy'
  constructor(dbPath: string, waitedMs: number) {
    super(
      `${dbPath}: the catalog is busy: another Modbench process (the app, or an index run) has been writing to it for ${Math.round(waitedMs / 1000)} s. ` +
        'Try again when it has finished, or close the other process.',
    )
    this.name = 'CatalogBusy'
  }
}

/** Whether an error is SQLite's "database is locked" / "database is busy" (any extended code). */
export function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown }).code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

const waitFile = (dbPath: string) => `${dbPath}-wait`
const onDisk = (dbPath: string) => dbPath !== ':memory:' && dbPath !== ''
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** One attempt at the lock (`BEGIN IMMEDIATE`), waiting only briefly inside SQLite. */
export function tryBegin(db: Database.Database): boolean {
  db.pragma('busy_timeout = 20')
  try {
    db.exec('BEGIN IMMEDIATE')
    return true
  } catch (e) {
    if (isBusy(e)) return false
    throw e
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  }
}

/** Takes the write lock (`BEGIN IMMEDIATE`), waiting for another process's turn to end. */
export async function beginWrite(db: Database.Database, dbPath: string, opts: WaitOptions = {}): Promise<void> {
  const started = Date.now()
  const limit = opts.limitMs ?? WAIT_LIMIT_MS
  for (let attempt = 0; ; attempt++) {
    if (tryBegin(db)) {
      if (attempt > 0 && onDisk(dbPath)) fs.rmSync(waitFile(dbPath), { force: true })
      return
    }
    if (onDisk(dbPath)) {
      try {
        fs.writeFileSync(waitFile(dbPath), String(process.pid))
      } catch {
        /* a read-only folder: the holder cannot be told, the wait still ends when it finishes */
      }
    }
    if (opts.signal?.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('cancelled')
    const waited = Date.now() - started
    if (waited >= limit) throw new CatalogBusy(dbPath, waited)
    await sleep(15 + Math.random() * 25)
  }
}

/** Whether another process is waiting for the lock now (its wait file is fresh). */
export function othersWaiting(dbPath: string): boolean {
  if (!onDisk(dbPath)) return false
  const st = fs.statSync(waitFile(dbPath), { throwIfNoEntry: false })
  return !!st && Date.now() - st.mtimeMs < WAIT_FRESH_MS
}

/** Leaves the lock free for a moment (after a commit, when another process waits). */
export const giveTurn = (): Promise<void> => sleep(TURN_GAP_MS)
