/**
 * The Inspector's rows: every value formatted for reading, never JSON text. Numbers get units or
 * hex where the key says (sizes in KiB with the exact count; offsets/addresses/hashes in hex;
 * times as dates); arrays of numbers become short lists, arrays of strings one per line, objects
 * and arrays of objects nested rows (`worldPos.x`, `textures[0].name`) one level deeper each.
 */
export interface InspectorRow {
  /** Full dotted key (unique; used for test ids). */
  key: string
  /** The label shown: the last part of the key. */
  label: string
  /** Nesting depth (0 = top level). */
  depth: number
  /** The formatted value; '' for a heading row of an object. */
  text: string
}

/** Keys whose numbers are byte counts (shown as KiB/MiB with the exact count). */
const BYTE_KEYS = /^(size|file size|image size|length|dataLength|romSize|bytes|.*Size|.*Bytes)$/i
/** Keys whose numbers are offsets, addresses, hashes, flags: hex first, decimal after. */
const HEX_KEYS = /(offset|address|addr|ptr|pointer|hash|crc|magic|flags|descriptor|vram|rom)$/i
const TIME_KEYS = /^(mtime|indexedAt|modified|created)$/
/** Longest list of numbers shown in one row; the rest is counted. */
const LIST_MAX = 12
/** Deepest nesting shown as rows; deeper values are summarised. */
const DEPTH_MAX = 4

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`
  const units = ['KiB', 'MiB', 'GiB']
  let v = n / 1024
  let u = 0
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024
    u++
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]} (${n} bytes)`
}

function hex(n: number): string {
  return n < 0 ? `-0x${(-n).toString(16).toUpperCase()}` : `0x${n.toString(16).toUpperCase()}`
}

function num(x: number): string {
  if (Number.isInteger(x)) return String(x)
  return String(Math.round(x * 10000) / 10000)
}

/** One number, formatted as its key says. */
export function formatNumber(key: string, v: number): string {
  if (!Number.isFinite(v)) return String(v)
  const last = key.split('.').pop()!.replace(/\[\d+\]$/, '')
  if (TIME_KEYS.test(last)) return new Date(v).toLocaleString()
  if (BYTE_KEYS.test(last) && Number.isInteger(v) && v >= 1024) return bytes(v)
  if (HEX_KEYS.test(last) && Number.isInteger(v)) return `${hex(v)} (${v})`
  if (Number.isInteger(v) && Math.abs(v) > 255) return `${v} (${hex(v)})`
  return num(v)
}

function scalar(key: string, v: unknown): string | null {
  if (v === null || v === undefined) return '—'
  if (typeof v === 'number') return formatNumber(key, v)
  if (typeof v === 'boolean') return v ? 'yes' : 'no'
  if (typeof v === 'string') return v
  if (typeof v === 'bigint') return v.toString()
  return null
}

function isScalar(v: unknown): boolean {
  return v === null || v === undefined || typeof v !== 'object'
}

/** Rows of one key and value (nested rows for objects and arrays of objects). */
export function rowsOf(key: string, v: unknown, depth = 0, label = key): InspectorRow[] {
  const s = scalar(key, v)
  if (s !== null) return [{ key, label, depth, text: s }]
  if (ArrayBuffer.isView(v)) return rowsOf(key, Array.from(v as unknown as ArrayLike<number>), depth, label)
  if (Array.isArray(v)) {
    if (!v.length) return [{ key, label, depth, text: '(none)' }]
    if (v.every((x) => typeof x === 'string')) return [{ key, label, depth, text: v.join('\n') }]
    if (v.every((x) => typeof x === 'number')) {
      const shown = v.slice(0, LIST_MAX).map((x) => num(x as number)).join(', ')
      return [{ key, label, depth, text: v.length > LIST_MAX ? `${shown} … (${v.length} values)` : shown }]
    }
    if (v.every(isScalar)) return [{ key, label, depth, text: v.map((x) => scalar(key, x)).join(', ') }]
    if (depth >= DEPTH_MAX) return [{ key, label, depth, text: `${v.length} items` }]
    const out: InspectorRow[] = [{ key, label, depth, text: `${v.length} item${v.length === 1 ? '' : 's'}` }]
    v.forEach((x, i) => out.push(...rowsOf(`${key}[${i}]`, x, depth + 1, `[${i}]`)))
    return out
  }
  const entries = Object.entries(v as Record<string, unknown>)
  if (!entries.length) return [{ key, label, depth, text: '(none)' }]
  if (depth >= DEPTH_MAX) return [{ key, label, depth, text: `${entries.length} field${entries.length === 1 ? '' : 's'}` }]
  const out: InspectorRow[] = [{ key, label, depth, text: '' }]
  for (const [k, x] of entries) out.push(...rowsOf(`${key}.${k}`, x, depth + 1, k))
  return out
}
