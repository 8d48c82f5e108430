/**
 * The Snap ROM of the app's views lives for the process (issue 26 item 1): opening a stage scene
 * twice reads (and MD5-hashes) the 16 MiB ROM once; the `snap:stages` request of the same file
 * reads nothing more; after the file's mtime changes the next open reads it again. Reads are
 * counted by the guarded reader itself (`gameFileReads`, every game file opened for reading).
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
import { snapHandlers } from '../../../../src-main/domains/snap/handlers'
import type { ServiceContext } from '../../../../src-main/plugin/context'
import { buildSnapRom } from '../../../fixtures/snap/build-rom'

let dir: string
let catalog: Catalog
let rom: string

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-snap-cache-'))
  rom = path.join(dir, 'snap.z64')
  fs.writeFileSync(rom, buildSnapRom().image)
  catalog = openCatalog(path.join(dir, 'catalog.db'))
})
afterAll(() => {
  catalog.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('Snap ROM process cache', () => {
  it('reads the ROM once across two scene opens and a stages request, and again after the file changes', async () => {
    await indexPaths(catalog, [rom])
    const stage = catalog.search('beach', 50).find((a) => a.kind === 'snap-stage')
    expect(stage).toBeDefined()

    const before = gameFileReads()
    const first = await buildAssetScene(catalog, stage!.id)
    const second = await buildAssetScene(catalog, stage!.id)
    expect(gameFileReads() - before).toBe(1)
    expect(second.scene.meshes.length).toBe(first.scene.meshes.length)
    expect(second.scene.meshes.length).toBeGreaterThan(0)

    const ctx = { allowPath: (p: string) => p } as unknown as ServiceContext
    const stages = await snapHandlers['snap:stages']!({ path: rom } as never, ctx)
    expect((stages as { stages: unknown[] }).stages.length).toBeGreaterThan(0)
    expect(gameFileReads() - before).toBe(1)

    const st = fs.statSync(rom)
    fs.utimesSync(rom, st.atime, new Date(st.mtimeMs + 5000)) // same bytes, a new mtime
    await buildAssetScene(catalog, stage!.id)
    expect(gameFileReads() - before).toBe(2)
    await buildAssetScene(catalog, stage!.id)
    expect(gameFileReads() - before).toBe(2)
  })
})
