import { describe, expect, it, beforeAll, afterAll } from 'vitest'
import { mkdtempSync, writeFileSync, readFileSync, existsSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import * as path from 'node:path'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { runCli } from '../../../../src-main/cli/main'
import { readMotlist, sampleMot, eulerToQuat, parseEmvPoses } from '../../../../src-shared/formats/re'
import { buildTemplateMotlist, buildStandaloneMot } from '../../../fixtures/re/template'
import { twoPoseFile, SEED_SNIPPET } from '../../../fixtures/re/poses'
import { spec103Bytes } from '../../../fixtures/re/spec-vectors'

const root = path.resolve(import.meta.dirname, '../../../..')

async function cli(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: { write: (s: string) => ((stdout += s), true) } as unknown as NodeJS.WriteStream,
    stderr: { write: (s: string) => ((stderr += s), true) } as unknown as NodeJS.WriteStream,
  })
  return { code, stdout, stderr }
}

let dir: string
let template: string
let poseFile: string
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex')

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'modbench-re-'))
  template = path.join(dir, 'template.motlist.663')
  writeFileSync(template, buildTemplateMotlist())
  poseFile = path.join(dir, 'AppResident.Instance.Body.test.json')
  writeFileSync(poseFile, twoPoseFile())
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('re info', () => {
  it('--json has exactly the CLI.md keys', async () => {
    const r = await cli('re', 'info', template, '--json')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j).toMatchObject({ kind: 'motlist', version: 663, name: 'fixture_template' })
    expect(j.motions).toHaveLength(3)
    const m = j.motions[0]
    for (const k of ['index', 'id', 'name', 'frameCount', 'frameRate', 'bones', 'tracks']) expect(m).toHaveProperty(k)
    expect(j.motions.map((x: { id: number }) => x.id)).toEqual([155, 160, 162])
    expect(j.motions.map((x: { name: string }) => x.name)).toEqual(['fixture_idle', 'fixture_idle', 'fixture_wave'])
    expect(m.bones[0]).toEqual({ name: 'root', hash: 2879905340, parent: null })
    expect(m.bones[1]).toEqual({ name: 'Hip', hash: 1549972489, parent: 'root' })
    for (const t of m.tracks) {
      expect(Object.keys(t).sort()).toEqual(['bone', 'channels', 'hash', 'keys'])
      expect(t.channels).toHaveLength(1)
      expect(['translation', 'rotation', 'scale']).toContain(t.channels[0])
    }
    expect(m.tracks.filter((t: { channels: string[] }) => t.channels[0] === 'rotation')).toHaveLength(40)
    expect(m.tracks[0]).toEqual({ bone: 'root', hash: 2879905340, channels: ['translation'], keys: 7 })
  })
  it('reads the spec §10.3 file and a standalone mot', async () => {
    const p = path.join(dir, 'spec.motlist.663')
    writeFileSync(p, spec103Bytes())
    const j = JSON.parse((await cli('re', 'info', p, '--json')).stdout)
    expect(j.motions[0].tracks).toEqual([
      { bone: 'root', hash: 2879905340, channels: ['rotation'], keys: 2 },
      { bone: 'Hip', hash: 1549972489, channels: ['translation'], keys: 2 },
      { bone: 'Hip', hash: 1549972489, channels: ['rotation'], keys: 2 },
    ])
    const mp = path.join(dir, 'walk.mot.613')
    writeFileSync(mp, buildStandaloneMot(613))
    const jm = JSON.parse((await cli('re', 'info', mp, '--json')).stdout)
    expect(jm).toMatchObject({ kind: 'mot', version: 613, name: 'fixture_mot' })
  })
  it('prints human text without --json', async () => {
    const r = await cli('re', 'info', template)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/motlist version 663/)
    expect(() => JSON.parse(r.stdout)).toThrow()
  })
})

describe('re sample', () => {
  it('--json gives bone, translation, rotation (x y z w), scale', async () => {
    const p = path.join(dir, 'spec2.motlist.663')
    writeFileSync(p, spec103Bytes())
    const r = await cli('re', 'sample', p, '--motion', '0', '--frame', '1', '--json')
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.map((b: { bone: string }) => b.bone)).toEqual(['root', 'Hip'])
    expect(j[1].translation).toEqual([0, 1, 0])
    j[1].rotation.forEach((v: number, i: number) => expect(v).toBeCloseTo([0, 0.7071068, 0, 0.7071068][i]!, 6))
    expect(j[1].scale).toEqual([1, 1, 1])
  })
  it('rejects a motion index out of range (exit 1) and a bad frame (exit 2)', async () => {
    expect((await cli('re', 'sample', template, '--motion', '9', '--frame', '0', '--json')).code).toBe(1)
    expect((await cli('re', 'sample', template, '--motion', '0', '--frame', 'x')).code).toBe(2)
  })
})

describe('re pose2motlist', () => {
  it('writes name.motlist.663 that reads back to the pose; unknown bones on stderr; template untouched', async () => {
    const before = sha(template)
    const out = path.join(dir, 'out', 'ada_pose')
    const r = await cli('re', 'pose2motlist', '--template', template, '--pose', poseFile, '--out', out, '--json')
    expect(r.code, r.stderr).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.out).toBe(`${out}.motlist.663`)
    expect(j).toMatchObject({ version: 663, pose: 'ArmsDown', unknownBones: ['ch_Hair_07'] })
    expect(r.stderr).toMatch(/unknown bone "ch_Hair_07"/)
    expect(sha(template)).toBe(before)
    const ml = readMotlist(new Uint8Array(readFileSync(j.out)))
    const s = new Map(sampleMot(ml.mots[0]!, ml.skeleton, 0).map((b) => [b.bone, b.rotation]))
    eulerToQuat([0.2, 0.6, -0.1]).forEach((v, i) => expect(Math.abs(s.get('Head')![i]! - v)).toBeLessThan(1e-6))
    expect(ml.name).toBe('ada_pose')
    // no temp files left next to it
    expect(readdirSync(path.dirname(j.out))).toEqual(['ada_pose.motlist.663'])
  })
  it('--pose-name picks a pose; --order changes the conversion', async () => {
    const out = path.join(dir, 'sit.motlist.663')
    const r = await cli('re', 'pose2motlist', '--template', template, '--pose', poseFile, '--pose-name', 'Sit', '--out', out, '--order', 'zxy')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/pose "Sit"/)
    const ml = readMotlist(new Uint8Array(readFileSync(out)))
    const thigh = sampleMot(ml.mots[0]!, ml.skeleton, 0).find((b) => b.bone === 'L_Thigh')!
    eulerToQuat([-1.5, 0.1, 0], 'ZXY').forEach((v, i) => expect(Math.abs(thigh.rotation[i]! - v)).toBeLessThan(1e-6))
  })
  it('a seed-style pose against an unrelated skeleton: every bone unknown, still a valid file', async () => {
    const p = path.join(dir, 'seed.json')
    writeFileSync(p, SEED_SNIPPET)
    const r = await cli('re', 'pose2motlist', '--template', template, '--pose', p, '--out', path.join(dir, 'seed_out.motlist.663'))
    expect(r.code).toBe(0)
    expect(r.stderr.match(/unknown bone/g)).toHaveLength(3)
  })

  const bad: [string, () => string[], RegExp, number][] = [
    ['unsupported version', () => {
      const b = buildTemplateMotlist()
      new DataView(b.buffer).setUint32(0, 999, true)
      const p = path.join(dir, 'v999.motlist.663')
      writeFileSync(p, b)
      return ['--template', p, '--pose', poseFile]
    }, /v999\.motlist\.663.*motlist version 999 is not supported; supported: .*663/, 1],
    ['truncated template', () => {
      const p = path.join(dir, 'cut.motlist.663')
      writeFileSync(p, buildTemplateMotlist().subarray(0, 700))
      return ['--template', p, '--pose', poseFile]
    }, /cut\.motlist\.663.*at 0x/, 1],
    ['foreign template', () => {
      const p = path.join(dir, 'foreign.motlist.663')
      writeFileSync(p, 'hello, not a motlist at all')
      return ['--template', p, '--pose', poseFile]
    }, /foreign\.motlist\.663.*not an RE Engine motion file/, 1],
    ['missing template', () => ['--template', path.join(dir, 'nope.motlist.663'), '--pose', poseFile], /nope\.motlist\.663.*file not found/, 1],
    ['malformed JSON', () => {
      const p = path.join(dir, 'broken.json')
      writeFileSync(p, '{"P": {"Hip": {"_LocalEulerAngle": "vec:1 2 3"}')
      return ['--template', template, '--pose', p]
    }, /broken\.json.*malformed JSON/, 1],
    ['malformed vec', () => {
      const p = path.join(dir, 'badvec.json')
      writeFileSync(p, '{"P": {"Hip": {"_LocalEulerAngle": "vec:1 two 3"}}}')
      return ['--template', template, '--pose', p]
    }, /badvec\.json: \$\["P"\]\["Hip"\]\["_LocalEulerAngle"\]: component 1 "two"/, 1],
    ['unknown pose name', () => ['--template', template, '--pose', poseFile, '--pose-name', 'Dance'], /no pose named "Dance"/, 1],
    ['bad order', () => ['--template', template, '--pose', poseFile, '--order', 'XXY'], /--order takes one of/, 2],
  ]
  it.each(bad)('%s → exit %#, no output file', async (_, args, re, code) => {
    const out = path.join(dir, `bad_${Math.random().toString(36).slice(2)}.motlist.663`)
    const r = await cli('re', 'pose2motlist', ...args(), '--out', out)
    expect(r.code).toBe(code)
    expect(r.stderr).toMatch(re)
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })
  it('missing --out is a usage error (exit 2)', async () => {
    const r = await cli('re', 'pose2motlist', '--template', template, '--pose', poseFile)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--out is required/)
  })
  it('refuses to overwrite the template', async () => {
    const r = await cli('re', 'pose2motlist', '--template', template, '--pose', poseFile, '--out', template)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/is an input of this command/)
  })
})

describe('re motion2pose', () => {
  it('exports a motion frame as EMV JSON that converts back to the same rotations', async () => {
    const p = path.join(dir, 'spec3.motlist.663')
    writeFileSync(p, spec103Bytes())
    const out = path.join(dir, 'exported.json')
    const r = await cli('re', 'motion2pose', p, '--motion', '0', '--out', out)
    expect(r.code, r.stderr).toBe(0)
    const [pose] = parseEmvPoses(readFileSync(out, 'utf8'))
    const hip = pose!.joints.find((j) => j.name === 'Hip')!
    expect(hip.euler![1]).toBeCloseTo(Math.PI / 2, 6)
    expect(hip.position).toEqual([0, 1, 0])
  })
})

describe('the real binary', () => {
  it('exit codes 0 / 1 / 2 from node bin/modbench.mjs', () => {
    const run = (...a: string[]) => spawnSync(process.execPath, [path.join(root, 'bin/modbench.mjs'), ...a], { encoding: 'utf8', cwd: root })
    const ok = run('re', 'info', template, '--json')
    expect(ok.status, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout).version).toBe(663)
    const b = buildTemplateMotlist()
    new DataView(b.buffer).setUint32(0, 999, true)
    const p = path.join(dir, 'spawn999.motlist.663')
    writeFileSync(p, b)
    const bad = run('re', 'info', p)
    expect(bad.status).toBe(1)
    expect(bad.stderr).toMatch(/motlist version 999 is not supported; supported:/)
    expect(run('re', 'pose2motlist', '--template', template).status).toBe(2)
  })
})
