import { describe, expect, it } from 'vitest'
import { rotateBone, copyBone, pasteBone, flipRotation, gizmoScale, GIZMO_RING_DIAMETER } from '../../../../../src-renderer/components/re/pose-ops'
import { mirrorName } from '../../../../../src-shared/formats/re/pose-edit'

const S = Math.SQRT1_2
const close = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 9))
const get = (p: Float64Array, i: number) => Array.from(p.subarray(i * 4, i * 4 + 4))

describe('pose editor operations', () => {
  it('rotates a bone about its own local axis: q·R (hand-computed)', () => {
    // bone 1 starts at 90° about Y = (0, s, 0, s); R X 90 gives q·Rx(90) = (s,s,0,s)(s,0,0,s)·… by hand:
    // (0,s,0,s)·(s,0,0,s) = w: s·s − 0 = 0.5; x: s·s = 0.5; y: s·s = 0.5; z: −(s·s) = −0.5
    const pose = Float64Array.from([0, 0, 0, 1, 0, S, 0, S])
    const out = rotateBone(pose, 1, 90, 0)
    close(get(out, 1), [0.5, 0.5, -0.5, 0.5])
    close(get(out, 0), [0, 0, 0, 1])
    close(get(pose, 1), [0, S, 0, S]) // input untouched
    // −90 about local Y undoes the Y turn
    close(get(rotateBone(pose, 1, -90, 1), 1), [0, 0, 0, 1])
  })

  it('rotates about an axis of the parent frame: R·q; the axis need not be unit; a zero axis changes nothing', () => {
    const pose = Float64Array.from([0, S, 0, S])
    // Rx(90)·Ry(90) = (s,0,0,s)(0,s,0,s): w 0.5, x 0.5, y 0.5, z 0.5
    close(get(rotateBone(pose, 0, 90, [2, 0, 0]), 0), [0.5, 0.5, 0.5, 0.5])
    close(get(rotateBone(pose, 0, 90, [0, 0, 0]), 0), [0, S, 0, S])
  })

  it('mirror names: L_/R_, _L/_R, Left/Right (and none for centre bones)', () => {
    expect(mirrorName('L_UpperArm')).toBe('R_UpperArm')
    expect(mirrorName('R_Foot')).toBe('L_Foot')
    expect(mirrorName('Hand_L')).toBe('Hand_R')
    expect(mirrorName('Thigh_R')).toBe('Thigh_L')
    expect(mirrorName('LeftShoulder')).toBe('RightShoulder')
    expect(mirrorName('RightToeBase')).toBe('LeftToeBase')
    expect(mirrorName('Spine_1')).toBeNull()
    expect(mirrorName('Head')).toBeNull()
  })

  it('flip-paste reflects across X = 0: (x, −y, −z, w) when the references mirror each other', () => {
    const names = ['Hips', 'L_Arm', 'R_Arm']
    const ref = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
    const q = [0.1, 0.3, 0.5, Math.sqrt(1 - 0.35)]
    const pose = Float64Array.from([0, 0, 0, 1, ...q, 0, 0, 0, 1])
    const c = copyBone(pose, ref, names, 1)!
    expect(c.name).toBe('L_Arm')
    const r = pasteBone(pose, ref, names, c, 0, true)!
    expect(r.bone).toBe(2) // onto the mirrored bone, whatever is selected
    close(get(r.pose, 2), [q[0]!, -q[1]!, -q[2]!, q[3]!])
    close(get(r.pose, 1), q) // the source keeps its pose
    // references that are mirror images: ref_R = reflect(ref_L) → still the plain reflection of q
    const refL = [0, S, 0, S]
    const refR = [0, -S, 0, S]
    close(flipRotation({ name: 'L_Arm', rotation: q as never, reference: refL as never }, refR as never), [q[0]!, -q[1]!, -q[2]!, q[3]!])
  })

  it('plain paste copies the rotation onto the selected bone; a centre bone flip-pastes onto itself; nothing to paste onto → null', () => {
    const names = ['Hips', 'L_Arm', 'Head']
    const ref = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
    const pose = Float64Array.from([0, 0, 0, 1, 0, 0, S, S, 0, S, 0, S])
    const c = copyBone(pose, ref, names, 1)!
    close(get(pasteBone(pose, ref, names, c, 2, false)!.pose, 2), [0, 0, S, S])
    const head = copyBone(pose, ref, names, 2)!
    const r = pasteBone(pose, ref, names, head, 0, true)!
    expect(r.bone).toBe(2)
    close(get(r.pose, 2), [0, -S, 0, S])
    expect(pasteBone(pose, ref, names, c, -1, false)).toBeNull()
    expect(pasteBone(pose, ref, names, c, 0, true)).toBeNull() // R_Arm does not exist
    expect(copyBone(pose, ref, names, -1)).toBeNull()
  })

  it('gizmo size follows the skeleton: rings span 60% of the bounds radius', () => {
    // a 1.8 m figure (radius 0.9): rings 0.54 m across → scale 0.54 / 0.6 = 0.9
    expect(gizmoScale(0.9)).toBeCloseTo(0.9, 9)
    expect(gizmoScale(0.9) * GIZMO_RING_DIAMETER).toBeCloseTo(0.54, 9)
    // ten times smaller skeleton, ten times smaller gizmo
    expect(gizmoScale(0.09)).toBeCloseTo(gizmoScale(0.9) / 10, 12)
    expect(gizmoScale(0)).toBe(gizmoScale(1))
    expect(gizmoScale(Number.NaN)).toBe(gizmoScale(1))
  })
})
