import { describe, expect, it } from 'vitest'
import { viewKeyHandler, type ViewKeyActions } from '../../../../src-renderer/viewport/view-keys'

function key(k: string, init: { target?: unknown; ctrlKey?: boolean; defaultPrevented?: boolean } = {}) {
  const e = { key: k, target: init.target ?? null, ctrlKey: !!init.ctrlKey, metaKey: false, altKey: false, defaultPrevented: !!init.defaultPrevented, prevented: false, preventDefault() { this.prevented = true } }
  return e
}

describe('viewKeyHandler (the welcome page\'s scene keys)', () => {
  const log: string[] = []
  const actions: ViewKeyActions = { toggle: () => log.push('toggle'), step: (n) => log.push(`step ${n}`), first: () => log.push('first'), last: () => log.push('last'), frame: () => log.push('frame'), wireframe: () => log.push('wire') }
  const on = viewKeyHandler(() => actions)
  it('each key runs its action and is consumed', () => {
    log.length = 0
    const keys = [' ', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'f', 'W']
    const events = keys.map((k) => key(k))
    events.forEach((e) => on(e as unknown as KeyboardEvent))
    expect(log).toEqual(['toggle', 'step -1', 'step 1', 'first', 'last', 'frame', 'wire'])
    expect(events.every((e) => e.prevented)).toBe(true)
  })
  it('typing in a field, a modifier or a key already taken runs nothing', () => {
    log.length = 0
    const field = { tagName: 'INPUT', type: 'number', isContentEditable: false }
    const e1 = key('f', { target: field })
    const e2 = key('f', { ctrlKey: true })
    const e3 = key('w', { defaultPrevented: true })
    for (const e of [e1, e2, e3]) on(e as unknown as KeyboardEvent)
    expect(log).toEqual([])
    expect([e1, e2, e3].some((e) => e.prevented)).toBe(false)
  })
  it('a slider keeps the keys working (it is not a text field); a missing action leaves the key alone', () => {
    log.length = 0
    on(key('Home', { target: { tagName: 'INPUT', type: 'range' } }) as unknown as KeyboardEvent)
    expect(log).toEqual(['first'])
    const none = viewKeyHandler(() => ({}))
    const e = key(' ')
    none(e as unknown as KeyboardEvent)
    expect(e.prevented).toBe(false)
  })
})
