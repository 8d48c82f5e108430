import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { NodeIO } from '@gltf-transform/core'
import { ALL_EXTENSIONS } from '@gltf-transform/extensions'
import { cli } from '../../../helpers/cli'
import { buildPackage, buildSyntheticSet } from '../../../fixtures/gf/build-set'
import { buildGfMotion } from '../../../fixtures/gf/build-motion'
import { exportAllSets } from '../../../../src-main/domains/gf/export-batch'

let tmp: string
let setDir: string

function writeSet(dir: string, files: Map<string, Uint8Array>): string {
  mkdirSync(dir, { recursive: true })
  for (const [n, b] of files) writeFileSync(path.join(dir, n), b)
  return dir
}

function brokenMotionSet(): Map<string, Uint8Array> {
  const files = buildSyntheticSet(1).files
  files.set('6.bin', buildPackage([buildGfMotion({ frameCount: 10, skeletal: [{ bone: 'Waist', curves: { transX: { keys: [[0, 0, 0]], count: 0x7fffffff } } }] })], { align: 4 }))
  return files
}

async function validate(bytes: Uint8Array) {
  const { validateBytes } = (await import('gltf-validator')) as { validateBytes(b: Uint8Array): Promise<{ issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string; severity: number }[] } }> }
  return (await validateBytes(bytes)).issues
}

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gf-model-cli-'))
  setDir = writeSet(path.join(tmp, 'set'), buildSyntheticSet(1).files)
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('gf models / gf motions', () => {
  it('gf models --json: CLI.md keys, bone parents by name, counts of what the index buffers draw', async () => {
    const r = await cli(['gf', 'models', setDir, '--json'])
    expect(r.code).toBe(0)
    const list = r.json()
    expect(list.map((m: any) => [m.file, m.entry, m.lod])).toEqual([['0.bin', 0, 'high'], ['0.bin', 1, 'low']])
    expect(Object.keys(list[0]).sort()).toEqual(['bones', 'entry', 'file', 'lod', 'materials', 'meshes', 'name', 'triangles', 'vertices'])
    expect(list[0].bones).toEqual([{ name: 'Origin', parent: null }, { name: 'Waist', parent: 'Origin' }, { name: 'Head', parent: 'Waist' }, { name: 'Tail', parent: 'Waist' }])
    expect([list[0].meshes, list[0].vertices, list[0].triangles]).toEqual([2, 12, 6])
    expect(list[0].materials).toEqual([{ name: 'BodyMat', textures: ['pm0999_00_BodyA1'] }, { name: 'TailMat', textures: ['pm0999_00_BodyB1'] }, { name: 'EyeMat', textures: ['pm0999_00_Eye1'] }])
    expect([list[1].meshes, list[1].vertices, list[1].triangles]).toEqual([1, 3, 1])
  })

  it('gf motions --json: one item per GFMotion with section counts and §11.9 labels', async () => {
    const r = await cli(['gf', 'motions', setDir, '--json'])
    expect(r.code).toBe(0)
    expect(r.json()).toEqual([
      { file: '4.bin', entry: 0, frames: 20, loop: true, skeletal: 4, material: 1, visibility: 1, label: 'Idle' },
      { file: '4.bin', entry: 2, frames: 10, loop: true, skeletal: 1, material: 0, visibility: 0, label: 'Transform' },
      { file: '5.bin', entry: 0, frames: 300, loop: false, skeletal: 1, material: 0, visibility: 0 },
      { file: '6.bin', entry: 0, frames: 8, loop: true, skeletal: 1, material: 0, visibility: 0, label: 'Idle' },
      { file: '6.bin', entry: 1, frames: 10, loop: true, skeletal: 1, material: 0, visibility: 0, label: 'Empty' },
      { file: '7.bin', entry: 0, frames: 4, loop: false, skeletal: 0, material: 0, visibility: 1 },
    ])
  })

  it('a broken motion is listed with its error (exit 1)', async () => {
    const dir = writeSet(path.join(tmp, 'broken-list'), brokenMotionSet())
    const r = await cli(['gf', 'motions', dir, '--json'])
    expect(r.code).toBe(1)
    // the error names the member with its set folder as given; `file` stays the member's name
    expect(r.json()[3]).toMatchObject({ file: '6.bin', entry: 0, error: `${path.join(dir, '6.bin')}: entry 0 GFMotion skeletal section at 0x6C: bone 0 'Waist' transX keys: count 2147483647 × 5 bytes at 0x6C does not fit in the 0x78-byte file` })
    expect(r.stderr).toContain(`modbench gf motions: error: ${path.join(dir, '6.bin')}: entry 0 GFMotion`)
  })
})

describe('gf export', () => {
  let glb: Uint8Array
  beforeAll(async () => {
    const out = path.join(tmp, 'out', 'pm.glb')
    const r = await cli(['gf', 'export', setDir, '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    glb = new Uint8Array(readFileSync(out))
  })

  it('passes the glTF validator with 0 errors', async () => {
    const issues = await validate(glb)
    expect(issues.messages.filter((m) => m.severity === 0)).toEqual([])
    expect(issues.numErrors).toBe(0)
  })

  it('has the structure Blender needs: skin joints named after bones, inverse binds, animations on joint nodes', async () => {
    const doc = await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(glb)
    const root = doc.getRoot()
    const skin = root.listSkins()[0]!
    expect(skin.listJoints().map((j) => j.getName())).toEqual(['Origin', 'Waist', 'Head', 'Tail'])
    expect(skin.getInverseBindMatrices()!.getCount()).toBe(4)
    // Blender builds the armature from the joints' node hierarchy.
    expect(skin.listJoints()[2]!.getParentNode()!.getName()).toBe('Waist')
    const meshNodes = root.listNodes().filter((n) => n.getMesh())
    expect(meshNodes.map((n) => [n.getName(), n.getSkin() === skin])).toEqual([['Body', true], ['Eye', true]])
    for (const p of meshNodes.flatMap((n) => n.getMesh()!.listPrimitives())) {
      expect(p.getAttribute('JOINTS_0')).toBeTruthy()
      expect(p.getAttribute('WEIGHTS_0')).toBeTruthy()
    }
    // Blender makes one action per animation, named after it; channels must target joint nodes.
    const anims = root.listAnimations()
    expect(anims.map((a) => a.getName())).toEqual(['4.bin/0', '4.bin/2', '5.bin/0', '6.bin/0', '6.bin/1', '7.bin/0'])
    const joints = new Set(skin.listJoints())
    for (const a of anims) for (const c of a.listChannels()) if (!(a.getExtras() as any).modbench?.placeholderChannel) expect(joints.has(c.getTargetNode()!)).toBe(true)
    const idle = anims[0]!
    const input = idle.listSamplers()[0]!.getInput()!
    expect(input.getMax([0])[0]).toBeCloseTo(20 / 30, 5) // keys reach FC/30
    expect(input.getCount()).toBe(21)
  })

  it('shiny as KHR_materials_variants "shiny" beside "normal"; textures are PNG', async () => {
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))))
    expect(json.extensions.KHR_materials_variants.variants.map((v: any) => v.name)).toEqual(['normal', 'shiny'])
    const prim = json.meshes[0].primitives[0]
    const mappings = prim.extensions.KHR_materials_variants.mappings
    expect(mappings).toEqual([{ material: prim.material, variants: [0] }, { material: expect.any(Number), variants: [1] }])
    expect(json.materials[mappings[1].material].name).toBe('BodyMat (shiny)')
    expect(json.images.every((i: any) => i.mimeType === 'image/png')).toBe(true)
  })

  it('--lod low --no-motions', async () => {
    const out = path.join(tmp, 'low.glb')
    const r = await cli(['gf', 'export', setDir, '--out', out, '--lod', 'low', '--no-motions', '--json'])
    expect(r.code).toBe(0)
    expect(r.json()).toMatchObject({ meshes: 1, animations: 0, lod: 'low' })
    expect((await cli(['gf', 'export', setDir, '--out', out, '--lod', 'mid'])).code).toBe(2)
  })

  it('one unreadable motion fails the export: exit 1, error names file/entry/offset, no file written', async () => {
    const dir = writeSet(path.join(tmp, 'broken-export'), brokenMotionSet())
    const out = path.join(tmp, 'broken.glb')
    const r = await cli(['gf', 'export', dir, '--out', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/6\.bin: entry 0 GFMotion skeletal section at 0x[0-9A-F]+: bone 0 'Waist' transX keys: count 2147483647/)
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(tmp).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })
})

describe('gf export-all', () => {
  it('every set under a folder, one manifest, a broken set listed while the rest go on (exit 1)', async () => {
    const dump = path.join(tmp, 'dump')
    writeSet(path.join(dump, 'a', '0000'), buildSyntheticSet(1).files)
    writeSet(path.join(dump, 'a', '0009'), brokenMotionSet())
    writeSet(path.join(dump, 'b'), buildSyntheticSet(1).files)
    const out = path.join(tmp, 'all')
    const r = await cli(['gf', 'export-all', dump, '--out', out, '--json'])
    expect(r.code).toBe(1)
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    expect(r.json()).toEqual(manifest)
    expect(manifest.map((m: any) => [m.set, m.glb, m.models, m.motions])).toEqual([['a/0000', 'a/0000.glb', 2, 6], ['a/0009', null, 0, 0], ['b', 'b.glb', 2, 6]])
    expect(manifest[1].error).toMatch(/^a\/0009\/6\.bin: entry 0 GFMotion/) // relative to DIR, as `set` is
    expect(existsSync(path.join(out, 'a', '0000.glb')) && existsSync(path.join(out, 'b.glb'))).toBe(true)
    expect((await validate(new Uint8Array(readFileSync(path.join(out, 'b.glb'))))).numErrors).toBe(0)
    expect(r.stderr).toContain(`modbench gf export-all: error: ${path.join(dump, 'a', '0009', '6.bin')}: entry 0 GFMotion`)
  })

  it('follows symbolic links: a set of linked .bin files and a linked set folder are exported, a link loop is walked once (issue 26)', async () => {
    const real = path.join(tmp, 'real-set')
    writeSet(real, buildSyntheticSet(1).files)
    const dump = path.join(tmp, 'linked')
    mkdirSync(path.join(dump, 'files'), { recursive: true })
    for (const n of readdirSync(real)) symlinkSync(path.join(real, n), path.join(dump, 'files', n))
    symlinkSync(real, path.join(dump, 'folder'))
    symlinkSync(dump, path.join(dump, 'files', 'loop'))
    const out = path.join(tmp, 'linked-out')
    const r = await cli(['gf', 'export-all', dump, '--out', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const manifest = r.json()
    expect(manifest.map((m: any) => [m.set, m.glb, m.models])).toEqual([['files', 'files.glb', 2], ['folder', 'folder.glb', 2]])
    for (const g of ['files.glb', 'folder.glb']) expect((await validate(new Uint8Array(readFileSync(path.join(out, g))))).numErrors).toBe(0)
  })

  it('cancel leaves no output folder; progress counts sets', async () => {
    const dump = path.join(tmp, 'dump2')
    for (let i = 0; i < 3; i++) writeSet(path.join(dump, `s${i}`), buildSyntheticSet(1).files)
    const out = path.join(tmp, 'cancelled')
    const ac = new AbortController()
    const seen: [number, number][] = []
    await expect(exportAllSets(dump, out, { signal: ac.signal, progress: (d, t) => { seen.push([d, t]); if (d === 1) ac.abort(new Error('cancelled')) } })).rejects.toThrow('cancelled')
    expect(seen).toEqual([[0, 3], [1, 3]])
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(tmp).filter((n) => n.startsWith('.cancelled'))).toEqual([])
  })
})

describe('catalog: models and motions as searchable assets that open as a scene', () => {
  it('index → find → export of a gf-model and a gf-motion asset', async () => {
    const db = path.join(tmp, 'cat.db')
    expect((await cli(['index', setDir, '--db', db, '--json'])).code).toBe(0)
    const idle = (await cli(['find', 'Idle', '--db', db, '--json'])).json()
    expect(idle.map((a: any) => [a.kind, a.name])).toEqual(expect.arrayContaining([['gf-motion', '4.bin/0 Idle'], ['gf-motion', '6.bin/0 Idle']]))
    const waist = (await cli(['find', 'Waist', '--db', db, '--json'])).json()
    expect(waist.map((a: any) => a.name).sort()).toEqual(['PM_HighPoly', 'PM_LowPoly'])
    const low = waist.find((a: any) => a.name === 'PM_LowPoly')
    const out = path.join(tmp, 'cat-low.glb')
    const r = await cli(['export', String(low.id), '--out', out, '--db', db, '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json()).toMatchObject({ kind: 'gf-model', meshes: 1, skins: 1, animations: 6 })
    expect((await validate(new Uint8Array(readFileSync(out)))).numErrors).toBe(0)
  })
})
