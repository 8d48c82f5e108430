/**
 * Errors raised by readers and writers. Every format error names the file, the structure and
 * the byte offset where it applies, so a modder can open a hex editor at the right place.
 */
export interface FormatErrorContext {
  /** File name or path the bytes came from (as the user knows it). */
  file?: string
  /** Structure being read, e.g. `GFTexture` or `WorldBlockGFX.movement`. */
  structure?: string
  /** Absolute byte offset in the file. */
  offset?: number
}

export function hex(n: number): string {
  return n < 0 ? `-0x${(-n).toString(16).toUpperCase()}` : `0x${n.toString(16).toUpperCase()}`
}

export class FormatError extends Error {
  readonly file?: string
  readonly structure?: string
  readonly offset?: number
  /** The message without the location prefix. */
  readonly detail: string

  constructor(detail: string, ctx: FormatErrorContext = {}) {
    const where: string[] = []
    if (ctx.file) where.push(ctx.file)
    if (ctx.structure) where.push(ctx.structure)
    if (ctx.offset !== undefined) where.push(`at ${hex(ctx.offset)}`)
    super(where.length ? `${where.join(': ').replace(/: at /, ' at ')}: ${detail}` : detail)
    this.name = 'FormatError'
    this.file = ctx.file
    this.structure = ctx.structure
    this.offset = ctx.offset
    this.detail = detail
  }
}

/**
 * Runs `f`; a FormatError it throws that names no file is re-thrown naming `file` (a pure reader
 * does not know the path the user gave; its caller does). A LimitError stays a LimitError.
 */
export function inFile<T>(file: string, f: () => T): T {
  try {
    return f()
  } catch (e) {
    if (e instanceof FormatError && !e.file) {
      const Err = e instanceof LimitError ? LimitError : FormatError
      throw new Err(e.detail, { file, structure: e.structure, offset: e.offset })
    }
    throw e
  }
}

/** Thrown by guards that stop runaway input (loops, absurd counts, recursion). */
export class LimitError extends FormatError {
  constructor(detail: string, ctx: FormatErrorContext = {}) {
    super(detail, ctx)
    this.name = 'LimitError'
  }
}
