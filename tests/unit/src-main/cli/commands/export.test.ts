import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { validateBytes } from 'gltf-validator'
import { runCli } from '../../../../../src-main/cli/main'
import { openCatalog } from '../../../../../src-main/catalog/catalog'
import { sceneBuilders } from '../../../../../src-main/services/scene-builders'
import { demoScene } from '../../../../../src-shared/scene/demo'

const repo = path.resolve(import.meta.dirname, '../../../../..')

function io() {
  const o = { out: '', err: '' }
  return { o, streams: { stdout: { write: (s: string) => ((o.out += s), true) }, stderr: { write: (s: string) => ((o.err += s), true) } } as never }
}

describe('modbench export', () => {
  let dir: string
  let db: string
  let ids: { good: number; broken: number; other: number }
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mb-export-'))
    db = path.join(dir, 'catalog.sqlite')
    const src = path.join(dir, 'thing.bin')
    writeFileSync(src, new Uint8Array([1, 2, 3, 4]))
    // A builder registered only for this test (format domains register theirs in scene-builders.ts).
    sceneBuilders['test-model'] = async (asset, source, ctx) => {
      const bytes = await ctx.readSource(source)
      const s = demoScene()
      s.name = `${asset.name} (${bytes.length} bytes)`
      return s
    }
    sceneBuilders['test-broken'] = async () => {
      const s = demoScene()
      s.nodes[3].parent = 9
      return s
    }
    const c = openCatalog(db)
    c.replaceSource({ path: src, size: 4, mtime: 0, hash: 'x', kind: 'unknown' }, [
      { key: 'a', kind: 'test-model', name: 'tube', locator: {} },
      { key: 'b', kind: 'test-broken', name: 'broken', locator: {} },
      { key: 'c', kind: 'test-texture', name: 'just a texture', locator: {} },
    ])
    const rows = c.list()
    ids = { good: rows.find((r) => String(r.kind) === 'test-model')!.id, broken: rows.find((r) => String(r.kind) === 'test-broken')!.id, other: rows.find((r) => String(r.kind) === 'test-texture')!.id }
    c.close()
  })
  afterAll(() => {
    delete sceneBuilders['test-model']
    delete sceneBuilders['test-broken']
    rmSync(dir, { recursive: true, force: true })
  })

  it('exports the demo scene to a valid glb with a JSON summary', async () => {
    const out = path.join(dir, 'demo.glb')
    const { o, streams } = io()
    expect(await runCli(['export', 'demo', '--out', out, '--json'], streams)).toBe(0)
    const j = JSON.parse(o.out)
    const glb = new Uint8Array(readFileSync(out))
    expect(j).toMatchObject({ id: 'demo', out, bytes: glb.length, nodes: 10, skins: 1, animations: 3, curves: 2 })
    expect(new TextDecoder().decode(glb.subarray(0, 4))).toBe('glTF')
    expect((await validateBytes(glb)).issues.numErrors).toBe(0)
  })

  it('exports a catalog asset through its kind’s scene builder (creating the output folder)', async () => {
    const out = path.join(dir, 'new', 'folder', 'asset.glb')
    const { o, streams } = io()
    expect(await runCli(['export', String(ids.good), '--out', out, '--db', db], streams)).toBe(0)
    expect(o.out).toMatch(/wrote .*asset\.glb/)
    expect((await validateBytes(new Uint8Array(readFileSync(out)))).issues.numErrors).toBe(0)
  })

  it('unknown id, a kind with no scene, an inconsistent scene → exit 1, clear message, no file', async () => {
    for (const [id, msg] of [
      ['99999', /no asset with id 99999/],
      [String(ids.other), /is a test-texture, which has no 3D scene/],
      [String(ids.broken), /nodes\[3\]\.parent: parent 9 comes after its child 3/],
    ] as const) {
      const out = path.join(dir, `fail-${id}.glb`)
      const { o, streams } = io()
      expect(await runCli(['export', id, '--out', out, '--db', db], streams)).toBe(1)
      expect(o.err).toMatch(msg)
      expect(existsSync(out)).toBe(false)
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('usage errors → exit 2', async () => {
    for (const argv of [['export', 'demo'], ['export', 'abc', '--out', 'x.glb'], ['export', '--out', 'x.glb'], ['export', 'demo', '--out', 'x.glb', '--bogus']]) {
      const { streams } = io()
      expect(await runCli(argv, streams), argv.join(' ')).toBe(2)
    }
  })

  it('the real binary: exit codes 0, 1 and 2', () => {
    const bin = path.join(repo, 'bin', 'modbench.mjs')
    const out = path.join(dir, 'spawned.glb')
    const ok = spawnSync(process.execPath, [bin, 'export', 'demo', '--out', out], { encoding: 'utf8' })
    expect(ok.status, ok.stderr).toBe(0)
    expect(existsSync(out)).toBe(true)
    const missing = spawnSync(process.execPath, [bin, 'export', '424242', '--out', path.join(dir, 'm.glb'), '--db', db], { encoding: 'utf8' })
    expect(missing.status).toBe(1)
    expect(missing.stderr).toMatch(/no asset with id 424242/)
    const usage = spawnSync(process.execPath, [bin, 'export', 'demo'], { encoding: 'utf8' })
    expect(usage.status).toBe(2)
  })
})
