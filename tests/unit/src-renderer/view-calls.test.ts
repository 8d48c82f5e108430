/**
 * What the centre pane asks for as soon as an asset is selected (the renderer manifests'
 * `viewCalls`): exactly the requests the asset's view starts with, so the view takes their answers.
 */
import { describe, expect, it, vi } from 'vitest'
import type { AssetRow, SourceRow } from '../../../src-shared/api'

vi.mock('../../../src-renderer/bridge', () => ({ errorMessage: String, bridge: { transport: 'ipc', invoke: vi.fn(), on: () => () => {} } }))
const { viewCallsOf } = await import('../../../src-renderer/domains')

const row = (kind: string, id: number, parent: number | null, locator: Record<string, unknown> = {}): AssetRow =>
  ({ id, sourceId: 3, parent, kind, name: kind, locator, metadata: {}, childCount: 0 }) as AssetRow
const SOURCES = [{ id: 3, path: '/sets/pm0025_00' }] as SourceRow[]

describe('viewCallsOf', () => {
  it('Snap: a stage, room or track its own scene; a room group or the skybox its parent stage’s; an actor its own', () => {
    expect(viewCallsOf(row('snap-stage', 5, 2, { stage: 'beach' }), SOURCES)).toEqual([{ channel: 'scene:open', req: { id: 5 } }])
    expect(viewCallsOf(row('snap-room', 9, 7, { stage: 'beach' }), SOURCES)).toEqual([{ channel: 'scene:open', req: { id: 9 } }])
    expect(viewCallsOf(row('snap-room-group', 7, 5, { stage: 'beach' }), SOURCES)).toEqual([{ channel: 'scene:open', req: { id: 5 } }])
    expect(viewCallsOf(row('snap-skybox', 8, 5, { stage: 'beach' }), SOURCES)).toEqual([{ channel: 'scene:open', req: { id: 5 } }])
    expect(viewCallsOf(row('snap-actor', 40, 30, { stage: 'beach', actor: 1 }), SOURCES)).toEqual([{ channel: 'scene:open', req: { id: 40 } }])
  })

  it('Stadium: the model info and the scene', () => {
    expect(viewCallsOf(row('stadium-model', 12, 1, { file: 0 }), SOURCES)).toEqual([
      { channel: 'stadium:model', req: { id: 12 } },
      { channel: 'scene:open', req: { id: 12 } },
    ])
  })

  it('GF: the set’s model at the level of detail the view opens with; nothing for the texture grid', () => {
    expect(viewCallsOf(row('gf-model', 20, 2, { file: '0.bin', entry: 1 }), SOURCES)).toEqual([{ channel: 'gf:model', req: { set: '/sets/pm0025_00', lod: 'low', replacements: [] } }])
    expect(viewCallsOf(row('gf-motion', 21, 4, { file: '4.bin', entry: 0 }), SOURCES)).toEqual([{ channel: 'gf:model', req: { set: '/sets/pm0025_00', lod: 'high', replacements: [] } }])
    expect(viewCallsOf(row('gf-texture', 22, 3, { file: '1.bin', entry: 0 }), SOURCES)).toEqual([])
  })

  it('RE: the pose editor asks itself (nothing early)', () => {
    expect(viewCallsOf(row('re-motlist', 30, null), SOURCES)).toEqual([])
  })
})
