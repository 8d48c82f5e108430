/** `modbench stadium list|export` per CLI.md, bad input handling, exit codes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, writeFileSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { spawnSync } from 'node:child_process'
import { runCli } from '../../../../src-main/cli/main'
import { buildStadiumRom } from '../../../fixtures/stadium/rom-builder'
import { fixtureFiles } from '../../../fixtures/stadium/models'

function io() {
  let out = ''
  let err = ''
  return { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: (s: string) => ((err += s), true) }, get out() { return out }, get err() { return err } }
}
async function cli(argv: string[]) {
  const s = io()
  const code = await runCli(argv, s as never)
  return { code, out: s.out, err: s.err }
}

let dir = ''
let romPath = ''
let rom: Uint8Array
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'stadium-cli-'))
  rom = buildStadiumRom({ files: fixtureFiles(6) })
  romPath = path.join(dir, 'fixture.z64')
  writeFileSync(romPath, rom)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('stadium list', () => {
  it('prints one JSON array with the CLI.md keys', async () => {
    const r = await cli(['stadium', 'list', romPath, '--json'])
    expect(r.code).toBe(0)
    const rows = JSON.parse(r.out)
    expect(rows.length).toBe(6)
    for (const k of ['file', 'species', 'name', 'bones', 'animations', 'textureAnimations']) expect(rows[0]).toHaveProperty(k)
    expect(rows[0]).toMatchObject({ file: 0, species: 1, name: 'Bulbasaur', bones: 4, animations: 5, textureAnimations: 2 })
    expect(rows[1]).toMatchObject({ file: 1, species: 2, bones: 2, animations: 1, textureAnimations: 0 })
    expect(r.err).toMatch(/unverified/)
  })
})

describe('stadium export', () => {
  it('writes glb/NNN_name.glb, manifest.json and moves.json; every glb passes the Khronos validator', async () => {
    const out = path.join(dir, 'out')
    const r = await cli(['stadium', 'export', romPath, '--out', out])
    expect(r.code, r.err).toBe(0)
    expect(r.err).toMatch(/stadium export/)
    const glbs = readdirSync(path.join(out, 'glb')).sort()
    expect(glbs).toEqual(['001_bulbasaur.glb', '002_ivysaur.glb', '003_venusaur.glb', '004_charmander.glb', '005_charmeleon.glb', '006_charizard.glb'])
    const { validateBytes } = (await import('gltf-validator')) as { validateBytes(b: Uint8Array): Promise<{ issues: { numErrors: number; numWarnings: number; messages: unknown[] } }> }
    for (const g of glbs) {
      const rep = await validateBytes(new Uint8Array(readFileSync(path.join(out, 'glb', g))))
      expect(rep.issues.numErrors, `${g}: ${JSON.stringify(rep.issues.messages.slice(0, 3))}`).toBe(0)
    }
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    for (const k of ['source', 'romMd5', 'generator', 'coordinateSystem', 'frameRate', 'generatedEffects', 'animationSlots', 'pokemon', 'extra']) expect(manifest).toHaveProperty(k)
    expect(manifest.frameRate).toBe(30)
    expect(manifest.animationSlots['168']).toMatchObject({ name: 'hit', pipelineName: 'entrance', evidence: 'code' })
    const e = manifest.pokemon[0]
    for (const k of ['species', 'name', 'slug', 'group', 'sourceFile', 'glb', 'textureDir', 'triangles', 'vertices', 'bones', 'textures', 'generatedEffects', 'animations']) expect(e).toHaveProperty(k)
    expect(e).toMatchObject({ species: 1, slug: '001_bulbasaur', group: 'pokemon', sourceFile: '0.bin', glb: 'glb/001_bulbasaur.glb' })
    for (const k of ['index', 'name', 'frames', 'seconds', 'endBehavior', 'loopStartFrame', 'contexts', 'moves', 'moveCount']) expect(e.animations[0]).toHaveProperty(k)
    expect(e.animations[1].endBehavior).toBe('clamp') // the packed16 animation holds
    const moves = JSON.parse(readFileSync(path.join(out, 'moves.json'), 'utf8'))
    expect(moves.moves.length).toBe(165)
    const m1 = moves.moves[0]
    for (const k of ['id', 'name', 'speciesWithOwnAnimation', 'animationNames', 'users']) expect(m1).toHaveProperty(k)
    expect(m1.name).toBe('Pound')
    expect(moves.moves[93].name).toBe('Psychic')
    for (const k of ['species', 'animation', 'animationName', 'aux', 'differsFromDefault']) expect(m1.users[0]).toHaveProperty(k)
    expect(m1.speciesWithOwnAnimation).toBe(m1.users.filter((u: { differsFromDefault: boolean }) => u.differsFromDefault).length)
  })

  it('refuses an existing non-empty output folder and needs --out (usage error)', async () => {
    const r = await cli(['stadium', 'export', romPath])
    expect(r.code).toBe(2)
    const r2 = await cli(['stadium', 'export', romPath, '--out', dir])
    expect(r2.code).toBe(1)
  })
})

describe('bad input: exit 1, file and offset in the message, no output, no hang', () => {
  const cases: [string, () => Uint8Array, RegExp][] = [
    ['truncated ROM', () => rom.subarray(0, 0x920008), /truncated ROM/],
    ['archive entry running past the end', () => {
      const b = rom.slice()
      new DataView(b.buffer).setUint32(0x920000 + 0x10 + 5 * 16 + 4, 0x100000)
      return b
    }, /record\[5\].*runs past/],
  ]
  for (const [name, make, msg] of cases) {
    it(name, async () => {
      const p = path.join(dir, `${name.replace(/\W+/g, '_')}.z64`)
      writeFileSync(p, make())
      const out = path.join(dir, `out_${name.replace(/\W+/g, '_')}`)
      const r = await cli(['stadium', 'export', p, '--out', out])
      expect(r.code).toBe(1)
      expect(r.err).toMatch(msg)
      expect(r.err).toMatch(/\.z64/)
      expect(r.err).toMatch(/at 0x[0-9A-F]+/)
      expect(existsSync(out)).toBe(false)
      const l = await cli(['stadium', 'list', p, '--json'])
      expect(l.code).toBe(1)
      expect(l.out).toBe('')
    })
  }
})

describe('a corrupt model: one failed item (issue 24)', () => {
  it('corrupt Yay0 (back-reference before the start): listed with its error; exported alone, nothing is written', async () => {
    const b = rom.slice()
    const v = new DataView(b.buffer)
    const file0 = 0x920000 + v.getUint32(0x920010)
    const headerSize = v.getUint32(file0 + 8)
    v.setUint32(file0 + headerSize + 0x10, 0) // first mask word: back-reference at output 0
    const p = path.join(dir, 'corrupt_yay0.z64')
    writeFileSync(p, b)
    const out = path.join(dir, 'out_corrupt_yay0')
    // every model it was asked for failed: nothing to write
    const r = await cli(['stadium', 'export', p, '--out', out, '--only', '0'])
    expect(r.code).toBe(1)
    expect(r.err).toMatch(/Yay0.*back-reference before the start/)
    expect(r.err).toMatch(/corrupt_yay0\.z64/)
    expect(r.err).toMatch(/at 0x[0-9A-F]+/)
    expect(existsSync(out)).toBe(false)
    const l = await cli(['stadium', 'list', p, '--json'])
    expect(l.code).toBe(1)
    const rows = JSON.parse(l.out) as { file: number; error?: string }[]
    expect(rows).toHaveLength(6)
    expect(rows.filter((x) => x.error).map((x) => x.file)).toEqual([0])
    expect(rows[0]!.error).toMatch(/Yay0.*back-reference before the start/)
  })
})

describe('spawned CLI exit codes', () => {
  it('0 ok, 1 bad input, 2 usage', () => {
    const bin = path.resolve(import.meta.dirname, '../../../../bin/modbench.mjs')
    const ok = spawnSync(process.execPath, [bin, 'stadium', 'list', romPath, '--json'], { encoding: 'utf8' })
    expect(ok.status).toBe(0)
    expect(JSON.parse(ok.stdout)[0].name).toBe('Bulbasaur')
    const badPath = path.join(dir, 'bad.z64')
    writeFileSync(badPath, rom.subarray(0, 0x1000))
    const bad = spawnSync(process.execPath, [bin, 'stadium', 'list', badPath], { encoding: 'utf8' })
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/bad\.z64/)
    const usage = spawnSync(process.execPath, [bin, 'stadium', 'list'], { encoding: 'utf8' })
    expect(usage.status).toBe(2)
  })
})

describe('stadium diagnose (extra command)', () => {
  it('histograms rawFlags, PERS-SZP tails and render layers', async () => {
    const r = await cli(['stadium', 'diagnose', romPath, '--json'])
    expect(r.code).toBe(0)
    const d = JSON.parse(r.out)
    expect(d.files).toBe(6)
    // rich models (files 0 and 5) have 3 mode-0 joints (rawFlags 1) and 1 mode-1 joint; plain ones 2 mode-1 joints
    expect(d.rawFlags).toEqual({ '0x1': 6, '0x0': 10 })
    expect(d.tailSizes).toEqual({ '0': 5, '24': 1 })
    expect(d.renderLayers).toEqual({ '1': 6, '4': 2 })
  })
})

describe('glb contents', () => {
  it('carries loop info, moves and eye texture swaps in animation extras, float rotations, attach nodes', async () => {
    const out = path.join(dir, 'out-glb')
    expect((await cli(['stadium', 'export', romPath, '--out', out, '--only', '0'])).code).toBe(0)
    const glb = readFileSync(path.join(out, 'glb', '001_bulbasaur.glb'))
    const jsonLen = glb.readUInt32LE(12)
    const gltf = JSON.parse(glb.subarray(20, 20 + jsonLen).toString('utf8'))
    const idle = gltf.animations.find((a: { name: string }) => a.name === 'idle')
    const mb = idle.extras.modbench
    expect(mb.extras).toMatchObject({ startFrame: 1, loopStartFrame: 2, endBehavior: 'wrap', pairedTextureAnimation: 0 })
    // the eye material (channel 0) is latched by C's DL and by D's 0x1E DL (another layer and cull): two materials
    expect(mb.textureSwaps.length).toBe(2)
    for (const sw of mb.textureSwaps) expect(sw.times.length).toBe(10)
    // the game's counters travel with the clip: whole frames, the clip wraps to its frame 2, the
    // eyes (texture animation 0: 10 frames from 0, loop from 0) count on their own at 30 fps
    expect(mb).toMatchObject({ integerFrames: true, loop: true })
    expect(mb.loopStart).toBeCloseTo(2 / 30, 6)
    for (const sw of mb.textureSwaps) expect(sw).toMatchObject({ start: 0, loopStart: 0, hold: false, frameRate: 30 })
    for (const sw of mb.textureSwaps) expect(sw.period).toBeCloseTo(10 / 30, 6)
    const rotSampler = idle.channels.find((c: { target: { path: string } }) => c.target.path === 'rotation').sampler
    expect(gltf.accessors[idle.samplers[rotSampler].output].componentType).toBe(5126) // FLOAT
    const names = gltf.nodes.map((n: { name: string }) => n.name)
    expect(names).toEqual(expect.arrayContaining(['model_root', 'bone00', 'bone00_scale', 'attach_1', 'attach_7', 'attach_100']))
    expect(readdirSync(out).sort()).toEqual(['glb', 'manifest.json', 'moves.json', 'textures'])
  })
})
