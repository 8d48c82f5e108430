// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { createApp, nextTick, h } from 'vue'
import { createPinia, setActivePinia } from 'pinia'

const calls: { channel: string; req: Record<string, unknown> }[] = []
const listeners = new Map<string, (p: unknown) => void>()
const INFO = { file: '1.bin', entry: 0, name: 'pm_Body', width: 16, height: 16, format: 'ETC1' as const, mipmaps: 1, offset: 0x80, length: 0x100 }
/** The running preview: rejected by gf:cancel as the service does (code `cancelled`). */
let rejectPreview: ((e: unknown) => void) | null = null
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  bridge: {
    transport: 'http',
    on: (e: string, l: (p: unknown) => void) => {
      listeners.set(e, l)
      return () => listeners.delete(e)
    },
    pick: async () => '/pngs/new.png',
    invoke: async (channel: string, req: Record<string, unknown>) => {
      calls.push({ channel, req })
      switch (channel) {
        case 'gf:texture': return { info: INFO, rgba: new Uint8Array(16 * 16 * 4).fill(200) }
        case 'gf:previewReplace': return new Promise((_, reject) => (rejectPreview = reject))
        case 'gf:cancelJob':
          rejectPreview?.(Object.assign(new Error('ETC1 encode of 16×16 cancelled'), { code: 'cancelled' }))
          return { cancelled: true }
        default: throw new Error(`unexpected ${channel}`)
      }
    },
  },
}))

const { default: TextureView } = await import('../../../../../src-renderer/components/gf/TextureView.vue')

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 0))
    await nextTick()
  }
}

describe('gf TextureView re-encode progress', () => {
  it('shows the gf:progress of its own job, and Cancel sends gf:cancel with that jobId; a cancel is not an error and adds nothing pending', async () => {
    document.body.innerHTML = '<div id="app"></div>'
    const pinia = createPinia()
    setActivePinia(pinia)
    const app = createApp({ render: () => h(TextureView, { set: '/sets/pm0999', info: INFO }) })
    app.use(pinia)
    app.mount('#app')
    await settle()
    ;(document.querySelector('[data-testid="gf-replace"]') as HTMLButtonElement).click()
    await settle()
    const req = calls.find((c) => c.channel === 'gf:previewReplace')!.req
    expect(typeof req.jobId).toBe('string')
    const bar = () => document.querySelector('[data-testid="gf-encode-progress"] progress') as HTMLProgressElement | null
    expect(bar()).not.toBeNull()
    listeners.get('gf:progress')!({ jobId: 'someone-else', done: 9, total: 10 })
    listeners.get('gf:progress')!({ jobId: req.jobId, done: 1, total: 4 })
    await settle()
    expect(bar()!.value).toBe(1)
    expect(bar()!.max).toBe(4)
    ;(document.querySelector('[data-testid="gf-encode-cancel"]') as HTMLButtonElement).click()
    await settle()
    expect(calls.filter((c) => c.channel === 'gf:cancelJob').map((c) => c.req.jobId)).toEqual([req.jobId])
    expect(bar()).toBeNull()
    expect(document.querySelector('[data-testid="gf-error"]')).toBeNull()
    expect(document.querySelector('[data-testid="gf-psnr"]')).toBeNull()
    app.unmount()
  })
})
