import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { validateBytes } from 'gltf-validator'
import { NodeIO } from '@gltf-transform/core'
import { cli as helperCli } from '../../../helpers/cli'
import { buildSnapRom } from '../../../fixtures/snap/build-rom'
import { parseStage } from '../../../../src-shared/formats/snap/stage'
import { findStageActors } from '../../../../src-shared/formats/snap/actors'
import { mipsAsm as A } from '../../../../src-shared/formats/snap/mips'

let dir = ''
let romPath = ''
let badPath = ''

async function cli(...argv: string[]) {
  const r = await helperCli(argv)
  return { code: r.code, out: r.stdout, err: r.stderr }
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'snap-actors-'))
  romPath = path.join(dir, 'snap.z64')
  const image = buildSnapRom().image
  writeFileSync(romPath, image)
  // the Beach's id-26 init becomes `b .` (a loop): that actor is listed with its error
  const bad = image.slice()
  const sa = findStageActors(parseStage(bad, 'beach'), bad)
  const at = sa.maps.stage.romOffset(sa.actors.find((a) => a.id === 26)!.def!.init)!
  new DataView(bad.buffer).setUint32(at, A.b(-1))
  new DataView(bad.buffer).setUint32(at + 4, 0)
  badPath = path.join(dir, 'bad.z64')
  writeFileSync(badPath, bad)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function validate(file: string) {
  const rep = await validateBytes(new Uint8Array(readFileSync(file)))
  expect(rep.issues.numErrors, JSON.stringify(rep.issues.messages.slice(0, 5))).toBe(0)
}

describe('modbench snap actors', () => {
  it('lists every actor with the CLI.md keys', async () => {
    const r = await cli('snap', 'actors', romPath, '--stage', 'beach', '--json')
    expect(r.code).toBe(0)
    const list = JSON.parse(r.out) as Record<string, unknown>[]
    for (const a of list) for (const k of ['id', 'name', 'spawns', 'nodes', 'meshes', 'triangles', 'animations', 'materialTracks', 'hd']) expect(a).toHaveProperty(k)
    expect(list.map((a) => [a.id, a.name, a.nodes, a.triangles, a.hd])).toEqual([[0, 'zero-one', 2, 4, false], [26, 'Raichu', 2, 4, true], [25, 'Pikachu', 1, 2, false]])
    const raichu = list[1] as { animations: { name: string; frames: number }[]; materialTracks: number; spawns: number }
    expect(raichu.animations.map((a) => a.frames)).toEqual([20, 10])
    expect(raichu.animations[0]!.name).toMatch(/^0x802C[0-9A-F]{4}$/)
    expect(raichu.materialTracks).toBe(1)
    expect(raichu.spawns).toBe(1)
  })
  it('a broken actor is listed with its error; the others go on (exit 0)', async () => {
    const r = await cli('snap', 'actors', badPath, '--stage', 'beach', '--json')
    expect(r.code).toBe(0)
    const list = JSON.parse(r.out) as { id: number; error?: string }[]
    expect(list.find((a) => a.id === 26)!.error).toMatch(/PokemonDef\[0\] \(id 26\) init 0x802C[0-9A-F]+.*no spawn-helper call within 4096 instructions/)
    expect(list.filter((a) => !a.error).map((a) => a.id)).toEqual([0, 25])
  })
  it('usage errors exit 2', async () => {
    expect((await cli('snap', 'actors', romPath)).code).toBe(2)
    expect((await cli('snap', 'actors', romPath, '--stage', 'moon')).code).toBe(2)
  })
})

describe('modbench snap actor', () => {
  it('writes one actor: joints `node <i>`, a skin, animations named after their headers; validator 0 errors', async () => {
    const out = path.join(dir, 'raichu.glb')
    const r = await cli('snap', 'actor', romPath, '--stage', 'beach', '--id', '26', '--out', out, '--json')
    expect(r.code, r.err).toBe(0)
    await validate(out)
    const doc = await new NodeIO().readBinary(new Uint8Array(readFileSync(out)))
    const root = doc.getRoot()
    expect(root.listNodes().map((n) => n.getName()).filter((n) => n.startsWith('node '))).toEqual(['node 0', 'node 1'])
    expect(root.listSkins()[0]!.listJoints().map((j) => j.getName())).toEqual(['node 0', 'node 1'])
    const anims = root.listAnimations().map((a) => a.getName())
    expect(anims).toEqual((JSON.parse(r.out) as { animations: string[] }).animations)
    expect(anims[0]).toMatch(/^0x802C[0-9A-F]{4}$/)
    // the default clip lasts 20 frames at 30 fps
    const input = root.listAnimations()[0]!.listSamplers()[0]!.getInput()!.getArray()!
    expect(input[input.length - 1]).toBeCloseTo(20 / 30, 5)
  })
  it('--hd uses the HD photo model; an actor without one is an error and writes nothing', async () => {
    const out = path.join(dir, 'raichu-hd.glb')
    expect((await cli('snap', 'actor', romPath, '--stage', 'beach', '--id', '26', '--hd', '--out', out)).code).toBe(0)
    await validate(out)
    const none = path.join(dir, 'pika-hd.glb')
    const r = await cli('snap', 'actor', romPath, '--stage', 'beach', '--id', '25', '--hd', '--out', none)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/no HD photo model/)
    expect(existsSync(none)).toBe(false)
  })
  it('the Zero-One and the shared-overlay Pikachu export; by name too', async () => {
    for (const id of ['0', 'pikachu']) {
      const out = path.join(dir, `a-${id}.glb`)
      const r = await cli('snap', 'actor', romPath, '--stage', 'beach', '--id', id, '--out', out)
      expect(r.code, r.err).toBe(0)
      await validate(out)
    }
  })
  it('a broken actor, or an unknown id: exit 1 naming the structure, no file', async () => {
    const out = path.join(dir, 'bad.glb')
    const r = await cli('snap', 'actor', badPath, '--stage', 'beach', '--id', '26', '--out', out)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/init 0x802C/)
    expect(existsSync(out)).toBe(false)
    const u = await cli('snap', 'actor', romPath, '--stage', 'beach', '--id', '99', '--out', out)
    expect(u.code).toBe(1)
    expect(u.err).toMatch(/no actor "99" on beach/)
  })
})

describe('modbench snap export with actors', () => {
  it('one node `spawn <i> <name>` per spawn whose actor resolves, at T · R · S(0.1 × scale); --no-actors leaves them out', async () => {
    const out = path.join(dir, 'beach.glb')
    const r = await cli('snap', 'export', romPath, '--stage', 'beach', '--out', out, '--json')
    expect(r.code, r.err).toBe(0)
    expect((JSON.parse(r.out) as { actors: number }).actors).toBe(2)
    await validate(out)
    const doc = await new NodeIO().readBinary(new Uint8Array(readFileSync(out)))
    const nodes = doc.getRoot().listNodes()
    const inst = nodes.filter((n) => /^spawn \d+ /.test(n.getName()) && !n.getName().endsWith(' mesh'))
    // spawn 0 is path room 0's first spawn (id 25), spawn 2 path room 1's first (id 26)
    expect(inst.map((n) => n.getName())).toEqual(['spawn 0 Pikachu', 'spawn 2 Raichu'])
    const raichu = inst[1]!
    // Raichu: scale 2 → 0.2; a ground spawn takes Y from the height map: x = (0 + 3)·100 > 0 → 0.5 m → 50
    for (const v of raichu.getScale()) expect(v).toBeCloseTo(0.2, 6)
    expect(raichu.getTranslation()[0]).toBeCloseTo(300, 4)
    expect(raichu.getTranslation()[1]).toBeCloseTo(50, 4)
    expect(raichu.getTranslation()[2]).toBeCloseTo((10 + 3) * 100, 4)
    expect(raichu.listChildren().map((c) => c.getName())).toEqual(['node 0'])
    // Pikachu is a free (flying) spawn: Y = (block.y + t.y) × 100 = 0; scale 1 → 0.1
    expect(inst[0]!.getTranslation()[1]).toBeCloseTo(0, 4)
    expect(inst[0]!.getScale()[0]).toBeCloseTo(0.1, 6)
    const plain = path.join(dir, 'beach-plain.glb')
    const p = await cli('snap', 'export', romPath, '--stage', 'beach', '--out', plain, '--no-actors', '--json')
    expect((JSON.parse(p.out) as { actors: number }).actors).toBe(0)
    const doc2 = await new NodeIO().readBinary(new Uint8Array(readFileSync(plain)))
    expect(doc2.getRoot().listNodes().some((n) => /^spawn \d+ /.test(n.getName()))).toBe(false)
    // the Zero-One rides the main track: its clip starts at the track's first point
    const ride = doc.getRoot().listAnimations().find((a) => a.getName() === 'zero-one ride')!
    const zero = nodes.find((n) => n.getName() === 'zero-one')!
    const ch = ride.listChannels().find((c) => c.getTargetPath() === 'translation')!
    expect(ch.getTargetNode()).toBe(zero)
    const v = ch.getSampler()!.getOutput()!.getArray()!
    const track = JSON.parse((await cli('snap', 'track', romPath, '--stage', 'beach', '--json')).out) as { world: number[][] }
    expect([v[0], v[1], v[2]].map((x) => Math.round(x!))).toEqual(track.world[0]!.map((x) => Math.round(x)))
    expect(zero.listChildren().map((c) => c.getName())).toEqual(['node 0'])
  })
  it('a broken actor does not stop the stage export', async () => {
    const out = path.join(dir, 'beach-bad.glb')
    const r = await cli('snap', 'export', badPath, '--stage', 'beach', '--out', out, '--json')
    expect(r.code).toBe(0)
    expect((JSON.parse(r.out) as { actors: number }).actors).toBe(1)
    expect(r.err).toMatch(/Raichu \(id 26\).*no spawn-helper call/)
  })
})

describe('catalog: actors under their stage, searchable by species', () => {
  it('index then find pikachu', async () => {
    const db = path.join(dir, 'cat.db')
    expect((await cli('index', romPath, '--db', db, '--json')).code).toBe(0)
    const r = await cli('find', 'pikachu', '--db', db, '--json')
    const hits = JSON.parse(r.out) as { kind: string; name: string; id: number }[]
    const actors = hits.filter((h) => h.kind === 'snap-actor')
    expect(actors.length).toBe(4) // Beach, Tunnel, Cave, River load the pikachu overlay
    expect(actors[0]!.name).toBe('Pikachu (#25)')
    // the HD photo model is its own entry (Beach only) and exports with the HD tree
    const raichu = (JSON.parse((await cli('find', 'raichu', '--db', db, '--json')).out) as { kind: string; name: string; id: number }[]).filter((h) => h.kind === 'snap-actor')
    expect(raichu.filter((h) => h.name.endsWith('HD photo model')).map((h) => h.name)).toEqual(['Raichu (#26) HD photo model'])
    expect(raichu.length).toBe(7 + 1)
    const hdOut = path.join(dir, 'cat-hd.glb')
    const hd = await cli('export', String(raichu.find((h) => h.name.endsWith('HD photo model'))!.id), '--db', db, '--out', hdOut)
    expect(hd.code, hd.err).toBe(0)
    await validate(hdOut)
    const out = path.join(dir, 'cat-pika.glb')
    const e = await cli('export', String(actors[0]!.id), '--db', db, '--out', out)
    expect(e.code, e.err).toBe(0)
    await validate(out)
  })
})
