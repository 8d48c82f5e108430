/**
 * Error wording for the views: plain words first, the technical tail after. A reader's error
 * reads `file: Structure at 0x1A: what is wrong` (src-shared/binary/errors.ts); the user first
 * needs "what is wrong", then where (file, structure, offset) to open a hex editor.
 */
export interface FormattedError {
  /** The plain sentence (what went wrong), capitalised. */
  plain: string
  /** Where: file, structure, offset; '' when the message names none. */
  detail: string
  /** The message as it came (kept for copy and the tooltip). */
  full: string
}

const AT_OFFSET = /^(.+? at -?0x[0-9A-F]+): (.+)$/s
const PATH_FIRST = /^((?:[A-Za-z]:)?[^\s:]*[/\\.][^\s:]*(?:: [A-Za-z][\w.[\]]*)?): (.+)$/s

function capital(s: string): string {
  return s.length ? s[0]!.toUpperCase() + s.slice(1) : s
}

export function formatError(e: unknown): FormattedError {
  const full = (e instanceof Error ? e.message : String(e ?? '')).trim()
  const m = AT_OFFSET.exec(full) ?? PATH_FIRST.exec(full)
  if (!m) return { plain: capital(full), detail: '', full }
  return { plain: capital(m[2]!.trim()), detail: m[1]!.trim(), full }
}
