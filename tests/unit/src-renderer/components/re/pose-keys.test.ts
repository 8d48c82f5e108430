import { describe, expect, it } from 'vitest'
import { PoseKeys, DEGREES_PER_PIXEL, type KeyInput, type PoseCommand } from '../../../../../src-renderer/components/re/pose-keys'

const k = (key: string, mods: Omit<KeyInput, 'key'> = {}): KeyInput => ({ key, code: /^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : undefined, ...mods })
/** Presses keys in turn (a bone selected) and returns every command. */
function press(m: PoseKeys, ...keys: (string | KeyInput)[]): (PoseCommand | { type: 'unhandled' })[] {
  return keys.flatMap((x): (PoseCommand | { type: 'unhandled' })[] => m.key(typeof x === 'string' ? k(x) : x, true) ?? [{ type: 'unhandled' }])
}

describe('pose editor keys (state machine)', () => {
  it('R X 9 0 Enter: start, axis lock, typed value, commit of 90° about local X', () => {
    const m = new PoseKeys()
    expect(press(m, 'r')).toEqual([{ type: 'rotate-start' }, { type: 'rotate', axis: 'view', degrees: 0 }])
    expect(m.rotating).toBe(true)
    expect(press(m, 'x')).toEqual([{ type: 'rotate', axis: 0, degrees: 0 }])
    expect(press(m, '9', '0')).toEqual([{ type: 'rotate', axis: 0, degrees: 9 }, { type: 'rotate', axis: 0, degrees: 90 }])
    expect(m.label).toBe('Rotate local X: 90°')
    expect(press(m, 'Enter')).toEqual([{ type: 'rotate-commit', axis: 0, degrees: 90 }])
    expect(m.rotating).toBe(false)
    expect(m.label).toBe('')
  })

  it('the same axis twice unlocks it; Y and Z lock 1 and 2; minus negates; Backspace edits; decimals', () => {
    const m = new PoseKeys()
    press(m, 'r', 'y')
    expect(m.axis).toBe(1)
    press(m, 'y')
    expect(m.axis).toBe('view')
    press(m, 'z', '4', '5', '.', '5', '.')
    expect(m.degrees).toBe(45.5)
    press(m, '-')
    expect(m.degrees).toBe(-45.5)
    expect(m.typed).toBe('-45.5')
    press(m, 'Backspace', 'Backspace')
    expect(m.degrees).toBe(-45)
    expect(press(m, 'Enter')).toEqual([{ type: 'rotate-commit', axis: 2, degrees: -45 }])
  })

  it('Esc cancels (no commit); the mouse drives the angle until a value is typed', () => {
    const m = new PoseKeys()
    press(m, 'r')
    expect(m.pointer(20)).toEqual([{ type: 'rotate', axis: 'view', degrees: 20 * DEGREES_PER_PIXEL }])
    expect(m.pointer(-4)).toEqual([{ type: 'rotate', axis: 'view', degrees: 16 * DEGREES_PER_PIXEL }])
    press(m, '3')
    expect(m.pointer(100)).toEqual([]) // typed value wins
    expect(m.degrees).toBe(3)
    expect(press(m, 'Escape')).toEqual([{ type: 'rotate-cancel' }])
    expect(m.rotating).toBe(false)
    expect(m.pointer(10)).toEqual([])
  })

  it('a left click confirms, a right click cancels; keys with Ctrl/Alt are swallowed while rotating', () => {
    const m = new PoseKeys()
    press(m, 'r', '1', '2')
    expect(press(m, k('z', { ctrl: true }))).toEqual([])
    expect(m.click(true)).toEqual([{ type: 'rotate-commit', axis: 'view', degrees: 12 }])
    press(m, 'r')
    expect(m.click(false)).toEqual([{ type: 'rotate-cancel' }])
    expect(m.click(true)).toEqual([])
  })

  it('R needs a selected bone; Alt+R clears; Ctrl shortcuts; other keys pass through', () => {
    const m = new PoseKeys()
    expect(m.key(k('r'), false)).toEqual([])
    expect(m.rotating).toBe(false)
    expect(press(m, k('r', { alt: true }))).toEqual([{ type: 'clear-rotation' }])
    // macOS: Alt+R types '®' but the code is still KeyR
    expect(press(m, { key: '®', code: 'KeyR', alt: true })).toEqual([{ type: 'clear-rotation' }])
    expect(press(m, k('c', { ctrl: true }), k('v', { ctrl: true }), k('V', { ctrl: true, shift: true }))).toEqual([
      { type: 'copy' }, { type: 'paste', flip: false }, { type: 'paste', flip: true },
    ])
    expect(press(m, k('s', { ctrl: true }), k('z', { ctrl: true }), k('Z', { ctrl: true, shift: true }), k('y', { ctrl: true }))).toEqual([
      { type: 'save' }, { type: 'undo' }, { type: 'redo' }, { type: 'redo' },
    ])
    expect(press(m, 't', 'n')).toEqual([{ type: 'panel', side: 'left' }, { type: 'panel', side: 'right' }])
    expect(m.key(k('q'), true)).toBeNull()
    expect(m.key(k('x'), true)).toBeNull() // X only means something while rotating
    expect(m.key(k('a', { ctrl: true }), true)).toBeNull()
    expect(m.rotating).toBe(false)
  })
})
