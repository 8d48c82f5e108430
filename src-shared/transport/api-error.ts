/**
 * Errors across the API, both ways: the services turn a thrown error into an `ApiErrorReply`
 * (`errorReplyOf`), the bridges (Electron preload, browser-mode HTTP client) turn the reply back
 * into an Error carrying its `name` and structured `code` (`errorFromReply`), so the UI branches
 * on the code (`no-scene`), never on message text.
 */
import type { ApiErrorReply } from '../api'

type ErrorBody = ApiErrorReply['error']

/** The reply for a thrown value (FormatError fields and a string `code` kept when present). */
export function errorReplyOf(e: unknown): ApiErrorReply {
  const err = e instanceof Error ? e : new Error(String(e))
  const f = err as Error & { file?: unknown; structure?: unknown; offset?: unknown; code?: unknown; field?: unknown }
  const body: ErrorBody = { message: err.message, name: err.name }
  if (typeof f.file === 'string') body.file = f.file
  if (typeof f.structure === 'string') body.structure = f.structure
  if (typeof f.offset === 'number') body.offset = f.offset
  if (typeof f.code === 'string') body.code = f.code
  if (typeof f.field === 'string') body.field = f.field
  return { error: body }
}

/** An Error rebuilt from a reply's body: message, name and code. */
export function errorFromReply(body: Partial<ErrorBody>): Error & { code?: string } {
  const e: Error & { code?: string } = new Error(body.message ?? 'unknown error')
  e.name = body.name ?? 'Error'
  if (typeof body.code === 'string') e.code = body.code
  return e
}
