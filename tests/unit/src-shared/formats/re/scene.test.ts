import { describe, expect, it } from 'vitest'
import { skeletonScene, motionFileScene, readMotionFile, motionsOf, quatAngle, eulerToQuat, writeMot, boneHash, type MotBone, type Quat } from '../../../../../src-shared/formats/re'
import { mat4Multiply, worldMatrices } from '../../../../../src-shared/scene/math'
import { validateScene } from '../../../../../src-shared/scene/validate'
import { buildTemplateMotlist, fixtureRotation } from '../../../../fixtures/re/template'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'

function bone(index: number, name: string, parent: number, t: [number, number, number], r: Quat = [0, 0, 0, 1]): MotBone {
  return { index, name, hash: index, parent, translation: t, rotation: r, storedIndex: index }
}

describe('RE skeleton → neutral scene', () => {
  it('one node per bone at its reference pose, a skin over all of them (hand-computed world positions)', () => {
    // root at origin, child 1 m up and turned 90° about Z, grandchild 1 m along the child's X
    const qz: Quat = [0, 0, Math.SQRT1_2, Math.SQRT1_2]
    const bones = [bone(0, 'root', -1, [0, 0, 0]), bone(1, 'Spine', 0, [0, 1, 0], qz), bone(2, 'Head', 1, [1, 0, 0])]
    const { scene, boneNodes } = skeletonScene(bones, 'sk')
    expect(boneNodes).toEqual([0, 1, 2])
    expect(scene.nodes.map((n) => [n.name, n.parent])).toEqual([['root', -1], ['Spine', 0], ['Head', 1]])
    const w = worldMatrices(scene.nodes)
    // Head: (0,1,0) + Rz(90°)·(1,0,0) = (0,2,0)
    expect(Array.from(w.subarray(32 + 12, 32 + 15)).map((x) => +x.toFixed(9))).toEqual([0, 2, 0])
    expect(scene.skins).toHaveLength(1)
    const s = scene.skins[0]!
    expect(s.joints).toEqual([0, 1, 2])
    expect(s.skeleton).toBe(0)
    // inverseBind · world = identity for every joint
    for (let j = 0; j < 3; j++) {
      const m = mat4Multiply(w.subarray(j * 16, j * 16 + 16), s.inverseBindMatrices.subarray(j * 16, j * 16 + 16))
      m.forEach((v, k) => expect(v).toBeCloseTo(k % 5 === 0 ? 1 : 0, 6))
    }
    expect(() => validateScene(scene)).not.toThrow()
  })

  it('reorders a bone list whose child comes before its parent, and maps bones to nodes', () => {
    const bones = [bone(0, 'Hand', 2, [0.3, 0, 0]), bone(1, 'root', -1, [0, 0, 0]), bone(2, 'Arm', 1, [0, 1, 0])]
    const { scene, boneNodes } = skeletonScene(bones)
    expect(scene.nodes.map((n) => n.name)).toEqual(['root', 'Arm', 'Hand'])
    expect(boneNodes).toEqual([2, 0, 1])
    expect(scene.nodes[boneNodes[0]!]!.parent).toBe(boneNodes[2])
    expect(scene.skins[0]!.joints).toEqual([2, 0, 1])
    expect(() => validateScene(scene)).not.toThrow()
  })

  it('names a bone whose reference pose is NaN', () => {
    expect(() => skeletonScene([bone(0, 'root', -1, [0, NaN, 0])])).toThrow(/bone 0 "root" reference pose holds NaN/)
  })
})

describe('RE motions → neutral animations', () => {
  it('one animation per motion, named after the mot, one key per frame at frame/rate, the file quaternions at key frames', () => {
    const f = readMotionFile(buildTemplateMotlist({ codecs: 'simple' }))
    const r = motionFileScene(f)
    expect(r.scene.animations.map((a) => a.name)).toEqual(['fixture_idle', 'fixture_idle [1]', 'fixture_wave'])
    const a = r.scene.animations[0]!
    expect(a.frameRate).toBe(60)
    expect(a.duration).toBeCloseTo(30 / 60, 12)
    const sk = fixtureSkeleton()
    const rot = a.channels.find((c) => c.path === 'rotation' && c.node === r.boneNodes[2])!
    expect(rot.times).toHaveLength(31)
    expect(rot.times[10]).toBeCloseTo(10 / 60, 7)
    // frame 10 is a key (keys every 5 frames): the generator's rotation, to float32
    const q = Array.from(rot.values.subarray(40, 44)) as Quat
    expect(quatAngle(q, fixtureRotation(sk[2]!.rotation, 2, 10, 'xyz'))).toBeLessThan(1e-6)
    // bones without a translation track get no translation channel
    const tNodes = a.channels.filter((c) => c.path === 'translation').map((c) => c.node)
    const m = motionsOf(f)[0]!.mot!
    expect(tNodes.length).toBe(m.clips.filter((c) => c.translation).length)
    expect(() => validateScene(r.scene)).not.toThrow()
  })

  it('picks one motion, or none', () => {
    const f = readMotionFile(buildTemplateMotlist({ codecs: 'simple' }))
    expect(motionFileScene(f, { motion: 2 }).scene.animations.map((a) => a.name)).toEqual(['fixture_wave'])
    expect(motionFileScene(f, { motion: 'none' }).scene.animations).toEqual([])
    expect(() => motionFileScene(f, { motion: 9 })).toThrow(/motion 9 does not exist; the file has 3/)
  })

  it('keeps consecutive rotation keys on one hemisphere', () => {
    // a 2-key track from +30° to +200° about Y: stored canonical (w ≥ 0) the second key flips sign
    const sk = [{ name: 'root', parent: -1, translation: [0, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as Quat }]
    const q0 = eulerToQuat([0, 0.5, 0])
    const q1 = eulerToQuat([0, 3.4, 0])
    const mot2 = writeMot({ version: 613, name: 'turn', frameCount: 2, blending: -1, frameRate: 30, bones: sk, motSize: 'end', clips: [{ boneIndex: 0, boneHash: boneHash('root'), rotation: { channel: 'rotation', compression: 0xc0000, frames: [0, 2], values: [...q0, ...q1] } }] })
    const a = motionFileScene(readMotionFile(mot2)).scene.animations[0]!
    const v = a.channels[0]!.values
    for (let k = 1; k < 3; k++) {
      const dot = v[k * 4]! * v[k * 4 - 4]! + v[k * 4 + 1]! * v[k * 4 - 3]! + v[k * 4 + 2]! * v[k * 4 - 2]! + v[k * 4 + 3]! * v[k * 4 - 1]!
      expect(dot).toBeGreaterThan(0)
    }
    expect(a.frameRate).toBe(30)
  })

  it('refuses a file without a skeleton', () => {
    const mot = writeMot({ version: 613, name: 'x', frameCount: 1, blending: -1, frameRate: 60, bones: [], clips: [], motSize: 'end' })
    expect(() => motionFileScene(readMotionFile(mot))).toThrow(/no skeleton/)
  })
})

describe('skeletonScene on a parent cycle', () => {
  it('refuses it with the bone named instead of looping', () => {
    const cyc = (index: number, name: string, parent: number): MotBone => ({ index, name, hash: boneHash(name), parent, translation: [0, 0, 0], rotation: [0, 0, 0, 1], storedIndex: index })
    expect(() => skeletonScene([cyc(0, 'a', 1), cyc(1, 'b', 0)])).toThrow(/bone 0 "a": its parent chain is a cycle/)
  })
})
