import { describe, expect, it } from 'vitest'
import { PoseHistory, mirrorName, mirrorPose, worldPose, withQuat, getQuat, eulerToQuat, quatAngle, quatMultiply, quatToMatrix3, type Quat } from '../../../../../src-shared/formats/re'
import { fixtureSkeleton } from '../../../../fixtures/re/skeleton'

const pose = (...qs: Quat[]) => Float64Array.from(qs.flat())
const I: Quat = [0, 0, 0, 1]

describe('PoseHistory', () => {
  it('undo/redo single edits; a new edit clears redo', () => {
    const h = new PoseHistory(pose(I, I))
    const a = eulerToQuat([0.5, 0, 0])
    h.apply(withQuat(h.current, 0, a))
    h.apply(withQuat(h.current, 1, a))
    expect(h.dirty).toBe(true)
    expect(h.undo()).toBe(true)
    expect(getQuat(h.current, 1)).toEqual(I)
    expect(h.redo()).toBe(true)
    expect(quatAngle(getQuat(h.current, 1), a)).toBeLessThan(1e-12)
    h.undo()
    h.apply(withQuat(h.current, 1, eulerToQuat([0, 0.3, 0])))
    expect(h.canRedo).toBe(false)
    h.undo()
    h.undo()
    expect(h.dirty).toBe(false)
    expect(h.undo()).toBe(false)
  })

  it('a drag is one step, however many updates it has', () => {
    const h = new PoseHistory(pose(I))
    h.beginDrag()
    for (let k = 1; k <= 30; k++) h.update(withQuat(h.current, 0, eulerToQuat([0.01 * k, 0, 0])))
    expect(h.canUndo).toBe(false) // not while dragging
    h.endDrag()
    expect(quatAngle(getQuat(h.current, 0), eulerToQuat([0.3, 0, 0]))).toBeLessThan(1e-9)
    h.undo()
    expect(getQuat(h.current, 0)).toEqual(I)
    expect(h.undo()).toBe(false)
    // a drag that ends where it started leaves no step
    h.beginDrag()
    h.update(withQuat(h.current, 0, eulerToQuat([0.2, 0, 0])))
    h.update(pose(I))
    h.endDrag()
    expect(h.canRedo).toBe(true) // the earlier undo is still redoable
  })

  it('markSaved clears dirty; reset clears history', () => {
    const h = new PoseHistory(pose(I))
    h.apply(pose(eulerToQuat([0, 1, 0])))
    h.markSaved()
    expect(h.dirty).toBe(false)
    h.undo()
    expect(h.dirty).toBe(true)
    h.reset(pose(I))
    expect(h.canUndo || h.canRedo || h.dirty).toBe(false)
  })
})

describe('mirroring', () => {
  it('maps side names', () => {
    expect(mirrorName('L_Hand')).toBe('R_Hand')
    expect(mirrorName('R_Toe')).toBe('L_Toe')
    expect(mirrorName('Arm_L')).toBe('Arm_R')
    expect(mirrorName('LeftFoot')).toBe('RightFoot')
    expect(mirrorName('Head')).toBeNull()
  })

  it('swaps the sides of a symmetric skeleton and is its own inverse', () => {
    const sk = fixtureSkeleton()
    const names = sk.map((b) => b.name)
    const ref = Float64Array.from(sk.flatMap((b) => b.rotation))
    let p: Float64Array = ref.slice()
    const li = names.indexOf('L_UpperArm')
    const ri = names.indexOf('R_UpperArm')
    const hi = names.indexOf('Head')
    p = withQuat(p, li, quatMultiply(getQuat(ref, li), eulerToQuat([0.3, 0.2, -0.4])))
    p = withQuat(p, hi, eulerToQuat([0.1, 0.5, 0.2]))
    const m = mirrorPose(p, ref, names)
    // the right arm gets the left arm's change, reflected: (x, −y, −z)
    expect(quatAngle(getQuat(m, ri), quatMultiply(getQuat(ref, ri), eulerToQuat([0.3, -0.2, 0.4])))).toBeLessThan(1e-9)
    // the left arm gets the right arm's (unchanged) reference
    expect(quatAngle(getQuat(m, li), getQuat(ref, li))).toBeLessThan(1e-9)
    // a centre bone turning left now turns right
    expect(quatAngle(getQuat(m, hi), eulerToQuat([0.1, -0.5, -0.2]))).toBeLessThan(1e-9)
    const back = mirrorPose(m, ref, names)
    for (let i = 0; i < names.length; i++) expect(quatAngle(getQuat(back, i), getQuat(p, i)), names[i]).toBeLessThan(1e-9)
  })
})

describe('worldPose', () => {
  it('composes parent rotation and translation (hand-computed)', () => {
    // root rotated 90° about Y, child offset (1, 0, 0) → world (0, 0, −1)
    const w = worldPose([-1, 0], [0, 0, 0, 1, 0, 0], [...eulerToQuat([0, Math.PI / 2, 0]), 0, 0, 0, 1])
    expect(Array.from(w.positions.subarray(3)).map((v) => Math.round(v * 1e9) / 1e9)).toEqual([0, 0, -1])
    expect(quatAngle(getQuat(w.rotations, 1), eulerToQuat([0, Math.PI / 2, 0]))).toBeLessThan(1e-12)
  })
  it('matches rotation matrices for arbitrary rotations', () => {
    const q = eulerToQuat([0.7, -1.1, 2.3])
    const m = quatToMatrix3(q)
    const t = [0.3, -2, 1.5]
    const w = worldPose([-1, 0], [0, 0, 0, ...t], [...q, 0, 0, 0, 1])
    const want = [0, 1, 2].map((r) => m[r]![0]! * t[0]! + m[r]![1]! * t[1]! + m[r]![2]! * t[2]!)
    Array.from(w.positions.subarray(3)).forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 12))
  })
  it('handles children listed before parents', () => {
    const w = worldPose([1, -1], [0, 2, 0, 5, 0, 0], [0, 0, 0, 1, 0, 0, 0, 1])
    expect(Array.from(w.positions)).toEqual([5, 2, 0, 5, 0, 0])
  })
  it('rejects a cycle', () => {
    expect(() => worldPose([1, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 1])).toThrow(/cycle/)
  })
})
