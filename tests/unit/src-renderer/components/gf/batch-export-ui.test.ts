// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest'
import { createApp, nextTick, h } from 'vue'
import { createPinia, setActivePinia } from 'pinia'

/**
 * Issue 22 item 5 in the app: "Replace from folder…" shows what matched what and queues nothing
 * until Apply; the model view's Export .glb includes the pending replacements unless the user
 * unticks them, and its result line says which textures the glb holds.
 */
const calls: { channel: string; req: Record<string, unknown> }[] = []
let picked = '/pngs'
const MATCH = {
  folder: '/pngs',
  matched: [
    { png: 'Body.png', file: '1.bin', entry: 0, name: 'Body', path: '/pngs/Body.png' },
    { png: 'Body_shiny.png', file: '2.bin', entry: 0, name: 'Body', path: '/pngs/Body_shiny.png' },
  ],
  wrongSize: [{ png: 'Eye.png', file: '1.bin', entry: 1, name: 'Eye', width: 8, height: 8, expectedWidth: 32, expectedHeight: 32 }],
  ambiguous: [],
  unmatched: ['nobody.png'],
  unreadable: [],
}
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  errorCode: () => undefined,
  bridge: {
    transport: 'http',
    on: () => () => {},
    pick: async () => picked,
    invoke: async (channel: string, req: Record<string, unknown>) => {
      calls.push({ channel, req })
      switch (channel) {
        case 'gf:matchFolder': return MATCH
        case 'gf:previewReplace': return { info: {}, source: new Uint8Array(4), rgba: new Uint8Array(4), psnr: 40, resized: false, warnings: [] }
        case 'gf:exportGlb': return { out: req.out, bytes: 1234, replaced: (req.replacements as unknown[]).length, warnings: 0 }
        default: throw new Error(`unexpected ${channel}`)
      }
    },
  },
}))

const { default: BatchReplace } = await import('../../../../../src-renderer/components/gf/BatchReplace.vue')
const { default: GfExportButton } = await import('../../../../../src-renderer/components/gf/GfExportButton.vue')
const { useGfPendingStore } = await import('../../../../../src-renderer/components/gf/pending')

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 0))
    await nextTick()
  }
}
const q = (sel: string) => document.querySelector(sel) as HTMLElement | null
const all = (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.textContent?.replace(/\s+/g, ' ').trim())

function mount(c: unknown, props: Record<string, unknown>) {
  document.body.innerHTML = '<div id="app"></div>'
  const pinia = createPinia()
  setActivePinia(pinia)
  const app = createApp({ render: () => h(c as never, props) })
  app.use(pinia)
  app.mount('#app')
  const store = useGfPendingStore()
  store.useStorage(null)
  return { app, store }
}

describe('Replace from folder…', () => {
  it('shows what matched what, queues nothing until Apply, then queues the matches as one step', async () => {
    calls.length = 0
    const { app, store } = mount(BatchReplace, { set: '/sets/pm0999' })
    q('[data-testid="gf-batch-replace"]')!.click()
    await settle()
    expect(q('[data-testid="gf-batch-review"]')).not.toBeNull()
    expect(all('[data-testid="gf-batch-matched"]')).toEqual(['Body.png → 1.bin #0 Body · normal', 'Body_shiny.png → 2.bin #0 Body · shiny'])
    expect(all('[data-testid="gf-batch-wrong-size"]')[0]).toContain('Eye.png: 8×8, the texture Eye is 32×32 (not queued)')
    expect(calls.map((c) => c.channel)).toEqual(['gf:matchFolder'])
    expect(store.forSet('/sets/pm0999')).toEqual([])
    q('[data-testid="gf-batch-apply"]')!.click()
    await settle()
    expect(calls.filter((c) => c.channel === 'gf:previewReplace').map((c) => [c.req.file, c.req.path])).toEqual([['1.bin', '/pngs/Body.png'], ['2.bin', '/pngs/Body_shiny.png']])
    expect(store.forSet('/sets/pm0999').map((p) => `${p.file}#${p.entry}`)).toEqual(['1.bin#0', '2.bin#0'])
    expect(q('[data-testid="gf-batch-report"]')!.textContent).toContain('2 replaced')
    store.undo('/sets/pm0999')
    expect(store.forSet('/sets/pm0999')).toEqual([])
    app.unmount()
  })

  it('Cancel queues nothing', async () => {
    calls.length = 0
    const { app, store } = mount(BatchReplace, { set: '/sets/pm0999' })
    q('[data-testid="gf-batch-replace"]')!.click()
    await settle()
    q('[data-testid="gf-batch-cancel"]')!.click()
    await settle()
    expect(q('[data-testid="gf-batch-review"]')).toBeNull()
    expect(calls.map((c) => c.channel)).toEqual(['gf:matchFolder'])
    expect(store.forSet('/sets/pm0999')).toEqual([])
    app.unmount()
  })
})

describe('GF Export .glb with pending replacements', () => {
  const pending = [{ set: '/sets/pm0999', file: '1.bin', entry: 0, name: 'Body', path: '/pngs/Body.png', psnr: 40, resized: false }]

  it('asks beside the button (ticked by default) and says which was written', async () => {
    calls.length = 0
    picked = '/out/pm0999.glb'
    const { app } = mount(GfExportButton, { set: '/sets/pm0999', name: 'pm0999', lod: 'low', pending })
    const box = q('[data-testid="gf-export-pending-toggle"]') as HTMLInputElement
    expect(q('[data-testid="gf-export-pending"]')!.textContent).toContain('include 1 pending texture')
    expect(box.checked).toBe(true)
    q('[data-testid="export-glb"]')!.click()
    await settle()
    expect(calls[0]).toEqual({ channel: 'gf:exportGlb', req: { set: '/sets/pm0999', out: '/out/pm0999.glb', lod: 'low', replacements: [{ file: '1.bin', entry: 0, path: '/pngs/Body.png' }], overwrite: true } })
    expect(q('[data-testid="export-result"]')!.textContent).toBe('Wrote /out/pm0999.glb (1,234 bytes) with 1 pending replacement')
    box.click()
    await settle()
    q('[data-testid="export-glb"]')!.click()
    await settle()
    expect(calls[1]!.req.replacements).toEqual([])
    expect(q('[data-testid="export-result"]')!.textContent).toBe('Wrote /out/pm0999.glb (1,234 bytes) with the stored textures')
    app.unmount()
  })

  it('no pending replacement: no question, the stored textures', async () => {
    calls.length = 0
    const { app } = mount(GfExportButton, { set: '/sets/pm0999', name: 'pm0999', lod: 'high', pending: [] })
    expect(q('[data-testid="gf-export-pending"]')).toBeNull()
    q('[data-testid="export-glb"]')!.click()
    await settle()
    expect(calls[0]!.req).toMatchObject({ lod: 'high', replacements: [] })
    app.unmount()
  })
})
