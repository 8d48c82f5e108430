/**
 * The zoom at which `count` pictures of `width`×`height`, side by side with `gap` pixels between
 * them, fit a pane of `paneWidth`×`paneHeight`: a whole factor (1–16) when they fit at 1×, else
 * the largest of 1/2, 1/4, 1/8 that fits (1/8 at the least), so pixels stay crisp.
 */
export function fitZoom(paneWidth: number, paneHeight: number, width: number, height: number, count = 1, gap = 12): number {
  if (!(paneWidth > 0 && paneHeight > 0 && width > 0 && height > 0)) return 1
  const z = Math.min((paneWidth - gap * (count - 1)) / (count * width), paneHeight / height)
  if (z >= 1) return Math.min(16, Math.floor(z))
  for (const f of [0.5, 0.25]) if (z >= f) return f
  return 0.125
}
