// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { createApp, nextTick, h } from 'vue'
import { createPinia, setActivePinia } from 'pinia'

/**
 * The "Write mod…" panel (issue 22 item 4): the archive's sets with pending replacements in one
 * request, the service's progress shown while it runs, Cancel sending gf:cancelJob with that job
 * (nothing queued is lost), an existing target asked about and written only when confirmed, and
 * the queues cleared after a write.
 */
const calls: { channel: string; req: any }[] = []
const listeners = new Map<string, (p: unknown) => void>()
let writeMod: (req: any) => Promise<unknown> = async () => ({})
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String((e as Error).message ?? e),
  errorCode: (e: unknown) => (e as { code?: string }).code,
  bridge: {
    transport: 'http',
    on: (e: string, l: (p: unknown) => void) => (listeners.set(e, l), () => listeners.delete(e)),
    pick: async () => null,
    invoke: async (channel: string, req: any) => {
      calls.push({ channel, req })
      if (channel === 'fs:grant') return { path: req.path }
      if (channel === 'gf:writeMod') return writeMod(req)
      if (channel === 'gf:cancelJob') return { cancelled: true }
      throw new Error(`unexpected ${channel}`)
    },
  },
}))

const { default: WriteMod } = await import('../../../../../src-renderer/components/gf/WriteMod.vue')
const { useGfPendingStore } = await import('../../../../../src-renderer/components/gf/pending')

const A = '/dump/romfs/a/0/9/4'
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 0))
    await nextTick()
  }
}
const q = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement | null

function mount() {
  document.body.innerHTML = '<div id="app"></div>'
  const pinia = createPinia()
  setActivePinia(pinia)
  const store = useGfPendingStore()
  store.useStorage(null)
  const p = (set: string, entry: number) => ({ set, file: '1.bin', entry, name: `T${entry}`, path: `/p/${entry}.png`, psnr: 40, resized: false })
  store.addAll(`${A}#25`, [p(`${A}#25`, 0), p(`${A}#25`, 1)])
  store.add(p(`${A}#3`, 2))
  store.add(p('/other/romfs/a/0/9/4#3', 5)) // another archive: not in this mod
  const app = createApp({ render: () => h(WriteMod, { archive: A }) })
  app.use(pinia)
  app.mount('#app')
  return { app, store }
}

describe('WriteMod', () => {
  it('one request for the sets of this archive; progress while it runs; Cancel sends gf:cancelJob and keeps the queues', async () => {
    calls.length = 0
    let reject: (e: unknown) => void = () => {}
    writeMod = () => new Promise((_, r) => (reject = r))
    const { app, store } = mount()
    await settle()
    expect(q('gf-write-mod')!.textContent).toContain('3 pending textures in 2 sets')
    expect(q('gf-mod-file')!.textContent).toBe('writes /dump-mod/luma/titles/00040000001B5000/romfs/a/0/9/4')
    q('gf-mod-write')!.click()
    await settle()
    const req = calls.find((c) => c.channel === 'gf:writeMod')!.req
    expect(req).toMatchObject({ archive: A, target: { layeredfs: '/dump-mod', title: '00040000001B5000' }, resize: true })
    expect(req.sets.map((s: any) => [s.set, s.replacements.length])).toEqual([[3, 1], [25, 2]])
    expect(calls[0]).toEqual({ channel: 'fs:grant', req: { path: '/dump-mod' } })
    listeners.get('gf:progress')!({ jobId: 'someone-else', done: 9, total: 9 })
    listeners.get('gf:progress')!({ jobId: req.jobId, done: 1, total: 3, detail: 'set 25: encoding 2 textures' })
    await settle()
    const bar = q('gf-mod-progress') as HTMLProgressElement
    expect([bar.value, bar.max]).toEqual([1, 3])
    q('gf-mod-cancel')!.click()
    await settle()
    expect(calls.filter((c) => c.channel === 'gf:cancelJob').map((c) => c.req.jobId)).toEqual([req.jobId])
    reject(Object.assign(new Error('cancelled'), { code: 'cancelled' }))
    await settle()
    expect(q('gf-mod-error')!.textContent).toContain('Write mod cancelled; nothing was written')
    expect(q('gf-mod-progress')).toBeNull()
    expect(store.forSet(`${A}#25`)).toHaveLength(2)
    app.unmount()
  })

  it('an existing target is asked about; confirmed, it is written with overwrite and the queues are cleared', async () => {
    calls.length = 0
    writeMod = async (req) => {
      if (!req.overwrite) throw Object.assign(new Error('exists'), { code: 'exists' })
      return { out: '/mods/a094', sets: [{ set: 3, changed: ['1.bin'], replaced: 1 }, { set: 25, changed: ['1.bin'], replaced: 2 }], warnings: [] }
    }
    const confirm = vi.fn(() => true)
    vi.stubGlobal('confirm', confirm)
    const { app, store } = mount()
    await settle()
    ;(q('gf-mod-kind-archive') as HTMLInputElement).click()
    await settle()
    const out = q('gf-mod-out') as HTMLInputElement
    out.value = '/mods/a094'
    out.dispatchEvent(new Event('input'))
    await settle()
    q('gf-mod-write')!.click()
    await settle()
    expect(confirm).toHaveBeenCalledWith('/mods/a094 already exists. Replace it?')
    expect(calls.filter((c) => c.channel === 'gf:writeMod').map((c) => [c.req.target, c.req.overwrite])).toEqual([[{ out: '/mods/a094' }, undefined], [{ out: '/mods/a094' }, true]])
    expect(q('gf-mod-result')!.textContent).toBe('Wrote /mods/a094: set 3 (1 texture, 1.bin); set 25 (2 textures, 1.bin)')
    expect(store.forSet(`${A}#25`)).toEqual([])
    expect(store.forSet('/other/romfs/a/0/9/4#3')).toHaveLength(1)
    store.undo(`${A}#25`)
    expect(store.forSet(`${A}#25`)).toHaveLength(2)
    vi.unstubAllGlobals()
    app.unmount()
  })
})
