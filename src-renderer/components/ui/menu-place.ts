/**
 * Where a pop-up menu of size `size` opened at `at` goes so that it stays whole inside the
 * window `view`: below-right of the point when it fits, else flipped above / to the left of it,
 * else pushed against the window's edge (a menu taller than the window starts at its top).
 */
export function menuPlace(at: { x: number; y: number }, size: { w: number; h: number }, view: { w: number; h: number }): { left: string; top: string } {
  const axis = (p: number, s: number, v: number): number => {
    if (p + s <= v) return p
    if (p - s >= 0) return p - s
    return Math.max(0, v - s)
  }
  return { left: `${axis(at.x, size.w, view.w)}px`, top: `${axis(at.y, size.h, view.h)}px` }
}
