/**
 * `JSON.stringify(value, null, 1)` written in pieces: a big document (an export's manifest) is
 * described as an object whose members, or an array whose items, come from an iterable, and
 * `jsonChunks` yields its text member by member, so no one string (and no one object graph) of the
 * whole document is ever built. Everything below a streamed member is printed by JSON.stringify
 * itself at that member's depth (see stringifyAt), so the bytes are JSON.stringify's.
 *
 * Not a JSON library: indent 1 only, no replacer, plain data (a `toJSON` method would be called
 * with another key than JSON.stringify of the whole passes). Members that JSON.stringify leaves out
 * of an object (undefined, functions, symbols) are left out here too; in an array they print null.
 */

const STREAMED = Symbol('json-stream')

interface StreamedObject {
  readonly [STREAMED]: 'object'
  readonly members: Iterable<readonly [key: string, value: unknown]>
}
interface StreamedArray {
  readonly [STREAMED]: 'array'
  readonly items: Iterable<unknown>
}
type Streamed = StreamedObject | StreamedArray

/** An object printed member by member; a member's value may itself be streamed. */
export function streamedObject(members: Iterable<readonly [key: string, value: unknown]>): StreamedObject {
  return { [STREAMED]: 'object', members }
}

/** An array printed item by item (items are produced as they are printed); an item may be streamed. */
export function streamedArray(items: Iterable<unknown>): StreamedArray {
  return { [STREAMED]: 'array', items }
}

function isStreamed(v: unknown): v is Streamed {
  return typeof v === 'object' && v !== null && STREAMED in v
}

/**
 * JSON.stringify(v, null, 1) as printed `depth` levels deep: `v` is stringified inside `depth`
 * arrays (so JSON.stringify itself indents it) and the wrappers' text is cut off, a slice that
 * copies nothing (a re-indenting replace of every line break cost 6× the text in garbage).
 */
function stringifyAt(v: unknown, depth: number): string {
  let wrapped = v
  for (let k = 0; k < depth; k++) wrapped = [wrapped]
  const s = JSON.stringify(wrapped, null, 1) as string | undefined
  if (s === undefined) throw new TypeError('jsonChunks: the value has no JSON text (undefined, a function or a symbol)')
  // the text before the value: per level k "[\n" and k + 1 spaces; after it: per level "\n", k spaces, "]"
  const head = (depth * (depth + 5)) / 2
  const tail = (depth * (depth + 3)) / 2
  return depth === 0 ? s : s.slice(head, s.length - tail)
}

/** What JSON.stringify leaves out of an object (and prints as null in an array). */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol'
}

/**
 * The text of `value` (plain data, or a `streamedObject` / `streamedArray` at any depth), in
 * pieces: one piece per member of a streamed object or item of a streamed array, with its separator
 * and indent. Concatenated, the pieces are `JSON.stringify(plain, null, 1)` of the same data.
 */
export function* jsonChunks(value: unknown, depth = 0): Generator<string> {
  if (!isStreamed(value)) {
    yield stringifyAt(value, depth)
    return
  }
  const inner = '\n' + ' '.repeat(depth + 1)
  const [open, close] = value[STREAMED] === 'object' ? ['{', '}'] : ['[', ']']
  yield open
  let first = true
  const entries: Iterable<readonly [string | null, unknown]> = value[STREAMED] === 'object' ? value.members : withoutKeys(value.items)
  for (const [key, v] of entries) {
    const head = (first ? '' : ',') + inner + (key === null ? '' : JSON.stringify(key) + ': ')
    if (isStreamed(v)) {
      first = false
      yield head
      yield* jsonChunks(v, depth + 1)
      continue
    }
    if (omitted(v) && key !== null) continue // JSON.stringify drops the member
    first = false
    // separate pieces: a joined one would be copied whole when it is encoded
    yield head
    yield stringifyAt(v, depth + 1)
  }
  yield first ? close : '\n' + ' '.repeat(depth) + close
}

function* withoutKeys(items: Iterable<unknown>): Generator<readonly [null, unknown]> {
  for (const v of items) yield [null, v]
}
