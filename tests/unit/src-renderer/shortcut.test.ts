import { describe, expect, it } from 'vitest'
import { matches } from '../../../src-renderer/shortcut'

/** The Edit/View menus' shortcut matcher: exact modifiers, Ctrl or ⌘, the physical key as fallback. */
const ev = (key: string, m: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean; code?: string } = {}) => ({
  key, code: m.code ?? `Key${key.toUpperCase()}`, ctrlKey: !!m.ctrl, metaKey: !!m.meta, shiftKey: !!m.shift, altKey: !!m.alt,
})

describe('matches', () => {
  it('needs exactly the written modifiers', () => {
    expect(matches(ev('b', { ctrl: true }), 'Ctrl+B')).toBe(true)
    expect(matches(ev('b', { meta: true }), 'Ctrl+B')).toBe(true)
    expect(matches(ev('b'), 'Ctrl+B')).toBe(false)
    expect(matches(ev('B', { ctrl: true, shift: true }), 'Ctrl+B')).toBe(false)
    expect(matches(ev('Z', { ctrl: true, shift: true }), 'Ctrl+Shift+Z')).toBe(true)
  })
  it('Alt+Shift+C by the physical key when the layout gives another character', () => {
    expect(matches(ev('Ç', { alt: true, shift: true, code: 'KeyC' }), 'Alt+Shift+C')).toBe(true)
    expect(matches(ev('c', { alt: true }), 'Alt+Shift+C')).toBe(false)
  })
})
