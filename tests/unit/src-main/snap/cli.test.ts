import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync, existsSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { spawnSync } from 'node:child_process'
import { gzipSync } from 'fflate'
import { validateBytes } from 'gltf-validator'
import { runCli } from '../../../../src-main/cli/main'
import { buildSnapRom, defaultStage } from '../../../fixtures/snap/build-rom'
import { OVERLAY_TABLE_ROM } from '../../../../src-shared/formats/snap/overlay'

const root = path.resolve(import.meta.dirname, '..', '..', '..', '..')
let dir = ''
let romPath = ''

function collect() {
  let text = ''
  return { write: (s: string) => { text += s; return true }, get text() { return text } }
}
async function cli(...argv: string[]) {
  const stdout = collect(), stderr = collect()
  const code = await runCli(argv, { stdout, stderr } as never)
  return { code, out: stdout.text, err: stderr.text }
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'snap-cli-'))
  romPath = path.join(dir, 'snap.z64')
  writeFileSync(romPath, buildSnapRom().image)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('modbench snap stages', () => {
  it('prints the seven stages with the CLI.md keys', async () => {
    const r = await cli('snap', 'stages', romPath, '--json')
    expect(r.code).toBe(0)
    const list = JSON.parse(r.out) as Record<string, unknown>[]
    expect(list.map((s) => s.name)).toEqual(['beach', 'tunnel', 'cave', 'river', 'volcano', 'valley', 'rainbow'])
    expect(list.map((s) => s.sceneId)).toEqual([0x10, 0x12, 0x14, 0x16, 0x18, 0x1a, 0x1c])
    for (const s of list) {
      for (const k of ['name', 'sceneId', 'pathRooms', 'nonPathRooms', 'hasSkybox', 'objects']) expect(s).toHaveProperty(k)
      expect(s.pathRooms).toBe(4)
      expect(s.nonPathRooms).toBe(1)
      expect(s.hasSkybox).toBe(true)
      expect(s.objects).toBe(9)
    }
    expect(r.err).toMatch(/unverified/)
  })
  it('.v64 and .n64 byte orders and a gzip file give the same answer', async () => {
    const z = readFileSync(romPath)
    const v = Buffer.alloc(z.length), n = Buffer.alloc(z.length)
    for (let i = 0; i < z.length; i += 2) { v[i] = z[i + 1]!; v[i + 1] = z[i]! }
    for (let i = 0; i < z.length; i += 4) { n[i] = z[i + 3]!; n[i + 1] = z[i + 2]!; n[i + 2] = z[i + 1]!; n[i + 3] = z[i]! }
    writeFileSync(path.join(dir, 'snap.v64'), v)
    writeFileSync(path.join(dir, 'snap.n64'), n)
    writeFileSync(path.join(dir, 'snap.z64.gz'), gzipSync(z))
    const a = (await cli('snap', 'stages', romPath, '--json')).out
    expect((await cli('snap', 'stages', path.join(dir, 'snap.v64'), '--json')).out).toBe(a)
    expect((await cli('snap', 'stages', path.join(dir, 'snap.n64'), '--json')).out).toBe(a)
    expect((await cli('snap', 'stages', path.join(dir, 'snap.z64.gz'), '--json')).out).toBe(a)
  })
})

describe('modbench snap track', () => {
  it('blocks in path-room order and N world samples per segment', async () => {
    const r = await cli('snap', 'track', romPath, '--stage', 'tunnel', '--samples', '3', '--json')
    expect(r.code).toBe(0)
    const t = JSON.parse(r.out) as { blocks: { room: number; position: number[]; yaw: number; controlPoints: number[][] }[]; world: number[][] }
    expect(t.blocks.map((b) => b.room)).toEqual([0, 1, 2, 3])
    expect(t.blocks[2]!.position).toEqual([0, 0, 2000])
    expect(t.blocks[0]!.controlPoints.length).toBe(7)
    // 7 control points = 4 B-spline segments per block, 3 samples each, 4 blocks
    expect(t.world.length).toBe(4 * 4 * 3)
    // the first world sample of block 1 is its first control-point window at u = 0, placed at z + 1000
    const cp = t.blocks[1]!.controlPoints
    const u0 = [0, 1, 2].map((c) => (cp[0]![c]! + 4 * cp[1]![c]! + cp[2]![c]!) / 6)
    const w = t.world[12]!
    expect(w[0]).toBeCloseTo(u0[0]!, 3)
    expect(w[1]).toBeCloseTo(u0[1]!, 3)
    expect(w[2]).toBeCloseTo(u0[2]! + 1000, 3)
  })
  it('default is 8 samples per segment; usage errors exit 2', async () => {
    const t = JSON.parse((await cli('snap', 'track', romPath, '--stage', 'beach', '--json')).out) as { world: unknown[] }
    expect(t.world.length).toBe(4 * 4 * 8)
    expect((await cli('snap', 'track', romPath, '--json')).code).toBe(2)
    expect((await cli('snap', 'track', romPath, '--stage', 'moon', '--json')).code).toBe(2)
    expect((await cli('snap', 'track', romPath, '--stage', 'beach', '--samples', 'x')).code).toBe(2)
  })
})

describe('modbench snap export', () => {
  it('writes a glb that passes the Khronos validator', async () => {
    const out = path.join(dir, 'beach.glb')
    const r = await cli('snap', 'export', romPath, '--stage', 'beach', '--out', out, '--json')
    expect(r.code).toBe(0)
    const summary = JSON.parse(r.out) as { rooms: number; triangles: number; curves: number }
    expect(summary.rooms).toBe(5)
    // 4 path rooms and 1 non-path room of 6×6 / 3×3 quads, a 4×4 skybox, one 4-triangle static mesh (shared)
    expect(summary.triangles).toBe(4 * 72 + 18 + 32 + 4)
    expect(summary.curves).toBe(2 + 4)
    const report = await validateBytes(new Uint8Array(readFileSync(out)))
    expect(report.issues.numErrors).toBe(0)
  })
})

describe('bad input: exit 1, a clear message, no output file', () => {
  const bad = async (name: string, image: Uint8Array, pattern: RegExp) => {
    const p = path.join(dir, name)
    writeFileSync(p, image)
    const out = path.join(dir, `${name}.glb`)
    const r = await cli('snap', 'export', p, '--stage', 'beach', '--out', out)
    expect(r.code).toBe(1)
    expect(r.err).toMatch(pattern)
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  }
  it('truncated ROM', async () => bad('trunc.z64', readFileSync(romPath).subarray(0, 0x200000), /runs past the end/))
  it('zeroed overlay table', async () => {
    const img = new Uint8Array(readFileSync(romPath))
    img.fill(0, OVERLAY_TABLE_ROM, OVERLAY_TABLE_ROM + 0x24 * 0x20)
    await bad('zeroed.z64', img, /Overlay\[0x10\] at 0x577C0.*zeroed overlay table/)
  })
  it('pointer outside every chunk', async () => {
    const s = defaultStage(1, 0, 2)
    const built = buildSnapRom({ stages: { beach: s } })
    const dv = new DataView(built.image.buffer)
    const dataRom = built.overlays.get(0x10)!.romStart
    dv.setUint32(dataRom, 0x80654320) // WorldSetup.blocksSetup
    await bad('badptr.z64', built.image, /WorldSetup\.blocksSetup → 0x80654320 is in no mapped chunk/)
  })
  it('a looping display list', async () => {
    const s = defaultStage(1, 0, 2)
    s.pathRooms[0]!.rawDl = [[0xe7000000, 0], [0xde010000, 0]]
    const built = buildSnapRom({ stages: { beach: s } })
    // point the branch at the list itself: find the DL by its two commands
    const img = built.image
    const dv = new DataView(img.buffer)
    let at = -1
    for (let i = built.overlays.get(0x10)!.romStart; i < built.overlays.get(0x10)!.romEnd; i += 8) if (dv.getUint32(i) === 0xe7000000 && dv.getUint32(i + 8) === 0xde010000) { at = i; break }
    expect(at).toBeGreaterThan(0)
    dv.setUint32(at + 12, built.overlays.get(0x10)!.vram + (at - built.overlays.get(0x10)!.romStart))
    await bad("loop.z64", img, /display-list commands \(a loop or a list that never ends\) at 0x8/)
  })
  it('not a Snap ROM: another header name and no Snap overlay layout', async () => {
    const img = new Uint8Array(readFileSync(romPath))
    img.set(new TextEncoder().encode('SOMETHING ELSE      '), 0x20)
    img.fill(0, OVERLAY_TABLE_ROM, OVERLAY_TABLE_ROM + 0x24 * 0x20)
    await bad('other.z64', img, /not a Pokémon Snap ROM/)
  })
  it('another header name over the Snap layout opens with a warning (snap commands say what the file is)', async () => {
    const img = new Uint8Array(readFileSync(romPath))
    img.set(new TextEncoder().encode('SOMETHING ELSE      '), 0x20)
    const p = path.join(dir, 'renamed.z64')
    writeFileSync(p, img)
    const r = await cli('snap', 'stages', p, '--json')
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/header name "SOMETHING ELSE" does not name Pokémon Snap/)
  })
})

describe('spawned CLI exit codes', () => {
  it('0 on success, 1 on bad input, 2 on usage', () => {
    const bin = path.join(root, 'bin', 'modbench.mjs')
    expect(spawnSync(process.execPath, [bin, 'snap', 'stages', romPath, '--json'], { encoding: 'utf8' }).status).toBe(0)
    const trunc = path.join(dir, 'trunc2.z64')
    writeFileSync(trunc, readFileSync(romPath).subarray(0, 0x60000))
    const bad = spawnSync(process.execPath, [bin, 'snap', 'stages', trunc], { encoding: 'utf8' })
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/0x[0-9A-F]+/)
    expect(spawnSync(process.execPath, [bin, 'snap', 'track', romPath], { encoding: 'utf8' }).status).toBe(2)
  })
})

describe('partial damage', () => {
  it('one broken stage fails the listing (exit 1, the stage named); the lenient service lists it with its error', async () => {
    const img = new Uint8Array(readFileSync(romPath))
    img.fill(0, OVERLAY_TABLE_ROM + 0x14 * 0x24, OVERLAY_TABLE_ROM + 0x15 * 0x24)
    const p = path.join(dir, 'cave-broken.z64')
    writeFileSync(p, img)
    const r = await cli('snap', 'stages', p, '--json')
    expect(r.code).toBe(1)
    expect(r.out).toBe('')
    expect(r.err).toMatch(/Overlay\[0x14\] at 0x57850/)
    const { listStages } = await import('../../../../src-main/domains/snap/stages')
    const { loadSnapRom } = await import('../../../../src-main/domains/snap/rom-file')
    const list = listStages(await loadSnapRom(p), { lenient: true })
    expect(list.find((s) => s.name === 'cave')!.error).toMatch(/Overlay\[0x14\]/)
    expect(list.find((s) => s.name === 'beach')!.pathRooms).toBe(4)
  })
  it('a compact image without the Photo ranges opens with a warning (overlays inside it)', async () => {
    const compact = buildSnapRom({ dataRom: 0x60000 }).image
    expect(compact.length).toBeLessThan(0x13c780)
    const p = path.join(dir, 'compact.z64')
    writeFileSync(p, compact)
    const r = await cli('snap', 'track', p, '--stage', 'valley', '--json')
    expect(r.code).toBe(0)
    expect((JSON.parse(r.out) as { blocks: unknown[] }).blocks.length).toBe(4)
    expect(r.err).toMatch(/valley Photo range 0x47CF30\.\.0x4A8160 lies past the end/)
  })
})
