/** Free-fly camera maths: numbers worked out by hand from the conventions in fly.ts. */
import { describe, expect, it } from 'vitest'
import { FAST_FACTOR, flyFromLookAt, flyLook, flyMove, forwardOf, keysFromCodes, MAX_PITCH, rightOf, type FlyState } from '../../../../src-renderer/viewport/fly'

const at0: FlyState = { position: [0, 0, 0], yaw: 0, pitch: 0 }
const close = (a: number[], b: number[]) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i], 9))

describe('fly camera maths', () => {
  it('maps WASD/QE/arrows/Shift by physical key code', () => {
    expect(keysFromCodes(['KeyW', 'ShiftLeft'])).toEqual({ forward: true, back: false, left: false, right: false, up: false, down: false, fast: true })
    expect(keysFromCodes(['ArrowDown', 'ArrowLeft', 'KeyE'])).toMatchObject({ back: true, left: true, up: true, forward: false })
    expect(keysFromCodes(['KeyX', 'Space'])).toEqual(keysFromCodes([]))
  })

  it('looks down −Z at yaw 0, +X at yaw π/2; right is forward × up', () => {
    close(forwardOf(0, 0), [0, 0, -1])
    close(forwardOf(Math.PI / 2, 0), [1, 0, 0])
    close(forwardOf(0, Math.PI / 6), [0, 0.5, -Math.sqrt(3) / 2])
    close(rightOf(0), [1, 0, 0])
    close(rightOf(Math.PI / 2), [0, 0, 1])
  })

  it('W moves speed·dt along the view; Shift ×4; S back; D right; E/Q up/down in world Y', () => {
    close(flyMove(at0, keysFromCodes(['KeyW']), 2, 0.5).position, [0, 0, -1])
    close(flyMove(at0, keysFromCodes(['KeyW', 'ShiftRight']), 2, 0.5).position, [0, 0, -FAST_FACTOR])
    close(flyMove(at0, keysFromCodes(['KeyS']), 3, 1).position, [0, 0, 3])
    close(flyMove(at0, keysFromCodes(['KeyD']), 1, 1).position, [1, 0, 0])
    close(flyMove({ ...at0, pitch: 1 }, keysFromCodes(['KeyE']), 1, 1).position, [0, 1, 0])
    close(flyMove(at0, keysFromCodes(['KeyQ']), 1, 2).position, [0, -2, 0])
    // Looking 30° up, forward climbs: (0, sin 30°, −cos 30°) · 4.
    close(flyMove({ ...at0, pitch: Math.PI / 6 }, keysFromCodes(['KeyW']), 4, 1).position, [0, 2, -2 * Math.sqrt(3)])
  })

  it('a diagonal is not faster; opposite keys cancel; no keys, no time or no speed: no move', () => {
    const d = flyMove(at0, keysFromCodes(['KeyW', 'KeyD']), 1, 1).position
    close(d, [Math.SQRT1_2, 0, -Math.SQRT1_2])
    expect(flyMove(at0, keysFromCodes(['KeyW', 'KeyS']), 1, 1)).toBe(at0)
    expect(flyMove(at0, keysFromCodes([]), 1, 1)).toBe(at0)
    expect(flyMove(at0, keysFromCodes(['KeyW']), 1, 0)).toBe(at0)
    expect(flyMove(at0, keysFromCodes(['KeyW']), 0, 1)).toBe(at0)
  })

  it('mouse right turns right, mouse down looks down; pitch stops short of the poles; yaw wraps', () => {
    const s = flyLook(at0, 100, 50, 0.01)
    expect(s.yaw).toBeCloseTo(1, 12)
    expect(s.pitch).toBeCloseTo(-0.5, 12)
    expect(flyLook(at0, 0, -1e6, 0.01).pitch).toBe(MAX_PITCH)
    expect(flyLook(at0, 0, 1e6, 0.01).pitch).toBe(-MAX_PITCH)
    expect(flyLook({ ...at0, yaw: 3 }, 100, 0, 0.01).yaw).toBeCloseTo(4 - 2 * Math.PI, 12)
  })

  it('takes over a look-at: eye (0,0,10) → target origin is yaw 0; eye (−5,5,0) → (0,0,0) is yaw π/2, pitch −45°', () => {
    const a = flyFromLookAt([0, 0, 10], [0, 0, 0])
    expect(a.yaw).toBeCloseTo(0, 12)
    expect(a.pitch).toBeCloseTo(0, 12)
    const b = flyFromLookAt([-5, 5, 0], [0, 0, 0])
    expect(b.yaw).toBeCloseTo(Math.PI / 2, 12)
    expect(b.pitch).toBeCloseTo(-Math.PI / 4, 12)
    close(forwardOf(b.yaw, b.pitch), [Math.SQRT1_2, -Math.SQRT1_2, 0])
  })
})
