// @vitest-environment happy-dom
import { describe, expect, it, vi, beforeEach } from 'vitest'
import { createApp, nextTick, h } from 'vue'
import { createPinia, setActivePinia } from 'pinia'
import type { SourceRow } from '../../../../../src-shared/api'

const calls: { channel: string; req: Record<string, unknown> }[] = []
/** When set, gf:repack waits until gf:cancelJob names its job, then fails as the service does. */
let holdRepack = false
let cancelled: (() => void) | null = null
const TEX = [
  { file: '1.bin', entry: 0, name: 'pm_Body', width: 16, height: 16, format: 'ETC1', mipmaps: 1, offset: 0x80, length: 0x100 },
  { file: '3.bin', entry: 1, name: 'pm_Mask', width: 8, height: 8, format: 'A8', mipmaps: 1, offset: 0x80, length: 0x80 },
]
vi.mock('../../../../../src-renderer/bridge', () => ({
  errorMessage: (e: unknown) => String(e),
  bridge: {
    transport: 'http',
    on: () => () => {},
    pick: async () => '/pngs/new.png',
    invoke: async (channel: string, req: Record<string, unknown>) => {
      calls.push({ channel, req })
      switch (channel) {
        case 'gf:textures': return { set: req.set, textures: TEX, missing: ['8.bin'], warnings: [] }
        case 'gf:texture': { const t = TEX.find((x) => x.file === req.file)!; return { info: t, rgba: new Uint8Array(t.width * t.height * 4).fill(200) } }
        case 'gf:previewReplace': return { info: TEX[0], source: new Uint8Array(16 * 16 * 4), rgba: new Uint8Array(16 * 16 * 4).fill(10), psnr: 34.5678, resized: false, warnings: [] }
        case 'gf:repack':
          if (holdRepack) {
            await new Promise<void>((r) => (cancelled = r))
            throw new Error('cancelled')
          }
          return { out: req.out, files: [{ file: '1.bin', changed: true, size: 1, sha256: 'x' }], replaced: [] }
        case 'index:start': return { sources: [{ path: req.paths && (req.paths as string[])[0] }], assets: 1 }
        case 'gf:cancelJob': cancelled?.(); return { cancelled: true }
        case 'catalog:sources': return []
        default: throw new Error(`unexpected ${channel}`)
      }
    },
  },
}))

const { default: TextureGrid } = await import('../../../../../src-renderer/components/gf/TextureGrid.vue')

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 0))
    await nextTick()
  }
}

/** The grid of a set source, mounted with a fresh store, once its first loads settled. */
async function mountGrid(setPath: string) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const source: SourceRow = { id: 1, path: setPath, size: 0, mtime: 0, hash: '', kind: 'gf-set', status: 'indexed', error: null, indexedAt: 0 }
  const app = createApp({ render: () => h(TextureGrid, { asset: null, source }) })
  app.use(pinia)
  app.mount('#app')
  await settle()
  return app
}

describe('gf TextureGrid', () => {
  beforeEach(() => {
    calls.length = 0
    document.body.innerHTML = '<div id="app"></div>'
  })

  it('shows badges, opens a texture, previews a replacement with PSNR, lists it as pending, undoes, repacks', async () => {
    const app = await mountGrid('/sets/pm0999')
    const grid = document.querySelector('[data-testid="gf-texture-grid"]')!
    expect(grid.textContent).toContain('2 textures')
    expect(grid.textContent).toContain('missing: 8.bin')
    const cell = document.querySelector('[data-testid="gf-cell-1.bin-0"]') as HTMLButtonElement
    expect(cell.textContent).toContain('pm_Body')
    expect(cell.textContent).toContain('16×16')
    expect(cell.textContent).toContain('ETC1')
    cell.click()
    await settle()
    expect(document.querySelector('[data-testid="gf-texture-view"]')).not.toBeNull()
    ;(document.querySelector('[data-testid="gf-replace"]') as HTMLButtonElement).click()
    await settle()
    const prev = calls.find((c) => c.channel === 'gf:previewReplace')!
    expect(prev.req).toMatchObject({ set: '/sets/pm0999', file: '1.bin', entry: 0, path: '/pngs/new.png' })
    expect(document.querySelector('[data-testid="gf-psnr"]')!.textContent).toContain('34.57 dB')
    expect(document.querySelector('[data-testid="gf-pending"]')!.textContent).toContain('pm_Body')
    // the cell shows the re-encoded picture of the pending replacement, not the stored one
    expect(cell.querySelector('[data-testid="gf-thumb-new"]')).not.toBeNull()
    expect(document.querySelector('[data-testid="gf-cell-3.bin-1"] [data-testid="gf-thumb"]')).not.toBeNull()
    ;(document.querySelector('[data-testid="gf-undo"]') as HTMLButtonElement).click()
    await settle()
    expect(document.querySelector('[data-testid="gf-pending"]')?.textContent ?? '').not.toContain('pm_Body')
    expect(document.querySelector('[data-testid="gf-psnr"]')).toBeNull()
    expect(cell.querySelector('[data-testid="gf-thumb-new"]')).toBeNull()
    ;(document.querySelector('[data-testid="gf-undo"]') as HTMLButtonElement | null)?.click() // nothing left to undo is harmless
    // replace again and repack: the pending replacement is sent
    ;(document.querySelector('[data-testid="gf-replace"]') as HTMLButtonElement).click()
    await settle()
    ;(document.querySelector('[data-testid="gf-repack"]') as HTMLButtonElement).click()
    await settle()
    const rp = calls.find((c) => c.channel === 'gf:repack')!
    expect(rp.req).toMatchObject({ set: '/sets/pm0999', out: '/pngs/new.png', replacements: [{ file: '1.bin', entry: 0, path: '/pngs/new.png' }] })
    expect(document.querySelector('[data-testid="gf-status"]')!.textContent).toContain('changed: 1.bin')
    // the written set is indexed (and the catalog store selects it); the written queue is cleared
    expect(calls.find((c) => c.channel === 'index:start')!.req).toEqual({ paths: ['/pngs/new.png'] })
    expect(document.querySelector('[data-testid="gf-pending"]')?.textContent ?? '').not.toContain('pm_Body')
    app.unmount()
  })

  it('Cancel stops a running repack through its job id and says nothing was written', async () => {
    const app = await mountGrid('/sets/pm0998')
    holdRepack = true
    ;(document.querySelector('[data-testid="gf-repack"]') as HTMLButtonElement).click()
    await settle()
    const job = calls.find((c) => c.channel === 'gf:repack')!.req.jobId
    ;(document.querySelector('[data-testid="gf-repack-cancel"]') as HTMLButtonElement).click()
    await settle()
    expect(calls.find((c) => c.channel === 'gf:cancelJob')!.req).toEqual({ jobId: job })
    expect(document.querySelector('[data-testid="gf-grid-error"]')!.textContent).toBe('Repack cancelled; nothing was written')
    expect(document.querySelector('[data-testid="gf-progress"]')).toBeNull()
    expect(calls.some((c) => c.channel === 'index:start')).toBe(false)
    holdRepack = false
    app.unmount()
  })
})
