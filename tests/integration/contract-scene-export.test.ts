/**
 * `scene:export`, the service behind every view's Export .glb (and the CLI's `export` code path):
 * a fake domain's two-triangle mesh (numbers written by this test) goes out as a glb whose
 * POSITION accessor holds those six vertices; an existing output is refused with code `exists`
 * (left as it was) unless `overwrite`; progress events arrive in order; paths outside what the
 * user indexed or chose are refused; the source itself is never written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { validateBytes } from 'gltf-validator'
import { openCatalog, type Catalog } from '../../src-main/catalog/catalog'
import { indexPaths } from '../../src-main/indexer/indexer'
import { Services } from '../../src-main/services/index'
import { registerDomain } from '../../src-main/domains/index'
import { errorReplyOf } from '../../src-shared/transport/api-error'
import { fakeNode } from '../fixtures/domains/fake/node'
import { writeFake } from '../fixtures/domains/fake/format'
import { glbFloats, glbJson } from '../helpers/glb'

const TRIANGLES = [
  [0, 0, 0, 1, 0, 0, 0, 1, 0],
  [0, 0, 1, 1.5, 0, 1, 0, -2.25, 1],
]

describe('scene:export (the UI export service)', () => {
  let dir: string
  let outDir: string
  let file: string
  let catalog: Catalog
  let services: Services
  let unregister: () => void
  let meshId: number

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-scene-export-'))
    outDir = path.join(dir, 'out')
    fs.mkdirSync(outDir)
    file = path.join(dir, 'two.fake')
    fs.writeFileSync(file, writeFake(TRIANGLES))
    unregister = registerDomain(fakeNode)
    catalog = openCatalog(path.join(dir, 'catalog.db'))
    services = new Services(catalog)
    await indexPaths(catalog, [file])
    meshId = catalog.search('Fake mesh', 5).find((a) => String(a.kind) === 'fake-mesh')!.id
    services.ctx.grantPath(outDir) // as the save dialog / file browser does
  })
  afterAll(() => {
    unregister()
    services.dispose()
    catalog.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('writes a valid glb holding the mesh the file has, with progress in order', async () => {
    const out = path.join(outDir, 'mesh.glb')
    const events: string[] = []
    const off = services.on((e, p) => {
      if (e === 'scene:progress' && (p as { jobId: string }).jobId === 'j1') events.push((p as { stage: string }).stage)
    })
    const res = await services.invoke('scene:export', { id: meshId, out, jobId: 'j1' })
    off()
    expect(events).toEqual(['build', 'encode', 'write', 'done'])
    const bytes = new Uint8Array(fs.readFileSync(out))
    expect(res).toMatchObject({ id: meshId, kind: 'fake-mesh', out, bytes: bytes.byteLength, meshes: 1 })
    const report = await validateBytes(bytes)
    expect(report.issues.numErrors).toBe(0)
    const json = glbJson(bytes)
    const position = json.meshes[0].primitives[0].attributes.POSITION
    expect(json.accessors[position].count).toBe(6)
    expect(glbFloats(bytes, position)).toEqual(TRIANGLES.flat())
  })

  it('refuses an existing output with code exists (file untouched) unless overwrite is true', async () => {
    const out = path.join(outDir, 'taken.glb')
    fs.writeFileSync(out, 'keep me')
    const err = await services.invoke('scene:export', { id: meshId, out }).then(() => null, (e: unknown) => e)
    expect(errorReplyOf(err).error).toMatchObject({ code: 'exists' })
    expect(fs.readFileSync(out, 'utf8')).toBe('keep me')
    await services.invoke('scene:export', { id: meshId, out, overwrite: true })
    expect(fs.readFileSync(out).subarray(0, 4).toString('latin1')).toBe('glTF')
    expect(fs.readdirSync(outDir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('refuses paths the user did not choose, and never writes over the source', async () => {
    const err = await services.invoke('scene:export', { id: meshId, out: path.join(os.tmpdir(), 'elsewhere', 'x.glb') }).then(() => null, (e: unknown) => e)
    expect(errorReplyOf(err).error.message).toMatch(/refused/)
    const before = fs.readFileSync(file)
    const err2 = await services.invoke('scene:export', { id: meshId, out: file, overwrite: true }).then(() => null, (e: unknown) => e)
    expect(errorReplyOf(err2).error.message).toMatch(/is a source file of the catalog/)
    expect(fs.readFileSync(file)).toEqual(before)
  })
})
