/**
 * The Snap scene path reads its ROM through the same guards as the CLI (readGameFile's ISIZE
 * check): a gzip-wrapped ROM opens as a stage scene, and the same catalog source whose file was
 * replaced by a gzip claiming 512 MiB is refused before inflating, naming the trailer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { gzipSync } from 'fflate'
import '../../../../src-main/domains/index' // the domain list fills the registry, as the entry points do
import { openCatalog, type Catalog } from '../../../../src-main/catalog/catalog'
import { indexPaths } from '../../../../src-main/indexer/indexer'
import { buildAssetScene } from '../../../../src-main/services/scene-builders'
import { buildSnapRom } from '../../../fixtures/snap/build-rom'

let dir: string
let catalog: Catalog
let rom: string

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-snap-guard-'))
  rom = path.join(dir, 'snap.z64.gz')
  fs.writeFileSync(rom, gzipSync(buildSnapRom().image, { level: 1 }))
  catalog = openCatalog(path.join(dir, 'catalog.db'))
})
afterAll(() => {
  catalog.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('Snap scene path', () => {
  it('opens a gzip-wrapped ROM, and refuses a lying ISIZE before inflating', async () => {
    const res = await indexPaths(catalog, [rom])
    expect(res.sources.map((s) => [s.kind, s.status])).toEqual([['snap-rom', 'indexed']])
    const stage = catalog.search('beach', 50).find((a) => a.kind === 'snap-stage')
    expect(stage).toBeDefined()
    const { scene } = await buildAssetScene(catalog, stage!.id)
    expect(scene.meshes.length).toBeGreaterThan(0)

    const gz = new Uint8Array(fs.readFileSync(rom))
    gz.set([0x00, 0x00, 0x00, 0x20], gz.length - 4) // ISIZE 0x20000000 = 512 MiB
    fs.writeFileSync(rom, gz)
    const err = await buildAssetScene(catalog, stage!.id).then(() => null, (e: Error) => e)
    expect(err?.message).toBe(`${rom}: gzip trailer ISIZE at 0x${(gz.length - 4).toString(16).toUpperCase()}: gzip member unpacks to 536870912 bytes, more than the 134217728-byte limit for an N64 image`)
  })
})
