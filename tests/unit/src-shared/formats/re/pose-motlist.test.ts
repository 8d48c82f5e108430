import { describe, expect, it } from 'vitest'
import {
  buildPoseMotlistFromEmv,
  buildPoseMotlist,
  readMotionFile,
  readMotlist,
  sampleMot,
  eulerToQuat,
  quatAngle,
  quatCanonical,
  poseOutputName,
  motlistBaseName,
  motionsOf,
  type Quat,
} from '../../../../../src-shared/formats/re'
import { buildTemplateMotlist, buildStandaloneMot } from '../../../../fixtures/re/template'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'
import { armsDownPose, sitPose } from '../../../../fixtures/re/poses'

const sk = fixtureSkeleton()

function readBack(bytes: Uint8Array) {
  const ml = readMotlist(bytes, 'out.motlist.663')
  const s = sampleMot(ml.mots[0]!, ml.skeleton, 0)
  return { ml, byName: new Map(s.map((b) => [b.bone!, b])) }
}

describe('pose → motlist (spec §8)', () => {
  const template = readMotionFile(buildTemplateMotlist(), 'template.motlist.663')
  const pose = armsDownPose()

  it('reads back the pose to 1e-6 with the chosen Euler order', () => {
    const r = buildPoseMotlistFromEmv(template, pose)
    expect(r.version).toBe(663)
    expect(r.motVersion).toBe(613)
    const { byName } = readBack(r.bytes)
    for (const j of pose.joints) {
      if (j.name === 'ch_Hair_07') continue
      const want = eulerToQuat(j.euler!)
      const got = byName.get(j.name)!.rotation
      got.forEach((v, i) => expect(Math.abs(v - want[i]!), `${j.name}[${i}]`).toBeLessThan(1e-6))
    }
  })

  it('another order gives other rotations, each read back to 1e-6', () => {
    const r = buildPoseMotlistFromEmv(template, pose, { order: 'ZXY' })
    const { byName } = readBack(r.bytes)
    const head = pose.joints.find((j) => j.name === 'Head')!
    const got = byName.get('Head')!.rotation
    eulerToQuat(head.euler!, 'ZXY').forEach((v, i) => expect(Math.abs(got[i]! - v)).toBeLessThan(1e-6))
    expect(quatAngle(got, eulerToQuat(head.euler!, 'YXZ'))).toBeGreaterThan(0.01)
  })

  it('reports bones the skeleton lacks and ignores them', () => {
    const r = buildPoseMotlistFromEmv(template, pose)
    expect(r.unknownBones).toEqual(['ch_Hair_07'])
    expect(r.posed).toHaveLength(pose.joints.length - 1)
    const { ml } = readBack(r.bytes)
    expect(ml.skeleton!.map((b) => b.name)).not.toContain('ch_Hair_07')
  })

  it('unmentioned bones keep the bone-header reference pose, not the template motion\'s first frame', () => {
    const r = buildPoseMotlistFromEmv(template, pose)
    const { byName } = readBack(r.bytes)
    const tmplFrame0 = new Map(sampleMot(motionsOf(template)[0]!.mot!, motionsOf(template)[0]!.skeleton, 0).map((b) => [b.bone!, b]))
    for (const name of ['L_Shoulder', 'R_Thumb1', 'Spine_2', 'L_Eye']) {
      const ref = sk.find((b) => b.name === name)!
      const got = byName.get(name)!
      expect(quatAngle(got.rotation, ref.rotation), name).toBeLessThan(1e-6)
      expect(quatAngle(tmplFrame0.get(name)!.rotation, ref.rotation), `${name}: the template motion must differ for this test to mean something`).toBeGreaterThan(1e-3)
    }
  })

  it('translations and scales stay the reference ones', () => {
    const r = buildPoseMotlistFromEmv(template, sitPose())
    const { ml, byName } = readBack(r.bytes)
    for (const b of sk) {
      const got = byName.get(b.name)!
      got.translation.forEach((v, i) => expect(v).toBeCloseTo(b.translation[i]!, 6))
      expect(got.scale).toEqual([1, 1, 1])
    }
    // translation tracks only for Hip (the §10.3 vector gives the root a rotation track only)
    const tracked = ml.mots[0]!.clips.filter((c) => c.translation).map((c) => ml.skeleton![c.boneIndex]!.name)
    expect(tracked.sort()).toEqual(['Hip'])
  })

  it('usePositions writes the pose\'s _LocalPosition values', () => {
    const r = buildPoseMotlistFromEmv(template, sitPose(), { usePositions: true })
    const { byName } = readBack(r.bytes)
    byName.get('root')!.translation.forEach((v, i) => expect(v).toBeCloseTo([0, -0.45, 0.2][i]!, 6))
  })

  it('lays the file out per §8: one mot owning the bones, 2 keys at [0, F], u8 indices, 3Component, loop, 60 fps, type 1', () => {
    const r = buildPoseMotlistFromEmv(template, pose, { motNumber: 7, frames: 3 })
    const { ml } = readBack(r.bytes)
    expect(ml.mots).toHaveLength(1)
    expect(ml.entries).toEqual([expect.objectContaining({ motNumber: 7, type: 1, mot: 0 })])
    const mot = ml.mots[0]!
    expect(mot.header).toMatchObject({ motSize: 0, frameCount: 3, endFrame: 3, startFrame: 0, blending: 0, frameRate: 60, boneCount: 40, boneClipCount: 40, clipCount: 0 })
    expect(mot.ownsBones).toBe(true)
    for (const c of mot.clips) {
      expect(c.weightByte).toBe(0xff)
      expect(c.rotation!.flags).toBe(0x002c0112)
      expect([...c.rotation!.frames!]).toEqual([0, 3])
      expect(c.rotation!.unpackDataOffset).toBe(0)
      if (c.translation) expect(c.translation.flags).toBe(0x002000f2)
    }
    expect(mot.clips.map((c) => c.boneIndex)).toEqual(sk.map((_, i) => i))
    // bone headers copy the template's reference pose and hashes
    mot.bones!.forEach((b, i) => {
      expect(b.name).toBe(sk[i]!.name)
      expect(b.parent).toBe(sk[i]!.parent)
      expect(quatAngle(b.rotation, sk[i]!.rotation)).toBeLessThan(1e-6)
    })
    expect(r.bytes.byteLength).toBe(ml.header.motionIndicesOffset + 0x48)
  })

  it('writes w ≥ 0 (negated quaternions) and normalises', () => {
    const q: Quat = [0.1, -0.2, 0.3, -0.9]
    const r = buildPoseMotlist(template, { name: 'n', rotations: new Map([['Head', q.map((x) => x * 3) as Quat]]) })
    const { byName } = readBack(r.bytes)
    const got = byName.get('Head')!.rotation
    quatCanonical(q).forEach((v, i) => expect(got[i]).toBeCloseTo(v, 6))
    expect(got[3]).toBeGreaterThan(0)
  })

  it('uses the template\'s version: RE2 (85/65) writes 0xB0000 rotations and 24-byte entries', () => {
    const re2 = readMotionFile(buildTemplateMotlist({ version: 85 }))
    const r = buildPoseMotlistFromEmv(re2, pose)
    expect(r.version).toBe(85)
    const ml = readMotlist(r.bytes)
    expect(ml.mots[0]!.version).toBe(65)
    expect(ml.mots[0]!.clips[0]!.rotation!.compression).toBe(0xb0000)
    expect(r.bytes.byteLength).toBe(ml.header.motionIndicesOffset + 24)
    const hip = sampleMot(ml.mots[0]!, ml.skeleton, 0).find((b) => b.bone === 'Hip')!
    expect(quatAngle(hip.rotation, eulerToQuat([0.05, 0.2, 0]))).toBeLessThan(1e-6)
  })

  it('accepts a standalone .mot.613 template and writes a motlist 663', () => {
    const mot = readMotionFile(buildStandaloneMot(613), 'walk.mot.613')
    const r = buildPoseMotlistFromEmv(mot, pose)
    expect(r.version).toBe(663)
    expect(readMotlist(r.bytes).skeleton).toHaveLength(40)
  })

  it('refuses a template without a skeleton', () => {
    const noBones = readMotionFile(buildStandaloneMot(613, { skeleton: [] }))
    expect(() => buildPoseMotlistFromEmv(noBones, pose)).toThrow(/no skeleton/)
  })
})

describe('output names keep the template version suffix', () => {
  it.each([
    ['out/pose.motlist.663', 663, 'out/pose.motlist.663'],
    ['out/pose.motlist', 663, 'out/pose.motlist.663'],
    ['out/pose', 663, 'out/pose.motlist.663'],
    ['out/pose.motlist.85', 663, 'out/pose.motlist.663'],
    ['pose.MOTLIST.663', 85, 'pose.motlist.85'],
  ])('%s (template %d) → %s', (out, v, want) => {
    expect(poseOutputName(out, v)).toBe(want)
  })
  it('motlist base names', () => {
    expect(motlistBaseName('/a/b/cha1_wait.motlist.663')).toBe('cha1_wait')
    expect(motlistBaseName('C:\\x\\pose.motlist')).toBe('pose')
  })
})
