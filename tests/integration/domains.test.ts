/**
 * The domain socket: a fake domain (tests/fixtures/domains/fake/), registered in the one node list
 * with `registerDomain`, appears in the catalog tree (indexed by its detector; its kinds' icons and
 * hints come from its manifest), in the CLI (`--help` lists its command; running it works) and in
 * the scene service (`scene:open` on its asset builds its scene, from the numbers the test wrote);
 * removing it takes it out of all three again. Also: every built-in manifest is consistent (scene
 * kinds ↔ builders, declared channels ↔ loaded handlers, CLI groups ↔ command names).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { openCatalog, type Catalog } from '../../src-main/catalog/catalog'
import { indexPaths } from '../../src-main/indexer/indexer'
import { Services } from '../../src-main/services/index'
import { runCli } from '../../src-main/cli/main'
import { nodeDomains, registerDomain } from '../../src-main/domains/index'
import { manifestProblems } from '../../src-main/plugin/registry'
import { allCommands, commandsFor } from '../../src-main/cli/commands/index'
import { aboutDomains, assetKindInfo, sourceKindInfo, welcomeCards } from '../../src-shared/domains'
import { errorReplyOf } from '../../src-shared/transport/api-error'
import type { Channel } from '../../src-shared/api'
import { fakeNode } from '../fixtures/domains/fake/node'
import { writeFake } from '../fixtures/domains/fake/format'

const TRIANGLES = [
  [0, 0, 0, 1, 0, 0, 0, 1, 0],
  [0, 0, 1, 1.5, 0, 1, 0, -2.25, 1],
]

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } })
  return { code, stdout, stderr }
}

describe('a fake domain registered in the one list', () => {
  let dir: string
  let file: string
  let catalog: Catalog
  let services: Services
  let unregister: () => void

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-domain-'))
    file = path.join(dir, 'two.fake')
    fs.writeFileSync(file, writeFake(TRIANGLES))
    unregister = registerDomain(fakeNode)
    catalog = openCatalog(path.join(dir, 'catalog.db'))
    services = new Services(catalog)
  })
  afterAll(() => {
    unregister()
    services.dispose()
    catalog.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('is indexed by its detector and shows in the tree with its manifest’s icons and hint', async () => {
    const res = await indexPaths(catalog, [file])
    expect(res.sources.map((s) => [path.basename(s.path), s.kind, s.status])).toEqual([['two.fake', 'fake-file', 'indexed']])
    const sources = await services.invoke('catalog:sources', {})
    expect(sources.map((s) => s.kind)).toEqual(['fake-file'])
    const top = await services.invoke('catalog:children', { sourceId: sources[0]!.id, parent: null })
    expect(top.map((a) => [a.kind, a.childCount])).toEqual([['fake-root', 1]])
    const kids = await services.invoke('catalog:children', { sourceId: sources[0]!.id, parent: top[0]!.id })
    expect(kids.map((a) => [a.kind, a.metadata.triangles])).toEqual([['fake-mesh', 2]])
    expect(sourceKindInfo('fake-file')?.icon).toBe('F')
    expect(assetKindInfo('fake-mesh')).toMatchObject({ icon: 'M', scene: true })
    expect(assetKindInfo('fake-root')?.hint).toBe('The fake file’s contents.')
    expect(welcomeCards().map((c) => c.id)).toContain('fake')
    expect(aboutDomains().map((d) => d.id)).toContain('fake') // its line on the welcome page
  })

  it('opens its scene asset through scene:open, with the vertices the file holds', async () => {
    const [mesh] = catalog.search('Fake mesh', 5).filter((a) => String(a.kind) === 'fake-mesh')
    expect(mesh).toBeDefined()
    const scene = await services.invoke('scene:open', { id: mesh!.id })
    expect(scene.meshes).toHaveLength(1)
    expect(Array.from(scene.meshes[0]!.primitives[0]!.positions)).toEqual(TRIANGLES.flat())
    expect(Array.from(scene.meshes[0]!.primitives[0]!.indices)).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('warms what opening an asset needs when catalog:reveal names it, and a failing warm does not fail the reveal', async () => {
    const [mesh] = catalog.search('Fake mesh', 5).filter((a) => String(a.kind) === 'fake-mesh')
    const warmed: [number, string][] = []
    registerDomain({ ...fakeNode, warm: async (a, s) => warmed.push([a.id, s.path]) }) // replaces by id
    try {
      const shown = await services.invoke('catalog:reveal', { id: mesh!.id })
      expect(shown?.asset.id).toBe(mesh!.id)
      expect(warmed).toEqual([[mesh!.id, file]])
      registerDomain({ ...fakeNode, warm: () => Promise.reject(new Error('unreadable')) })
      expect((await services.invoke('catalog:reveal', { id: mesh!.id }))?.asset.id).toBe(mesh!.id)
      expect(await services.invoke('catalog:reveal', { id: 999_999 })).toBeNull()
    } finally {
      unregister = registerDomain(fakeNode)
    }
  })

  it('answers a kind without a scene with the structured code no-scene', async () => {
    const [root] = catalog.search('Fake root', 5).filter((a) => String(a.kind) === 'fake-root')
    const err = await services.invoke('scene:open', { id: root!.id }).then(() => null, (e: unknown) => e)
    expect(errorReplyOf(err).error).toMatchObject({ name: 'NoSceneError', code: 'no-scene' })
    expect(errorReplyOf(err).error.message).toMatch(/is a fake-root, which has no 3D scene/)
  })

  it('lists its command in --help and runs it', async () => {
    const help = await cli(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('fake count FILE [--json]')
    expect(help.stdout).toContain('Fake test format')
    const group = await cli(['fake', '--help'])
    expect(group.stdout).toContain('modbench fake count FILE [--json]')
    const run = await cli(['fake', 'count', file, '--json'])
    expect([run.code, JSON.parse(run.stdout)]).toEqual([0, { triangles: 2 }])
  })

  it('is gone from the tree kinds, the CLI and the scene builders once removed', async () => {
    const again = registerDomain(fakeNode) // replaces itself by id
    again()
    expect(sourceKindInfo('fake-file')).toBeUndefined()
    expect((await cli(['--help'])).stdout).not.toContain('fake count')
    expect((await cli(['fake', 'count', file])).code).toBe(2)
    unregister = registerDomain(fakeNode) // afterAll removes it
  })
})

describe('the built-in manifests', () => {
  it('register the N64 platform and the four games, each consistent', () => {
    expect(nodeDomains().map((d) => d.shared.id)).toEqual(['n64', 'gf', 're', 'snap', 'stadium'])
    for (const d of nodeDomains()) expect(manifestProblems(d), d.shared.id).toEqual([])
    // every detector's kind is a source kind some manifest declares
    for (const d of nodeDomains()) for (const det of [...(d.fileDetectors ?? []), ...(d.folderDetectors ?? [])]) expect(sourceKindInfo(det.kind), det.id).toBeDefined()
  })

  it('declare exactly the channels their handler modules serve, each channel in one domain', async () => {
    const seen = new Set<Channel>()
    for (const d of nodeDomains()) {
      if (!d.handlers) continue
      const served = Object.keys(await d.handlers.load()).sort()
      expect(served, d.shared.id).toEqual([...d.handlers.channels].sort())
      for (const ch of d.handlers.channels) {
        expect(ch.startsWith(`${d.shared.id}:`), ch).toBe(true)
        expect(seen.has(ch), ch).toBe(false)
        seen.add(ch)
      }
    }
    // every declared channel is served, and the contract's channels are all declared somewhere
    expect(seen.size).toBe(nodeDomains().reduce((n, d) => n + (d.handlers?.channels.length ?? 0), 0))
    expect(seen.has('gf:textures') && seen.has('re:savePose') && seen.has('snap:stages')).toBe(true)
  })

  it('name their CLI groups by the first word of each command they load', async () => {
    for (const d of nodeDomains()) {
      if (!d.cli) continue
      const words = new Set((await d.cli.load()).map((c) => c.name.split(' ')[0]))
      expect([...words], d.shared.id).toEqual([...d.cli.groups])
    }
    const names = (await allCommands()).map((c) => c.name)
    expect(new Set(names).size).toBe(names.length)
  })

  it('load only the named group’s commands for a command word of a domain', async () => {
    const gf = (await commandsFor('gf')).map((c) => c.name)
    expect(gf.slice(0, 4)).toEqual(['gf info', 'gf textures', 'gf extract', 'gf replace'])
    expect(gf).toEqual(expect.arrayContaining(['gf models', 'gf motions', 'gf export', 'gf export-all']))
    expect(gf.every((n) => n.startsWith('gf '))).toBe(true)
    const platform = (await commandsFor('ls')).map((c) => c.name)
    expect(platform).toContain('ls')
    expect(platform).toContain('snap stages') // a platform word needs the whole table (help, unknown command)
  })
})
