import { describe, expect, it } from 'vitest'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { sceneHandlers } from '../../../../src-main/services/scene'
import type { ServiceContext } from '../../../../src-main/plugin/context'
import { openCatalog } from '../../../../src-main/catalog/catalog'
import { demoScene } from '../../../../src-shared/scene/demo'

describe('scene:open', () => {
  const catalog = openCatalog(':memory:')
  const ctx = { catalog } as unknown as ServiceContext
  const open = sceneHandlers['scene:open']!

  it('opens the demo scene', async () => {
    const s = await open({ id: 'demo' }, ctx)
    expect(s.name).toBe(demoScene().name)
    expect(s.meshes[0].primitives[0].positions).toBeInstanceOf(Float32Array)
  })

  it('rejects an unknown asset id with a clear message', async () => {
    await expect(Promise.resolve(open({ id: 12345 }, ctx))).rejects.toThrow(/no asset with id 12345/)
  })
})
