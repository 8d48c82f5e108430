import { describe, expect, it, vi } from 'vitest'

// Electron cannot run here: the thin shell's IPC transport is tested against a mocked ipcMain.
vi.mock('electron', () => ({}))

import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { registerIpc } from '../../../../src-main/transport/ipc'
import { FormatError } from '../../../../src-shared/binary'

describe('Electron IPC transport', () => {
  it('dispatches api:invoke to the services and returns errors as data', async () => {
    const handlers = new Map<string, (...a: unknown[]) => unknown>()
    const ipcMain = { handle: (c: string, f: (...a: unknown[]) => unknown) => handlers.set(c, f), removeHandler: (c: string) => handlers.delete(c) }
    const sent: unknown[] = []
    let listener: ((e: string, p: unknown) => void) | null = null
    const services = {
      has: (c: string) => c === 'catalog:sources' || c === 'gf:texture',
      invoke: async (c: string) => {
        if (c === 'gf:texture') throw new FormatError('unknown format id 0x33', { file: '1.bin', structure: 'GFTexture', offset: 0x80 })
        return [{ id: 1 }]
      },
      on: (l: (e: string, p: unknown) => void) => ((listener = l), () => (listener = null)),
    }
    const off = registerIpc(ipcMain as never, services as never, () => ({ send: (...a: unknown[]) => sent.push(a) }) as never)
    const invoke = handlers.get('api:invoke')!
    expect(await invoke({}, 'catalog:sources', {})).toEqual({ ok: [{ id: 1 }] })
    expect(await invoke({}, 'gf:texture', { set: '/s', file: '1.bin', entry: 0 })).toEqual({ error: { message: '1.bin: GFTexture at 0x80: unknown format id 0x33', name: 'FormatError', file: '1.bin', structure: 'GFTexture', offset: 0x80 } })
    expect(((await invoke({}, 'x:y', {})) as { error: { name: string } }).error.name).toBe('NotFound')
    // A request of the wrong types never reaches the services.
    expect(await invoke({}, 'gf:texture', { set: '/s', file: '1.bin', entry: '0' })).toMatchObject({ error: { name: 'BadRequest', code: 'bad-request', field: 'entry' } })
    listener!('index:progress', { done: 1 })
    expect(sent).toEqual([['event:index:progress', { done: 1 }]])
    off()
    expect(handlers.has('api:invoke')).toBe(false)
  })
})
