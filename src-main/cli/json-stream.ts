/**
 * Writes `items` as one JSON array, exactly as `JSON.stringify([...items], null, 2) + '\n'` would
 * (an item's own lines indented one level; JSON strings never hold a raw newline), in chunks of
 * about 64 KiB so a million rows never sit in memory at once.
 */
export function writeJsonArray(items: Iterable<unknown>, write: (text: string) => void): void {
  let buf = ''
  let first = true
  for (const item of items) {
    const text = JSON.stringify(item === undefined || typeof item === 'function' ? null : item, null, 2).replace(/\n/g, '\n  ')
    buf += (first ? '[\n  ' : ',\n  ') + text
    first = false
    if (buf.length >= 65536) {
      write(buf)
      buf = ''
    }
  }
  write(first ? '[]\n' : `${buf}\n]\n`)
}
