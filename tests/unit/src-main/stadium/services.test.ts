/** stadium:* services and scene:open for Stadium catalog assets (real catalog, indexed fixture ROM). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { gzipSync } from 'fflate'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { Services } from '../../../../src-main/services/index'
import { indexPaths } from '../../../../src-main/indexer/indexer'
import { buildStadiumRom } from '../../../fixtures/stadium/rom-builder'
import { fixtureFiles } from '../../../fixtures/stadium/models'

let dir: string
let cat: Catalog
let svc: Services
let romPath: string

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-stadium-svc-'))
  cat = openCatalog(path.join(dir, 'c.sqlite'))
  svc = new Services(cat)
  romPath = path.join(dir, 'stadium.z64.gz')
  fs.writeFileSync(romPath, gzipSync(buildStadiumRom({ files: fixtureFiles(3) })))
  svc.ctx.grantPath(dir)
  await indexPaths(cat, [romPath])
})
afterEach(() => {
  svc.dispose()
  cat.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('stadium services', () => {
  it('stadium:model gives labels, the 165 moves with their animation, and siblings; scene:open builds the model', async () => {
    const models = cat.search('stadium-model', 50).filter((a) => a.kind === 'stadium-model')
    const bulba = models.find((a) => a.name === '001 Bulbasaur')!
    expect(bulba).toBeTruthy()
    const info = await svc.invoke('stadium:model', { id: bulba.id })
    expect(info.slug).toBe('001_bulbasaur')
    expect(info.animations.map((a) => a.name)).toEqual(['idle', 'sleep', 'attack_default', 'faint', 'hit'])
    expect(info.moves.length).toBe(165)
    expect(info.moves[0]).toMatchObject({ id: 1, name: 'Pound', animation: 3, animationName: 'faint', differsFromDefault: true })
    expect(info.moves[1]).toMatchObject({ id: 2, animation: 2, differsFromDefault: false })
    expect(info.siblings.map((s) => s.name)).toEqual(['001 Bulbasaur', '002 Ivysaur', '003 Venusaur'])
    const scene = await svc.invoke('scene:open', { id: bulba.id })
    expect(scene.name).toBe('001_bulbasaur')
    expect(scene.skins[0]!.joints.length).toBe(4)
    const anim = cat.children(bulba.sourceId, bulba.id, 0, 100)[2]!
    expect(anim.kind).toBe('stadium-animation')
    const info2 = await svc.invoke('stadium:model', { id: anim.id })
    expect(info2.assetId).toBe(bulba.id)
    const s2 = await svc.invoke('scene:open', { id: anim.id })
    expect((s2.extras as { selectedAnimation: number }).selectedAnimation).toBe(2)
  })
})
