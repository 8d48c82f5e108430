/**
 * The keys of every scene view (the welcome page's map): Space play/pause, ← → previous/next
 * frame, Home/End first/last frame, F frame, W wireframe. A view gives the actions it has; by
 * default they drive the viewport's animation player. Keys typed into a text field, a number
 * field or a drop-down are left alone, and so is a key another handler already took (the fly
 * camera takes WASD while flying).
 */
import type { Viewport } from './types'

export interface ViewKeyActions {
  toggle?(): void
  step?(frames: number): void
  first?(): void
  last?(): void
  frame?(): void
  wireframe?(): void
}

/** The default actions: the viewport's player, its Frame, its wireframe toggle. */
export function viewportActions(v: Viewport | null, afterToggle?: () => void): ViewKeyActions {
  const p = v?.player
  return {
    toggle: p ? () => p.toggle() : undefined,
    step: p ? (n) => p.stepFrames(n) : undefined,
    first: p ? () => p.scrub(0) : undefined,
    last: p ? () => p.scrub(p.frameCount) : undefined,
    frame: v ? () => v.frame() : undefined,
    wireframe: v
      ? () => {
          v.setToggle('wireframe', !v.toggles.wireframe)
          afterToggle?.()
        }
      : undefined,
  }
}

function typing(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null
  if (!el || typeof el.tagName !== 'string') return false
  if (el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || el.isContentEditable) return true
  return el.tagName === 'INPUT' && !['range', 'checkbox', 'radio', 'button'].includes((el as HTMLInputElement).type)
}

/** A keydown handler running the view's actions; the key is consumed only when an action ran. */
export function viewKeyHandler(actions: () => ViewKeyActions): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return
    const a = actions()
    const run = (f: (() => void) | undefined): boolean => (f ? (f(), true) : false)
    let done = false
    switch (e.key) {
      case ' ': done = run(a.toggle); break
      case 'ArrowLeft': done = run(a.step && (() => a.step!(-1))); break
      case 'ArrowRight': done = run(a.step && (() => a.step!(1))); break
      case 'Home': done = run(a.first); break
      case 'End': done = run(a.last); break
      case 'f': case 'F': done = run(a.frame); break
      case 'w': case 'W': done = run(a.wireframe); break
    }
    if (done) e.preventDefault()
  }
}
