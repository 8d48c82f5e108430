/**
 * A GF set opened by the app's views lives for the process (issue 26 item 1): a model scene
 * opened twice and a `gf:model` request read the set's files once; after one
 * member's mtime changes the next open reads the set again. Reads are counted by the guarded
 * reader itself (`gameFileReads`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { indexPaths } from '../../../../src-main/indexer/indexer'
import { buildAssetScene } from '../../../../src-main/services/scene-builders'
import { gameFileReads } from '../../../../src-main/node/game-file'
import { gfModelHandlers } from '../../../../src-main/domains/gf/model-handlers'
import type { ServiceContext } from '../../../../src-main/plugin/context'
import { buildSyntheticSet } from '../../../fixtures/gf/build-set'

let dir: string
let setDir: string
let catalog: Catalog
let members = 0
const ctx = { allowPath: (p: string) => path.resolve(p) } as unknown as ServiceContext

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-gf-cache-'))
  setDir = path.join(dir, 'set')
  fs.mkdirSync(setDir)
  const files = buildSyntheticSet(1).files
  for (const [n, b] of files) fs.writeFileSync(path.join(setDir, n), b)
  members = files.size
  catalog = openCatalog(path.join(dir, 'catalog.db'))
})
afterAll(() => {
  catalog.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('GF set process cache', () => {
  it('reads the set once across two scene opens and a gf:model request, and again after a member changes', async () => {
    await indexPaths(catalog, [setDir])
    const model = catalog.list({ kind: 'gf-model' })[0]
    expect(model).toBeDefined()

    const before = gameFileReads()
    const first = await buildAssetScene(catalog, model!.id)
    await buildAssetScene(catalog, model!.id)
    expect(gameFileReads() - before).toBe(members)
    const r = await (gfModelHandlers['gf:model'] as (req: unknown, c: ServiceContext) => Promise<{ scene: { meshes: unknown[] } }>)({ set: setDir }, ctx)
    expect(r.scene.meshes.length).toBe(first.scene.meshes.length)
    expect(gameFileReads() - before).toBe(members)

    const one = path.join(setDir, '1.bin')
    const st = fs.statSync(one)
    fs.utimesSync(one, st.atime, new Date(st.mtimeMs + 5000))
    await buildAssetScene(catalog, model!.id)
    expect(gameFileReads() - before).toBe(2 * members)
  })
})
