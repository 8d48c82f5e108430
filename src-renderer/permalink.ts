/**
 * Browser-mode permalinks: `?asset=ID&camera=x,y,z,tx,ty,tz` (eye, then target). Read once at
 * load (the app selects the asset, the first scene view puts its camera there); written back as
 * the selection changes and, debounced, as the camera moves — with `history.replaceState`, so the
 * back button is not flooded.
 */
import type { CameraView } from './viewport/types'

/** A catalog asset id, or one of the built-in scenes (Help → Demo scene / Material test card). */
export type PermalinkAsset = number | 'demo' | 'material-card'

export interface Permalink {
  asset: PermalinkAsset | null
  camera: CameraView | null
}

/** Reads `asset` and `camera` from a query string (`?…` or without the `?`); bad values are null. */
export function parsePermalink(search: string): Permalink {
  const q = new URLSearchParams(search)
  const a = q.get('asset')
  const asset = a === 'demo' || a === 'material-card' ? a : a !== null && /^\d+$/.test(a) ? Number(a) : null
  const c = q.get('camera')?.split(',').map((x) => (x.trim() === '' ? NaN : Number(x)))
  const camera = c && c.length === 6 && c.every(Number.isFinite) ? { eye: [c[0], c[1], c[2]] as CameraView['eye'], target: [c[3], c[4], c[5]] as CameraView['target'] } : null
  return { asset, camera }
}

/** A coordinate short enough for a URL: at most 3 decimals, no trailing zeros, no "-0". */
export function formatCoord(x: number): string {
  const r = Math.round(x * 1000) / 1000
  return String(Object.is(r, -0) ? 0 : r)
}

/**
 * The query string with `asset`/`camera` set (null removes them; undefined keeps what is there).
 * Other parameters stay as they were.
 */
export function formatPermalink(search: string, p: { asset?: PermalinkAsset | null; camera?: CameraView | null }): string {
  const q = new URLSearchParams(search)
  if (p.asset !== undefined) {
    if (p.asset === null) q.delete('asset')
    else q.set('asset', String(p.asset))
  }
  if (p.camera !== undefined) {
    if (p.camera === null) q.delete('camera')
    else q.set('camera', [...p.camera.eye, ...p.camera.target].map(formatCoord).join(','))
  }
  const s = q.toString().replace(/%2C/g, ',')
  return s ? `?${s}` : ''
}

/** Whether permalinks apply (browser mode: the page has a URL worth sharing). */
export function permalinksOn(transport: string): boolean {
  return transport === 'http' && typeof window !== 'undefined' && typeof history !== 'undefined'
}

/** The camera of the URL the page was opened with, handed to the first scene view that shows a scene. */
let pendingCamera: CameraView | null = null
export function setPendingCamera(c: CameraView | null): void {
  pendingCamera = c
}
export function takePendingCamera(): CameraView | null {
  const c = pendingCamera
  pendingCamera = null
  return c
}

/** Replaces the page URL's permalink part (no new history entry). */
export function writePermalink(p: { asset?: PermalinkAsset | null; camera?: CameraView | null }): void {
  const next = formatPermalink(location.search, p)
  if (next !== location.search) history.replaceState(history.state, '', `${location.pathname}${next}${location.hash}`)
}
