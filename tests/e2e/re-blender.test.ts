/**
 * The RE round trip through the real client: our glb (`re export`) → Blender 3.4 import → Blender
 * export glb → `re import --template` → the original motions within 1e-4, motion ids kept.
 * (`--template`, and `--into` the original). One Blender run (tests/helpers/blender-gltf.py) does
 * five jobs:
 *   a game-style motlist (no bone headers) exported with the character's mesh (--skeleton), back
 *   --into it with the mesh as --skeleton;
 *   default import settings (Bone Dir: Temperance), scene at the motions' 60 fps;
 *   import option bone_heuristic = BLENDER ("Bone Dir: Blender");
 *   default settings with one bone turned 60° about the world vertical at one frame (the edit must
 *   come back, the other frames unchanged);
 *   Blender's factory settings as they are (24 fps scene): `re import` warns naming both rates.
 * Blender missing (or its Python without numpy) fails the test in CI (CI=true), and skips it with
 * a message elsewhere. BLENDER names another binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { blenderMissing, inCi, runBlenderJobs } from '../helpers/blender'
import { cli } from '../helpers/cli'
import { buildTemplateMotlist } from '../fixtures/re/template'
import { buildGameMotlist } from '../fixtures/re/game-motlist'
import { characterBones, characterMesh, eightWeightSubmesh, stripSubmesh } from '../fixtures/re/mesh'
import { motionsOf, readMotionFile, readMesh, meshSkeletonBones, sampleMot, quatMultiply, quatConjugate, type MotionFile, type Quat } from '../../src-shared/formats/re'
import { motionDifference } from '../helpers/re-motion'

const missing = blenderMissing()
if (missing && !inCi) console.warn(`re-blender: ${missing}; the Blender round trip is skipped (CI installs blender and python3-numpy and runs it)`)

/** characterMesh's remap [1, 3, 4, 5, 6] and three more bones, so the 8 slots name 8 bones. */
const EIGHT_REMAP = [1, 3, 4, 5, 6, 0, 2, 7]
const EDIT = { bone: 'L_UpperArm', frame: 12, degrees: 60 } // a bone the motion animates: Blender keys it at every frame
let dir: string
const p = (f: string) => path.join(dir, f)

/** Rotation of every bone's world frame at a frame of a motion (quaternion forward kinematics from sampleMot's local values). */
function worldRotations(file: MotionFile, motion: number, frame: number): Map<string, Quat> {
  const m = motionsOf(file)[motion]!
  const sk = m.skeleton!
  const local = new Map(sampleMot(m.mot!, sk, frame).map((x) => [x.boneIndex, x.rotation]))
  const out: Quat[] = []
  sk.forEach((b, i) => {
    const r = local.get(i) ?? b.rotation
    out[i] = b.parent >= 0 ? quatMultiply(out[b.parent]!, r) : r
  })
  return new Map(sk.map((b, i) => [b.name, out[i]!]))
}

const motionError = motionDifference

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-e2e-blender-'))
  fs.writeFileSync(p('t.motlist.663'), buildTemplateMotlist({ motlistName: 'blender_rt' }))
  // as the game ships them: a motlist without bone headers, the skeleton (and skin) in the mesh
  fs.writeFileSync(p('game.motlist.663'), buildGameMotlist())
  // LOD 0 with a third submesh whose vertex 0 has 8 weighted bones (glb JOINTS_1/WEIGHTS_1)
  fs.writeFileSync(p('cha.mesh.221108797'), characterMesh('C', { remap: EIGHT_REMAP, lods: [[[stripSubmesh(0, 8, 0, 1), stripSubmesh(1, 6, 2, 3, 1), eightWeightSubmesh(0, 2)]], [[stripSubmesh(0, 4, 0, 1)]]] }))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe.skipIf(!!missing && !inCi)('RE motions through Blender 3.4 and back', () => {
  it('default settings, Bone Dir: Blender, an edited bone, and the 24 fps warning', async () => {
    expect(missing, 'CI must install Debian\'s blender and python3-numpy (.ci/run)').toBeNull()
    expect((await cli(['re', 'export', p('t.motlist.663'), '--out', p('all.glb')])).code).toBe(0)
    expect((await cli(['re', 'export', p('t.motlist.663'), '--motion', '2', '--out', p('wave.glb')])).code).toBe(0)
    expect((await cli(['re', 'export', p('game.motlist.663'), '--skeleton', p('cha.mesh.221108797'), '--out', p('game.glb')])).code).toBe(0)
    const jobs = [
      { in: p('game.glb'), out: p('game_back.glb'), fps: 60, groups: true },
      { in: p('all.glb'), out: p('default.glb'), fps: 60 },
      { in: p('all.glb'), out: p('heuristic.glb'), fps: 60, import: { bone_heuristic: 'BLENDER' } },
      { in: p('wave.glb'), out: p('edit.glb'), fps: 60, edit: EDIT },
      { in: p('wave.glb'), out: p('factory.glb') },
    ]
    fs.writeFileSync(p('jobs.json'), JSON.stringify(jobs))
    const run = runBlenderJobs(p('jobs.json'))
    expect(run.status, `blender: ${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`).toBe(0)
    expect(run.stdout.match(/^JOB \d+:/gm)).toHaveLength(5)

    // Blender reads all 8 influences of the mesh's vertex (JOINTS_0/1, WEIGHTS_0/1) into 8 vertex
    // groups: the bone of each slot through the remap, weight byte / 255 (the bytes sum to 255).
    const groups = /^JOB 0:.*groups (\d+): (.*)$/m.exec(run.stdout)
    expect(groups, run.stdout).not.toBeNull()
    expect(Number(groups![1])).toBe(8)
    const boneNames = characterBones().map((b) => b.name)
    const expected = [[3, 100], [1, 60], [6, 40], [2, 20], [5, 15], [0, 10], [7, 6], [4, 4]].map(([slot, byte]) => [boneNames[EIGHT_REMAP[slot!]!]!, byte! / 255] as const)
    const got = groups![2]!.split(' ').map((g) => g.split('='))
    expect(got.map((g) => g[0])).toEqual(expected.map((e) => e[0]))
    got.forEach((g, k) => expect(Number(g[1]), g[0]).toBeCloseTo(expected[k]![1], 5))

    // A game motlist and the character's mesh (skinned, in the glb): --into the original with the
    // mesh as --skeleton; ids and the headerless layout kept.
    const g = await cli(['re', 'import', '--gltf', p('game_back.glb'), '--into', p('game.motlist.663'), '--skeleton', p('cha.mesh.221108797'), '--out', p('game_into'), '--json'])
    expect(g.code, g.stderr).toBe(0)
    expect(g.json().warnings).toEqual([])
    const game = readMotionFile(new Uint8Array(fs.readFileSync(p('game.motlist.663'))))
    const gameBack = readMotionFile(new Uint8Array(fs.readFileSync(g.json().out)))
    const meshBones = meshSkeletonBones(readMesh(new Uint8Array(fs.readFileSync(p('cha.mesh.221108797'))), p('cha.mesh.221108797')))
    expect(motionsOf(gameBack).map((m) => [m.id, m.mot!.bones])).toEqual(motionsOf(game).map((m) => [m.id, null]))
    for (let i = 0; i < motionsOf(game).length; i++) expect(motionError(game, i, gameBack, i, undefined, meshBones), `game motion ${i}`).toBeLessThan(1e-4)

    const orig = readMotionFile(new Uint8Array(fs.readFileSync(p('t.motlist.663'))))
    const names = ['fixture_idle', 'fixture_idle [1]', 'fixture_wave']
    for (const glb of ['default', 'heuristic']) {
      const r = await cli(['re', 'import', '--gltf', p(`${glb}.glb`), '--template', p('t.motlist.663'), ...names.flatMap((n) => ['--animation', n]), '--out', p(`back_${glb}`), '--json'])
      expect(r.code, r.stderr).toBe(0)
      const j = r.json()
      expect(j.warnings).toEqual([])
      expect(j.motions.map((m: { mot: string; motionId: number }) => [m.mot, m.motionId])).toEqual([['fixture_idle', 155], ['fixture_idle', 160], ['fixture_wave', 162]])
      const back = readMotionFile(new Uint8Array(fs.readFileSync(j.out)))
      for (let i = 0; i < 3; i++) expect(motionError(orig, i, back, i), `${glb}: motion ${i}`).toBeLessThan(1e-4)
    }

    // --into the original: the two animations of the shared mot name one mot (the second is skipped
    // with a warning); every motion and id comes back, every other byte is the original's.
    const into = await cli(['re', 'import', '--gltf', p('default.glb'), '--into', p('t.motlist.663'), '--out', p('back_into'), '--json'])
    expect(into.code, into.stderr).toBe(0)
    expect(into.json().warnings.join('\n')).toMatch(/"fixture_idle \[1\]": mot "fixture_idle" is already replaced/)
    const intoFile = readMotionFile(new Uint8Array(fs.readFileSync(into.json().out)))
    expect(motionsOf(intoFile).map((m) => m.id)).toEqual([155, 160, 162])
    for (let i = 0; i < 3; i++) expect(motionError(orig, i, intoFile, i), `--into: motion ${i}`).toBeLessThan(1e-4)

    // The edit: L_UpperArm turned 60° about the world vertical (Blender's Z = glTF's +Y) at frame 12:
    // new world rotation = Q·P·L, so its local rotation is P⁻¹·Q·P·L (P its parent's world rotation).
    const r = await cli(['re', 'import', '--gltf', p('edit.glb'), '--template', p('t.motlist.663'), '--out', p('back_edit'), '--json'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.json().motions[0].motionId).toBe(162)
    const half = (EDIT.degrees * Math.PI) / 360
    const Q: Quat = [0, Math.sin(half), 0, Math.cos(half)]
    const m = motionsOf(orig)[2]!
    const parent = m.skeleton![m.skeleton!.find((b) => b.name === EDIT.bone)!.parent]!.name
    const P = worldRotations(orig, 2, EDIT.frame).get(parent)!
    const L = sampleMot(m.mot!, m.skeleton, EDIT.frame).find((s) => s.bone === EDIT.bone)?.rotation ?? m.skeleton!.find((b) => b.name === EDIT.bone)!.rotation
    const edited = quatMultiply(quatMultiply(quatMultiply(quatConjugate(P), Q), P), L)
    const back = readMotionFile(new Uint8Array(fs.readFileSync(r.json().out)))
    expect(motionError(orig, 2, back, 0, { bone: EDIT.bone, frame: EDIT.frame, rotation: edited })).toBeLessThan(1e-4)
    expect(motionError(orig, 2, back, 0)).toBeGreaterThan(0.1)

    // Blender's factory 24 fps scene resamples the 60 fps motion: a warning names both rates.
    const w = await cli(['re', 'import', '--gltf', p('factory.glb'), '--template', p('t.motlist.663'), '--out', p('back_24'), '--json'])
    expect(w.code, w.stderr).toBe(0)
    expect(w.json().warnings.join('\n')).toMatch(/"fixture_wave": its keys lie on a 24 fps grid, the target plays at 60 fps.*Frame Rate\) to 60 fps/)
    expect(w.json().motions[0].motionId).toBe(162)
  })
})
