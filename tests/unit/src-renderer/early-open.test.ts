/**
 * A permalink's first requests (early-open.ts, issue 26): the reveal at once; once it answers, the
 * view's first calls and then its code; the reveal's answer handed to the shell once. Order, not time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AssetReveal, AssetRow } from '../../../src-shared/api'

const asked: string[] = []
let answer: (r: AssetReveal | null | Error) => void = () => {}
const bridge = {
  transport: 'http',
  on: () => () => {},
  invoke: vi.fn((channel: string, req: unknown) => {
    asked.push(`${channel} ${JSON.stringify(req)}`)
    if (channel !== 'catalog:reveal') return new Promise(() => {})
    return new Promise((resolve, reject) => (answer = (r) => (r instanceof Error ? reject(r) : resolve(r))))
  }),
}
vi.mock('../../../src-renderer/bridge', () => ({ errorMessage: String, bridge }))
// the view's code: recorded (loading it would pull the viewport's Babylon code into the test)
vi.mock('../../../src-renderer/domains', async (actual) => ({ ...(await actual<object>()), loadViewCode: (kind: string) => asked.push(`code of ${kind}`) }))
const { openEarly, takeEarlyReveal } = await import('../../../src-renderer/early-open')
const { requestCall } = await import('../../../src-renderer/viewport/scene-channel')

const model: AssetRow = { id: 20, sourceId: 3, parent: 2, kind: 'gf-model', name: 'model 0', locator: { file: '0.bin', entry: 0 }, metadata: {}, childCount: 0, sourcePath: '/sets/pm0025_00' }
const reveal: AssetReveal = { asset: model, levels: [{ parent: null, children: [] }] }

beforeEach(() => {
  asked.length = 0
  vi.stubGlobal('window', {})
  vi.stubGlobal('history', {})
})
afterEach(() => {
  takeEarlyReveal(20)
  vi.unstubAllGlobals()
})

describe('openEarly (browser mode)', () => {
  it('reveals the asset at once, then asks for the view’s first call before its code; the view takes that answer', async () => {
    const opened = openEarly('?asset=20&camera=1,2,3,0,0,0')
    expect(opened).not.toBeNull()
    expect(asked).toEqual(['catalog:reveal {"id":20,"limit":20000}'])
    answer(reveal)
    await opened
    expect(asked).toEqual(['catalog:reveal {"id":20,"limit":20000}', 'gf:model {"set":"/sets/pm0025_00","lod":"high","replacements":[]}', 'code of gf-model'])
    // the view's own request takes the early one (nothing asked again)
    void requestCall('gf:model', { set: '/sets/pm0025_00', lod: 'high', replacements: [] })
    expect(asked).toHaveLength(3)
  })

  it('hands the reveal to the shell once, and only for the same asset', async () => {
    const opened = openEarly('?asset=20')
    answer(reveal)
    await opened
    expect(takeEarlyReveal(21)).toBeNull()
    await expect(takeEarlyReveal(20)).resolves.toEqual(reveal)
    expect(takeEarlyReveal(20)).toBeNull()
  })

  it('an asset no longer in the catalog, or a failing reveal, starts nothing; the shell gets the answer to report', async () => {
    const gone = openEarly('?asset=20')
    answer(null)
    await gone
    expect(asked).toEqual(['catalog:reveal {"id":20,"limit":20000}'])
    await expect(takeEarlyReveal(20)).resolves.toBeNull()

    const failing = openEarly('?asset=20')
    answer(new Error('catalog is locked'))
    await failing
    await expect(takeEarlyReveal(20)).rejects.toThrow('catalog is locked')
    expect(asked).toHaveLength(2)
  })

  it('no permalink asset: nothing; a built-in scene: the viewport only (no reveal)', () => {
    expect(openEarly('?camera=1,2,3,0,0,0')).toBeNull()
    expect(openEarly('?asset=demo')).not.toBeNull()
    expect(asked).toEqual([])
  })
})

describe('openEarly (Electron: no permalinks)', () => {
  it('does nothing over the preload bridge (a URL there is not a permalink)', () => {
    bridge.transport = 'ipc'
    try {
      expect(openEarly('?asset=20')).toBeNull()
    } finally {
      bridge.transport = 'http'
    }
    expect(asked).toEqual([])
  })
})
