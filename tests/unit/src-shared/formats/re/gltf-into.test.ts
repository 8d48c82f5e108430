import { describe, expect, it } from 'vitest'
import { readGltfAnimations } from '../../../../../src-shared/export/gltf-read'
import { importInto, motionsOf, readMotionFile, eulerToQuat, clipBone, type MotionFile } from '../../../../../src-shared/formats/re'
import { motionDifference } from '../../../../helpers/re-motion'
import { buildStandaloneMot, buildTemplateMotlist } from '../../../../fixtures/re/template'
import { blenderLikeGlb } from '../../../../fixtures/re/blender-like'

const bytes = buildTemplateMotlist()
const file = readMotionFile(bytes)

const diff = motionDifference

const channels = (f: MotionFile, motion: number) => {
  const m = motionsOf(f)[motion]!
  return new Set(m.mot!.clips.flatMap((c) => (['translation', 'rotation', 'scale'] as const).filter((p) => c[p]).map((p) => `${clipBone(c, m.skeleton)!.name}/${p}`)))
}

describe('re import --into: animations replace mots of the original', () => {
  it('an edited motion through a Blender-like glb replaces its mot; every other byte of the original stays', async () => {
    const rotation = eulerToQuat([0.3, 0.2, -0.5])
    const edit = { motion: 2, bone: 'L_UpperArm', frame: 9, rotation }
    const g = await readGltfAnimations(await blenderLikeGlb(file, { boneDir: 'temperance', motions: [2], edit }))
    const r = importInto(file, bytes, g)
    expect(r.motions.map((m) => [m.animation, m.mot, m.motionId])).toEqual([['fixture_wave', 'fixture_wave', 162]])
    const out = readMotionFile(r.bytes)
    // the original's bytes are a prefix, except the pointer of the replaced mot: the third of the
    // table's 3 (one per MotIndex entry; entries 0 and 1 share the first mot)
    const ml = file.kind === 'motlist' ? file.motlist : null!
    expect(ml.header.numMots).toBe(3)
    const ptr = ml.header.pointersOffset + 16
    expect(Buffer.from(r.bytes.subarray(0, ptr)).equals(Buffer.from(bytes.subarray(0, ptr)))).toBe(true)
    expect(Buffer.from(r.bytes.subarray(ptr + 8, bytes.byteLength)).equals(Buffer.from(bytes.subarray(ptr + 8)))).toBe(true)
    const newAt = Number(new DataView(r.bytes.buffer, r.bytes.byteOffset).getBigUint64(ptr, true))
    expect(newAt).toBe(Math.ceil(bytes.byteLength / 16) * 16)
    // ids, names, frame rates as they were; motions 0 and 1 untouched, motion 2 the edited one
    expect(motionsOf(out).map((m) => [m.id, m.mot!.name, m.mot!.header.frameRate])).toEqual(motionsOf(file).map((m) => [m.id, m.mot!.name, m.mot!.header.frameRate]))
    expect(diff(file, 0, out, 0)).toBe(0)
    expect(diff(file, 1, out, 1)).toBe(0)
    expect(diff(file, 2, out, 2, { bone: 'L_UpperArm', frame: 9, rotation })).toBeLessThan(1e-4)
    // the channels the original animated are all there
    for (const c of channels(file, 2)) expect(channels(out, 2).has(c), c).toBe(true)
  })

  it('NAME=MOT maps an animation onto another mot; a name the original lacks is an error naming its mots', async () => {
    const g = await readGltfAnimations(await blenderLikeGlb(file, { boneDir: 'blender', motions: [2] }))
    const r = importInto(file, bytes, g, { animations: [{ name: 'fixture_wave', mot: 'fixture_idle' }] })
    expect(r.motions.map((m) => [m.mot, m.motionId])).toEqual([['fixture_idle', 155]])
    const out = readMotionFile(r.bytes)
    // entries 0 and 1 share the mot: both now play the wave; the wave's own mot is kept
    expect(diff(file, 2, out, 0)).toBeLessThan(1e-4)
    expect(diff(file, 2, out, 1)).toBeLessThan(1e-4)
    expect(diff(file, 2, out, 2)).toBe(0)
    expect(() => importInto(file, bytes, g, { animations: [{ name: 'fixture_wave', mot: 'run' }] })).toThrow(/mots: animation "fixture_wave": the original has no mot named "run"; its mots: "fixture_idle", "fixture_wave"/)
    g.animations[0]!.name = 'take1'
    expect(() => importInto(file, bytes, g, { file: 'orig.motlist.663' })).toThrow(/^orig\.motlist\.663: mots: no animation is named after a mot of the original/)
  })

  it('a standalone .mot is replaced whole, keeping its name, rate and bones', async () => {
    const motBytes = buildStandaloneMot(613)
    const mot = readMotionFile(motBytes)
    const g = await readGltfAnimations(await blenderLikeGlb(mot, { boneDir: 'arbitrary' }))
    const r = importInto(mot, motBytes, g)
    const out = readMotionFile(r.bytes)
    expect(out.kind).toBe('mot')
    expect(motionsOf(out)[0]!.mot!.name).toBe('fixture_mot')
    expect(diff(mot, 0, out, 0)).toBeLessThan(1e-4)
  })
})
