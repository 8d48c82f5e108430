// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { createApp, h, nextTick } from 'vue'
import { createPinia, setActivePinia } from 'pinia'

/**
 * Electron's native menu sends the id of the entry clicked (`app:command`); the window's menu bar
 * runs it as its own entry (issue 25): the View toggles, Edit → Undo on the registered editing
 * view, Help → Demo scene. The menu bar's Edit and View entries show the same labels and keys.
 */
const listeners = new Map<string, (p: unknown) => void>()
vi.mock('../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  errorCode: () => undefined,
  bridge: {
    transport: 'electron',
    on: (event: string, l: (p: unknown) => void) => {
      listeners.set(event, l)
      return () => listeners.delete(event)
    },
    invoke: async (channel: string) => {
      if (channel === 'catalog:sources') return []
      throw new Error(`unexpected ${channel}`)
    },
  },
}))

const { default: MenuBar } = await import('../../../../src-renderer/components/MenuBar.vue')
const { useWorkspaceStore } = await import('../../../../src-renderer/stores/workspace')
const { editTarget } = await import('../../../../src-renderer/stores/edit-commands')

describe('the window menu bar under Electron', () => {
  it('runs what the native menu sends', async () => {
    localStorage.clear()
    document.body.innerHTML = '<div id="app"></div>'
    const pinia = createPinia()
    setActivePinia(pinia)
    const app = createApp({ render: () => h(MenuBar) })
    app.use(pinia)
    app.mount('#app')
    const ws = useWorkspaceStore()
    const send = (command: string) => listeners.get('app:command')!({ command })
    expect(ws.tree).toBe(true)
    send('tree')
    expect(ws.tree).toBe(false)
    const inspector = ws.inspector
    send('inspector')
    expect(ws.inspector).toBe(!inspector)
    // undo reaches the editing view only when it can undo
    const done: string[] = []
    editTarget.value = { label: 'test', canUndo: () => true, canRedo: () => false, undo: () => done.push('undo'), redo: () => done.push('redo') }
    send('undo')
    send('redo')
    expect(done).toEqual(['undo'])
    // in a text field, undo is the field's own (⌘Z comes through the menu on macOS)
    const input = document.body.appendChild(document.createElement('input'))
    input.focus()
    const edits: string[] = []
    document.execCommand = (c: string) => (edits.push(c), true)
    send('undo')
    expect(done).toEqual(['undo'])
    expect(edits).toEqual(['undo'])
    input.remove()
    editTarget.value = null
    send('demo-scene')
    expect(ws.demo).toBe(true)
    // the menu bar's own View entries: labels and shortcuts as the native menu shows them
    ;(document.querySelector('[data-testid="menu-view"]') as HTMLElement).click()
    await nextTick()
    expect([...document.querySelectorAll('[role="menu"] .cmd')].map((e) => e.textContent?.replace('✓', '').trim())).toEqual(['Tree and searchCtrl+B', 'InspectorCtrl+I'])
    app.unmount()
    expect(listeners.has('app:command')).toBe(false)
  })
})
