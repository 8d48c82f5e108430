/**
 * A set inside the model archive as a catalog asset (`gf-garc-set`, CLI.md "GF model archive" and
 * `export ID`): indexed from an archive laid out by tests/fixtures/gf/build-garc.ts (§19, both
 * versions, LZ11 members), `export ID --out` writes the very bytes `gf export` writes for the same
 * set extracted to a folder (and for `GARC#N`, and `export ID` of that folder's high-poly model
 * asset); CLI.md's output rule holds (an existing output →
 * exit 1 naming --force, the archive itself never); an empty set and an entry outside the sets
 * fail with exit 1 and no file; `scene:open` through the services opens a valid scene.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { cli } from '../helpers/cli'
import { useServices } from '../helpers/services'
import { glbJson } from '../helpers/glb'
import { buildModelArchive } from '../fixtures/gf/build-garc'
import { indexPaths } from '../../src-main/indexer/indexer'
import { sceneProblems } from '../../src-shared/scene/validate'
import type { Scene } from '../../src-shared/scene/types'

let tmp: string
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'export-garc-set-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const read = (p: string) => new Uint8Array(readFileSync(p))
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0

/** The model archive at `<dir>/dump/romfs/a/0/9/4`. */
function writeArchive(dir: string, version: 4 | 6): string {
  const arc = path.join(dir, 'dump', 'romfs', 'a', '0', '9', '4')
  mkdirSync(path.dirname(arc), { recursive: true })
  writeFileSync(arc, buildModelArchive(version, { alignment: version === 6 ? 0x80 : undefined }).bytes)
  return arc
}

for (const version of [4, 6] as const) {
  describe(`export ID of a set in a GARC v${version}`, () => {
    let dir: string
    let arc: string
    let db: string
    /** Asset ids by name, as `ls --json` prints them. */
    const ids = new Map<string, { id: number; kind: string }>()
    beforeAll(async () => {
      dir = path.join(tmp, `v${version}`)
      arc = writeArchive(dir, version)
      db = path.join(dir, 'catalog.db')
      const ix = await cli(['index', arc, '--db', db, '--json'])
      expect(ix.code, ix.stderr).toBe(0)
      expect(ix.json().sources).toMatchObject([{ kind: 'gf-models', status: 'indexed' }])
      const ls = await cli(['ls', '--db', db, '--json'])
      for (const a of ls.json() as { id: number; kind: string; name: string }[]) ids.set(a.name, a)
      const x = await cli(['gf', 'garc', 'extract', arc, '--out', path.join(dir, 'x')])
      expect(x.code, x.stderr).toBe(0)
    })

    it('a set of the archive is a scene asset; its glb is byte for byte the extracted folder\'s gf export', async () => {
      for (const [name, set] of [['Pikachu', 1], ['Pikachu (form 3)', 2]] as const) {
        const a = ids.get(name)!
        expect(a.kind).toBe('gf-garc-set')
        const byId = path.join(dir, `id-${set}.glb`)
        const r = await cli(['export', String(a.id), '--out', byId, '--db', db, '--json'])
        expect(r.code, r.stderr).toBe(0)
        expect(r.json()).toMatchObject({ id: a.id, kind: 'gf-garc-set', name, bytes: read(byId).byteLength })
        const folder = path.join(dir, `folder-${set}.glb`)
        const f = await cli(['gf', 'export', path.join(dir, 'x', `000${set}`), '--out', folder])
        expect(f.code, f.stderr).toBe(0)
        expect(same(read(byId), read(folder)), `${name}: export ID vs gf export of the folder`).toBe(true)
        const fromArc = path.join(dir, `arc-${set}.glb`)
        const g = await cli(['gf', 'export', `${arc}#${set}`, '--out', fromArc])
        expect(g.code, g.stderr).toBe(0)
        expect(same(read(byId), read(fromArc)), `${name}: export ID vs gf export GARC#N`).toBe(true)
        // named as the folder `gf garc extract` writes the set to
        expect(glbJson(read(byId)).scenes[0].name).toBe(`000${set}`)
      }
    })

    it('the high-poly model asset of the extracted folder exports the same bytes too', async () => {
      const folder = path.join(dir, 'x', '0001')
      expect((await cli(['index', folder, '--db', db])).code).toBe(0)
      const ls = (await cli(['ls', '--db', db, '--kind', 'gf-model', '--source', folder, '--json'])).json() as { id: number; name: string }[]
      const high = ls.find((a) => a.name === 'PM_HighPoly')!
      const out = path.join(dir, 'model-1.glb')
      const r = await cli(['export', String(high.id), '--out', out, '--db', db])
      expect(r.code, r.stderr).toBe(0)
      expect(same(read(out), read(path.join(dir, 'folder-1.glb')))).toBe(true)
    })

    it('the output rule: an existing --out is refused naming --force and left as it was; --force replaces it; never the archive', async () => {
      const a = ids.get('Pikachu')!
      const out = path.join(dir, 'exists.glb')
      writeFileSync(out, 'keep me')
      const r = await cli(['export', String(a.id), '--out', out, '--db', db])
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/--force/)
      expect(readFileSync(out, 'utf8')).toBe('keep me')
      const f = await cli(['export', String(a.id), '--out', out, '--db', db, '--force'])
      expect(f.code, f.stderr).toBe(0)
      expect(same(read(out), read(path.join(dir, 'folder-1.glb')))).toBe(true)
      const before = read(arc)
      const onArc = await cli(['export', String(a.id), '--out', arc, '--db', db, '--force'])
      expect(onArc.code).toBe(1)
      expect(onArc.stderr).toContain(arc)
      expect(same(read(arc), before)).toBe(true)
    })

    it('an empty set and an entry outside the sets: exit 1, nothing written', async () => {
      const empty = path.join(dir, 'empty.glb')
      const r = await cli(['export', String(ids.get('set 3')!.id), '--out', empty, '--db', db])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(arc)
      expect(existsSync(empty)).toBe(false)
      const loose = ids.get('entry 36')!
      expect(loose.kind).toBe('gf-garc-entry')
      const e = await cli(['export', String(loose.id), '--out', empty, '--db', db])
      expect(e.code).toBe(1)
      expect(e.stderr).toMatch(/no 3D scene/)
      expect(existsSync(empty)).toBe(false)
    })
  })
}

describe('scene:open of a set in the archive', () => {
  const t = useServices('scene-garc-set-')
  it('returns a valid scene: the high-poly model, skinned, with every motion of the set', async () => {
    const arc = writeArchive(t.dir, 6)
    await indexPaths(t.cat, [arc])
    const pikachu = t.cat.search('Pikachu', 10).find((a) => a.kind === 'gf-garc-set' && a.name === 'Pikachu')!
    const scene = (await t.svc.invoke('scene:open', { id: pikachu.id })) as Scene
    expect(sceneProblems(scene)).toEqual([])
    expect(scene.name).toBe('0001')
    // the glb that `gf export` writes for the same set holds the same parts
    const out = path.join(t.dir, 'set1.glb')
    expect((await cli(['gf', 'export', `${arc}#1`, '--out', out])).code).toBe(0)
    const j = glbJson(read(out))
    expect(scene.meshes.length).toBeGreaterThan(0)
    expect(scene.meshes.length).toBe(j.meshes.length)
    expect(scene.skins.length).toBe(1)
    expect(scene.animations.length).toBeGreaterThan(0)
    expect(scene.animations.map((c) => c.name)).toEqual(j.animations.map((x: { name: string }) => x.name))
  })
})
