/**
 * SQLite's errors said in the user's terms (issue 24): which catalog file, what is wrong with it
 * and what to do. SQLite's own text is kept inside the message (quoted), never shown alone.
 */

/** An error of the catalog file itself (damaged, locked, unreadable, read-only, disk full). */
export class CatalogError extends Error {
  constructor(
    readonly file: string,
    /** SQLite's result code (`SQLITE_CORRUPT`, `SQLITE_BUSY`, …). */
    readonly sqliteCode: string,
    message: string,
  ) {
    super(message)
    this.name = 'CatalogError'
  }
  /** A structured reason for the UI: `catalog-damaged`, `catalog-locked`, `catalog-unavailable`. */
  get code(): string {
    return /CORRUPT|NOTADB/.test(this.sqliteCode) ? 'catalog-damaged' : /BUSY|LOCKED/.test(this.sqliteCode) ? 'catalog-locked' : 'catalog-unavailable'
  }
}

/** `e` when it is no SQLite error; otherwise a CatalogError naming `dbPath` and saying what to do. */
export function explainCatalogError(e: unknown, dbPath: string): unknown {
  const code = (e as { code?: unknown })?.code
  if (e instanceof CatalogError || typeof code !== 'string' || !code.startsWith('SQLITE_')) return e
  const said = `SQLite: "${(e as Error).message}"`
  const damaged = `The catalog holds no game bytes, only where the assets of your files are: delete ${dbPath} (and its -wal and -shm files, if any) and run \`modbench index\` on your files again.`
  let text: string
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) text = `the catalog file is damaged (${said}). ${damaged}`
  else if (/^SQLITE_(BUSY|LOCKED)/.test(code)) text = `the catalog is locked (${said}): another process (the Modbench app, or an index run) kept it busy too long. Try again when it has finished.`
  else if (code.startsWith('SQLITE_CANTOPEN')) text = `the catalog cannot be opened (${said}): check that its folder exists and that you may write there, or choose another catalog with --db.`
  else if (code.startsWith('SQLITE_READONLY')) text = `the catalog cannot be written (${said}): check the permissions of the file and its folder, or choose another catalog with --db.`
  else if (code.startsWith('SQLITE_FULL')) text = `the disk holding the catalog is full (${said}): free some space, then try again.`
  else if (code.startsWith('SQLITE_IOERR')) text = `the catalog could not be read or written (${said}): check the disk. If it keeps failing: ${damaged}`
  else text = `the catalog failed (${said}). If it keeps failing, it may be damaged: ${damaged}`
  return new CatalogError(dbPath, code, `${dbPath}: ${text}`)
}
