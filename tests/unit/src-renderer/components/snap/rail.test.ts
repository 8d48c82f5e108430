import { describe, expect, it } from 'vitest'
import { buildSnapRom, defaultStage } from '../../../../fixtures/snap/build-rom'
import { parseStage } from '../../../../../src-shared/formats/snap/stage'
import { buildStageScene } from '../../../../../src-shared/formats/snap/stage-scene'
import { cartPose } from '../../../../../src-shared/formats/snap/main-track'
import { railAt, railCamera, railFromScene } from '../../../../../src-renderer/components/snap/rail'

describe('rail camera (the Zero-One timing, §9 step 8)', () => {
  const s = defaultStage(3, 0, 2)
  const st = parseStage(buildSnapRom({ stages: { beach: s } }).image, 'beach')
  const { scene } = buildStageScene(st)
  const rail = railFromScene(scene)!
  it('advances moveTime by 0.0005 × speed factor per frame: scale X 1 → 2000 frames per block', () => {
    expect(rail.blocks).toBe(3)
    // (± one frame per block from float accumulation)
    expect(Math.abs(rail.total - 6000)).toBeLessThanOrEqual(3)
    const r2 = railFromScene(scene, 0.001)!
    expect(Math.abs(r2.total - 3000)).toBeLessThanOrEqual(3)
  })
  it('follows the game-timed cart position', () => {
    const close = (a: number[], b: number[]) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i]!, 2))
    close(railAt(rail, 0).position, cartPose(st.track[0]!, 0).position)
    const mid = railAt(rail, 2000 + 1000)
    expect(mid.block).toBe(1)
    expect(mid.moveTime).toBeCloseTo(0.5, 5)
    close(mid.position, cartPose(st.track[1]!, 0.5).position)
    close(railAt(rail, 1e9).position, cartPose(st.track[2]!, 1).position)
  })
  it('puts the eye above the rail looking forward along it', () => {
    const { eye, target } = railCamera(rail, 10)
    const p = railAt(rail, 10).position
    expect(eye[1]).toBeCloseTo(p[1] + 120, 6)
    expect(target[2]).toBeGreaterThan(eye[2])
  })
  it('is null for a scene without a track', () => {
    expect(railFromScene({ ...scene, curves: [] })).toBeNull()
    expect(railFromScene(null)).toBeNull()
  })
})
