import { FormatError } from '../../src-shared/binary/errors'

/** The FormatError `f` throws (anything else is re-thrown; no error at all fails). */
export function formatErrorOf(f: () => unknown): FormatError {
  try {
    f()
  } catch (e) {
    if (e instanceof FormatError) return e
    throw e
  }
  throw new Error('no error')
}
