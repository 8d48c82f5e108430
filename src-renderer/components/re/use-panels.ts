/**
 * The pose editor's two side panels (bone tree left, bone panel right), each foldable so the 3D
 * view gets the width. A window narrower than 1300 px (the app's own "narrow" size, e.g.
 * 1280×800) starts with the bone tree folded (bones are picked in the view; T unfolds it); the
 * user's last choice is remembered.
 */
import { reactive } from 'vue'

const KEY = 'modbench.re.panels'

export const PANEL_WIDTH = { left: 190, right: 230 } as const

function load(): { left: boolean; right: boolean } {
  const narrow = typeof window !== 'undefined' && window.innerWidth < 1300
  const fallback = { left: !narrow, right: true }
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as { left?: unknown; right?: unknown } | null
    return { left: typeof saved?.left === 'boolean' ? saved.left : fallback.left, right: typeof saved?.right === 'boolean' ? saved.right : fallback.right }
  } catch {
    return fallback
  }
}

export function usePanels() {
  const open = reactive(load())
  function toggle(side: 'left' | 'right'): void {
    open[side] = !open[side]
    try {
      localStorage.setItem(KEY, JSON.stringify(open))
    } catch {
      // storage unavailable: the choice lasts for this view
    }
    // (the scene-view host gives a folded panel's width to the canvas, which follows its cell)
  }
  return { open, toggle }
}
